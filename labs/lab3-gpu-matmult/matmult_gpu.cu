/* Lab 3: matrix multiplication on the GPU. This is your file: implement
 * every function declared in matmult_gpu.h (read it first: the contract and
 * the launch-geometry functions are explained there). README.md in this
 * folder is the assignment.
 *
 *   make lab3 && make check                      build and run the tests
 *   ./build/lab3/matmult_gpu gpu2 1024 1024 1024
 *   MATMULT_SPLIT=1 ./build/lab3/matmult_gpu gpu5 2048 2048 2048
 *
 * Check every CUDA and cuBLAS call: CUDA_CHECK(call), CUBLAS_CHECK(call),
 * and CUDA_CHECK_LAUNCH() right after each kernel launch. */
#include <cublas_v2.h>

#include "cuda_check.h"
#include "matmult_gpu.h"

/* TODO(lab3.host): the host side that every variant shares (the given
 * matmult_gpu_host.c calls it with each matmult_gpuX_dev). Allocate dA,
 * dB and dC on the device, copy A and B in, call product(m, n, k, dA, dB,
 * dC), copy C back and free all three. Byte counts are size_t: an int
 * m * n * sizeof(double) overflows at m = n = 16384. */
extern "C" void matmult_on_device(mm_device_product product, int m, int n, int k, const double *A, const double *B,
                                  double *C)
{
    (void)product, (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

/* ---- gpu1: one thread for all of C ---------------------------------------- */

/* TODO(lab3.gpu1): a kernel launched as <<<1, 1>>> whose one thread computes
 * every C[i][j]. Sum in a local variable (a register) and store C[i][j]
 * once: accumulating in C itself costs a load and a store of global memory
 * per multiply-add. */
extern "C" void matmult_gpu1_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    (void)m, (void)n, (void)k, (void)dA, (void)dB, (void)dC;
}

/* ---- gpu2: one thread per element ----------------------------------------- */

/* TODO(lab3.gpu2): blocks of 16 x 16 threads, x along the columns of C.
 * The grid must cover all of C when m and n are not multiples of 16, and
 * threads that fall outside C must do nothing. */
extern "C" mm_launch matmult_gpu2_launch(int m, int n)
{
    (void)m, (void)n;
    mm_launch L = {{0, 0, 0}, {0, 0, 0}};
    return L;
}

extern "C" MM_HOST_DEVICE mm_elements matmult_gpu2_elements(mm_dim3 b, mm_dim3 t, mm_dim3 bdim)
{
    (void)b, (void)t, (void)bdim;
    mm_elements e = {0, 0, 0, 0, 0};
    return e;
}

extern "C" void matmult_gpu2_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    /* mm_launch L = matmult_gpu2_launch(m, n);
     * gpu2_kernel<<<cuda_dim(L.grid), cuda_dim(L.block)>>>(...); CUDA_CHECK_LAUNCH();
     * and in the kernel:
     * mm_elements e = matmult_gpu2_elements(mm_dim(blockIdx), mm_dim(threadIdx), mm_dim(blockDim)); */
    (void)m, (void)n, (void)k, (void)dA, (void)dB, (void)dC;
}

/* ---- gpu3: two elements per thread ---------------------------------------- */

/* TODO(lab3.gpu3): each thread computes two elements of C, neighbours along
 * a row or along a column: try both, keep the faster, and say why in your
 * report. The grid shrinks by two along that axis only. */
extern "C" mm_launch matmult_gpu3_launch(int m, int n)
{
    (void)m, (void)n;
    mm_launch L = {{0, 0, 0}, {0, 0, 0}};
    return L;
}

extern "C" MM_HOST_DEVICE mm_elements matmult_gpu3_elements(mm_dim3 b, mm_dim3 t, mm_dim3 bdim)
{
    (void)b, (void)t, (void)bdim;
    mm_elements e = {0, 0, 0, 0, 0};
    return e;
}

extern "C" void matmult_gpu3_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    (void)m, (void)n, (void)k, (void)dA, (void)dB, (void)dC;
}

/* ---- gpu4: several elements per thread ------------------------------------ */

/* TODO(lab3.gpu4): GPU4_ELEMENTS elements per thread, placed as in gpu3.
 * Keep it a compile-time constant (so the sums can live in registers) and
 * tune it: make bench LAB=3 rebuilds with -DGPU4_ELEMENTS=2,4,8,16. */
#ifndef GPU4_ELEMENTS
#define GPU4_ELEMENTS 4
#endif

extern "C" mm_launch matmult_gpu4_launch(int m, int n)
{
    (void)m, (void)n;
    mm_launch L = {{0, 0, 0}, {0, 0, 0}};
    return L;
}

extern "C" MM_HOST_DEVICE mm_elements matmult_gpu4_elements(mm_dim3 b, mm_dim3 t, mm_dim3 bdim)
{
    (void)b, (void)t, (void)bdim;
    mm_elements e = {0, 0, 0, 0, 0};
    return e;
}

extern "C" void matmult_gpu4_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    (void)m, (void)n, (void)k, (void)dA, (void)dB, (void)dC;
}

/* ---- gpu5: shared-memory tiles -------------------------------------------- */

/* TODO(lab3.gpu5): the shared-memory kernel of the CUDA C Programming Guide
 * (16 x 16 tiles), one element per thread, for ANY m, n, k: the Guide's
 * version needs multiples of 16. Pad the tiles that stick out of A or B
 * with zeros, and mind where each __syncthreads() must go. */
extern "C" mm_launch matmult_gpu5_launch(int m, int n)
{
    (void)m, (void)n;
    mm_launch L = {{0, 0, 0}, {0, 0, 0}};
    return L;
}

extern "C" MM_HOST_DEVICE mm_elements matmult_gpu5_elements(mm_dim3 b, mm_dim3 t, mm_dim3 bdim)
{
    (void)b, (void)t, (void)bdim;
    mm_elements e = {0, 0, 0, 0, 0};
    return e;
}

extern "C" void matmult_gpu5_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    (void)m, (void)n, (void)k, (void)dA, (void)dB, (void)dC;
}

/* ---- gpulib: cuBLAS ------------------------------------------------------- */

/* TODO(lab3.gpulib): one cublasDgemm. cuBLAS is column-major and your
 * arrays are row-major: work out which product of which matrices, read as
 * column-major, is C. Create the cuBLAS handle once (a static), not per
 * call. */
extern "C" void matmult_gpulib_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    (void)m, (void)n, (void)k, (void)dA, (void)dB, (void)dC;
}
