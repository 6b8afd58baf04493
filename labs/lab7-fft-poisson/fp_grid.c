/* Lab 7's given code: the grid's checks and the discrete operator itself,
 * which the tests and the benchmark use to judge a solution. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "fft_poisson.h"

int fp_grid_check(const fp_grid *g)
{
    static const char axis[] = "xyz";
    for (int a = 0; a < 3; a++) {
        if (g->n[a] < 1 || g->n[a] > FP_MAX_N) {
            fprintf(stderr, "fft-poisson: n%c = %d cells: must be 1 .. %d\n", axis[a], g->n[a], FP_MAX_N);
            return -1;
        }
        if (!(g->L[a] > 0.0) || !isfinite(g->L[a])) {
            fprintf(stderr, "fft-poisson: L%c = %g: must be positive and finite\n", axis[a], g->L[a]);
            return -1;
        }
        if (g->bc[a] != FP_P && g->bc[a] != FP_N && g->bc[a] != FP_D) {
            fprintf(stderr, "fft-poisson: boundary type %d on axis %c: must be FP_P, FP_N or FP_D\n", (int)g->bc[a],
                    axis[a]);
            return -1;
        }
    }
    return 0;
}

fp_box fp_whole(const fp_grid *g) { return (fp_box){{0, 0, 0}, {g->n[0], g->n[1], g->n[2]}}; }

/* The neighbour of cell c (index along the axis: c, stride s, n cells) on
 * side -1 or +1, with the homogeneous ghost rules. */
static double neighbour(const double *u, size_t at, int c, size_t s, int n, int side, fp_bc bc)
{
    int d = c + side;
    if (d >= 0 && d < n)
        return side < 0 ? u[at - s] : u[at + s];
    switch (bc) {
    case FP_P: return side < 0 ? u[at + (size_t)(n - 1) * s] : u[at - (size_t)(n - 1) * s];
    case FP_N: return u[at];   /* ghost = u_0 - h*0 */
    default: return -u[at];    /* ghost = 2*0 - u_0 */
    }
}

void fp_apply_laplacian(const fp_grid *g, const double *u, double *Lu)
{
    const size_t stride[3] = {1, (size_t)g->n[0], (size_t)g->n[0] * g->n[1]};
    for (int k = 0; k < g->n[2]; k++)
        for (int j = 0; j < g->n[1]; j++)
            for (int i = 0; i < g->n[0]; i++) {
                size_t at = fp_index(g, i, j, k);
                const int c[3] = {i, j, k};
                double sum = 0.0;
                for (int a = 0; a < 3; a++) {
                    double h = fp_h(g, a);
                    double lo = neighbour(u, at, c[a], stride[a], g->n[a], -1, g->bc[a]);
                    double hi = neighbour(u, at, c[a], stride[a], g->n[a], +1, g->bc[a]);
                    sum += (lo - 2.0 * u[at] + hi) / (h * h);
                }
                Lu[at] = sum;
            }
}

double fp_residual(const fp_grid *g, const double *u, const double *f)
{
    size_t n = fp_cells(g);
    double mean = 0.0;
    if (fp_singular(g)) {
        for (size_t c = 0; c < n; c++)
            mean += f[c];
        mean /= (double)n;
    }
    double *Lu = kit_alloc_doubles(n);
    fp_apply_laplacian(g, u, Lu);
    double worst = 0.0, scale = 0.0;
    for (size_t c = 0; c < n; c++) {
        double fc = f[c] - mean, d = fabs(Lu[c] - fc);
        if (!(d <= worst)) /* NaN wins */
            worst = d;
        if (fabs(fc) > scale)
            scale = fabs(fc);
    }
    kit_free(Lu);
    return worst / (scale > 0.0 ? scale : 1.0);
}

int fp_pencils_check(const fp_grid *g, int pr, int pc)
{
    if (fp_grid_check(g) != 0)
        return -1;
    if (pr < 1 || pc < 1) {
        fprintf(stderr, "fft-poisson: a process grid of %d x %d ranks\n", pr, pc);
        return -1;
    }
    if (g->n[0] % pc || g->n[1] % pc || g->n[1] % pr || g->n[2] % pr) {
        fprintf(stderr, "fft-poisson: %d x %d ranks cannot split %d x %d x %d cells into equal pencils "
                        "(pc must divide nx and ny, pr must divide ny and nz)\n",
                pr, pc, g->n[0], g->n[1], g->n[2]);
        return -1;
    }
    return 0;
}

fp_box fp_pencil_box(const fp_grid *g, int pr, int pc, int r, int c, fp_pencil p)
{
    fp_box b = fp_whole(g);
    /* which axis each grid coordinate splits in each pencil */
    static const int by_c[3] = {1, 0, 0}, by_r[3] = {2, 2, 1};
    int ac = by_c[p], ar = by_r[p];
    b.n[ac] = g->n[ac] / pc, b.lo[ac] = c * b.n[ac];
    b.n[ar] = g->n[ar] / pr, b.lo[ar] = r * b.n[ar];
    return b;
}

fp_box fp_box_intersect(const fp_box *a, const fp_box *b)
{
    fp_box o;
    for (int x = 0; x < 3; x++) {
        int lo = a->lo[x] > b->lo[x] ? a->lo[x] : b->lo[x];
        int hi = a->lo[x] + a->n[x] < b->lo[x] + b->n[x] ? a->lo[x] + a->n[x] : b->lo[x] + b->n[x];
        o.lo[x] = lo, o.n[x] = hi > lo ? hi - lo : 0;
    }
    return o;
}

/* The parts' times the benchmark reads (fft_poisson.h). */
static double recorded[FP_PARTS];
static int recorded_any[FP_PARTS];

void fp_record_seconds(fp_part part, double seconds)
{
    if (part >= 0 && part < FP_PARTS) {
        recorded[part] += seconds;
        recorded_any[part] = 1;
    }
}

double fp_recorded_seconds(fp_part part)
{
    return part >= 0 && part < FP_PARTS && recorded_any[part] ? recorded[part] : -1.0;
}

void fp_reset_recorded(void)
{
    for (int p = 0; p < FP_PARTS; p++)
        recorded[p] = 0.0, recorded_any[p] = 0;
}
