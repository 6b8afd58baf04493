/* Lab 7, stage 5 (reference): the kit's radiator problem (common/poisson.h)
 * solved directly. On the vertex-centred grid with Dirichlet values on the
 * boundary layer, the 1-D operator (-u[k-1] + 2u[k] - u[k+1]) on the N
 * interior points is diagonalised by DST-I (FFTW's RODFT00) with
 * eigenvalues 2 - 2cos(pi (m+1)/(N+1)); a round trip scales by 2(N+1). */
#include <math.h>

#include <fftw3.h>

#include "fft_poisson.h"
#include "poisson.h"

int fp_radiator_solve(int N, double *u)
{
    if (poisson_check_size(N) != 0)
        return -1;
    const double pi = acos(-1.0);
    const size_t n = (size_t)N;
    poisson_init(N, 0.0, NULL, u);
    double *w = fftw_alloc_real(n * n * n);
    fftw_plan fwd = fftw_plan_r2r_3d(N, N, N, w, w, FFTW_RODFT00, FFTW_RODFT00, FFTW_RODFT00, FFTW_ESTIMATE);
    const size_t sj = poisson_side(N), si = sj * sj;
    /* (6u - neighbours) = h^2 f: boundary neighbours move to the right */
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++) {
                size_t c = poisson_index(N, i, j, k);
                double b = poisson_h2f(N, i, j, k);
                if (i == 1) b += u[c - si];
                if (i == N) b += u[c + si];
                if (j == 1) b += u[c - sj];
                if (j == N) b += u[c + sj];
                if (k == 1) b += u[c - 1];
                if (k == N) b += u[c + 1];
                w[((size_t)(i - 1) * n + (size_t)(j - 1)) * n + (size_t)(k - 1)] = b;
            }
    fftw_execute(fwd);
    double *lam = fftw_alloc_real(n);
    for (int m = 0; m < N; m++)
        lam[m] = 2.0 - 2.0 * cos(pi * (m + 1) / (N + 1.0));
    const double scale = 1.0 / (8.0 * (N + 1.0) * (N + 1.0) * (N + 1.0));
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++)
            for (size_t c = 0; c < n; c++)
                w[(a * n + b) * n + c] *= scale / (lam[a] + lam[b] + lam[c]);
    fftw_execute(fwd); /* RODFT00 is its own inverse, up to the scale */
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++)
                u[poisson_index(N, i, j, k)] = w[((size_t)(i - 1) * n + (size_t)(j - 1)) * n + (size_t)(k - 1)];
    fftw_destroy_plan(fwd);
    fftw_free(lam);
    fftw_free(w);
    return 0;
}
