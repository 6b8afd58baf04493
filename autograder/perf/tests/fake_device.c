/* A pretend GPU for the self-test of the device harnesses (lab3_gpu5.c,
 * lab4_gpu3.c) on a machine without one: "device" memory is host memory,
 * the CUDA and cuBLAS calls the harnesses make are done on the CPU, and so
 * are the kernels they time. FAKE_FAULT plants one error, which the
 * harness's check must catch:
 *   last_sweep   one point of every sweep off by 1e-12 (lab 4)
 *   early_sweep  one point of the first sweep of each call off by 1e-9
 *   norm         the norm of every sweep doubled
 *   wall         a wall point of the start overwritten
 *   element      one element of C off by 1 on the third call (lab 3)
 *   remembers    every call after the first gives the first call's C (an
 *                answer remembered by address and shape; lab 3)
 *   no_device    there is no GPU
 * Compiled only by the grader's unit tests. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "perf_device.h"
#include "perf_harness.h"
#include "poisson.h"

static int fault(const char *name)
{
    const char *f = getenv("FAKE_FAULT");
    return f && !strcmp(f, name);
}

int perf_device_init(void) { return fault("no_device") ? PERF_NO_DEVICE : 0; }
void perf_device_finish(void) {}
void *perf_device_alloc(size_t bytes) { return malloc(bytes); }
void perf_device_put(void *device, const void *host, size_t bytes) { memcpy(device, host, bytes); }
void perf_device_get(void *host, const void *device, size_t bytes) { memcpy(host, device, bytes); }

cudaError_t cudaMemset(void *p, int v, size_t bytes)
{
    memset(p, v, bytes);
    return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void *p, int v, size_t bytes, cudaStream_t s)
{
    (void)s;
    return cudaMemset(p, v, bytes);
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind k, cudaStream_t s)
{
    (void)k, (void)s;
    memcpy(dst, src, bytes);
    return cudaSuccess;
}
const char *cudaGetErrorString(cudaError_t e) { return e == cudaSuccess ? "no error" : "error"; }
const char *cudaGetErrorName(cudaError_t e) { return e == cudaSuccess ? "cudaSuccess" : "cudaError"; }

/* Lab 4's sweep on the CPU, the kit's order of additions. */
void jacobi_gpu3_slab(int N, int i_offset, int l_begin, int l_end, const double *u_old, double *u_new, double *norm2,
                      cudaStream_t stream)
{
    static int sweeps;
    size_t sj = poisson_side(N), si = sj * sj;
    double sum = 0.0;
    (void)stream;
    sweeps++;
    for (int l = l_begin; l < l_end; l++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++) {
                size_t p = poisson_index(N, l, j, k);
                double v = poisson_jacobi_point(u_old, p, sj, si, poisson_h2f(N, l + i_offset, j, k));
                if (fault("last_sweep") && l == N / 2 && j == 2 && k == N - 1)
                    v += 1e-12;
                if (fault("early_sweep") && sweeps % 16 == 1 && l == N && j == N && k == N)
                    v += 1e-9;
                sum += (v - u_old[p]) * (v - u_old[p]);
                u_new[p] = v;
            }
    if (fault("wall"))
        u_new[poisson_index(N, 0, 3, 3)] += 1.0;
    if (norm2)
        *norm2 += fault("norm") ? 2 * sum : sum;
}

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
    *handle = NULL;
    return CUBLAS_STATUS_SUCCESS;
}

/* Column-major C = A B (the harness's row-major call, transposed). */
cublasStatus_t cublasDgemm_v2(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                              const double *alpha, const double *A, int lda, const double *B, int ldb,
                              const double *beta, double *C, int ldc)
{
    (void)h, (void)ta, (void)tb, (void)alpha, (void)beta;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0.0;
            for (int p = 0; p < k; p++)
                s += A[(size_t)p * lda + i] * B[(size_t)j * ldb + p];
            C[(size_t)j * ldc + i] = s;
        }
    return CUBLAS_STATUS_SUCCESS;
}

/* Lab 3's product on the CPU: row-major C = A B is column-major C^T = B^T A^T. */
void matmult_gpu5_dev(int m, int n, int k, const double *A, const double *B, double *C)
{
    static int calls;
    static double *first;
    const double one = 1.0, zero = 0.0;
    const size_t bytes = (size_t)m * n * sizeof *C;
    calls++;
    if (fault("remembers") && first) {
        memcpy(C, first, bytes);
        return;
    }
    cublasDgemm_v2(NULL, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n);
    if (fault("element") && calls == 3)
        C[(size_t)(m / 2) * n + n / 3] += 1.0;
    if (fault("remembers") && (first = malloc(bytes)))
        memcpy(first, C, bytes);
}
