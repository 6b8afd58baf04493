/* The checks every benchmark program makes on the results it times, and the
 * one way they print a figure (header only: the labs' drivers include it).
 *
 * A benchmark is read as truth, so each timed result is checked: against a
 * library or a CPU reference where that is cheap enough, or by a cheap test
 * that a wrong result fails (a random-vector product for a large matrix
 * product). The driver prints the number of wrong elements; the lab's
 * bench.sh (with common/bench/bench_lib.sh) shows "INVALID (n wrong
 * elements)" in place of the figures of any run with n > 0. A figure that
 * could not be measured (a zero or negative time) prints as "-", never as
 * nan or inf. */
#ifndef KIT_BENCH_CHECK_H
#define KIT_BENCH_CHECK_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "random.h"

/* x formatted with fmt, or "-" when x is not a finite number (a rate from a
 * time of 0, a NaN). buf must hold 32 characters. */
static inline const char *bench_fig(char *buf, const char *fmt, double x)
{
    if (!isfinite(x))
        return "-";
    snprintf(buf, 32, fmt, x);
    return buf;
}

/* count / seconds, or NaN (printed "-") when the time is not positive. */
static inline double bench_rate(double count, double seconds) { return seconds > 0 ? count / seconds : NAN; }

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the n > 0 times (or rates) in v, which it sorts: the figure
 * every benchmark reports of its repeated runs, robust to one run that a
 * neighbour on the machine slowed down. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Elements of got that differ from want by more than tol (a NaN in got
 * counts as wrong). */
static inline long bench_count_wrong(const double *got, const double *want, size_t n, double tol)
{
    long wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += !(fabs(got[i] - want[i]) <= tol);
    return wrong;
}

/* Elements whose bits differ: for results the kit promises bit for bit
 * (a fixed expression order, no contraction). */
static inline long bench_count_bit_differences(const double *got, const double *want, size_t n)
{
    long wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += memcmp(&got[i], &want[i], sizeof *got) != 0;
    return wrong;
}

static inline double bench_max_abs(const double *a, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs(a[i]));
    return m;
}

/* Freivalds' check of C = A B (A m x k, B k x n, C m x n, row-major) in
 * O(mk + kn + mn) instead of the product's O(mnk): with a random x,
 * C x and A (B x) agree (to rounding) exactly when every row of C is right,
 * except with a probability near 0 (an error would have to be orthogonal
 * to x). Returns the number of elements of C x that disagree: 0 for a right
 * product, and at least the number of wrong rows for a wrong one. The
 * tolerance allows 1e-12 of the largest sum a row can hold, about 1e4 times
 * the rounding of any summation order. */
static inline long bench_matmult_freivalds(int m, int n, int k, const double *A, const double *B, const double *C)
{
    double *x = kit_alloc_doubles((size_t)n), *bx = kit_alloc_doubles((size_t)k);
    kit_fill_real(x, (size_t)n, -1.0, 1.0, 12345);
    for (int p = 0; p < k; p++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += B[(size_t)p * n + j] * x[j];
        bx[p] = s;
    }
    double tol = 1e-12 * (double)k * (double)n * bench_max_abs(A, (size_t)m * k) * bench_max_abs(B, (size_t)k * n);
    long wrong = 0;
    for (int i = 0; i < m; i++) {
        double cx = 0, abx = 0;
        for (int j = 0; j < n; j++)
            cx += C[(size_t)i * n + j] * x[j];
        for (int p = 0; p < k; p++)
            abx += A[(size_t)i * k + p] * bx[p];
        wrong += !(fabs(cx - abx) <= tol);
    }
    kit_free(x);
    kit_free(bx);
    return wrong;
}

#endif
