/* Error checks for CUDA runtime, cuBLAS and cuFFT calls.
 *
 *   CUDA_CHECK(cudaMalloc(&d, bytes));
 *   my_kernel<<<grid, block>>>(...); CUDA_CHECK_LAUNCH();
 *   CUBLAS_CHECK(cublasDgemm(...));
 *
 * On failure each prints the call as written, the library's own error text,
 * and file:line, then exits with status 1: a failed launch never hides behind
 * a result that merely looks wrong. Include from .cu files (or C files built
 * against the CUDA headers). */
#ifndef KIT_CUDA_CHECK_H
#define KIT_CUDA_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t kit_err_ = (call);                                                     \
        if (kit_err_ != cudaSuccess) {                                                     \
            fprintf(stderr, "%s:%d: CUDA error in %s: %s (%s)\n", __FILE__, __LINE__,      \
                    #call, cudaGetErrorString(kit_err_), cudaGetErrorName(kit_err_));      \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* After a kernel launch: catches a bad configuration at once and, with
 * synchronisation, a fault inside the kernel. */
#define CUDA_CHECK_LAUNCH()                                                                \
    do {                                                                                   \
        CUDA_CHECK(cudaGetLastError());                                                    \
        CUDA_CHECK(cudaDeviceSynchronize());                                               \
    } while (0)

#ifdef CUBLAS_V2_H_
static inline const char *kit_cublas_status_name(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "unknown cuBLAS status";
    }
}
#define CUBLAS_CHECK(call)                                                                 \
    do {                                                                                   \
        cublasStatus_t kit_st_ = (call);                                                   \
        if (kit_st_ != CUBLAS_STATUS_SUCCESS) {                                            \
            fprintf(stderr, "%s:%d: cuBLAS error in %s: %s\n", __FILE__, __LINE__, #call,  \
                    kit_cublas_status_name(kit_st_));                                      \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)
#endif

#ifdef _CUFFT_H_
#define CUFFT_CHECK(call)                                                                  \
    do {                                                                                   \
        cufftResult kit_fr_ = (call);                                                      \
        if (kit_fr_ != CUFFT_SUCCESS) {                                                    \
            fprintf(stderr, "%s:%d: cuFFT error in %s: code %d\n", __FILE__, __LINE__,     \
                    #call, (int)kit_fr_);                                                  \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)
#endif

#endif
