/* Independent lab 1 solution (self-test data): an index macro, size_t,
 * zeroing by loops, while loops in the blocked version. */
#include <cblas.h>
#include <stddef.h>

#include "matmult.h"

#define AT(M, row, col, ld) ((M)[(size_t)(row) * (size_t)(ld) + (size_t)(col)])

static void set_zero(size_t rows, size_t cols, double *X)
{
    for (size_t t = 0; t < rows * cols; t++)
        X[t] = 0.0;
}

void matmult_lib(int m, int n, int k, const double *A, const double *B, double *C)
{
    const int lda = k, ldb = n, ldc = n;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A, lda, B, ldb, 0.0, C, ldc);
}

void matmult_nat(int m, int n, int k, const double *A, const double *B, double *C)
{
    size_t i, j, q;
    for (i = 0; i < (size_t)m; i++) {
        for (j = 0; j < (size_t)n; j++) {
            AT(C, i, j, n) = 0.0;
            for (q = 0; q < (size_t)k; q++) {
                AT(C, i, j, n) = AT(C, i, j, n) + AT(A, i, q, k) * AT(B, q, j, n);
            }
        }
    }
}

void matmult_mnk(int m, int n, int k, const double *A, const double *B, double *C)
{
    size_t i, j, q;
    set_zero(m, n, C);
    for (i = 0; i < (size_t)m; i++) {
        for (j = 0; j < (size_t)n; j++) {
            for (q = 0; q < (size_t)k; q++) {
                AT(C, i, j, n) = AT(C, i, j, n) + AT(A, i, q, k) * AT(B, q, j, n);
            }
        }
    }
}

void matmult_mkn(int m, int n, int k, const double *A, const double *B, double *C)
{
    size_t i, j, q;
    set_zero(m, n, C);
    for (i = 0; i < (size_t)m; i++) {
        for (q = 0; q < (size_t)k; q++) {
            const double aiq = AT(A, i, q, k);
            for (j = 0; j < (size_t)n; j++) {
                AT(C, i, j, n) = AT(C, i, j, n) + aiq * AT(B, q, j, n);
            }
        }
    }
}

void matmult_nmk(int m, int n, int k, const double *A, const double *B, double *C)
{
    size_t i, j, q;
    set_zero(m, n, C);
    for (j = 0; j < (size_t)n; j++) {
        for (i = 0; i < (size_t)m; i++) {
            for (q = 0; q < (size_t)k; q++) {
                AT(C, i, j, n) = AT(C, i, j, n) + AT(A, i, q, k) * AT(B, q, j, n);
            }
        }
    }
}

void matmult_nkm(int m, int n, int k, const double *A, const double *B, double *C)
{
    size_t i, j, q;
    set_zero(m, n, C);
    for (j = 0; j < (size_t)n; j++) {
        for (q = 0; q < (size_t)k; q++) {
            const double bqj = AT(B, q, j, n);
            for (i = 0; i < (size_t)m; i++) {
                AT(C, i, j, n) = AT(C, i, j, n) + AT(A, i, q, k) * bqj;
            }
        }
    }
}

void matmult_kmn(int m, int n, int k, const double *A, const double *B, double *C)
{
    size_t i, j, q;
    set_zero(m, n, C);
    for (q = 0; q < (size_t)k; q++) {
        for (i = 0; i < (size_t)m; i++) {
            const double aiq = AT(A, i, q, k);
            for (j = 0; j < (size_t)n; j++) {
                AT(C, i, j, n) = AT(C, i, j, n) + aiq * AT(B, q, j, n);
            }
        }
    }
}

void matmult_knm(int m, int n, int k, const double *A, const double *B, double *C)
{
    size_t i, j, q;
    set_zero(m, n, C);
    for (q = 0; q < (size_t)k; q++) {
        for (j = 0; j < (size_t)n; j++) {
            const double bqj = AT(B, q, j, n);
            for (i = 0; i < (size_t)m; i++) {
                AT(C, i, j, n) = AT(C, i, j, n) + AT(A, i, q, k) * bqj;
            }
        }
    }
}

void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs)
{
    size_t M = (size_t)m, N = (size_t)n, K = (size_t)k, S = (size_t)bs;
    set_zero(M, N, C);
    size_t ib = 0;
    while (ib < M) {
        size_t ie = ib + S > M ? M : ib + S;
        size_t qb = 0;
        while (qb < K) {
            size_t qe = qb + S > K ? K : qb + S;
            for (size_t i = ib; i < ie; i++) {
                for (size_t q = qb; q < qe; q++) {
                    const double aiq = AT(A, i, q, K);
                    for (size_t j = 0; j < N; j++) {
                        AT(C, i, j, N) += aiq * AT(B, q, j, N);
                    }
                }
            }
            qb = qe;
        }
        ib = ie;
    }
}
