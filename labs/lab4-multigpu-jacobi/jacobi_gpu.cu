/* Lab 4, stage 2: Jacobi on one GPU, three kernels.
 *
 *   gpu1  one thread does the whole sweep (<<<1,1>>>): the seed's baseline;
 *   gpu2  one thread per interior point, 3-D blocks, f read from the device;
 *   gpu3  your fastest kernel: threadIdx.x along x (k) so that a warp reads
 *         consecutive addresses, the radiator decided in the kernel with
 *         poisson_in_radiator() (f is never copied), size_t indices, and
 *         the norm of the update reduced on the GPU (a block reduction and
 *         one atomicAdd per block).
 *
 * Every kernel must compute a point exactly as poisson_jacobi_point() does
 * (the same additions in the same order; the lab builds with -fmad=false),
 * so that the results equal the CPU reference bit for bit. Launch enough
 * blocks to cover N that is not a multiple of the block size.
 *
 * jacobi_gpu3_slab() is the gpu3 sweep over a range of planes: stages 3
 * and 4 call it on their part of the cube (see jacobi.h). */
#include <math.h>

#include "cuda_check.h"
#include "jacobi.h"
#include "poisson.h"
#include "timer.h"

/* TODO 1: the kernels gpu1_sweep, gpu2_sweep and gpu3_sweep. Each reads
 *         u_old and writes u_new; with a non-NULL norm2 it adds the sum of
 *         (new - old)^2 over its points to *norm2. */

extern "C" void jacobi_gpu3_slab(int N, int i_offset, int l_begin, int l_end, const double *u_old, double *u_new,
                                 double *norm2, cudaStream_t stream)
{
    /* TODO 2: launch gpu3_sweep over local planes l_begin .. l_end-1 on
     *         stream; global plane i = i_offset + l decides the radiator. */
    (void)N;
    (void)i_offset;
    (void)l_begin;
    (void)l_end;
    (void)u_old;
    (void)u_new;
    (void)norm2;
    (void)stream;
}

/* TODO 3: the host side, which the three share: check that a GPU exists
 *         (cudaGetDeviceCount; print why and return -1 if not), allocate
 *         with cudaMalloc (sizes in size_t!), copy u into both device grids
 *         (the boundary must be in both) and f where the kernel reads it,
 *         sweep with a pointer swap, read the norm when tol > 0 (without
 *         making the GPU wait on every sweep, if you can), record the time
 *         of the sweeps alone with lab4_record_sweep_seconds(), copy the
 *         answer back into u, free everything. Check every CUDA call. */

extern "C" int jacobi_gpu1(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    (void)N, (void)tol, (void)max_iter, (void)f, (void)u, (void)u_old;
    fprintf(stderr, "jacobi_gpu1: not implemented yet\n");
    return -1;
}

extern "C" int jacobi_gpu2(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    (void)N, (void)tol, (void)max_iter, (void)f, (void)u, (void)u_old;
    fprintf(stderr, "jacobi_gpu2: not implemented yet\n");
    return -1;
}

extern "C" int jacobi_gpu3(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    (void)N, (void)tol, (void)max_iter, (void)f, (void)u, (void)u_old;
    fprintf(stderr, "jacobi_gpu3: not implemented yet\n");
    return -1;
}
