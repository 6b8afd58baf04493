/* Lab 4, stage 4: Jacobi on P GPUs, one MPI rank each, halo planes by NCCL
 * (reference solution).
 *
 * Rank r owns the planes of decomp_split(N, P, r) plus a halo plane on each
 * side. A sweep updates the (one or two) planes its neighbours need first,
 * on the world's stream, and exchanges them with ncclSend/ncclRecv in one
 * group on that stream, while the other planes are updated on a second
 * stream: the exchange hides behind the bulk of the sweep. The norm is an
 * ncclAllReduce, read by the host one sweep late so that the GPUs never wait
 * for it; every rank reads the same sum and stops after the same sweep. */
#include <math.h>

#include "cuda_check.h"
#include "decomp.h"
#include "jacobi.h"
#include "nccl_check.h"
#include "poisson.h"
#include "timer.h"

extern "C" int jacobi_nccl(int N, double tol, int max_iter, const double *f, double *u, double *u_old,
                           const nccl_world *world)
{
    (void)f;     /* the radiator is decided in the kernel */
    (void)u_old; /* scratch */
    if (poisson_check_size(N) || decomp_check(N, world->size))
        return -1;
    decomp_part part = decomp_split(N, world->size, world->rank);
    size_t plane = decomp_plane_size(N), bytes = decomp_local_size(N, part) * sizeof(double);
    int count = part.count, offset = part.first - 1;
    const double *mine = u + decomp_plane_offset(N, part.first - 1);
    cudaStream_t halo = world->stream, bulk;
    cudaEvent_t started, bulk_done, norm_read[2];
    double *src, *dst, *d_norm2, *h_norm2;
    CUDA_CHECK(cudaMalloc(&src, bytes));
    CUDA_CHECK(cudaMalloc(&dst, bytes));
    CUDA_CHECK(cudaMalloc(&d_norm2, 2 * sizeof(double)));
    CUDA_CHECK(cudaMallocHost(&h_norm2, 2 * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(src, mine, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dst, mine, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaDeviceSynchronize()); /* see jacobi_gpu.cu: the set-up copies must land first */
    CUDA_CHECK(cudaStreamCreateWithFlags(&bulk, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&started, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&bulk_done, cudaEventDisableTiming));
    for (int e = 0; e < 2; e++)
        CUDA_CHECK(cudaEventCreateWithFlags(&norm_read[e], cudaEventDisableTiming));

    /* The planes a neighbour reads (1 below, count above; the same plane
     * when count is 1) and the rest. */
    int edge_lo = part.below >= 0 ? 1 : 0, edge_hi = part.above >= 0 ? count : 0;
    if (edge_hi == edge_lo)
        edge_hi = 0;
    int bulk_begin = part.below >= 0 ? 2 : 1, bulk_end = part.above >= 0 ? count : count + 1;

    nccl_world_barrier(world);
    double t0 = wall_time();
    int it = 0;
    while (it < max_iter) {
        int slot = it & 1;
        double *norm2 = tol > 0 ? d_norm2 + slot : NULL;
        if (norm2)
            CUDA_CHECK(cudaMemsetAsync(norm2, 0, sizeof(double), halo));
        CUDA_CHECK(cudaEventRecord(started, halo));
        CUDA_CHECK(cudaStreamWaitEvent(bulk, started, 0));
        if (edge_lo)
            jacobi_gpu3_slab(N, offset, edge_lo, edge_lo + 1, src, dst, norm2, halo);
        if (edge_hi)
            jacobi_gpu3_slab(N, offset, edge_hi, edge_hi + 1, src, dst, norm2, halo);
        NCCL_CHECK(ncclGroupStart());
        if (part.below >= 0) { /* my plane 1 down, their top plane into my plane 0 */
            NCCL_CHECK(ncclSend(dst + plane, plane, ncclDouble, part.below, world->comm, halo));
            NCCL_CHECK(ncclRecv(dst, plane, ncclDouble, part.below, world->comm, halo));
        }
        if (part.above >= 0) { /* my plane count up, their bottom plane into count+1 */
            NCCL_CHECK(ncclSend(dst + (size_t)count * plane, plane, ncclDouble, part.above, world->comm, halo));
            NCCL_CHECK(ncclRecv(dst + (size_t)(count + 1) * plane, plane, ncclDouble, part.above, world->comm, halo));
        }
        NCCL_CHECK(ncclGroupEnd());
        jacobi_gpu3_slab(N, offset, bulk_begin, bulk_end, src, dst, norm2, bulk);
        CUDA_CHECK(cudaEventRecord(bulk_done, bulk));
        CUDA_CHECK(cudaStreamWaitEvent(halo, bulk_done, 0));
        if (norm2) {
            NCCL_CHECK(ncclAllReduce(norm2, norm2, 1, ncclDouble, ncclSum, world->comm, halo));
            CUDA_CHECK(cudaMemcpyAsync(h_norm2 + slot, norm2, sizeof(double), cudaMemcpyDeviceToHost, halo));
            CUDA_CHECK(cudaEventRecord(norm_read[slot], halo));
        }
        double *t = src;
        src = dst;
        dst = t;
        it++;
        if (norm2 && it >= 2) { /* the previous sweep's norm, summed over all ranks */
            CUDA_CHECK(cudaEventSynchronize(norm_read[slot ^ 1]));
            if (sqrt(h_norm2[slot ^ 1]) <= tol)
                break;
        }
    }
    CUDA_CHECK(cudaStreamSynchronize(halo));
    nccl_world_barrier(world);
    lab4_record_sweep_seconds(wall_time() - t0);

    /* Rank 0's u receives every rank's planes; u_old is only a staging
     * area for this rank's part. */
    double *local = u_old;
    CUDA_CHECK(cudaMemcpy(local, src, bytes, cudaMemcpyDeviceToHost));
    nccl_world_gather(world, N, local, u);

    for (int e = 0; e < 2; e++)
        CUDA_CHECK(cudaEventDestroy(norm_read[e]));
    CUDA_CHECK(cudaEventDestroy(started));
    CUDA_CHECK(cudaEventDestroy(bulk_done));
    CUDA_CHECK(cudaStreamDestroy(bulk));
    CUDA_CHECK(cudaFreeHost(h_norm2));
    CUDA_CHECK(cudaFree(d_norm2));
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    return it;
}
