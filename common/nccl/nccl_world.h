/* An NCCL world: one MPI rank per GPU, set up by the kit (labs 4 and 7;
 * a lab that uses it lists common/nccl/nccl_world.c in its LAB_KIT_SRCS:
 * it is not in every lab's common archive, which holds no MPI code).
 *
 * nccl_world_init() initialises MPI, binds the rank to a GPU (its rank among
 * the ranks of its host, modulo the host's GPUs), creates one NCCL
 * communicator over all ranks (rank 0 makes the unique id, MPI broadcasts
 * it) and a stream for it. The student's code (lab 4's jacobi_nccl(), lab
 * 7's fp_solve_nccl()) uses comm and stream;
 * MPI stays in the kit (nccl_world.c), so the .cu file needs no MPI header.
 * NCCL's NVLink multicast is switched off (NCCL_NVLS_ENABLE=0) before the
 * communicator exists. */
#ifndef KIT_NCCL_WORLD_H
#define KIT_NCCL_WORLD_H

#include <nccl.h>
#include <cuda_runtime.h>

#include "decomp.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int rank, size;  /* this rank and the number of ranks (= GPUs) */
    int device;      /* the CUDA device this rank uses (already current) */
    ncclComm_t comm;
    cudaStream_t stream; /* a stream on device, free for the solver to use */
} nccl_world;

/* Returns 0 on success; 2 without a GPU (after printing why and finalising
 * MPI); exits on any MPI, CUDA or NCCL error. */
int nccl_world_init(int *argc, char ***argv, nccl_world *world);
void nccl_world_finalize(nccl_world *world);

/* Rank 0 receives every rank's owned planes (part = decomp_split(N,
 * world->size, world->rank)) from its local array into u_root, the full
 * (N+2)^3 array, whose boundary planes it keeps. local is host memory. The
 * counts are in planes, so no int overflows at any N the kit accepts. */
void nccl_world_gather(const nccl_world *world, int N, const double *local, double *u_root);

/* MPI_Barrier over the world (for timing). */
void nccl_world_barrier(const nccl_world *world);

#ifdef __cplusplus
}
#endif
#endif
