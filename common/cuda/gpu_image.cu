/* See gpu_image.h. Built by lab.mk with the lab's NVCCFLAGS, and told what
 * they target (KIT_CUDA_BUILT) and the lab's number (KIT_LAB). */
#include "cuda/gpu_image.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "gpu.h"

#ifndef KIT_CUDA_BUILT
#define KIT_CUDA_BUILT "the architectures nvcc was given"
#endif
#ifndef KIT_LAB
#define KIT_LAB 0
#endif

/* Its code is in the build exactly when every kernel's is: one nvcc
 * command line for every .cu of the lab. */
__global__ void gpu_image_probe(void) {}

/* The runtime's answers for "nothing here for this GPU": no cubin of its
 * architecture and no PTX it can compile (PTX newer than the driver too). */
static int no_image(cudaError_t e)
{
    return e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction ||
           e == cudaErrorUnsupportedPtxVersion || e == cudaErrorInvalidPtx || e == cudaErrorInvalidKernelImage;
}

extern "C" void gpu_image_message(char *buf, int len, const char *built, int lab, int dev, const char *name,
                                  int major, int minor)
{
    char again[32] = "this lab";
    if (lab > 0)
        snprintf(again, sizeof again, "lab%d", lab);
    snprintf(buf, (size_t)len,
             GPU_IMAGE_MISSING "%s; GPU %d is %s %s (compute capability %d.%d): run make %s again on this host, "
                               "or give CUDA_ARCH=sm_%d%d",
             built, dev, strncmp(name, "NVIDIA", 6) ? "a" : "an", name, major, minor, again, major, minor);
}

extern "C" int gpu_image_reason(char *buf, int len)
{
    int n = gpu_count_reason(buf, len), have = 0;
    /* A count forced by KIT_GPU_COUNT, or a runtime that sees other GPUs
     * than the driver (it cannot, but then the tests say what is wrong). */
    if (n <= 0 || cudaGetDeviceCount(&have) != cudaSuccess)
        return n;
    for (int d = 0; d < n && d < have; d++) {
        cudaFuncAttributes attr;
        if (cudaSetDevice(d) != cudaSuccess)
            break;
        cudaError_t e = cudaFuncGetAttributes(&attr, gpu_image_probe);
        if (!no_image(e))
            continue;
        cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, d) == cudaSuccess)
            gpu_image_message(buf, len, KIT_CUDA_BUILT, KIT_LAB, d, p.name, p.major, p.minor);
        else
            snprintf(buf, (size_t)len, GPU_IMAGE_MISSING "%s; GPU %d cannot run its code (%s)", KIT_CUDA_BUILT, d,
                     cudaGetErrorString(e));
        return d;
    }
    return n;
}
