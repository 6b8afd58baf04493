/* Array comparison and poisoning for the labs' tests: see compare.h. */
#include "compare.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include <check.h>

#include "hints.h"

static void format_index(char *buf, size_t len, const size_t *dims, int ndims, size_t flat)
{
    size_t idx[3] = {0, 0, 0};
    for (int d = ndims - 1; d >= 0; d--) {
        idx[d] = flat % dims[d];
        flat /= dims[d];
    }
    if (ndims == 1)
        snprintf(buf, len, "[%zu]", idx[0]);
    else if (ndims == 2)
        snprintf(buf, len, "[%zu][%zu]", idx[0], idx[1]);
    else
        snprintf(buf, len, "[%zu][%zu][%zu]", idx[0], idx[1], idx[2]);
}

static int element_wrong(double e, double g, double tol)
{
    if (tol < 0)
        return !(g == e); /* exact: -0 equals +0, NaN equals nothing */
    if (isfinite(e) && !isfinite(g))
        return 1;
    return !(fabs(g - e) <= tol);
}

static void assert_array_eq(const double *expected, const double *got, const size_t *dims, int ndims,
                            double tol, const char *context)
{
    size_t n = 1;
    for (int d = 0; d < ndims; d++)
        n *= dims[d];
    size_t wrong = 0, first = 0, worst = 0;
    double worst_err = -1, worst_rel = 0, scale = 0;
    int floats = 1; /* every expected value a float: floats were compared */
    for (size_t i = 0; i < n; i++) {
        scale = isfinite(expected[i]) ? fmax(scale, fabs(expected[i])) : scale;
        floats &= !isfinite(expected[i]) || (double)(float)expected[i] == expected[i];
        if (!element_wrong(expected[i], got[i], tol))
            continue;
        if (wrong++ == 0)
            first = i;
        double err = fabs(got[i] - expected[i]);
        double rel = err / fmax(fabs(expected[i]), DBL_MIN);
        worst_rel = isnan(rel) || rel > worst_rel ? (isnan(rel) ? INFINITY : rel) : worst_rel;
        if (isnan(err) || err > worst_err) {
            worst_err = isnan(err) ? INFINITY : err;
            worst = i;
        }
    }
    if (wrong == 0)
        return;
    char at[64], worst_at[64], shape[64];
    format_index(at, sizeof at, dims, ndims, first);
    format_index(worst_at, sizeof worst_at, dims, ndims, worst);
    if (ndims == 1)
        snprintf(shape, sizeof shape, "%zu", dims[0]);
    else if (ndims == 2)
        snprintf(shape, sizeof shape, "%zux%zu", dims[0], dims[1]);
    else
        snprintf(shape, sizeof shape, "%zux%zux%zu", dims[0], dims[1], dims[2]);
    const char *how = tol < 0 ? "exactly" : "within";
    char tolbuf[48] = "";
    if (tol >= 0)
        snprintf(tolbuf, sizeof tolbuf, " %.3g", tol);
    const char *hint = isnan(got[first]) && !isnan(expected[first])
                           ? " (the output was filled with NaN before the call: never written?)"
                           : ag_order_hint_array(worst_rel, worst_err, scale, floats);
    ck_abort_msg("%s: element %s expected %.17g, got %.17g%s; %zu of %zu elements (%s) not equal %s%s; "
                 "largest error %.3g at %s",
                 context, at, expected[first], got[first], hint, wrong, n, shape, how, tolbuf, worst_err,
                 worst_at);
}

/* The two public comparators differ only in the shape they pass on. */
static void assert_array_eqv(const double *expected, const double *got, const size_t *dims, int ndims, double tol,
                             const char *context_fmt, va_list ap)
{
    char context[512];
    vsnprintf(context, sizeof context, context_fmt, ap);
    assert_array_eq(expected, got, dims, ndims, tol, context);
}

void ag_assert_matrix_eq(const double *expected, const double *got, size_t rows, size_t cols, double tol,
                         const char *context_fmt, ...)
{
    size_t dims[2] = {rows, cols};
    va_list ap;
    va_start(ap, context_fmt);
    assert_array_eqv(expected, got, dims, cols == 1 ? 1 : 2, tol, context_fmt, ap);
    va_end(ap);
}

void ag_assert_grid_eq(const double *expected, const double *got, size_t n0, size_t n1, size_t n2, double tol,
                       const char *context_fmt, ...)
{
    size_t dims[3] = {n0, n1, n2};
    va_list ap;
    va_start(ap, context_fmt);
    assert_array_eqv(expected, got, dims, 3, tol, context_fmt, ap);
    va_end(ap);
}

void ag_poison(double *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = NAN;
}

double ag_max_abs(const double *a, size_t n)
{
    double mx = 0.0;
    for (size_t i = 0; i < n; i++)
        mx = fmax(mx, fabs(a[i]));
    return mx;
}
