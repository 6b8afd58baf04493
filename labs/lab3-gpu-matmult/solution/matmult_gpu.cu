/* Lab 3, reference solution: matrix multiplication on the GPU.
 *
 * Every kernel accumulates in registers and writes each element of C once
 * (the seed's gpu1-gpu4 accumulated in global memory, one load and one store
 * of C per multiply-add), and every kernel handles any m, n, k: partial
 * blocks and tiles are bounds-checked, never assumed away. */
#include <stdint.h>

#include <cublas_v2.h>

#include "cuda_check.h"
#include "matmult_gpu.h"

/* cudaMalloc and cudaFree of large arrays cost milliseconds each, paid on
 * every call. Stream-ordered allocation from the device's memory pool,
 * told to keep what is freed, makes every call after the first nearly
 * free of that cost; the memory still goes back at the end of the process. */
static void keep_freed_memory_in_pool(void)
{
    static int done;
    if (done)
        return;
    int device;
    cudaMemPool_t pool;
    uint64_t keep_all = UINT64_MAX;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
    done = 1;
}

/* The host side that every variant shares: allocate, copy in, compute,
 * copy back, free, all in order on the default stream. Byte counts are
 * size_t: m*n*8 passes 2^31 at m = n = 16384, far below the memory of a
 * GPU. */
extern "C" void matmult_on_device(mm_device_product product, int m, int n, int k, const double *A, const double *B,
                                  double *C)
{
    size_t bytes_a = (size_t)m * k * sizeof(double);
    size_t bytes_b = (size_t)k * n * sizeof(double);
    size_t bytes_c = (size_t)m * n * sizeof(double);
    double *dA, *dB, *dC;
    keep_freed_memory_in_pool();
    CUDA_CHECK(cudaMallocAsync((void **)&dA, bytes_a, 0));
    CUDA_CHECK(cudaMallocAsync((void **)&dB, bytes_b, 0));
    CUDA_CHECK(cudaMallocAsync((void **)&dC, bytes_c, 0));
    CUDA_CHECK(cudaMemcpy(dA, A, bytes_a, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B, bytes_b, cudaMemcpyHostToDevice));
    product(m, n, k, dA, dB, dC);
    CUDA_CHECK(cudaMemcpy(C, dC, bytes_c, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFreeAsync(dA, 0));
    CUDA_CHECK(cudaFreeAsync(dB, 0));
    CUDA_CHECK(cudaFreeAsync(dC, 0));
}

static unsigned int blocks_for(long long count, long long per_block)
{
    return (unsigned int)((count + per_block - 1) / per_block);
}

/* ---- gpu1: one thread for all of C ------------------------------------ */

__global__ void gpu1_kernel(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (size_t i = 0; i < (size_t)m; i++)
        for (size_t j = 0; j < (size_t)n; j++) {
            double s = 0.0;
            for (size_t l = 0; l < (size_t)k; l++)
                s += A[i * k + l] * B[l * n + j];
            C[i * n + j] = s;
        }
}

extern "C" void matmult_gpu1_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    gpu1_kernel<<<1, 1>>>(m, n, k, dA, dB, dC);
    CUDA_CHECK_LAUNCH();
}

/* ---- gpu2 to gpu4: T elements of one column per thread ----------------- */

/* Thread e computes rows e.row + q*e.row_step (q < T) of column e.col: one
 * load of B serves T multiply-adds. Rows past the end of C read a valid row
 * (the last) and store nothing, so the loop has no branch. */
template <int T>
__device__ void column_elements(mm_elements e, int m, int n, int k, const double *__restrict__ A,
                                const double *__restrict__ B, double *__restrict__ C)
{
    if (e.col >= n)
        return;
    size_t row[T];
    double s[T];
#pragma unroll
    for (int q = 0; q < T; q++) {
        long long r = e.row + (long long)q * e.row_step;
        row[q] = (size_t)(r < m ? r : m - 1);
        s[q] = 0.0;
    }
    for (size_t l = 0; l < (size_t)k; l++) {
        const double b = B[l * n + e.col];
#pragma unroll
        for (int q = 0; q < T; q++)
            s[q] += A[row[q] * k + l] * b;
    }
#pragma unroll
    for (int q = 0; q < T; q++)
        if (e.row + (long long)q * e.row_step < m)
            C[row[q] * n + e.col] = s[q];
}

