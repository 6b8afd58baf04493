/* Lab 4, stage 3: Jacobi on two GPUs of one host, split along z, halo
 * planes copied device to device (reference solution).
 *
 * Each device owns its half of the planes (common/decomp.h, P = 2) plus one
 * halo plane towards the other. A sweep first updates the one plane the
 * other device needs, on a "halo" stream, and copies it over peer access
 * into the other device's halo plane, while the rest of the half is updated
 * on a second stream; the sweep ends when both devices are done, because the
 * next sweep reads what this one wrote on both sides. */
#include <math.h>

#include "cuda_check.h"
#include "decomp.h"
#include "jacobi.h"
#include "poisson.h"
#include "timer.h"

typedef struct {
    int device;
    decomp_part part;
    double *src, *dst;     /* local arrays of part.count + 2 planes */
    double *norm2;         /* device: this sweep's squared update norm */
    cudaStream_t halo, bulk;
    cudaEvent_t started, bulk_done;
} gpu_half;

/* Lets each device read and write the other's memory directly (NVLink or
 * PCIe peer to peer) where the hardware allows; elsewhere the peer copies
 * still work, staged by the driver. */
static void enable_peer_access(const int devices[2])
{
    if (devices[0] == devices[1])
        return;
    for (int d = 0; d < 2; d++) {
        int can = 0;
        CUDA_CHECK(cudaDeviceCanAccessPeer(&can, devices[d], devices[1 - d]));
        if (!can) {
            fprintf(stderr, "note: GPU %d cannot access GPU %d directly; halo copies go through the host\n",
                    devices[d], devices[1 - d]);
            continue;
        }
        CUDA_CHECK(cudaSetDevice(devices[d]));
        cudaError_t err = cudaDeviceEnablePeerAccess(devices[1 - d], 0);
        if (err == cudaErrorPeerAccessAlreadyEnabled)
            cudaGetLastError(); /* enabled by an earlier call: fine */
        else
            CUDA_CHECK(err);
    }
}

extern "C" int jacobi_peer(int N, double tol, int max_iter, const double *f, double *u, double *u_old,
                           const int devices[2])
{
    (void)f;     /* the radiator is decided in the kernel */
    (void)u_old; /* the answer is copied out of whichever buffers hold it */
    int ndev = 0;
    if (poisson_check_size(N) || decomp_check(N, 2))
        return -1;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        cudaGetLastError();
        fprintf(stderr, "error: jacobi_peer needs a CUDA GPU and this machine has none\n");
        return -1;
    }
    for (int d = 0; d < 2; d++)
        if (devices[d] < 0 || devices[d] >= ndev) {
            fprintf(stderr, "error: jacobi_peer: there is no GPU %d (this machine has %d)\n", devices[d], ndev);
            return -1;
        }
    enable_peer_access(devices);

    size_t plane_bytes = decomp_plane_size(N) * sizeof(double);
    gpu_half h[2];
    double *h_norm2;
    CUDA_CHECK(cudaMallocHost(&h_norm2, 2 * sizeof(double)));
    for (int p = 0; p < 2; p++) {
        h[p].device = devices[p];
        h[p].part = decomp_split(N, 2, p);
        size_t bytes = decomp_local_size(N, h[p].part) * sizeof(double);
        const double *mine = u + decomp_plane_offset(N, h[p].part.first - 1);
        CUDA_CHECK(cudaSetDevice(h[p].device));
        CUDA_CHECK(cudaMalloc(&h[p].src, bytes));
        CUDA_CHECK(cudaMalloc(&h[p].dst, bytes));
        CUDA_CHECK(cudaMalloc(&h[p].norm2, sizeof(double)));
        CUDA_CHECK(cudaMemcpy(h[p].src, mine, bytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(h[p].dst, mine, bytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaDeviceSynchronize()); /* see jacobi_gpu.cu: the set-up copies must land first */
        CUDA_CHECK(cudaStreamCreateWithFlags(&h[p].halo, cudaStreamNonBlocking));
        CUDA_CHECK(cudaStreamCreateWithFlags(&h[p].bulk, cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&h[p].started, cudaEventDisableTiming));
        CUDA_CHECK(cudaEventCreateWithFlags(&h[p].bulk_done, cudaEventDisableTiming));
    }

    double t0 = wall_time();
    int it = 0;
    while (it < max_iter) {
        for (int p = 0; p < 2; p++) {
            gpu_half *me = &h[p], *other = &h[1 - p];
            int count = me->part.count, offset = me->part.first - 1;
            /* the plane the other half reads: half 0's top, half 1's bottom */
            int edge = p == 0 ? count : 1;
            int bulk_begin = p == 0 ? 1 : 2, bulk_end = p == 0 ? count : count + 1;
            double *norm2 = tol > 0 ? me->norm2 : NULL;
            CUDA_CHECK(cudaSetDevice(me->device));
            if (norm2)
                CUDA_CHECK(cudaMemsetAsync(norm2, 0, sizeof(double), me->halo));
            CUDA_CHECK(cudaEventRecord(me->started, me->halo));
            CUDA_CHECK(cudaStreamWaitEvent(me->bulk, me->started, 0));
            jacobi_gpu3_slab(N, offset, edge, edge + 1, me->src, me->dst, norm2, me->halo);
            /* into the other half's halo plane: its plane 0 (for half 1) or
             * its plane count+1 (for half 0) */
            size_t to = p == 0 ? 0 : (size_t)other->part.count + 1;
            CUDA_CHECK(cudaMemcpyPeerAsync(other->dst + to * decomp_plane_size(N), other->device,
                                           me->dst + (size_t)edge * decomp_plane_size(N), me->device, plane_bytes,
                                           me->halo));
            jacobi_gpu3_slab(N, offset, bulk_begin, bulk_end, me->src, me->dst, norm2, me->bulk);
            CUDA_CHECK(cudaEventRecord(me->bulk_done, me->bulk));
            CUDA_CHECK(cudaStreamWaitEvent(me->halo, me->bulk_done, 0));
            if (norm2)
                CUDA_CHECK(cudaMemcpyAsync(h_norm2 + p, norm2, sizeof(double), cudaMemcpyDeviceToHost, me->halo));
        }
        for (int p = 0; p < 2; p++) {
            CUDA_CHECK(cudaSetDevice(h[p].device));
            CUDA_CHECK(cudaStreamSynchronize(h[p].halo));
        }
        for (int p = 0; p < 2; p++) {
            double *t = h[p].src;
            h[p].src = h[p].dst;
            h[p].dst = t;
        }
        it++;
        if (tol > 0 && sqrt(h_norm2[0] + h_norm2[1]) <= tol)
            break;
    }
    lab4_record_sweep_seconds(wall_time() - t0);

    for (int p = 0; p < 2; p++) {
        CUDA_CHECK(cudaSetDevice(h[p].device));
        CUDA_CHECK(cudaMemcpy(u + decomp_plane_offset(N, h[p].part.first), h[p].src + decomp_plane_size(N),
                              (size_t)h[p].part.count * plane_bytes, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaEventDestroy(h[p].started));
        CUDA_CHECK(cudaEventDestroy(h[p].bulk_done));
        CUDA_CHECK(cudaStreamDestroy(h[p].halo));
        CUDA_CHECK(cudaStreamDestroy(h[p].bulk));
        CUDA_CHECK(cudaFree(h[p].norm2));
        CUDA_CHECK(cudaFree(h[p].src));
        CUDA_CHECK(cudaFree(h[p].dst));
    }
    CUDA_CHECK(cudaFreeHost(h_norm2));
    return it;
}
