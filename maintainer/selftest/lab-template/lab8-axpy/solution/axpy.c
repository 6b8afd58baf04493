/* Lab 8: the reference axpy (axpy.h). */
#include "axpy.h"

void axpy(size_t n, double a, const double *x, double *y)
{
    for (size_t i = 0; i < n; i++)
        y[i] += a * x[i];
}
