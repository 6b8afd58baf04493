/* Lab 1: matrix multiplication on the CPU. Given header: do not edit.
 *
 * Every function computes C = A B, where A is m x k, B is k x n and C is
 * m x n, all dense, row-major and contiguous: A[i][l] is A[i * k + l].
 * C is overwritten, never accumulated into: whatever C held before the call
 * (the tests fill it with NaN) must not matter. A and B are not changed. */
#ifndef LAB1_MATMULT_H
#define LAB1_MATMULT_H

/* cblas_dgemm from OpenBLAS: the yardstick. */
void matmult_lib(int m, int n, int k, const double *A, const double *B, double *C);

/* The natural order: for each C[i][j], the dot product of row i of A and
 * column j of B. */
void matmult_nat(int m, int n, int k, const double *A, const double *B, double *C);

/* The six orders of the three loops; the name gives the order from the
 * outermost loop in: m runs over rows of C, n over columns of C, k over the
 * inner dimension. matmult_mkn is: for i < m, for l < k, for j < n. */
void matmult_mnk(int m, int n, int k, const double *A, const double *B, double *C);
void matmult_mkn(int m, int n, int k, const double *A, const double *B, double *C);
void matmult_nmk(int m, int n, int k, const double *A, const double *B, double *C);
void matmult_nkm(int m, int n, int k, const double *A, const double *B, double *C);
void matmult_kmn(int m, int n, int k, const double *A, const double *B, double *C);
void matmult_knm(int m, int n, int k, const double *A, const double *B, double *C);

/* Blocked: works on bs x bs blocks so that they stay in cache. bs is any
 * positive value; it need not divide m, n or k and may exceed them. */
void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs);

#endif
