/* Lab 7, stage 1 (reference): the eigenvalues, the boundary folding and the
 * Toeplitz Thomas solver. */
#include <math.h>
#include <stddef.h>

#include "fft_poisson.h"

double fp_eigenvalue(fp_bc bc, int k, int n)
{
    const double pi = acos(-1.0);
    switch (bc) {
    case FP_P: return -2.0 + 2.0 * cos(2.0 * pi * k / n);
    case FP_N: return -2.0 + 2.0 * cos(pi * k / n);
    default: return -2.0 + 2.0 * cos(pi * (k + 1) / n); /* DST-II index k is sin((k+1) ...) */
    }
}

int fp_thomas_toeplitz(int n, double off, double b0, double b, double bn, double *r, double *work)
{
    if (n == 1) {
        double d = b0 + bn - b;
        if (d == 0.0)
            return -1;
        r[0] /= d;
        return 0;
    }
    /* one division per row: the inverse pivot serves both updates */
    double aux = b0;
    if (aux == 0.0)
        return -1;
    double inv = 1.0 / aux;
    r[0] *= inv;
    for (int i = 1; i < n; i++) {
        work[i] = off * inv;
        aux = (i == n - 1 ? bn : b) - off * work[i];
        if (aux == 0.0)
            return -1;
        inv = 1.0 / aux;
        r[i] = (r[i] - off * r[i - 1]) * inv;
    }
    for (int i = n - 2; i >= 0; i--)
        r[i] -= work[i + 1] * r[i + 1];
    return 0;
}

void fp_fold_bc(const fp_grid *g, const fp_bcdata *bd, double *f)
{
    const size_t stride[3] = {1, (size_t)g->n[0], (size_t)g->n[0] * g->n[1]};
    for (int a = 0; a < 3; a++) {
        if (g->bc[a] == FP_P)
            continue;
        /* the face's two axes, the lower-numbered one fastest */
        int p = a == 0 ? 1 : 0, q = a == 2 ? 1 : 2;
        double h = fp_h(g, a);
        for (int side = 0; side < 2; side++) {
            const double *v = bd->face[a][side];
            if (!v)
                continue;
            size_t base = side ? (size_t)(g->n[a] - 1) * stride[a] : 0;
            for (int jq = 0; jq < g->n[q]; jq++)
                for (int jp = 0; jp < g->n[p]; jp++) {
                    double gv = v[(size_t)jp + (size_t)g->n[p] * jq];
                    size_t at = base + (size_t)jp * stride[p] + (size_t)jq * stride[q];
                    if (g->bc[a] == FP_D)
                        f[at] -= 2.0 * gv / (h * h);
                    else
                        f[at] += side ? -gv / h : gv / h;
                }
        }
    }
}
