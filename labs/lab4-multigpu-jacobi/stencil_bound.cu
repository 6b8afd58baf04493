/* Lab 4's stencil-shaped copy (given): see stencil_bound.h.
 *
 * The access pattern is that of the fastest Jacobi kernel the kit knows
 * (the lab README's stage 2, "for the ambitious"): a block of 128 x 4
 * threads owns a tile of 128 x 8 points and walks it up through 64 planes;
 * each plane's tile, with its one-point halo, is copied into a ring of 4
 * shared-memory slots with cp.async, two planes ahead of the one in use;
 * a thread takes 2 consecutive rows of one column, so it keeps the plane
 * below and its own rows in registers. Nothing is computed but the sum:
 * what this kernel reaches is what the pattern's loads and stores allow. */
#include "copy_async.h"
#include "cuda_check.h"
#include "stencil_bound.h"
#include "poisson.h"

enum { TX = 128, TY = 4, ROWS = 2, TILE_Y = TY * ROWS, SLOTS = 4, PLANES = 64 };
enum { W = TX + 2, H = TILE_Y + 2, SLOT = W * H, PER_THREAD = (SLOT + TX * TY - 1) / (TX * TY) };

/* One plane's tile (rows j0-1 .. j0+TILE_Y, columns k0-1 .. k0+TX) into a
 * slot; what lies beyond the array is skipped (only idle threads read it). */
__device__ static void fetch(double *slot, const double *plane, int N, int j0, int k0, int tid)
{
    for (int p = 0; p < PER_THREAD; p++) {
        const int e = tid + p * TX * TY, jj = j0 - 1 + e / W, kk = k0 - 1 + e % W;
        if (e < SLOT && jj <= N + 1 && kk <= N + 1)
            copy8_async(slot + e, plane + (size_t)jj * poisson_side(N) + kk);
    }
    copies_commit();
}

__global__ static void __launch_bounds__(TX *TY, 2) stencil_copy(int N, const double *__restrict__ u_old,
                                                                 double *__restrict__ u_new)
{
    extern __shared__ double ring[]; /* SLOTS * SLOT */
    const int tid = threadIdx.y * TX + threadIdx.x, k0 = blockIdx.x * TX + 1, j0 = blockIdx.y * TILE_Y + 1;
    const int l0 = 1 + blockIdx.z * PLANES, l1 = min(l0 + PLANES, N + 1), k = k0 + threadIdx.x;
    const int y = threadIdx.y * ROWS + 1; /* the thread's first row in the tile */
    const size_t sj = poisson_side(N), si = sj * sj;
    for (int s = 0; s < SLOTS - 1; s++) /* planes l0 .. l0+2 (an empty group past l1) */
        if (l0 + s <= l1)
            fetch(ring + s * SLOT, u_old + (size_t)(l0 + s) * si, N, j0, k0, tid);
        else
            copies_commit();
    double below[ROWS], mid[ROWS];
    for (int r = 0; r < ROWS; r++) {
        const size_t c = (size_t)(j0 + y - 1 + r) * sj + k;
        const bool ok = j0 + y - 1 + r <= N + 1 && k <= N + 1;
        below[r] = ok ? u_old[(size_t)(l0 - 1) * si + c] : 0.0;
        mid[r] = ok ? u_old[(size_t)l0 * si + c] : 0.0;
    }
    for (int l = l0, s = 0; l < l1; l++, s = (s + 1) % SLOTS) {
        copies_wait<1>(); /* planes l and l+1 are in */
        __syncthreads();
        const int next = (s + SLOTS - 1) % SLOTS; /* plane l-1's slot takes plane l+3 */
        if (l + SLOTS - 1 <= l1)
            fetch(ring + next * SLOT, u_old + (size_t)(l + SLOTS - 1) * si, N, j0, k0, tid);
        else
            copies_commit();
        const double *here = ring + s * SLOT + threadIdx.x + 1, *up = ring + (s + 1) % SLOTS * SLOT + threadIdx.x + 1;
        for (int r = 0; r < ROWS; r++) {
            const int j = j0 + y - 1 + r, row = (y + r) * W;
            const double above = up[row];
            const double v = (below[r] + above + here[row - W] + here[row + W] + here[row - 1] + here[row + 1]) *
                             (1.0 / 6.0);
            if (j <= N && k <= N)
                u_new[(size_t)l * si + (size_t)j * sj + k] = v;
            below[r] = mid[r];
            mid[r] = above;
        }
    }
    copies_wait<0>();
}

extern "C" void lab4_stencil_copy_sweep(int N, const double *u_old, double *u_new, cudaStream_t stream)
{
    const size_t shared = (size_t)SLOTS * SLOT * sizeof(double);
    dim3 grid((N + TX - 1) / TX, (N + TILE_Y - 1) / TILE_Y, (N + PLANES - 1) / PLANES);
    stencil_copy<<<grid, dim3(TX, TY), shared, stream>>>(N, u_old, u_new);
    CUDA_CHECK(cudaGetLastError());
}
