/* Hints for a wrong result whose numbers alone do not say what went
 * wrong: see hints.h. No libm (fabs and isfinite are built in): the
 * checker programs link this file without -lm. */
#include "hints.h"

#include <math.h>
#include <stdio.h>

const char *ag_order_hint(double worst_rel, double close)
{
    return worst_rel > 0 && worst_rel < close
               ? " (close but not equal everywhere: the same numbers, another order of additions?)"
               : "";
}

const char *ag_order_hint_array(double worst_rel, double worst_err, double scale, int floats)
{
    double of_scale = scale > 0 ? worst_err / scale : INFINITY;
    const char *hint = ag_order_hint(worst_rel, AG_CLOSE_DOUBLE);
    return hint[0] ? hint : ag_order_hint(of_scale, floats ? AG_CLOSE_FLOAT : AG_CLOSE_DOUBLE_SCALE);
}

/* Element i of an array of floats or of doubles, as a double. */
static double at(const void *a, size_t i, int floats)
{
    return floats ? (double)((const float *)a)[i] : ((const double *)a)[i];
}

static double worst_rel(const void *want, const void *got, size_t n, int floats)
{
    double worst = 0, scale = 0;
    for (size_t i = 0; i < n; i++) {
        double w = at(want, i, floats), err = fabs(at(got, i, floats) - w);
        if (!isfinite(err) && isfinite(w))
            return INFINITY;
        scale = fabs(w) > scale ? fabs(w) : scale;
        worst = isfinite(err) && err > worst ? err : worst;
    }
    return scale > 0 ? worst / scale : worst > 0 ? INFINITY : 0;
}

double ag_worst_rel_float(const float *want, const float *got, size_t n) { return worst_rel(want, got, n, 1); }

double ag_worst_rel_double(const double *want, const double *got, size_t n) { return worst_rel(want, got, n, 0); }

int ag_equal_doubles(const double *want, const double *got, size_t n, double tol)
{
    for (size_t i = 0; i < n; i++)
        if (tol < 0 ? !(got[i] == want[i]) : !(fabs(got[i] - want[i]) <= tol))
            return 0;
    return 1;
}

int ag_equal_floats(const float *want, const float *got, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(got[i] == want[i]))
            return 0;
    return 1;
}

const char *ag_step_hint(int off, int steps, const char *step, char *buf, size_t cap)
{
    if (off < 0 && steps == 1) /* the step before the first is the start: said so, not "one step behind" */
        snprintf(buf, cap,
                 " (it equals the start, as if no %s was done: never written, or the answer left in the other "
                 "buffer?)",
                 step);
    else if (off < 0)
        snprintf(buf, cap,
                 " (it equals the expected answer of one %s earlier: one step behind? a loop one %s short, or the "
                 "answer left in the other buffer: a swap missing at the end)",
                 step, step);
    else if (off > 0)
        snprintf(buf, cap, " (it equals the expected answer of one %s later: one step ahead? a loop one %s too many)",
                 step, step);
    else if (cap > 0)
        buf[0] = '\0';
    return buf;
}
