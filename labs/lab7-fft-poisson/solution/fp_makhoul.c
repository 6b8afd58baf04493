/* Lab 7, stage 3 (reference): DCT-II and DST-II through one complex FFT
 * (Makhoul, 1980), equal to FFTW's REDFT10 and RODFT10. */
#include <complex.h>
#include <math.h>

#include <fftw3.h>

#include "fft_poisson.h"

/* One complex FFT of length n in place; sign FFTW_FORWARD or FFTW_BACKWARD
 * (unnormalised). With <complex.h> included first, fftw_complex is C's
 * double complex. */
static void fft(int n, fftw_complex *z, int sign)
{
    fftw_plan p = fftw_plan_dft_1d(n, z, z, sign, FFTW_ESTIMATE);
    fftw_execute(p);
    fftw_destroy_plan(p);
}

void fp_dct2_via_fft(int n, const double *x, double *y)
{
    const double pi = acos(-1.0);
    fftw_complex *v = fftw_alloc_complex((size_t)n);
    /* v = x0, x2, x4, ..., then the odd ones backwards: ..., x5, x3, x1 */
    for (int m = 0; 2 * m < n; m++)
        v[m] = x[2 * m];
    for (int m = 0; 2 * m + 1 < n; m++)
        v[n - 1 - m] = x[2 * m + 1];
    fft(n, v, FFTW_FORWARD);
    for (int k = 0; k < n; k++) {
        y[k] = 2.0 * creal(cexp(-I * pi * k / (2.0 * n)) * v[k]);
    }
    fftw_free(v);
}

void fp_idct2_via_fft(int n, const double *y, double *x)
{
    const double pi = acos(-1.0);
    fftw_complex *v = fftw_alloc_complex((size_t)n);
    for (int k = 0; k < n; k++) {
        double ynk = k == 0 ? 0.0 : y[n - k]; /* Y_n = 0 */
        v[k] = 0.5 * cexp(I * pi * k / (2.0 * n)) * (y[k] - I * ynk);
    }
    fft(n, v, FFTW_BACKWARD);
    for (int m = 0; 2 * m < n; m++)
        x[2 * m] = creal(v[m]) / n;
    for (int m = 0; 2 * m + 1 < n; m++)
        x[2 * m + 1] = creal(v[n - 1 - m]) / n;
    fftw_free(v);
}

void fp_dst2_via_fft(int n, const double *x, double *y)
{
    /* sin(pi (j+1/2)(k+1)/n) = (-1)^j cos(pi (j+1/2)(n-1-k)/n): alternate
     * the input's signs, take the DCT-II, read it backwards */
    double *alt = fftw_alloc_real((size_t)n), *c = fftw_alloc_real((size_t)n);
    for (int j = 0; j < n; j++)
        alt[j] = j % 2 ? -x[j] : x[j];
    fp_dct2_via_fft(n, alt, c);
    for (int k = 0; k < n; k++)
        y[k] = c[n - 1 - k];
    fftw_free(alt);
    fftw_free(c);
}
