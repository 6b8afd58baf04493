/* Lab 4: the 3-D Poisson problem on one GPU, then on 2 and P GPUs.
 *
 * Every solver follows lab 2's contract (common/poisson.h): on entry u and
 * u_old both hold the initial state (boundary and interior) and f holds the
 * source (POISSON_RADIATOR in the radiator, 0 elsewhere), all (N+2)^3 host
 * arrays; the solver runs Jacobi sweeps until the Frobenius norm of the
 * update is <= tol or max_iter sweeps are done (tol = 0: exactly max_iter),
 * returns the number of sweeps and leaves the answer in u. Each sweep must
 * compute every point with poisson_jacobi_point() (the kit's summation order)
 * so that the results equal the CPU reference bit for bit. u_old is scratch
 * on return. A solver that cannot run (no GPU, bad N) prints why and returns
 * -1. */
#ifndef LAB4_JACOBI_H
#define LAB4_JACOBI_H

#include "nccl/nccl_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Stage 1, jacobi_offload.c: OpenMP target offload, the arrays kept on the
 * device across sweeps. Without a GPU the target regions run on the host. */
int jacobi_offload(int N, double tol, int max_iter, const double *f, double *u, double *u_old);

/* Stage 2, jacobi_gpu.cu, on the current CUDA device:
 *   gpu1: one thread does the whole sweep (the seed's baseline);
 *   gpu2: one thread per point, f read from the device;
 *   gpu3: the optimised kernel: coalesced along x, the radiator decided in
 *         the kernel (f is never copied), size_t indexing, and the norm
 *         reduced on the GPU. */
int jacobi_gpu1(int N, double tol, int max_iter, const double *f, double *u, double *u_old);
int jacobi_gpu2(int N, double tol, int max_iter, const double *f, double *u, double *u_old);
int jacobi_gpu3(int N, double tol, int max_iter, const double *f, double *u, double *u_old);

/* Stage 3, jacobi_peer.cu: the cube split along z over devices[0] (planes
 * below) and devices[1] (planes above), common/decomp.h's split with P = 2;
 * halo planes go device to device over peer access (where
 * cudaDeviceCanAccessPeer allows it), never through the host. The two
 * devices may be the same one (tests on a 1-GPU host). Needs N >= 2. */
int jacobi_peer(int N, double tol, int max_iter, const double *f, double *u, double *u_old, const int devices[2]);

/* Stage 4, jacobi_nccl.cu: world->size ranks, one GPU each (the kit set the
 * device and the communicator up: nccl_world.h), the split of
 * common/decomp.h with P = world->size, halo planes by ncclSend/ncclRecv,
 * the norm by an all-reduce. f, u and u_old are full arrays on every rank
 * on entry; the answer must be in u on rank 0 (nccl_world_gather does that);
 * other ranks' u is unspecified on return. Every rank returns the same
 * sweep count. Needs N >= world->size. */
int jacobi_nccl(int N, double tol, int max_iter, const double *f, double *u, double *u_old, const nccl_world *world);

/* Stage 2's optimised sweep over a slab of planes, which stages 3 and 4
 * reuse: on the current device and on stream, updates local planes
 * l_begin .. l_end-1 of a part's array (local plane l is global plane
 * i_offset + l: 0 for the whole cube, part.first - 1 for a part), reading
 * u_old and writing u_new, device arrays of planes of (N+2)^2 doubles. If
 * norm2 (device memory) is not NULL, adds the squared update of those points
 * to *norm2. Asynchronous: returns after the launch. An empty slab
 * (l_end <= l_begin) launches nothing. */
void jacobi_gpu3_slab(int N, int i_offset, int l_begin, int l_end, const double *u_old, double *u_new,
                      double *norm2, cudaStream_t stream);

/* Given (lab4_timing.c): a solver reports the seconds its sweeps took, from
 * the first launch to the last synchronisation, without allocation and
 * copies; the driver prints them beside the whole call's time. */
void lab4_record_sweep_seconds(double seconds);
/* The last recorded value, or -1 if none since lab4_forget_sweep_seconds(). */
double lab4_sweep_seconds(void);
void lab4_forget_sweep_seconds(void);

#ifdef __cplusplus
}
#endif
#endif
