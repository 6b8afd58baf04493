/* Poisson grids for the tests, and a solver's grid compared with the step
 * hints: see grid.h. */
#include "grid.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "autograder.h"
#include "hints.h"
#include "poisson.h"

ag_grid ag_grid_new(int N, double T0)
{
    ag_grid g = {N, poisson_points(N), NULL, NULL, NULL};
    g.f = kit_alloc_doubles(g.n);
    g.u = kit_alloc_doubles(g.n);
    g.u_old = kit_alloc_doubles(g.n);
    poisson_init(N, T0, g.f, g.u);
    memcpy(g.u_old, g.u, g.n * sizeof *g.u);
    return g;
}

ag_grid ag_grid_copy(const ag_grid *g)
{
    ag_grid c = *g;
    c.f = kit_alloc_doubles(g->n);
    c.u = kit_alloc_doubles(g->n);
    c.u_old = kit_alloc_doubles(g->n);
    memcpy(c.f, g->f, g->n * sizeof *g->f);
    memcpy(c.u, g->u, g->n * sizeof *g->u);
    memcpy(c.u_old, g->u_old, g->n * sizeof *g->u_old);
    return c;
}

void ag_grid_free(ag_grid *g)
{
    kit_free(g->f), kit_free(g->u), kit_free(g->u_old);
    g->f = g->u = g->u_old = NULL;
}

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
