/* Lab 5, stage 2: the lecture's wave_propagation kernel, fixed, and its
 * launcher, with stencil_region_cpu's region contract (wave_gpu.h).
 *
 * Fixed against the lecture: the index is x + dimx * (y + dimy * z) (the
 * lecture had y * dim.z); the Laplacian starts at coeff[0] * in[n] (it had
 * +); neighbours outside the grid in x and y count as 0 (it read past the
 * row); only planes [4, nz-4) are written; sizes and indices are size_t.
 * Faster: each thread walks a chunk of planes with the z neighbours in
 * registers. */
#include "cuda_check.h"
#include "wave_gpu.h"

__constant__ float coeff[WAVE_RADIUS + 1];

#define BLOCK_X 32
#define BLOCK_Y 8
/* planes a thread walks: its 8 set-up loads are spread over this many */
#define CHUNK_Z 16

/* in at (x + d, y) or (x, y + d) of the plane the index n is in: 0 outside
 * the grid (p: the point's x or y, dim: that axis's length, stride: 1 or
 * dimx). Read-only for the whole kernel, so through the read-only cache. */
__device__ __forceinline__ float nb(const float *in, size_t n, int p, int d, int dim, size_t stride)
{
    return p + d >= 0 && p + d < dim ? __ldg(in + (ptrdiff_t)n + (ptrdiff_t)d * (ptrdiff_t)stride) : 0.0f;
}

/* One (x, y) column from plane z_begin to z_end - 1 (z_begin >= 4, z_end +
 * 4 <= the region's planes). The 9 values of in along z that a point needs
 * ride in registers: each step loads one new plane's value instead of 8.
 * The sums are the scheme's, in its order: q[4 - i] is Behind, q[4 + i]
 * Front. */
__global__ void wave_propagation(float *next, const float *in, const float *prev, const float *vel, int dimx,
                                 int dimy, int z_begin, int z_end)
{
    int x = threadIdx.x + blockIdx.x * blockDim.x;
    int y = threadIdx.y + blockIdx.y * blockDim.y;
    int z0 = z_begin + blockIdx.z * CHUNK_Z, z1 = min(z0 + CHUNK_Z, z_end);
    if (x >= dimx || y >= dimy || z0 >= z1)
        return;
    const size_t plane = (size_t)dimx * dimy;
    size_t n = (size_t)x + (size_t)dimx * ((size_t)y + (size_t)dimy * z0);
    float q[2 * WAVE_RADIUS + 1];
#pragma unroll
    for (int k = 0; k < 2 * WAVE_RADIUS; k++)
        q[k] = __ldg(in + n + ((ptrdiff_t)k - WAVE_RADIUS) * (ptrdiff_t)plane);
    for (int z = z0; z < z1; z++, n += plane) {
        q[2 * WAVE_RADIUS] = __ldg(in + n + WAVE_RADIUS * plane);
        float lap = coeff[0] * q[WAVE_RADIUS];
#pragma unroll
        for (int i = 1; i <= WAVE_RADIUS; i++) {
            float left = nb(in, n, x, -i, dimx, 1), right = nb(in, n, x, i, dimx, 1);
            float top = nb(in, n, y, -i, dimy, dimx), bottom = nb(in, n, y, i, dimy, dimx);
            lap += coeff[i] * (((((left + right) + top) + bottom) + q[WAVE_RADIUS - i]) + q[WAVE_RADIUS + i]);
        }
        /* prev[n] is read before next[n] is written: they may be one array */
        next[n] = (__ldg(vel + n) * lap + 2.0f * q[WAVE_RADIUS]) - prev[n];
#pragma unroll
        for (int k = 0; k < 2 * WAVE_RADIUS; k++)
            q[k] = q[k + 1];
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
    dim3 grid((dimx + BLOCK_X - 1) / BLOCK_X, (dimy + BLOCK_Y - 1) / BLOCK_Y, (planes + CHUNK_Z - 1) / CHUNK_Z);
    wave_propagation<<<grid, block, 0, stream>>>(next, in, prev, vel, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS);
    CUDA_CHECK(cudaGetLastError());
}
