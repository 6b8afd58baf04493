/* Lab 7's test helpers: the manufactured solutions, their exact discrete
 * errors and the norms (fp_mms.h, given code that the driver uses too),
 * FFTW's transforms by their definitions, random fields. Every expected
 * value is computed from the problem's definition (trigonometric sums, the
 * ghost-cell rules, a closed formula), never with the reference's code. */
#ifndef LAB7_CHECKS_H
#define LAB7_CHECKS_H

#include <stddef.h>

#include "fft_poisson.h"
#include "fp_mms.h"

/* FFTW's r2r definitions by direct O(n^2) sums (unnormalised):
 * REDFT10, RODFT10 and R2HC (halfcomplex: r_0 .. r_{n/2}, then i_{(n-1)/2} .. i_1). */
void l7_direct_r2r(fp_bc bc, int n, const double *x, size_t stride, double *y);

/* A seeded random field of n values in [-1, 1). */
void l7_random(double *a, size_t n, unsigned seed);

#endif
