/* Lab 1: matrix multiplication. This is your file: implement every function
 * declared in matmult.h (read it first: the shapes and the contract are
 * there). README.md in this folder is the assignment.
 *
 *   make lab1 && make check            build and run the tests
 *   ./build/lab1/matmult_c mkn 256 256 256
 */
#include <cblas.h>

#include "matmult.h"

void matmult_lib(int m, int n, int k, const double *A, const double *B, double *C)
{
    /* TODO(lab1.lib): one call of cblas_dgemm (row-major, no transposes,
     * alpha = 1, beta = 0). Mind the leading dimensions. */
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void matmult_nat(int m, int n, int k, const double *A, const double *B, double *C)
{
    /* TODO(lab1.nat): C[i][j] = sum over l of A[i][l] * B[l][j]. */
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

/* TODO(lab1.permutations): the six loop orders. Each one sets C to zero
 * first, then accumulates A[i][l] * B[l][j] into C[i][j] with its three
 * loops in the order of its name (outermost first). Use size_t for index
 * products: i * n overflows an int long before memory runs out. */
void matmult_mnk(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void matmult_mkn(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void matmult_nmk(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void matmult_nkm(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void matmult_kmn(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void matmult_knm(int m, int n, int k, const double *A, const double *B, double *C)
{
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C;
}

void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs)
{
    /* TODO(lab1.blk): loop over bs x bs blocks of C, A and B, and run the
     * best loop order you found inside each block. The last block in each
     * direction may be smaller than bs. */
    (void)m, (void)n, (void)k, (void)A, (void)B, (void)C, (void)bs;
}
