#include "poisson.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int poisson_check_size(int N)
{
    if (N < 1) {
        fprintf(stderr, "error: N (interior points per direction) must be at least 1, got %d\n", N);
        return 1;
    }
    if (N > POISSON_MAX_N) {
        fprintf(stderr, "error: N = %d is larger than the kit's limit %d\n", N, POISSON_MAX_N);
        return 1;
    }
    return 0;
}

double poisson_boundary_value(int N, int i, int j, int k)
{
    int last = N + 1;
    if (j == 0)
        return POISSON_BOUNDARY_COLD; /* y = -1: the cold wall wins on its edges */
    if (i == 0 || i == last || j == last || k == 0 || k == last)
        return POISSON_BOUNDARY_HOT;
    return 0.0;
}

void poisson_init(int N, double T0, double *f, double *u)
{
    int last = N + 1;
    for (int i = 0; i <= last; i++)
        for (int j = 0; j <= last; j++)
            for (int k = 0; k <= last; k++) {
                size_t c = poisson_index(N, i, j, k);
                int interior = i > 0 && i < last && j > 0 && j < last && k > 0 && k < last;
                if (u)
                    u[c] = interior ? T0 : poisson_boundary_value(N, i, j, k);
                if (f)
                    f[c] = interior && poisson_in_radiator(N, i, j, k) ? POISSON_RADIATOR : 0.0;
            }
}

double poisson_jacobi_sweep(int N, const double *f, const double *u_old, double *u_new)
{
    size_t sj = poisson_side(N), si = sj * sj;
    double h = poisson_h(N), h2 = h * h, norm2 = 0.0;
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++) {
                size_t c = poisson_index(N, i, j, k);
                double v = poisson_jacobi_point(u_old, c, sj, si, h2 * f[c]);
                double d = v - u_old[c];
                norm2 += d * d;
                u_new[c] = v;
            }
    return norm2;
}

int poisson_jacobi_reference(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    double *src = u, *dst = u_old;
    memcpy(u_old, u, poisson_points(N) * sizeof *u); /* both need the boundary */
    int it = 0;
    while (it < max_iter) {
        double norm = sqrt(poisson_jacobi_sweep(N, f, src, dst));
        double *t = src;
        src = dst;
        dst = t;
        it++;
        if (norm <= tol)
            break;
    }
    if (src != u) /* an odd number of sweeps left the answer in u_old */
        memcpy(u, src, poisson_points(N) * sizeof *u);
    return it;
}

int poisson_gauss_seidel_reference(int N, double tol, int max_iter, const double *f, double *u)
{
    int it = 0;
    while (it < max_iter) {
        double norm2 = poisson_jacobi_sweep(N, f, u, u); /* in place: Gauss-Seidel */
        it++;
        if (sqrt(norm2) <= tol)
            break;
    }
    return it;
}

double poisson_residual_max(int N, const double *f, const double *u)
{
    size_t sj = poisson_side(N), si = sj * sj;
    double h = poisson_h(N), worst = 0.0;
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++) {
                size_t c = poisson_index(N, i, j, k);
                double lap = (6.0 * u[c] - u[c - si] - u[c + si] - u[c - sj] - u[c + sj] - u[c - 1] - u[c + 1]) / (h * h);
                worst = fmax(worst, fabs(lap - f[c]));
            }
    return worst;
}

size_t poisson_radiator_count(int N)
{
    size_t count = 0;
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++)
                count += (size_t)poisson_in_radiator(N, i, j, k);
    return count;
}
