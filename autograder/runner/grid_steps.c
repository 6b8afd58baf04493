/* Grid comparison with the step hints: see grid_steps.h. */
#include "grid_steps.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "autograder.h"
#include "hints.h"

/* -1 or +1 when got is the reference one step off, else 0. */
static int step_off(const double *got, size_t n, double tol, int steps, ag_steps_fn reference, const void *arg)
{
    double *near = malloc(n * sizeof *near);
    int off = 0;
    for (int d = -1; near && d <= 1 && !off; d += 2)
        if (steps + d >= 0) {
            reference(arg, steps + d, near);
            off = ag_equal_doubles(near, got, n, tol) ? d : 0;
        }
    free(near);
    return off;
}

void ag_assert_grid_steps(const double *expected, const double *got, size_t n0, size_t n1, size_t n2, double tol,
                          int steps, const char *step, ag_steps_fn reference, const void *arg,
                          const char *context_fmt, ...)
{
    size_t n = n0 * n1 * n2;
    if (ag_equal_doubles(expected, got, n, tol))
        return;
    char context[512], hint[300];
    va_list ap;
    va_start(ap, context_fmt);
    vsnprintf(context, sizeof context, context_fmt, ap);
    va_end(ap);
    ag_step_hint(step_off(got, n, tol, steps, reference, arg), steps, step, hint, sizeof hint);
    ag_assert_grid_eq(expected, got, n0, n1, n2, tol, "%s%s", context, hint);
}
