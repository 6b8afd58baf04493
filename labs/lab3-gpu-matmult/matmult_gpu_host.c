/* Lab 3: the host-array entry points of matmult_gpu.h. Given (a kit file,
 * not yours): each matmult_gpuX is your matmult_on_device with the
 * variant's matmult_gpuX_dev, so that the host side is written once. */
#include "matmult_gpu.h"

#define HOST_ENTRY_POINT(variant)                                                          \
    void variant(int m, int n, int k, const double *A, const double *B, double *C)        \
    {                                                                                      \
        matmult_on_device(variant##_dev, m, n, k, A, B, C);                                \
    }

HOST_ENTRY_POINT(matmult_gpu1)
HOST_ENTRY_POINT(matmult_gpu2)
HOST_ENTRY_POINT(matmult_gpu3)
HOST_ENTRY_POINT(matmult_gpu4)
HOST_ENTRY_POINT(matmult_gpu5)
HOST_ENTRY_POINT(matmult_gpu6)
HOST_ENTRY_POINT(matmult_gpulib)
