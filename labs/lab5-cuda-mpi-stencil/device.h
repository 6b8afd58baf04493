/* Lab 5: the small device backend that stage 5's pipeline is written
 * against, so that the same compute_process runs
 *   - on the CPU (dev_cpu, backend_cpu.c): "device" memory is host memory,
 *     every call is synchronous, the kernel is stencil_region_cpu. CI runs
 *     the whole pipeline with it;
 *   - on a GPU (dev_cuda(), backend_cuda.cu): cudaMalloc, cudaMemcpyAsync on
 *     two streams, pinned host memory, the kernel is launch_kernel;
 *   - under the tests' logging backend, which logs every call to check
 *     the order of the overlapped pipeline.
 *
 * The calls map one to one onto the lecture's CUDA calls:
 *   dev_alloc          cudaMalloc                 dev_free       cudaFree
 *   dev_alloc_host     cudaHostAlloc (pinned)     dev_free_host  cudaFreeHost
 *   dev_zero           cudaMemset(p, 0, bytes)    (synchronous)
 *   dev_memcpy         cudaMemcpy                 (synchronous)
 *   dev_memcpy_async   cudaMemcpyAsync(..., stream)
 *   dev_launch         launch_kernel(..., stream) (the stencil on a region)
 *   dev_stream_sync    cudaStreamSynchronize(stream)
 *   dev_sync           cudaDeviceSynchronize()
 * Streams are numbered: DEV_STREAM_BOUNDARY (the lecture's stream0) and
 * DEV_STREAM_INTERIOR (stream1). Every failure prints the call and exits.
 *
 * Fresh memory from dev_alloc and dev_alloc_host is garbage, as on a GPU:
 * the CPU backend fills it with NaN so that a value never written shows. */
#ifndef LAB5_DEVICE_H
#define LAB5_DEVICE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { DEV_H2D, DEV_D2H, DEV_D2D } dev_copy_kind;

enum { DEV_STREAM_BOUNDARY = 0, DEV_STREAM_INTERIOR = 1, DEV_STREAMS = 2 };

typedef struct dev_backend {
    const char *name;
    /* Before anything else on this rank: picks the device (rank modulo the
     * GPUs there are) and makes the streams. finish releases them. */
    void (*init)(int rank);
    void (*finish)(void);
    void *(*alloc)(size_t bytes);
    void (*free)(void *p);
    void *(*alloc_host)(size_t bytes);
    void (*free_host)(void *p);
    void (*zero)(void *p, size_t bytes);
    void (*memcpy)(void *dst, const void *src, size_t bytes, dev_copy_kind kind);
    void (*memcpy_async)(void *dst, const void *src, size_t bytes, dev_copy_kind kind, int stream);
    /* stencil_region_cpu's contract on device arrays, enqueued on stream */
    void (*launch)(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy, int nz,
                   int stream);
    void (*stream_sync)(int stream);
    void (*sync)(void);
} dev_backend;

/* backend_cpu.c */
extern const dev_backend dev_cpu;
/* backend_cuda.cu: the CUDA backend (its calls exit with a message where
 * there is no GPU). */
const dev_backend *dev_cuda(void);
/* For the benchmark (lab5_bench.c), which times each phase by CUDA events
 * recorded on the stream it runs on: the cudaStream_t behind a stream
 * number of the CUDA backend (after init). */
void *dev_cuda_stream(int stream);
/* The L2 cache of the rank's GPU, in bytes (after init): a kernel whose
 * arrays fit in it is not bound by the copy bandwidth of device memory. */
size_t dev_cuda_l2_bytes(void);

static inline void *dev_alloc(const dev_backend *d, size_t bytes) { return d->alloc(bytes); }
static inline void dev_free(const dev_backend *d, void *p) { d->free(p); }
static inline void *dev_alloc_host(const dev_backend *d, size_t bytes) { return d->alloc_host(bytes); }
static inline void dev_free_host(const dev_backend *d, void *p) { d->free_host(p); }
static inline void dev_zero(const dev_backend *d, void *p, size_t bytes) { d->zero(p, bytes); }
static inline void dev_memcpy(const dev_backend *d, void *dst, const void *src, size_t bytes, dev_copy_kind kind)
{
    d->memcpy(dst, src, bytes, kind);
}
static inline void dev_memcpy_async(const dev_backend *d, void *dst, const void *src, size_t bytes,
                                    dev_copy_kind kind, int stream)
{
    d->memcpy_async(dst, src, bytes, kind, stream);
}
static inline void dev_launch(const dev_backend *d, float *next, const float *in, const float *prev,
                              const float *vel, int dimx, int dimy, int nz, int stream)
{
    d->launch(next, in, prev, vel, dimx, dimy, nz, stream);
}
static inline void dev_stream_sync(const dev_backend *d, int stream) { d->stream_sync(stream); }
static inline void dev_sync(const dev_backend *d) { d->sync(); }

#ifdef __cplusplus
}
#endif
#endif
