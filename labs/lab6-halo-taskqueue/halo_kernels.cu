/* Lab 6, stage 5: the CUDA kernels. Yours to write (halo.h, the README's
 * stage 5):
 *   GPU_global_Write / GPU_global_Read   the baseline's pack and unpack
 *   Write_GPU_Read_GPU                    the taskqueue's one kernel: pack,
 *       __threadfence_system, __syncthreads, push the task (thread 0), wait
 *       for TQ_BIT_RECV (thread 0, then __syncthreads), unpack
 * and the extern "C" functions below, which halo_cuda_backend calls.
 * Buffers, task_list and request: cudaHostAlloc(..., cudaHostAllocMapped).
 * Every CUDA call checked (cuda_check.h); a launch must not wait for its
 * kernel (CUDA_CHECK_LAUNCH synchronizes: not for a spinning kernel). */
#include <stdio.h>

#include "cuda_check.h"
#include "halo.h"

static int not_written(const char *what)
{
    fprintf(stderr, "%s: not written yet\n", what);
    return -1;
}

extern "C" int halo_cuda_init(int rank)
{
    (void)rank; /* TODO: the GPU rank % count; check it can map host memory */
    return not_written("halo_cuda_init");
}

extern "C" void *halo_cuda_alloc_shared(size_t bytes)
{
    (void)bytes; /* TODO: mapped pinned host memory */
    not_written("halo_cuda_alloc_shared");
    return NULL;
}

extern "C" void halo_cuda_free_shared(void *p)
{
    (void)p; /* TODO */
}

extern "C" int halo_cuda_tq_init(taskqueue *tq, int num_blocks, int lockfree)
{
    (void)tq; /* TODO: task_list and request shared, lock and tail on the GPU */
    (void)num_blocks;
    (void)lockfree;
    return not_written("halo_cuda_tq_init");
}

extern "C" void halo_cuda_tq_free(taskqueue *tq)
{
    (void)tq; /* TODO */
}

extern "C" int halo_cuda_tq_fits(int blocks, int threads)
{
    (void)blocks; /* TODO: the co-residency guard (cudaOccupancyMaxActiveBlocksPerMultiprocessor) */
    (void)threads;
    return 0;
}

extern "C" int halo_cuda_launch_pack(halo_layer *L, int iteration)
{
    (void)L; /* TODO */
    (void)iteration;
    return not_written("halo_cuda_launch_pack");
}

extern "C" int halo_cuda_launch_unpack(halo_layer *L, int iteration)
{
    (void)L; /* TODO */
    (void)iteration;
    return not_written("halo_cuda_launch_unpack");
}

extern "C" int halo_cuda_launch_tq(halo_layer *L, taskqueue *tq, int iteration)
{
    (void)L; /* TODO: the guard, the device words' reset, the launch */
    (void)tq;
    (void)iteration;
    return not_written("halo_cuda_launch_tq");
}

extern "C" int halo_cuda_synchronize(void)
{
    return not_written("halo_cuda_synchronize"); /* TODO */
}
