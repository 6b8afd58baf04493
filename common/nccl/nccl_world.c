/* The kit's MPI side of the NCCL stage: set-up, gather, barrier. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "nccl/nccl_world.h"

#include <stdio.h>
#include <stdlib.h>

#include "cuda_check.h"
#include "mpi_check.h"
#include "nccl_check.h"

int nccl_world_init(int *argc, char ***argv, nccl_world *world)
{
    /* NVLink multicast must stay off on the kit's GPU hosts; an explicit
     * setting by the user wins. */
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    MPI_CHECK(MPI_Init(argc, argv));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &world->rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &world->size));

    int ndev = 0;
    cudaError_t err = cudaGetDeviceCount(&ndev);
    int have_gpu = err == cudaSuccess && ndev > 0, all_have_gpu = 0;
    MPI_CHECK(MPI_Allreduce(&have_gpu, &all_have_gpu, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    if (!all_have_gpu) {
        if (world->rank == 0)
            fprintf(stderr, "error: the NCCL stage needs one GPU per rank, and %s\n",
                    have_gpu ? "another rank found none" : "this machine has none");
        MPI_Finalize();
        return 2;
    }
    /* The rank among the ranks of this host picks the GPU. */
    MPI_Comm host;
    int local_rank = 0, local_size = 1;
    MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world->rank, MPI_INFO_NULL, &host));
    MPI_CHECK(MPI_Comm_rank(host, &local_rank));
    MPI_CHECK(MPI_Comm_size(host, &local_size));
    MPI_CHECK(MPI_Comm_free(&host));
    if (local_size > ndev && world->rank == 0)
        fprintf(stderr, "warning: %d ranks share %d GPU(s) on one host; NCCL refuses two ranks on one GPU\n",
                local_size, ndev);
    world->device = local_rank % ndev;
    CUDA_CHECK(cudaSetDevice(world->device));

    ncclUniqueId id;
    if (world->rank == 0)
        NCCL_CHECK(ncclGetUniqueId(&id));
    MPI_CHECK(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
    NCCL_CHECK(ncclCommInitRank(&world->comm, world->size, id, world->rank));
    /* The world's stream carries the halo work (edge planes, NCCL's
     * kernels): at the highest priority its blocks go onto the SMs as soon
     * as any free up, instead of queueing behind the whole bulk sweep. */
    int lowest, highest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    CUDA_CHECK(cudaStreamCreateWithPriority(&world->stream, cudaStreamNonBlocking, highest));
    return 0;
}

void nccl_world_finalize(nccl_world *world)
{
    CUDA_CHECK(cudaStreamDestroy(world->stream));
    NCCL_CHECK(ncclCommDestroy(world->comm));
    MPI_CHECK(MPI_Finalize());
}

void nccl_world_gather(const nccl_world *world, int N, const double *local, double *u_root)
{
    /* One plane is the unit of every count and displacement: (N+2)^2
     * doubles fit an int for every N the kit accepts, and so do plane
     * counts, where element counts would not (N = 1290: 2.2e9). */
    MPI_Datatype plane;
    MPI_CHECK(MPI_Type_contiguous((int)decomp_plane_size(N), MPI_DOUBLE, &plane));
    MPI_CHECK(MPI_Type_commit(&plane));
    decomp_part mine = decomp_split(N, world->size, world->rank);
    int *counts = NULL, *displs = NULL;
    if (world->rank == 0) {
        counts = malloc((size_t)world->size * sizeof *counts);
        displs = malloc((size_t)world->size * sizeof *displs);
        if (!counts || !displs) {
            fprintf(stderr, "error: out of host memory for the gather's counts\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        for (int r = 0; r < world->size; r++) {
            decomp_part p = decomp_split(N, world->size, r);
            counts[r] = p.count;
            displs[r] = p.first;
        }
        decomp_gather_part(N, mine, local, u_root); /* the root's own planes */
        MPI_CHECK(MPI_Gatherv(MPI_IN_PLACE, 0, plane, u_root, counts, displs, plane, 0, MPI_COMM_WORLD));
    } else {
        MPI_CHECK(MPI_Gatherv(local + decomp_plane_size(N), mine.count, plane, NULL, NULL, NULL, plane, 0,
                              MPI_COMM_WORLD));
    }
    free(counts);
    free(displs);
    MPI_CHECK(MPI_Type_free(&plane));
}

void nccl_world_barrier(const nccl_world *world)
{
    (void)world;
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}
