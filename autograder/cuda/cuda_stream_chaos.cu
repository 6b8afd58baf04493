/* The CUDA stream perturber of chaos schedules (the contract is
 * autograder/runner/chaos.h's). While AG_CHAOS_SEED is set, a share of the
 * copies, sets and kernel launches that the program enqueues on a stream
 * get a short sleeping kernel in front of them on that same stream: the
 * operation starts 20 to 200 us late, so that a missing stream or event
 * wait, which a quiet GPU hides because the work it should wait for is
 * already done, shows. The share and each delay are drawn from the seed
 * (and the MPI rank), so a seed replays the same choices.
 *
 * Within CUDA's guarantees: work added on an operation's own stream, ahead
 * of it, delays it and what follows on that stream, and changes no order
 * that the program asked for (stream order, events, synchronisation). A
 * correct program gets the same answer under every seed.
 *
 * Linked with ld --wrap (cuda_tests.mk): each reference to a wrapped call
 * in the program's objects (the student's, nvcc's launch stubs in them,
 * the kit's) comes here first and goes on to the runtime unchanged. The
 * libraries' own calls inside libcublas, libcufft, libnccl are not seen.
 * Outside chaos the wrappers only pass the call on. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "../runner/chaos_seed.h"
#include "random.h"

/* Spins for ns nanoseconds of the GPU's global timer. One thread: it
 * takes a sliver of one SM, so other streams' work runs beside it. */
__global__ void chaos_sleep_kernel(unsigned long long ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        __nanosleep(1000);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}

/* A well-mixed 64-bit value from a counter: what the kit's SplitMix64
 * generator (common/random.h) gives next from state x. */
static uint64_t mix(uint64_t x)
{
    kit_rng r = kit_rng_seed(x);
    return kit_rng_next(&r);
}

static int state_read;
static uint64_t rank_seed; /* 0: not under chaos */
static unsigned share_quarters;
static uint64_t ops; /* the operations seen, the draws' counter */
static __thread int inside; /* our own sleeping kernel's launch */

/* Read once, in the first wrapped call. The seed is the runner's (a
 * non-zero decimal below 2^32); anything else set there is a bug of
 * whoever set it, said once and treated as no chaos. */
static void read_state(void)
{
    const char *text = getenv("AG_CHAOS_SEED");
    if (text && *text) {
        unsigned long seed;
        if (!ag_chaos_seed_from_text(text, &seed)) {
            fprintf(stderr, "cuda_stream_chaos: AG_CHAOS_SEED=%s is not a non-zero decimal below 2^32; "
                            "the streams are not perturbed\n", text);
        } else {
            /* each rank of an MPI run its own draws, all from the seed */
            const char *rank = getenv("OMPI_COMM_WORLD_RANK");
            if (!rank)
                rank = getenv("PMIX_RANK");
            rank_seed = mix(seed ^ ((uint64_t)(rank ? strtoul(rank, NULL, 10) : 0) << 32));
            if (!rank_seed)
                rank_seed = 1;
            /* a quarter, half or three quarters of the operations */
            share_quarters = 1 + (unsigned)(mix(seed) % 3);
        }
    }
    __atomic_store_n(&state_read, 1, __ATOMIC_RELEASE);
}

/* The delay in ns to put before the next operation, or 0. */
static unsigned long long draw_delay(void)
{
    if (!__atomic_load_n(&state_read, __ATOMIC_ACQUIRE))
        read_state();
    if (!rank_seed || inside)
        return 0;
    uint64_t x = mix(rank_seed + __atomic_fetch_add(&ops, 1, __ATOMIC_RELAXED));
    if ((x & 3) >= share_quarters)
        return 0;
    return (20 + (x >> 8) % 181) * 1000ull;
}

/* A query of ours that failed leaves the program's own last error as it
 * was: cleared only when there was none before. */
static void restore_last_error(cudaError_t before)
{
    if (before == cudaSuccess)
        (void)cudaGetLastError();
}

/* The sleeping kernel ahead of the operation on stream, where that is
 * safe: the stream is the current device's (a kernel can only be launched
 * there) and is not being captured into a graph (the sleep would become
 * part of the student's graph). A stream or device that does not answer
 * is left alone: the operation itself reports what is wrong with it. */
static void maybe_sleep_before(cudaStream_t stream)
{
    unsigned long long ns = draw_delay();
    if (!ns)
        return;
    cudaError_t before = cudaPeekAtLastError();
    int current = -1, device = -1;
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (cudaGetDevice(&current) != cudaSuccess || cudaStreamGetDevice(stream, &device) != cudaSuccess ||
        device != current || cudaStreamIsCapturing(stream, &capture) != cudaSuccess ||
        capture != cudaStreamCaptureStatusNone) {
        restore_last_error(before);
        return;
    }
    inside = 1;
    chaos_sleep_kernel<<<1, 1, 0, stream>>>(ns);
    inside = 0;
    if (cudaPeekAtLastError() != cudaSuccess)
        restore_last_error(before);
}

extern "C" {

cudaError_t __real_cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                    cudaStream_t stream);
cudaError_t __wrap_cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                    cudaStream_t stream)
{
    maybe_sleep_before(stream);
    return __real_cudaLaunchKernel(func, grid, block, args, shared, stream);
}

cudaError_t __real_cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
cudaError_t __wrap_cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    if (config)
        maybe_sleep_before(config->stream);
    return __real_cudaLaunchKernelExC(config, func, args);
}

/* CUDA 13's <<<>>>: nvcc's stub calls __cudaLaunchKernel (crt/host_runtime.h). */
#if CUDART_VERSION >= 13000
cudaError_t __real___cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shared,
                                      cudaStream_t stream);
cudaError_t __wrap___cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shared,
                                      cudaStream_t stream)
{
    maybe_sleep_before(stream);
    return __real___cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}
#endif

cudaError_t __real_cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                   cudaStream_t stream);
cudaError_t __wrap_cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                   cudaStream_t stream)
{
    maybe_sleep_before(stream);
    return __real_cudaMemcpyAsync(dst, src, count, kind, stream);
}

cudaError_t __real_cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                     size_t height, enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t __wrap_cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                     size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    maybe_sleep_before(stream);
    return __real_cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream);
}

cudaError_t __real_cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
cudaError_t __wrap_cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    maybe_sleep_before(stream);
    return __real_cudaMemcpy3DAsync(p, stream);
}

cudaError_t __real_cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device, size_t count,
                                       cudaStream_t stream);
cudaError_t __wrap_cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device, size_t count,
                                       cudaStream_t stream)
{
    maybe_sleep_before(stream);
    return __real_cudaMemcpyPeerAsync(dst, dst_device, src, src_device, count, stream);
}

cudaError_t __real_cudaMemsetAsync(void *p, int value, size_t count, cudaStream_t stream);
cudaError_t __wrap_cudaMemsetAsync(void *p, int value, size_t count, cudaStream_t stream)
{
    maybe_sleep_before(stream);
    return __real_cudaMemsetAsync(p, value, count, stream);
}

cudaError_t __real_cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width, size_t height,
                                     cudaStream_t stream);
cudaError_t __wrap_cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width, size_t height,
                                     cudaStream_t stream)
{
    maybe_sleep_before(stream);
    return __real_cudaMemset2DAsync(p, pitch, value, width, height, stream);
}

} /* extern "C" */
