/* See perf_device.h. */
#include "perf_device.h"

#include <stdio.h>
#include <stdlib.h>

#include "cuda_check.h"
#include "perf_harness.h"

int perf_device_init(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1)
        return PERF_NO_DEVICE;
    CUDA_CHECK(cudaFree(0));
    return 0;
}

void perf_device_finish(void)
{
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
}

void *perf_device_alloc(size_t bytes)
{
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
}

void perf_device_put(void *device, const void *host, size_t bytes)
{
    CUDA_CHECK(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice));
}

void perf_device_get(void *host, const void *device, size_t bytes)
{
    CUDA_CHECK(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost));
}
