/* Lab 7's manufactured solutions (fp_mms.h): given code, used by the
 * driver (fft_poisson mms|fold|slice) and by the tests. */
#include "fp_mms.h"

#include <math.h>
#include <string.h>

#include "alloc.h"

fp_grid l7_grid(const char *bcs, int nx, int ny, int nz, double L)
{
    fp_grid g = {{nx, ny, nz}, {L, L, L}, {FP_P, FP_P, FP_P}};
    for (int a = 0; a < 3; a++)
        g.bc[a] = bcs[a] == 'D' ? FP_D : bcs[a] == 'N' ? FP_N : FP_P;
    return g;
}

double l7_mean(const double *a, size_t n)
{
    double s = 0.0;
    for (size_t c = 0; c < n; c++)
        s += a[c];
    return s / (double)n;
}

double l7_rms(const double *a, size_t n)
{
    double s = 0.0;
    for (size_t c = 0; c < n; c++)
        s += a[c] * a[c];
    return sqrt(s / (double)n);
}

double l7_rms_diff(const double *a, const double *b, size_t n, int zero_mean)
{
    double ma = zero_mean ? l7_mean(a, n) : 0.0, mb = zero_mean ? l7_mean(b, n) : 0.0, s = 0.0;
    for (size_t c = 0; c < n; c++) {
        double d = (a[c] - ma) - (b[c] - mb);
        s += d * d;
    }
    return sqrt(s / (double)n);
}

double l7_max_abs(const double *a, size_t n)
{
    double m = 0.0;
    for (size_t c = 0; c < n; c++)
        if (!(fabs(a[c]) <= m))
            m = fabs(a[c]);
    return m;
}

static double centre(const fp_grid *g, int a, int i) { return (i + 0.5) * fp_h(g, a); }

void l7_eigenmode(const fp_grid *g, const int w[3], int part, double *u, double *f)
{
    double S = (double)w[0] * w[0] + (double)w[1] * w[1] + (double)w[2] * w[2];
    for (int k = 0; k < g->n[2]; k++)
        for (int j = 0; j < g->n[1]; j++)
            for (int i = 0; i < g->n[0]; i++) {
                const int c[3] = {i, j, k};
                double prod = 1.0, phase = 0.0;
                for (int a = 0; a < 3; a++) {
                    double x = centre(g, a, c[a]);
                    if (g->bc[a] == FP_D)
                        prod *= sin(w[a] * x);
                    else if (g->bc[a] == FP_N)
                        prod *= cos(w[a] * x);
                    else
                        phase += w[a] * x;
                }
                double v = prod * (part ? sin(phase) : cos(phase));
                size_t at = fp_index(g, i, j, k);
                if (u)
                    u[at] = v;
                if (f)
                    f[at] = -S * v;
            }
}

double l7_eigenmode_error(l7_solver solve, const fp_grid *g, const int w[3], double *oracle, double *linf)
{
    size_t n = fp_cells(g);
    int periodic = g->bc[0] == FP_P || g->bc[1] == FP_P || g->bc[2] == FP_P;
    double *u = kit_alloc_doubles(n), *f = kit_alloc_doubles(n), *e2 = kit_alloc_doubles(n), *u2 = kit_alloc_doubles(n);
    memset(e2, 0, n * sizeof *e2);
    memset(u2, 0, n * sizeof *u2);
    int rc = 0;
    for (int part = 0; part < (periodic ? 2 : 1); part++) {
        l7_eigenmode(g, w, part, u, f);
        rc |= solve(g, f);
        for (size_t c = 0; c < n; c++) {
            e2[c] += (f[c] - u[c]) * (f[c] - u[c]);
            u2[c] += u[c] * u[c];
        }
    }
    double se = 0.0, su = 0.0, worst = 0.0;
    for (size_t c = 0; c < n; c++) {
        se += e2[c];
        su += u2[c];
        if (!(sqrt(e2[c]) <= worst))
            worst = sqrt(e2[c]);
    }
    double S = 0.0, Lambda = 0.0;
    for (int a = 0; a < 3; a++) {
        double h = fp_h(g, a);
        S += (double)w[a] * w[a];
        Lambda += (2.0 - 2.0 * cos(w[a] * h)) / (h * h);
    }
    *oracle = fabs(S / Lambda - 1.0) * sqrt(su / (double)n);
    if (linf)
        *linf = worst;
    kit_free(u);
    kit_free(f);
    kit_free(e2);
    kit_free(u2);
    return rc ? NAN : sqrt(se / (double)n);
}

/* The manufactured solution of the folding tests, and its derivatives. */
static double mu(double x, double y, double z) { return exp(0.5 * x) * sin(y + 0.5) * cos(0.7 * z + 0.2); }
static double mu_d(int a, double x, double y, double z)
{
    switch (a) {
    case 0: return 0.5 * mu(x, y, z);
    case 1: return exp(0.5 * x) * cos(y + 0.5) * cos(0.7 * z + 0.2);
    default: return -0.7 * exp(0.5 * x) * sin(y + 0.5) * sin(0.7 * z + 0.2);
    }
}

