/* Lab 5: the CUDA backend of device.h: cudaMalloc, pinned host memory,
 * two streams, and the student's launch_kernel. Rank r uses GPU r modulo
 * the GPUs there are (a 1-GPU host: every compute rank shares GPU 0). */
#include <stdio.h>
#include <stdlib.h>

#include "cuda_check.h"
#include "device.h"
#include "wave_gpu.h"

static cudaStream_t streams[DEV_STREAMS];

static cudaMemcpyKind cuda_kind(dev_copy_kind kind)
{
    return kind == DEV_H2D ? cudaMemcpyHostToDevice : kind == DEV_D2H ? cudaMemcpyDeviceToHost
                                                                     : cudaMemcpyDeviceToDevice;
}

static cudaStream_t stream_of(int stream)
{
    if (stream < 0 || stream >= DEV_STREAMS) {
        fprintf(stderr, "backend_cuda: there is no stream %d (0 .. %d)\n", stream, DEV_STREAMS - 1);
        exit(1);
    }
    return streams[stream];
}

static void cuda_init(int rank)
{
    int gpus = 0;
    CUDA_CHECK(cudaGetDeviceCount(&gpus));
    CUDA_CHECK(cudaSetDevice(rank % gpus));
    /* The boundary stream gets the device's highest priority: its small
     * kernels are on the critical path (their planes go to the neighbours),
     * and without it they queue behind the interior's blocks, which were
     * launched just after them and fill the GPU. */
    int lowest, highest;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    for (int s = 0; s < DEV_STREAMS; s++)
        CUDA_CHECK(cudaStreamCreateWithPriority(&streams[s], cudaStreamNonBlocking,
                                                s == DEV_STREAM_BOUNDARY ? highest : lowest));
}

static void cuda_finish(void)
{
    for (int s = 0; s < DEV_STREAMS; s++)
        CUDA_CHECK(cudaStreamDestroy(streams[s]));
}

static void *cuda_alloc(size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
}

static void cuda_free(void *p) { CUDA_CHECK(cudaFree(p)); }

static void *cuda_alloc_host(size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocDefault));
    return p;
}

static void cuda_free_host(void *p) { CUDA_CHECK(cudaFreeHost(p)); }
static void cuda_zero(void *p, size_t bytes)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemset(p, 0, bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* Synchronous for the pipeline's streams too: cudaMemcpy runs on the
 * legacy default stream, which the non-blocking streams do not wait for,
 * and from pageable host memory it may return before the data is on the
 * device (lab 4 met that race). So wait for the device before and after. */
static void cuda_memcpy(void *dst, const void *src, size_t bytes, dev_copy_kind kind)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(dst, src, bytes, cuda_kind(kind)));
    CUDA_CHECK(cudaDeviceSynchronize());
}

static void cuda_memcpy_async(void *dst, const void *src, size_t bytes, dev_copy_kind kind, int stream)
{
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cuda_kind(kind), stream_of(stream)));
}

static void cuda_launch(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy,
                        int nz, int stream)
{
    launch_kernel(next, in, prev, vel, dimx, dimy, nz, stream_of(stream));
}

extern "C" void *dev_cuda_stream(int stream) { return (void *)stream_of(stream); }

extern "C" size_t dev_cuda_l2_bytes(void)
{
    int dev, bytes = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, dev));
    return (size_t)bytes;
}

static void cuda_stream_sync(int stream) { CUDA_CHECK(cudaStreamSynchronize(stream_of(stream))); }
static void cuda_sync(void) { CUDA_CHECK(cudaDeviceSynchronize()); }

static const dev_backend backend = {
    "cuda",     cuda_init,   cuda_finish,       cuda_alloc,  cuda_free,        cuda_alloc_host, cuda_free_host,
    cuda_zero,  cuda_memcpy, cuda_memcpy_async, cuda_launch, cuda_stream_sync, cuda_sync,
};

extern "C" const dev_backend *dev_cuda(void) { return &backend; }
