/* Independent lab 1 solution (self-test data): pointers that walk the
 * matrices, one generic kernel called by the loop orders. */
#include <cblas.h>
#include <string.h>

#include "matmult.h"

void matmult_lib(int m, int n, int k, const double *A, const double *B, double *C)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A, k, B, n, 0.0, C, n);
}

void matmult_nat(int m, int n, int k, const double *A, const double *B, double *C)
{
    double *c = C;
    for (const double *arow = A; arow != A + (size_t)m * k; arow += k)
        for (int col = 0; col < n; col++) {
            const double *b = B + col;
            double total = 0.0;
            for (const double *a = arow; a != arow + k; a++, b += n)
                total += *a * *b;
            *c++ = total;
        }
}

/* order: three letters naming the loops, outermost first. */
static void ordered(const char *order, int m, int n, int k, const double *A, const double *B, double *C)
{
    memset(C, 0, (size_t)m * n * sizeof(double));
    int lim[3], idx[3], *pos[3];
    for (int d = 0; d < 3; d++) {
        lim[d] = order[d] == 'm' ? m : order[d] == 'n' ? n : k;
        pos[d] = &idx[d];
    }
    int *pi = 0, *pj = 0, *pl = 0;
    for (int d = 0; d < 3; d++) {
        if (order[d] == 'm')
            pi = pos[d];
        else if (order[d] == 'n')
            pj = pos[d];
        else
            pl = pos[d];
    }
    for (idx[0] = 0; idx[0] < lim[0]; idx[0]++)
        for (idx[1] = 0; idx[1] < lim[1]; idx[1]++)
            for (idx[2] = 0; idx[2] < lim[2]; idx[2]++)
                C[(size_t)*pi * n + *pj] += A[(size_t)*pi * k + *pl] * B[(size_t)*pl * n + *pj];
}

void matmult_mnk(int m, int n, int k, const double *A, const double *B, double *C) { ordered("mnk", m, n, k, A, B, C); }
void matmult_mkn(int m, int n, int k, const double *A, const double *B, double *C) { ordered("mkn", m, n, k, A, B, C); }
void matmult_nmk(int m, int n, int k, const double *A, const double *B, double *C) { ordered("nmk", m, n, k, A, B, C); }
void matmult_nkm(int m, int n, int k, const double *A, const double *B, double *C) { ordered("nkm", m, n, k, A, B, C); }
void matmult_kmn(int m, int n, int k, const double *A, const double *B, double *C) { ordered("kmn", m, n, k, A, B, C); }
void matmult_knm(int m, int n, int k, const double *A, const double *B, double *C) { ordered("knm", m, n, k, A, B, C); }

static int smaller(int a, int b) { return a < b ? a : b; }

void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs)
{
    memset(C, 0, (size_t)m * n * sizeof(double));
    for (int jj = 0; jj < n; jj += bs)
        for (int ll = 0; ll < k; ll += bs)
            for (int ii = 0; ii < m; ii += bs) {
                int iend = smaller(ii + bs, m), lend = smaller(ll + bs, k), jend = smaller(jj + bs, n);
                for (int row = ii; row < iend; row++) {
                    double *c = C + (size_t)row * n;
                    const double *a = A + (size_t)row * k;
                    for (int l = ll; l < lend; l++) {
                        const double *b = B + (size_t)l * n;
                        double f = a[l];
                        for (int col = jj; col < jend; col++)
                            c[col] += f * b[col];
                    }
                }
            }
}
