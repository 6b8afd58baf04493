/* Lab 5, stage 2: the lecture's wave_propagation kernel, fixed, and its
 * launcher, with stencil_region_cpu's region contract (wave_gpu.h).
 *
 * Fixed against the lecture: the index is x + dimx * (y + dimy * z) (the
 * lecture had y * dim.z); the Laplacian starts at coeff[0] * in[n] (it had
 * +); neighbours outside the grid in x and y count as 0 (it read past the
 * row); only planes [4, nz-4) are written; sizes and indices are size_t. */
#include "cuda_check.h"
#include "wave_gpu.h"

__constant__ float coeff[WAVE_RADIUS + 1];

#define BLOCK_X 32
#define BLOCK_Y 8

/* x or y neighbour of in[n] at distance d along an axis of length dim where
 * the point sits at p; 0 outside the grid. */
__device__ __forceinline__ float nb(const float *in, size_t n, int p, int d, int dim, size_t stride)
{
    return p + d >= 0 && p + d < dim ? in[(ptrdiff_t)n + (ptrdiff_t)d * (ptrdiff_t)stride] : 0.0f;
}

/* One thread per (x, y) column; it walks the written planes of the region
 * (the grid's third dimension splits the planes into chunks). */
__global__ void wave_propagation(float *next, const float *in, const float *prev, const float *vel, int dimx,
                                 int dimy, int z_begin, int z_end)
{
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    int y = threadIdx.y + blockIdx.y * blockDim.y;
    if (x >= dimx || y >= dimy)
        return;
    size_t plane = (size_t)dimx * dimy;
    for (int z = z_begin + blockIdx.z; z < z_end; z += gridDim.z) {
        size_t n = (size_t)x + (size_t)dimx * ((size_t)y + (size_t)dimy * z);
        float lap = coeff[0] * in[n];
#pragma unroll
        for (int i = 1; i <= WAVE_RADIUS; i++) {
            float left = nb(in, n, x, -i, dimx, 1), right = nb(in, n, x, i, dimx, 1);
            float top = nb(in, n, y, -i, dimy, dimx), bottom = nb(in, n, y, i, dimy, dimx);
            float behind = in[n - i * plane], front = in[n + i * plane];
            lap += coeff[i] * (((((left + right) + top) + bottom) + behind) + front);
        }
        next[n] = (vel[n] * lap + 2.0f * in[n]) - prev[n];
    }
}

/* The coefficients go to constant memory once per process (the lecture's
 * upload_coefficients). */
static void upload_coefficients(void)
{
    static int done = 0;
    if (!done) {
        CUDA_CHECK(cudaMemcpyToSymbol(coeff, wave_coeff, sizeof wave_coeff));
        done = 1;
    }
}

extern "C" void launch_kernel(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy,
                              int nz, cudaStream_t stream)
{
    int planes = nz - 2 * WAVE_RADIUS;
    if (planes <= 0 || dimx <= 0 || dimy <= 0)
        return;
    upload_coefficients();
    dim3 block(BLOCK_X, BLOCK_Y);
    /* enough blocks in z to fill the GPU; each thread then walks
     * ceil(planes / grid.z) planes */
    dim3 grid((dimx + BLOCK_X - 1) / BLOCK_X, (dimy + BLOCK_Y - 1) / BLOCK_Y, planes < 16 ? planes : 16);
    wave_propagation<<<grid, block, 0, stream>>>(next, in, prev, vel, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS);
    CUDA_CHECK(cudaGetLastError());
}
