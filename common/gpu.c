#define _POSIX_C_SOURCE 200809L
#include "gpu.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* The two driver-API entry points we need, declared by hand so that this
 * file compiles without the CUDA headers. Both return CUresult (0 = success). */
typedef int (*cu_init_fn)(unsigned int flags);
typedef int (*cu_device_get_count_fn)(int *count);

int gpu_count_reason(char *buf, int len)
{
    const char *forced = getenv("KIT_GPU_COUNT");
    if (forced && *forced) {
        int n = atoi(forced);
        snprintf(buf, (size_t)len, "KIT_GPU_COUNT=%s set in the environment", forced);
        return n < 0 ? 0 : n;
    }
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(buf, (size_t)len, "no NVIDIA driver (libcuda.so.1 not found)");
        return 0;
    }
    cu_init_fn cu_init = (cu_init_fn)dlsym(lib, "cuInit");
    cu_device_get_count_fn cu_count = (cu_device_get_count_fn)dlsym(lib, "cuDeviceGetCount");
    int n = 0;
    int rc = cu_init && cu_count ? cu_init(0) : -1;
    if (rc != 0) {
        snprintf(buf, (size_t)len, "the NVIDIA driver found no usable GPU (cuInit returned %d)", rc);
        return 0;
    }
    if (cu_count(&n) != 0 || n <= 0) {
        snprintf(buf, (size_t)len, "the NVIDIA driver reports no GPU");
        return 0;
    }
    snprintf(buf, (size_t)len, "%d GPU(s) found", n);
    return n;
}

int gpu_count(void)
{
    char reason[160];
    return gpu_count_reason(reason, (int)sizeof reason);
}
