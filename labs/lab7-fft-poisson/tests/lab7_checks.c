#include "lab7_checks.h"

#include <math.h>

#include "random.h"

void l7_random(double *a, size_t n, unsigned seed) { kit_fill_real(a, n, -1.0, 1.0, seed); }

void l7_direct_r2r(fp_bc bc, int n, const double *x, size_t stride, double *y)
{
    const double pi = acos(-1.0);
    for (int k = 0; k < n; k++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) {
            double xj = x[(size_t)j * stride];
            if (bc == FP_N)
                s += 2.0 * xj * cos(pi * (j + 0.5) * k / n);
            else if (bc == FP_D)
                s += 2.0 * xj * sin(pi * (j + 0.5) * (k + 1) / n);
            else if (2 * k <= n) /* real part of frequency k */
                s += xj * cos(2.0 * pi * (double)j * k / n);
            else /* imaginary part of frequency n - k */
                s -= xj * sin(2.0 * pi * (double)j * (n - k) / n);
        }
        y[k] = s;
    }
}
