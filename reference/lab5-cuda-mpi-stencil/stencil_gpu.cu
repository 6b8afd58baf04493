/* Lab 5, stage 2: the wave kernel and its launcher, with stencil_region_cpu's
 * region contract (wave_gpu.h).
 *
 * Fixed against the lecture: the index is x + dimx * (y + dimy * z) (the
 * lecture had y * dim.z); the Laplacian starts at coeff[0] * in[n] (it had
 * +); neighbours outside the grid in x and y count as 0 (it read past the
 * row); only planes [4, nz-4) are written; sizes and indices are size_t.
 *
 * Faster than the lecture's one thread per point (Micikevicius, "3D finite
 * difference computation on GPUs using CUDA", 2009): a 2-D block of threads
 * covers a BLOCK_X x BLOCK_Y tile of x-y and marches along z. The current
 * plane's tile, with 4 points of halo in x and y, sits in shared memory, so
 * the 16 x-y neighbours of a point come from there; the 8 z neighbours of a
 * thread's column ride in registers (a queue shifted by one each plane). Each
 * value of in is read from global memory about once (plus the halo, mostly
 * from L2), prev and vel once, next written once: 16 B a point, the copy's
 * traffic. Where the values come from changes, the arithmetic does not: the
 * sums are the scheme's, in its order (wave.h). */
#include "cuda_check.h"
#include "wave_gpu.h"

__constant__ float coeff[WAVE_RADIUS + 1];

#ifndef BLOCK_X
#define BLOCK_X 32
#endif
#ifndef BLOCK_Y
#define BLOCK_Y 16
#endif
/* planes a block walks: enough blocks to fill the GPU, few enough that the
 * 8 planes each block reads to start its queue cost little */
#ifndef CHUNK_Z
#define CHUNK_Z 50
#endif

#define R WAVE_RADIUS
/* the halo rows are loaded by the first R rows of threads, the halo columns
 * by the first R columns */
static_assert(BLOCK_X >= R && BLOCK_Y >= R, "a block must be at least WAVE_RADIUS threads each way");

/* in at (x, y) of the plane `p` points to, 0 outside the grid */
__device__ __forceinline__ float at(const float *p, int x, int y, int dimx, int dimy)
{
    return x >= 0 && x < dimx && y >= 0 && y < dimy ? __ldg(p + x + (size_t)dimx * y) : 0.0f;
}

/* Planes [z_begin, z_end) of the region, CHUNK_Z planes a block (z_begin
 * >= 4, z_end + 4 <= the region's planes). Every thread of a block takes
 * part in the loads and barriers, those outside the grid too (their values
 * are 0); only those inside write. The next plane's values are loaded before
 * the current plane is computed, so the loads' latency overlaps the
 * arithmetic. */
__global__ void __launch_bounds__(BLOCK_X *BLOCK_Y)
    wave_propagation(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy,
                     int z_begin, int z_end)
{
    __shared__ float tile[BLOCK_Y + 2 * R][BLOCK_X + 2 * R];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = tx + blockIdx.x * BLOCK_X, y = ty + blockIdx.y * BLOCK_Y;
    const int z0 = z_begin + blockIdx.z * CHUNK_Z, z1 = min(z0 + CHUNK_Z, z_end);
    const bool inside = x < dimx && y < dimy;
    const size_t plane = (size_t)dimx * dimy;
    /* halo points this thread loads: a column on each side (tx < R), a row
     * above and below (ty < R) */
    const int hx_lo = blockIdx.x * BLOCK_X + tx - R, hx_hi = blockIdx.x * BLOCK_X + BLOCK_X + tx;
    const int hy_lo = blockIdx.y * BLOCK_Y + ty - R, hy_hi = blockIdx.y * BLOCK_Y + BLOCK_Y + ty;

    const float *pz = in + (size_t)z0 * plane; /* plane z of in */
    size_t n = (size_t)x + (size_t)dimx * ((size_t)y + (size_t)dimy * z0);
    /* q[R + k]: in at (x, y, z + k), k = -R .. R */
    float q[2 * R + 1];
#pragma unroll
    for (int k = 0; k < 2 * R + 1; k++)
        q[k] = inside ? __ldg(in + n + ((ptrdiff_t)k - R) * (ptrdiff_t)plane) : 0.0f;
    /* this thread's halo points of the plane p points to */
    float h_lo_x = 0, h_hi_x = 0, h_lo_y = 0, h_hi_y = 0;
    auto load_halo = [&](const float *p) {
        if (tx < R) {
            h_lo_x = at(p, hx_lo, y, dimx, dimy);
            h_hi_x = at(p, hx_hi, y, dimx, dimy);
        }
        if (ty < R) {
            h_lo_y = at(p, x, hy_lo, dimx, dimy);
            h_hi_y = at(p, x, hy_hi, dimx, dimy);
        }
    };
    load_halo(pz);
    float v = inside ? __ldg(vel + n) : 0.0f;
    float p = inside ? prev[n] : 0.0f;

    for (int z = z0; z < z1; z++, n += plane, pz += plane) {
        tile[ty + R][tx + R] = q[R];
        if (tx < R) {
            tile[ty + R][tx] = h_lo_x;
            tile[ty + R][tx + BLOCK_X + R] = h_hi_x;
        }
        if (ty < R) {
            tile[ty][tx + R] = h_lo_y;
            tile[ty + BLOCK_Y + R][tx + R] = h_hi_y;
        }
        __syncthreads();

        /* the next plane's loads, issued before this plane's arithmetic;
         * prev[n] of this plane is already in p, read before next[n] is
         * written (they may be one array) */
        float q_next = 0, v_next = 0, p_next = 0;
        if (z + 1 < z1) {
            if (inside) {
                q_next = __ldg(in + n + (R + 1) * plane);
                v_next = __ldg(vel + n + plane);
                p_next = prev[n + plane];
            }
            load_halo(pz + plane);
        }

        float lap = coeff[0] * q[R];
#pragma unroll
        for (int i = 1; i <= R; i++) {
            float left = tile[ty + R][tx + R - i], right = tile[ty + R][tx + R + i];
            float top = tile[ty + R - i][tx + R], bottom = tile[ty + R + i][tx + R];
            lap += coeff[i] * (((((left + right) + top) + bottom) + q[R - i]) + q[R + i]);
        }
        if (inside)
            next[n] = (v * lap + 2.0f * q[R]) - p;
        __syncthreads(); /* the tile is rewritten for the next plane */

#pragma unroll
        for (int k = 0; k < 2 * R; k++)
            q[k] = q[k + 1];
        q[2 * R] = q_next, v = v_next, p = p_next;
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
    int planes = nz - 2 * R;
    if (planes <= 0 || dimx <= 0 || dimy <= 0)
        return;
    upload_coefficients();
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((dimx + BLOCK_X - 1) / BLOCK_X, (dimy + BLOCK_Y - 1) / BLOCK_Y, (planes + CHUNK_Z - 1) / CHUNK_Z);
    wave_propagation<<<grid, block, 0, stream>>>(next, in, prev, vel, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS);
    CUDA_CHECK(cudaGetLastError());
}
