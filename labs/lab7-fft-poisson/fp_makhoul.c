/* Lab 7, stage 3: DCT-II and DST-II through one complex FFT (Makhoul,
 * 1980), equal to FFTW's REDFT10 and RODFT10: the step a GPU needs, since
 * cuFFT has no real-to-real transforms. */
#include <complex.h>
#include <math.h>

#include <fftw3.h>

#include "fft_poisson.h"

void fp_dct2_via_fft(int n, const double *x, double *y)
{
    /* TODO: v = x0, x2, x4, ..., x5, x3, x1; V = FFT(v) (fftw_plan_dft_1d);
     * y_k = 2 Re(exp(-i pi k/(2n)) V_k). */
    (void)n, (void)x, (void)y;
}

void fp_idct2_via_fft(int n, const double *y, double *x)
{
    /* TODO: V_k = 1/2 exp(+i pi k/(2n)) (y_k - i y_{n-k}) with y_n = 0;
     * v = IFFT(V)/n; undo the reordering. */
    (void)n, (void)y, (void)x;
}

void fp_dst2_via_fft(int n, const double *x, double *y)
{
    /* TODO: alternate the signs of x (+ at index 0), fp_dct2_via_fft, read
     * the result backwards. */
    (void)n, (void)x, (void)y;
}
