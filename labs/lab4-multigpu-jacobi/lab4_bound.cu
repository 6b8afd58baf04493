/* Lab 4's stencil-shaped copy (given): see lab4_bound.h. One thread per
 * interior point, blocks of BOUND_BX x BOUND_BY points of one plane, a
 * plane per grid layer: consecutive threads take consecutive x, so a
 * warp's loads and its store cover whole rows; the planes above and below
 * were (or will be) read by the blocks of the neighbouring layers and are
 * found in L2 (three planes of N = 1024 are 25 MB). Every load is
 * independent of every other, so a thread has its six loads in flight at
 * once: nothing here waits for arithmetic. */
#include "cuda_check.h"
#include "lab4_bound.h"
#include "poisson.h"

#define BOUND_BX 32
#define BOUND_BY 8

__global__ static void __launch_bounds__(BOUND_BX *BOUND_BY)
    stencil_copy(int N, const double *__restrict__ u_old, double *__restrict__ u_new)
{
    const int k = blockIdx.x * BOUND_BX + threadIdx.x + 1, j = blockIdx.y * BOUND_BY + threadIdx.y + 1;
    const int i = blockIdx.z + 1;
    if (j > N || k > N)
        return;
    const size_t sj = poisson_side(N), si = sj * sj, c = poisson_index(N, i, j, k);
    u_new[c] = (u_old[c - si] + u_old[c + si] + u_old[c - sj] + u_old[c + sj] + u_old[c - 1] + u_old[c + 1]) *
               (1.0 / 6.0);
}

extern "C" void lab4_stencil_copy_sweep(int N, const double *u_old, double *u_new, cudaStream_t stream)
{
    dim3 grid((N + BOUND_BX - 1) / BOUND_BX, (N + BOUND_BY - 1) / BOUND_BY, N);
    stencil_copy<<<grid, dim3(BOUND_BX, BOUND_BY), 0, stream>>>(N, u_old, u_new);
    CUDA_CHECK(cudaGetLastError());
}
