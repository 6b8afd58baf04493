/* Lab 7's manufactured solutions, their exact discrete errors, and norms
 * (given code: the driver fft_poisson shows them, the tests check the
 * student's solver with them). Every expected value is computed here from
 * the problem's definition (trigonometric sums, the ghost-cell rules, a
 * closed formula), never with the reference's code. */
#ifndef LAB7_FP_MMS_H
#define LAB7_FP_MMS_H

#include <stddef.h>

#include "fft_poisson.h"

/* A grid from a three-letter boundary string such as "DNP" (x, y, z), n
 * cells per axis and the box [0, L]^3. */
fp_grid l7_grid(const char *bcs, int nx, int ny, int nz, double L);

/* sqrt(mean(a^2)) and sqrt(mean((a-b)^2)); with zero_mean each array's own
 * mean is removed first (the singular problems' gauge). */
double l7_rms(const double *a, size_t n);
double l7_rms_diff(const double *a, const double *b, size_t n, int zero_mean);
double l7_max_abs(const double *a, size_t n);
double l7_mean(const double *a, size_t n);

/* The eigenmode manufactured solution on [0, pi]^3 (the paper's Tables
 * 3-7): sin(w x) on a Dirichlet axis, cos(w x) on a Neumann one, and on the
 * periodic axes together exp(i sum w x), of which part 0 is the real and
 * part 1 the imaginary part. u is the exact solution at the cell centres
 * and f = -(sum w^2) u; either may be NULL. */
void l7_eigenmode(const fp_grid *g, const int w[3], int part, double *u, double *f);

/* A whole-grid solver: fp_solve_serial or fp_solve_cuda. */
typedef int (*l7_solver)(const fp_grid *g, double *f);

/* Solves the eigenmode problem with solve (both
 * parts where an axis is periodic) and returns the RMS of the modulus of
 * the error; *oracle gets the exact value |S/Lambda - 1| RMS(|u|), with
 * S = sum w^2 and Lambda = sum (2 - 2cos(w h))/h^2 (u is an eigenvector
 * of the discrete operator, so the discrete solution is (S/Lambda) u);
 * *linf the largest error. Returns NaN if the solver fails. */
double l7_eigenmode_error(l7_solver solve, const fp_grid *g, const int w[3], double *oracle, double *linf);

/* The non-homogeneous manufactured solution of the notes (7.3.7):
 * u = exp(x/2) sin(y + 1/2) cos(0.7 z + 0.2) on [0,1]^3, whose boundary
 * values (u on Dirichlet faces, the axis derivative on Neumann faces) are
 * folded in with the student's fp_fold_bc, solved with fp_solve_serial.
 * Returns the RMS error (zero-mean gauge when singular), *linf the largest.
 * With ghost_residual not NULL, also the largest |stencil(u) - f| / max|f|
 * of the discrete solution with the ghost values computed here from the
 * exact face data (an exact check of the folding: ~1e-13 when right). */
double l7_fold_error(const char *bcs, int nx, int ny, int nz, double *linf, double *ghost_residual);

#endif