/* 16 x 16 threads: a warp is two half-rows of 16 columns, so its loads of
 * B are 128 contiguous bytes and its loads of A are two broadcasts. */
#define GPU2_BLOCK 16

extern "C" mm_launch matmult_gpu2_launch(int m, int n)
{
    mm_launch L = {{blocks_for(n, GPU2_BLOCK), blocks_for(m, GPU2_BLOCK), 1}, {GPU2_BLOCK, GPU2_BLOCK, 1}};
    return L;
}

extern "C" MM_HOST_DEVICE mm_elements matmult_gpu2_elements(mm_dim3 b, mm_dim3 t, mm_dim3 bdim)
{
    mm_elements e = {(long long)b.y * bdim.y + t.y, (long long)b.x * bdim.x + t.x, 0, 0, 1};
    return e;
}

__global__ void gpu2_kernel(int m, int n, int k, const double *A, const double *B, double *C)
{
    column_elements<1>(matmult_gpu2_elements(mm_dim(blockIdx), mm_dim(threadIdx), mm_dim(blockDim)), m, n, k, A,
                       B, C);
}

extern "C" void matmult_gpu2_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    mm_launch L = matmult_gpu2_launch(m, n);
    gpu2_kernel<<<cuda_dim(L.grid), cuda_dim(L.block)>>>(m, n, k, dA, dB, dC);
    CUDA_CHECK_LAUNCH();
}

/* gpu3: the two elements are neighbours in a column, (2i, j) and (2i+1, j).
 * Neighbours in a row, (i, 2j) and (i, 2j+1), would make a warp's loads of
 * B stride by two elements: half of every 32-byte sector fetched unused. */
#define GPU3_BLOCK 16

extern "C" mm_launch matmult_gpu3_launch(int m, int n)
{
    mm_launch L = {{blocks_for(n, GPU3_BLOCK), blocks_for(m, 2 * GPU3_BLOCK), 1}, {GPU3_BLOCK, GPU3_BLOCK, 1}};
    return L;
}

extern "C" MM_HOST_DEVICE mm_elements matmult_gpu3_elements(mm_dim3 b, mm_dim3 t, mm_dim3 bdim)
{
    mm_elements e = {2 * ((long long)b.y * bdim.y + t.y), (long long)b.x * bdim.x + t.x, 1, 0, 2};
    return e;
}

__global__ void gpu3_kernel(int m, int n, int k, const double *A, const double *B, double *C)
{
    column_elements<2>(matmult_gpu3_elements(mm_dim(blockIdx), mm_dim(threadIdx), mm_dim(blockDim)), m, n, k, A,
                       B, C);
}

extern "C" void matmult_gpu3_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    mm_launch L = matmult_gpu3_launch(m, n);
    gpu3_kernel<<<cuda_dim(L.grid), cuda_dim(L.block)>>>(m, n, k, dA, dB, dC);
    CUDA_CHECK_LAUNCH();
}

/* gpu4: GPU4_ELEMENTS consecutive rows of one column per thread. A
 * compile-time count lets the compiler keep s[] in registers; the seed's
 * run-time stride could not. make bench LAB=3 sweeps it (-DGPU4_ELEMENTS=):
 * 4 beat 2 (gpu3), 8 and 16, whose extra registers cost more
 * occupancy than the saved loads of B gain. */
#ifndef GPU4_ELEMENTS
#define GPU4_ELEMENTS 4
#endif
#define GPU4_BLOCK 16

extern "C" mm_launch matmult_gpu4_launch(int m, int n)
{
    mm_launch L = {{blocks_for(n, GPU4_BLOCK), blocks_for(m, (long long)GPU4_ELEMENTS * GPU4_BLOCK), 1},
                   {GPU4_BLOCK, GPU4_BLOCK, 1}};
    return L;
}

extern "C" MM_HOST_DEVICE mm_elements matmult_gpu4_elements(mm_dim3 b, mm_dim3 t, mm_dim3 bdim)
{
    mm_elements e = {GPU4_ELEMENTS * ((long long)b.y * bdim.y + t.y), (long long)b.x * bdim.x + t.x, 1, 0,
                     GPU4_ELEMENTS};
    return e;
}

__global__ void gpu4_kernel(int m, int n, int k, const double *A, const double *B, double *C)
{
    column_elements<GPU4_ELEMENTS>(matmult_gpu4_elements(mm_dim(blockIdx), mm_dim(threadIdx), mm_dim(blockDim)),
                                   m, n, k, A, B, C);
}

