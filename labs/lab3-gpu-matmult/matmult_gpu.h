/* Lab 3: matrix multiplication on the GPU. Given header: do not edit.
 *
 * The contract of lab 1 (matmult.h) holds for every function: C = A B with
 * A m x k, B k x n, C m x n, dense, row-major and contiguous; C is
 * overwritten whatever it held (the tests fill it with NaN), A and B are not
 * changed, and every size m, n, k >= 1 works, whether or not it is a
 * multiple of a block size.
 *
 * Two entry points per variant:
 *   matmult_gpuX      takes HOST arrays: allocates device memory, copies A
 *                     and B in, computes, copies C back and frees (the
 *                     driver and the tests call this one). Given, in
 *                     matmult_gpu_host.c: it is matmult_on_device (yours)
 *                     with matmult_gpuX_dev;
 *   matmult_gpuX_dev  takes DEVICE arrays and only computes, returning when
 *                     C is ready (the driver times it alone to split the time
 *                     into transfers and kernel).
 * A failed CUDA or cuBLAS call (a launch included) must stop the program
 * with a message (common/cuda_check.h), never return a C that merely looks
 * wrong. */
#ifndef LAB3_MATMULT_GPU_H
#define LAB3_MATMULT_GPU_H

#ifdef __CUDACC__
#define MM_HOST_DEVICE __host__ __device__
#else
#define MM_HOST_DEVICE
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* gpu1: one thread computes all of C (a baseline, not a goal). */
void matmult_gpu1(int m, int n, int k, const double *A, const double *B, double *C);
/* gpu2: one thread per element of C. */
void matmult_gpu2(int m, int n, int k, const double *A, const double *B, double *C);
/* gpu3: two elements of C per thread, neighbours along a row or a column. */
void matmult_gpu3(int m, int n, int k, const double *A, const double *B, double *C);
/* gpu4: several elements per thread, the count a compile-time constant. */
void matmult_gpu4(int m, int n, int k, const double *A, const double *B, double *C);
/* gpu5: tiles of A and B staged in shared memory (CUDA C Programming Guide). */
void matmult_gpu5(int m, int n, int k, const double *A, const double *B, double *C);
/* gpu6 (optional challenge): register tiling, toward cuBLAS. */
void matmult_gpu6(int m, int n, int k, const double *A, const double *B, double *C);
/* gpulib: cublasDgemm. */
void matmult_gpulib(int m, int n, int k, const double *A, const double *B, double *C);

/* The host side that every variant shares (yours, in matmult_gpu.cu):
 * allocate dA, dB and dC on the device, copy A and B in, call
 * product(m, n, k, dA, dB, dC), copy C back and free all three. */
typedef void (*mm_device_product)(int m, int n, int k, const double *dA, const double *dB, double *dC);
void matmult_on_device(mm_device_product product, int m, int n, int k, const double *A, const double *B, double *C);

void matmult_gpu1_dev(int m, int n, int k, const double *dA, const double *dB, double *dC);
void matmult_gpu2_dev(int m, int n, int k, const double *dA, const double *dB, double *dC);
void matmult_gpu3_dev(int m, int n, int k, const double *dA, const double *dB, double *dC);
void matmult_gpu4_dev(int m, int n, int k, const double *dA, const double *dB, double *dC);
void matmult_gpu5_dev(int m, int n, int k, const double *dA, const double *dB, double *dC);
void matmult_gpu6_dev(int m, int n, int k, const double *dA, const double *dB, double *dC);
void matmult_gpulib_dev(int m, int n, int k, const double *dA, const double *dB, double *dC);

/* Launch geometry, checked on the CPU.
 *
 * For each of gpu2 to gpu5 you write two functions, and the kernel launches
 * with, and computes, exactly what they say:
 *   matmult_gpuX_launch(m, n)   the grid and block for an m x n C;
 *   matmult_gpuX_elements(b, t, bdim)
 *                               the elements of C that thread t of block b
 *                               computes: C[row + s*row_step][col + s*col_step]
 *                               for s = 0 .. count-1, skipping those outside C.
 * The kernel calls matmult_gpuX_elements itself (it is __host__ __device__),
 * so the tests can run your index arithmetic on the CPU, for every thread of
 * the grid, and check that each element of C is computed exactly once. */
typedef struct {
    unsigned int x, y, z;
} mm_dim3;

typedef struct {
    mm_dim3 grid, block;
} mm_launch;

typedef struct {
    long long row, col;     /* the first element */
    int row_step, col_step; /* from one element to the next */
    int count;              /* elements per thread */
} mm_elements;

mm_launch matmult_gpu2_launch(int m, int n);
mm_launch matmult_gpu3_launch(int m, int n);
mm_launch matmult_gpu4_launch(int m, int n);
mm_launch matmult_gpu5_launch(int m, int n);

MM_HOST_DEVICE mm_elements matmult_gpu2_elements(mm_dim3 block_idx, mm_dim3 thread_idx, mm_dim3 block_dim);
MM_HOST_DEVICE mm_elements matmult_gpu3_elements(mm_dim3 block_idx, mm_dim3 thread_idx, mm_dim3 block_dim);
MM_HOST_DEVICE mm_elements matmult_gpu4_elements(mm_dim3 block_idx, mm_dim3 thread_idx, mm_dim3 block_dim);
MM_HOST_DEVICE mm_elements matmult_gpu5_elements(mm_dim3 block_idx, mm_dim3 thread_idx, mm_dim3 block_dim);

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* Between CUDA's own types and mm_dim3:
 *   mm_elements e = matmult_gpu2_elements(mm_dim(blockIdx), mm_dim(threadIdx), mm_dim(blockDim));
 *   kernel<<<cuda_dim(L.grid), cuda_dim(L.block)>>>(...); */
static __host__ __device__ inline mm_dim3 mm_dim(uint3 d) { return mm_dim3{d.x, d.y, d.z}; }
static __host__ __device__ inline mm_dim3 mm_dim(dim3 d) { return mm_dim3{d.x, d.y, d.z}; }
static inline dim3 cuda_dim(mm_dim3 d) { return dim3(d.x, d.y, d.z); }
#endif

#endif