double l7_fold_error(const char *bcs, int nx, int ny, int nz, double *linf, double *ghost_residual)
{
    fp_grid g = l7_grid(bcs, nx, ny, nz, 1.0);
    size_t n = fp_cells(&g);
    double *u = kit_alloc_doubles(n), *f = kit_alloc_doubles(n), *f0 = kit_alloc_doubles(n);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                size_t at = fp_index(&g, i, j, k);
                u[at] = mu(centre(&g, 0, i), centre(&g, 1, j), centre(&g, 2, k));
                f[at] = f0[at] = (0.25 - 1.0 - 0.49) * u[at];
            }
    /* face values: u (D) or du/da (N) at the face's cell centres */
    double *faces[3][2] = {{0}};
    fp_bcdata bd = {{{0}}};
    for (int a = 0; a < 3; a++) {
        if (g.bc[a] == FP_P)
            continue;
        int p = a == 0 ? 1 : 0, q = a == 2 ? 1 : 2;
        for (int side = 0; side < 2; side++) {
            faces[a][side] = kit_alloc_doubles((size_t)g.n[p] * g.n[q]);
            for (int jq = 0; jq < g.n[q]; jq++)
                for (int jp = 0; jp < g.n[p]; jp++) {
                    double x[3];
                    x[a] = side ? g.L[a] : 0.0;
                    x[p] = centre(&g, p, jp);
                    x[q] = centre(&g, q, jq);
                    faces[a][side][(size_t)jp + (size_t)g.n[p] * jq] =
                        g.bc[a] == FP_D ? mu(x[0], x[1], x[2]) : mu_d(a, x[0], x[1], x[2]);
                }
            bd.face[a][side] = faces[a][side];
        }
    }
    fp_fold_bc(&g, &bd, f);
    int rc = fp_solve_serial(&g, f); /* f is now the discrete solution */
    double err = rc ? NAN : l7_rms_diff(f, u, n, fp_singular(&g));
    if (linf) {
        double mf = fp_singular(&g) ? l7_mean(f, n) : 0.0, mu0 = fp_singular(&g) ? l7_mean(u, n) : 0.0, w = 0.0;
        for (size_t c = 0; c < n; c++)
            if (!(fabs((f[c] - mf) - (u[c] - mu0)) <= w))
                w = fabs((f[c] - mf) - (u[c] - mu0));
        *linf = rc ? NAN : w;
    }
    if (ghost_residual) {
        /* the stencil at every cell, ghosts from the face data by the rules
         * of fft_poisson.h, against the original f */
        const double *s = f;
        double *d = kit_alloc_doubles(n);
        const size_t stride[3] = {1, (size_t)nx, (size_t)nx * ny};
        for (int k = 0; k < nz; k++)
            for (int j = 0; j < ny; j++)
                for (int i = 0; i < nx; i++) {
                    const int c[3] = {i, j, k};
                    size_t at = fp_index(&g, i, j, k);
                    double sum = 0.0;
                    for (int a = 0; a < 3; a++) {
                        double h = fp_h(&g, a), nb[2];
                        int p = a == 0 ? 1 : 0, q = a == 2 ? 1 : 2;
                        for (int side = 0; side < 2; side++) {
                            int m = c[a] + (side ? 1 : -1);
                            if (m >= 0 && m < g.n[a]) {
                                nb[side] = s[side ? at + stride[a] : at - stride[a]];
                            } else if (g.bc[a] == FP_P) {
                                nb[side] = s[side ? at - (size_t)(g.n[a] - 1) * stride[a]
                                                  : at + (size_t)(g.n[a] - 1) * stride[a]];
                            } else {
                                double gv = faces[a][side][(size_t)c[p] + (size_t)g.n[p] * c[q]];
                                nb[side] = g.bc[a] == FP_D ? 2.0 * gv - s[at] : s[at] + (side ? h : -h) * gv;
                            }
                        }
                        sum += (nb[0] - 2.0 * s[at] + nb[1]) / (h * h);
                    }
                    d[at] = sum - f0[at];
                }
        /* singular: the solver removed the folded f's mean, a constant */
        double md = fp_singular(&g) ? l7_mean(d, n) : 0.0;
        for (size_t c = 0; c < n; c++)
            d[c] -= md;
        *ghost_residual = rc ? NAN : l7_max_abs(d, n) / l7_max_abs(f0, n);
        kit_free(d);
    }
    for (int a = 0; a < 3; a++)
        for (int side = 0; side < 2; side++)
            if (faces[a][side])
                kit_free(faces[a][side]);
    kit_free(u);
    kit_free(f);
    kit_free(f0);
    return err;
}