extern "C" void matmult_gpu4_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    mm_launch L = matmult_gpu4_launch(m, n);
    gpu4_kernel<<<cuda_dim(L.grid), cuda_dim(L.block)>>>(m, n, k, dA, dB, dC);
    CUDA_CHECK_LAUNCH();
}

/* ---- gpu5: shared-memory tiles (CUDA C Programming Guide, 3.2.4) -------- */

/* Each block of TILE x TILE threads computes a TILE x TILE tile of C. It
 * stages a TILE x TILE_K tile of A and a TILE_K x TILE tile of B in shared
 * memory, so each element read from global memory serves TILE
 * multiply-adds. Tiles that stick out of A or B are padded with zeros,
 * which add nothing: that is all it takes to make the Guide's kernel work
 * for any m, n, k. The Guide's tiles are square (TILE_K = TILE = 16); a
 * deeper TILE_K gives each thread more multiply-adds between two barriers
 * and more loads in flight before the first, which hides the latency of
 * global memory better (make bench LAB=3 measures TILE_K = 16 and 32 too).
 * Rows of As are padded by 2 doubles so that the two rows a warp reads sit
 * on different banks. */
#define TILE 16
#ifndef GPU5_TILE_K
#define GPU5_TILE_K 64
#endif
#define TILE_K GPU5_TILE_K

extern "C" mm_launch matmult_gpu5_launch(int m, int n)
{
    mm_launch L = {{blocks_for(n, TILE), blocks_for(m, TILE), 1}, {TILE, TILE, 1}};
    return L;
}

extern "C" MM_HOST_DEVICE mm_elements matmult_gpu5_elements(mm_dim3 b, mm_dim3 t, mm_dim3 bdim)
{
    mm_elements e = {(long long)b.y * bdim.y + t.y, (long long)b.x * bdim.x + t.x, 0, 0, 1};
    return e;
}

__global__ void gpu5_kernel(int m, int n, int k, const double *__restrict__ A, const double *__restrict__ B,
                            double *__restrict__ C)
{
    __shared__ __align__(16) double As[TILE][TILE_K + 2];
    __shared__ double Bs[TILE_K][TILE];
    const mm_elements e = matmult_gpu5_elements(mm_dim(blockIdx), mm_dim(threadIdx), mm_dim(blockDim));
    const int tx = threadIdx.x, ty = threadIdx.y;
    double s = 0.0;
    for (int l0 = 0; l0 < k; l0 += TILE_K) {
#pragma unroll
        for (int q = tx; q < TILE_K; q += TILE)
            As[ty][q] = (e.row < m && l0 + q < k) ? A[(size_t)e.row * k + l0 + q] : 0.0;
#pragma unroll
        for (int q = ty; q < TILE_K; q += TILE)
            Bs[q][tx] = (l0 + q < k && e.col < n) ? B[(size_t)(l0 + q) * n + e.col] : 0.0;
        __syncthreads(); /* the whole tile is loaded */
#pragma unroll
        for (int q = 0; q < TILE_K; q++)
            s += As[ty][q] * Bs[q][tx];
        __syncthreads(); /* nobody still reads it when the next one is loaded */
    }
    if (e.row < m && e.col < n)
        C[(size_t)e.row * n + e.col] = s;
}

extern "C" void matmult_gpu5_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    mm_launch L = matmult_gpu5_launch(m, n);
    gpu5_kernel<<<cuda_dim(L.grid), cuda_dim(L.block)>>>(m, n, k, dA, dB, dC);
    CUDA_CHECK_LAUNCH();
}

/* ---- gpulib: cuBLAS ------------------------------------------------------ */

/* cuBLAS is column-major. A row-major m x n C is a column-major n x m
 * matrix, C^T, and C^T = B^T A^T: so ask for the product of B (n x k in
 * column-major terms) and A (k x m), both untransposed. The handle is made
 * once per process: making it costs far more than a small product. */
static cublasHandle_t cublas_handle(void)
{
    static cublasHandle_t handle;
    static int made;
    if (!made) {
        CUBLAS_CHECK(cublasCreate(&handle));
        made = 1;
    }
    return handle;
}

extern "C" void matmult_gpulib_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    const double one = 1.0, zero = 0.0;
    CUBLAS_CHECK(cublasDgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dB, n, dA, k, &zero, dC, n));
    CUDA_CHECK(cudaDeviceSynchronize());
}
