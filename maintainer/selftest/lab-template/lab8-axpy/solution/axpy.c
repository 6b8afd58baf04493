/* Lab 8: the reference axpy (axpy.h): four elements a step, then the rest
 * one at a time. */
#include "axpy.h"

void axpy(size_t n, double a, const double *x, double *y)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        y[i] += a * x[i];
        y[i + 1] += a * x[i + 1];
        y[i + 2] += a * x[i + 2];
        y[i + 3] += a * x[i + 3];
    }
    for (; i < n; i++)
        y[i] += a * x[i];
}
