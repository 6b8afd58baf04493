/* Independent lab 1 solution (self-test data): row pointers, int loops. */
#include <cblas.h>
#include <string.h>

#include "matmult.h"

void matmult_lib(int m, int n, int k, const double *A, const double *B, double *C)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A, k, B, n, 0.0, C, n);
}

void matmult_nat(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (int r = 0; r < m; ++r) {
        const double *arow = A + (size_t)r * k;
        double *crow = C + (size_t)r * n;
        for (int c = 0; c < n; ++c) {
            double s = 0;
            for (int p = 0; p < k; ++p)
                s += arow[p] * B[(size_t)p * n + c];
            crow[c] = s;
        }
    }
}

static void clear(double *C, int m, int n) { memset(C, 0, sizeof(double) * (size_t)m * (size_t)n); }

void matmult_mnk(int m, int n, int k, const double *A, const double *B, double *C)
{
    clear(C, m, n);
    for (int r = 0; r < m; ++r)
        for (int c = 0; c < n; ++c) {
            double *out = &C[(size_t)r * n + c];
            for (int p = 0; p < k; ++p)
                *out += A[(size_t)r * k + p] * B[(size_t)p * n + c];
        }
}

void matmult_mkn(int m, int n, int k, const double *A, const double *B, double *C)
{
    clear(C, m, n);
    for (int r = 0; r < m; ++r) {
        double *crow = C + (size_t)r * n;
        for (int p = 0; p < k; ++p) {
            double a = A[(size_t)r * k + p];
            const double *brow = B + (size_t)p * n;
            for (int c = 0; c < n; ++c)
                crow[c] += a * brow[c];
        }
    }
}

void matmult_nmk(int m, int n, int k, const double *A, const double *B, double *C)
{
    clear(C, m, n);
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < m; ++r) {
            double acc = 0;
            for (int p = 0; p < k; ++p)
                acc += A[(size_t)r * k + p] * B[(size_t)p * n + c];
            C[(size_t)r * n + c] += acc;
        }
}

void matmult_nkm(int m, int n, int k, const double *A, const double *B, double *C)
{
    clear(C, m, n);
    for (int c = 0; c < n; ++c)
        for (int p = 0; p < k; ++p) {
            double b = B[(size_t)p * n + c];
            for (int r = 0; r < m; ++r)
                C[(size_t)r * n + c] += A[(size_t)r * k + p] * b;
        }
}

void matmult_kmn(int m, int n, int k, const double *A, const double *B, double *C)
{
    clear(C, m, n);
    for (int p = 0; p < k; ++p)
        for (int r = 0; r < m; ++r) {
            double a = A[(size_t)r * k + p];
            for (int c = 0; c < n; ++c)
                C[(size_t)r * n + c] += a * B[(size_t)p * n + c];
        }
}

void matmult_knm(int m, int n, int k, const double *A, const double *B, double *C)
{
    clear(C, m, n);
    for (int p = 0; p < k; ++p)
        for (int c = 0; c < n; ++c) {
            double b = B[(size_t)p * n + c];
            for (int r = 0; r < m; ++r)
                C[(size_t)r * n + c] += A[(size_t)r * k + p] * b;
        }
}

void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs)
{
    clear(C, m, n);
    for (int r0 = 0; r0 < m; r0 += bs) {
        int r1 = r0 + bs < m ? r0 + bs : m;
        for (int p0 = 0; p0 < k; p0 += bs) {
            int p1 = p0 + bs < k ? p0 + bs : k;
            for (int c0 = 0; c0 < n; c0 += bs) {
                int c1 = c0 + bs < n ? c0 + bs : n;
                for (int r = r0; r < r1; ++r)
                    for (int p = p0; p < p1; ++p) {
                        double a = A[(size_t)r * k + p];
                        for (int c = c0; c < c1; ++c)
                            C[(size_t)r * n + c] += a * B[(size_t)p * n + c];
                    }
            }
        }
    }
}
