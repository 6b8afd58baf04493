/* Lab 7, stage 1: the eigenvalues, the boundary folding and the Toeplitz
 * Thomas solver. Read fft_poisson.h for the conventions and README.md for
 * the stage. */
#include <math.h>
#include <stddef.h>

#include "fft_poisson.h"

double fp_eigenvalue(fp_bc bc, int k, int n)
{
    /* TODO: Table 2 in FFTW's index order: P with 2 pi k/n, N with pi k/n,
     * D with pi (k+1)/n. */
    (void)bc, (void)k, (void)n;
    return 0.0;
}

int fp_thomas_toeplitz(int n, double off, double b0, double b, double bn, double *r, double *work)
{
    /* TODO: Thomas's forward sweep (work[i] = off/pivot, the new pivot, r[i])
     * and back substitution; return -1 on a pivot that is exactly 0. Mind
     * n = 1 (the diagonal is b0 + bn - b). */
    (void)n, (void)off, (void)b0, (void)b, (void)bn, (void)r, (void)work;
    return -1;
}

void fp_fold_bc(const fp_grid *g, const fp_bcdata *bd, double *f)
{
    /* TODO: for each non-periodic axis and each face with data, change f in
     * the cells next to the face: Dirichlet f -= 2g/h^2; Neumann f += g/h
     * (low face) or f -= g/h (high face). */
    (void)g, (void)bd, (void)f;
}
