/* The comparisons the labs' tests make: arrays against expected values,
 * with a message a student can act on, and NaN poisoning of outputs. */
#ifndef KIT_GRADER_COMPARE_H
#define KIT_GRADER_COMPARE_H

#include <stddef.h>

/* Array comparison for tests.
 *
 * Compares got with expected over a rows x cols row-major array (cols = 1
 * for a vector) and fails the running test, once, with a message naming the
 * first wrong element, its expected and actual values, how many elements are
 * wrong and the largest error, prefixed by the context (e.g. "matmult_mkn,
 * m=17 n=13 k=11"), and a hint where every wrong element is a few rounding
 * steps off (hints.h). For an iterative solver's result, grid.h's
 * ag_assert_grid_steps also says "one step behind?". tol < 0 demands exact equality (got == expected, so
 * -0 equals +0); otherwise |got - expected| <= tol. NaN or Inf where a finite value is expected is
 * always wrong. */
void ag_assert_matrix_eq(const double *expected, const double *got, size_t rows, size_t cols,
                         double tol, const char *context_fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The same over an n0 x n1 x n2 grid, index [i][j][k] with k fastest. */
void ag_assert_grid_eq(const double *expected, const double *got, size_t n0, size_t n1, size_t n2,
                       double tol, const char *context_fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* Fills n doubles with NaN: poison an output before a call so that an
 * element the call never writes cannot pass. */
void ag_poison(double *a, size_t n);

/* The largest |a[i]| (0 for n = 0): the scale of a tolerance. */
double ag_max_abs(const double *a, size_t n);

#endif
