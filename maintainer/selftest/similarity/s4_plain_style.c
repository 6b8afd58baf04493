/* Independent lab 1 solution (self-test data): the plain style the
 * assignment suggests (size_t loops, C[i * n + j]), written without the
 * reference: what many students hand in. */
#include <cblas.h>
#include <stddef.h>

#include "matmult.h"

void matmult_lib(int m, int n, int k, const double *A, const double *B, double *C)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A, k, B, n, 0.0, C, n);
}

void matmult_nat(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (size_t i = 0; i < (size_t)m; i++) {
        for (size_t j = 0; j < (size_t)n; j++) {
            double c = 0;
            for (size_t l = 0; l < (size_t)k; l++)
                c += A[i * k + l] * B[l * n + j];
            C[i * n + j] = c;
        }
    }
}

void matmult_mnk(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (size_t x = 0; x < (size_t)m * n; x++)
        C[x] = 0;
    for (size_t i = 0; i < (size_t)m; i++)
        for (size_t j = 0; j < (size_t)n; j++)
            for (size_t l = 0; l < (size_t)k; l++)
                C[i * n + j] += A[i * k + l] * B[l * n + j];
}

void matmult_mkn(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (size_t x = 0; x < (size_t)m * n; x++)
        C[x] = 0;
    for (size_t i = 0; i < (size_t)m; i++)
        for (size_t l = 0; l < (size_t)k; l++)
            for (size_t j = 0; j < (size_t)n; j++)
                C[i * n + j] += A[i * k + l] * B[l * n + j];
}

void matmult_nmk(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (size_t x = 0; x < (size_t)m * n; x++)
        C[x] = 0;
    for (size_t j = 0; j < (size_t)n; j++)
        for (size_t i = 0; i < (size_t)m; i++)
            for (size_t l = 0; l < (size_t)k; l++)
                C[i * n + j] += A[i * k + l] * B[l * n + j];
}

void matmult_nkm(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (size_t x = 0; x < (size_t)m * n; x++)
        C[x] = 0;
    for (size_t j = 0; j < (size_t)n; j++)
        for (size_t l = 0; l < (size_t)k; l++)
            for (size_t i = 0; i < (size_t)m; i++)
                C[i * n + j] += A[i * k + l] * B[l * n + j];
}

void matmult_kmn(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (size_t x = 0; x < (size_t)m * n; x++)
        C[x] = 0;
    for (size_t l = 0; l < (size_t)k; l++)
        for (size_t i = 0; i < (size_t)m; i++)
            for (size_t j = 0; j < (size_t)n; j++)
                C[i * n + j] += A[i * k + l] * B[l * n + j];
}

void matmult_knm(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (size_t x = 0; x < (size_t)m * n; x++)
        C[x] = 0;
    for (size_t l = 0; l < (size_t)k; l++)
        for (size_t j = 0; j < (size_t)n; j++)
            for (size_t i = 0; i < (size_t)m; i++)
                C[i * n + j] += A[i * k + l] * B[l * n + j];
}

void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs)
{
    for (size_t x = 0; x < (size_t)m * n; x++)
        C[x] = 0;
    for (size_t i0 = 0; i0 < (size_t)m; i0 += bs)
        for (size_t l0 = 0; l0 < (size_t)k; l0 += bs)
            for (size_t j0 = 0; j0 < (size_t)n; j0 += bs)
                for (size_t i = i0; i < i0 + bs && i < (size_t)m; i++)
                    for (size_t l = l0; l < l0 + bs && l < (size_t)k; l++)
                        for (size_t j = j0; j < j0 + bs && j < (size_t)n; j++)
                            C[i * n + j] += A[i * k + l] * B[l * n + j];
}
