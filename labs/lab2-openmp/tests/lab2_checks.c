#include "lab2_checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "alloc.h"
#include "autograder.h"
#include "mandel.h"
#include "poisson.h"
#include "poisson_omp.h"

const l2_solver l2_solvers[] = {
    {"jacobi", jacobi, NULL, 0, 0},
    {"gauss_seidel", NULL, gauss_seidel, 0, 0},
    {"jacobi_omp_v1", jacobi_omp_v1, NULL, 0, 1},
    {"jacobi_omp_v2", jacobi_omp_v2, NULL, 0, 1},
    {"poisson_init_omp + jacobi_omp_v2 (v3)", jacobi_omp_v2, NULL, 1, 1},
    {"gauss_seidel_omp", NULL, gauss_seidel_omp, 0, 1},
};
const int l2_solver_count = (int)(sizeof l2_solvers / sizeof l2_solvers[0]);

/* u_old: u's boundary, NaN inside, so that a Jacobi that reads u_old before
 * writing it shows. */
static void prepare_u_old(ag_grid *g)
{
    int N = g->N, last = N + 1;
    memcpy(g->u_old, g->u, g->n * sizeof *g->u);
    for (int i = 1; i < last; i++)
        for (int j = 1; j < last; j++)
            ag_poison(g->u_old + poisson_index(N, i, j, 1), (size_t)N);
}

int l2_run(const l2_solver *s, ag_grid *g, double T0, double tol, int max_iter, int threads)
{
    if (threads > 0) {
        omp_set_dynamic(0);
        omp_set_num_threads(threads);
    }
    if (s->first_touch)
        poisson_init_omp(g->N, T0, g->f, g->u, g->u_old);
    else if (s->jacobi)
        prepare_u_old(g);
    return s->jacobi ? s->jacobi(g->N, tol, max_iter, g->f, g->u, g->u_old)
                     : s->gauss_seidel(g->N, tol, max_iter, g->f, g->u);
}

/* The reference's runs, kept: a check runs the same one for every thread
 * count and for each solver of a kind, and the same start gives the same
 * bits. A run is found by all it reads (its start compared whole, not
 * hashed), so a kept one is the run itself. */
enum { KEPT_RUNS = 8, KEPT_MIN_SWEEPS = 16 };
typedef struct {
    int jacobi, N, max_iter, sweeps; /* sweeps: 0 until the run's results are in */
    double tol;
    double *f, *u_start, *u, *u_old; /* its inputs, then its results */
} kept_run;
static kept_run kept[KEPT_RUNS];
static int kept_next;

static kept_run *kept_find(const l2_solver *s, const ag_grid *g, double tol, int max_iter)
{
    size_t bytes = g->n * sizeof(double);
    for (int r = 0; r < KEPT_RUNS; r++) {
        kept_run *k = &kept[r];
        if (k->sweeps && k->jacobi == (s->jacobi != NULL) && k->N == g->N && k->max_iter == max_iter &&
            k->tol == tol && !memcmp(k->f, g->f, bytes) && !memcmp(k->u_start, g->u, bytes))
            return k;
    }
    return NULL;
}

/* A slot for the run about to start, its inputs copied in; NULL where
 * there is no memory for it (the run is then not kept). */
static kept_run *kept_inputs(const l2_solver *s, const ag_grid *g, double tol, int max_iter)
{
    kept_run *k = &kept[kept_next];
    kept_next = (kept_next + 1) % KEPT_RUNS;
    free(k->f), free(k->u_start), free(k->u), free(k->u_old);
    size_t bytes = g->n * sizeof(double);
    *k = (kept_run){.jacobi = s->jacobi != NULL, .N = g->N, .max_iter = max_iter, .tol = tol, .f = malloc(bytes),
                    .u_start = malloc(bytes), .u = malloc(bytes), .u_old = malloc(bytes)};
    if (!k->f || !k->u_start || !k->u || !k->u_old) {
        free(k->f), free(k->u_start), free(k->u), free(k->u_old);
        *k = (kept_run){0};
        return NULL;
    }
    memcpy(k->f, g->f, bytes);
    memcpy(k->u_start, g->u, bytes);
    return k;
}

static int reference_run(const l2_solver *s, ag_grid *g, double tol, int max_iter)
{
    return s->jacobi ? poisson_jacobi_reference(g->N, tol, max_iter, g->f, g->u, g->u_old)
                     : poisson_gauss_seidel_reference(g->N, tol, max_iter, g->f, g->u);
}

int l2_reference(const l2_solver *s, ag_grid *g, double tol, int max_iter)
{
    if (max_iter < KEPT_MIN_SWEEPS) /* cheaper to run than to keep */
        return reference_run(s, g, tol, max_iter);
    size_t bytes = g->n * sizeof(double);
    kept_run *k = kept_find(s, g, tol, max_iter);
    if (k) {
        memcpy(g->u, k->u, bytes);
        if (k->jacobi) /* Gauss-Seidel's leaves u_old alone */
            memcpy(g->u_old, k->u_old, bytes);
        return k->sweeps;
    }
    k = kept_inputs(s, g, tol, max_iter);
    int sweeps = reference_run(s, g, tol, max_iter);
    if (k) {
        memcpy(k->u, g->u, bytes);
        memcpy(k->u_old, g->u_old, bytes);
        k->sweeps = sweeps;
    }
    return sweeps;
}

/* The reference after k sweeps from the kit's problem (arg: an
 * l2_start), for the "one step behind?" hint. */
static void reference_after(const void *arg, int k, double *out)
{
    const l2_start *st = arg;
    ag_grid g = ag_grid_new(st->N, st->T0);
    l2_reference(st->solver, &g, 0.0, k);
    memcpy(out, g.u, g.n * sizeof *out);
    ag_grid_free(&g);
}

void l2_assert_after_sweeps(const l2_solver *s, int N, double T0, const double *want, const double *got, int sweeps,
                            const char *context)
{
    size_t side = poisson_side(N);
    l2_start st = {s, N, T0};
    ag_assert_grid_steps(want, got, side, side, side, -1.0, sweeps, "sweep", reference_after, &st, "%s", context);
}

/* The threads a check runs s on where it would run `threads`: those, or
 * under chaos a drawn count (ag_omp_threads, chaos.h), more than the cores
 * but for gauss_seidel_omp, whose wavefront of spinning waits crawls then
 * (test_lab2_poisson.c's thread_cap). */
static int threads_for(const l2_solver *s, int threads)
{
    int cores = omp_get_num_procs() < 2 ? 2 : omp_get_num_procs();
    return ag_omp_threads(threads, s->gauss_seidel && s->threaded ? cores : 0);
}

void l2_check_fixed_sweeps(const l2_solver *s, int N, double T0, int sweeps, int threads)
{
    threads = threads_for(s, threads);
    ag_grid ref = ag_grid_new(N, T0), got = ag_grid_copy(&ref);
    int it = l2_run(s, &got, T0, 0.0, sweeps, threads);
    /* On tiny grids a sweep can reach the fixed point exactly (an update of
     * norm 0 <= tol = 0): stopping there, as the reference does, or going
     * on to max_iter gives the same u. */
    int ref_it = l2_reference(s, &ref, 0.0, sweeps);
    ck_assert_msg(it == sweeps || it == ref_it,
                  "%s, N=%d, T0=%g, tol=0, max_iter=%d, %d thread(s): returned %d sweeps, expected %d",
                  s->name, N, T0, sweeps, threads, it, sweeps);
    char context[300];
    snprintf(context, sizeof context,
             "%s, N=%d, T0=%g, after %d sweep(s) with %d thread(s), u[i][j][k] against the kit's sequential %s "
             "(bit for bit)",
             s->name, N, T0, sweeps, threads, s->jacobi ? "Jacobi" : "Gauss-Seidel");
    l2_assert_after_sweeps(s, N, T0, ref.u, got.u, sweeps, context);
    ag_grid_free(&ref);
    ag_grid_free(&got);
}

void l2_check_tolerance(const l2_solver *s, int N, double T0, double tol, int threads)
{
    const int max_iter = 100000;
    threads = threads_for(s, threads);
    ag_grid start = ag_grid_new(N, T0), ref = ag_grid_copy(&start), got = ag_grid_copy(&start);
    int want = l2_reference(s, &ref, tol, max_iter);
    int it = l2_run(s, &got, T0, tol, max_iter, threads);
    ck_assert_msg(it >= want - 1 && it <= want + 1,
                  "%s, N=%d, T0=%g, tol=%g, %d thread(s): stopped after %d sweeps; the kit's reference needs %d "
                  "(the norm of the update must be <= tol: sqrt of the sum of squared changes over the interior)",
                  s->name, N, T0, tol, threads, it, want);
    /* The same number of sweeps must give the same bits (the reference's
     * run to tol is that run when the sweeps agree). */
    ag_grid again = ag_grid_copy(it == want ? &ref : &start);
    if (it != want)
        l2_reference(s, &again, 0.0, it);
    char context[300];
    snprintf(context, sizeof context,
             "%s, N=%d, T0=%g, tol=%g, %d thread(s): u after its %d sweeps against the reference after as many "
             "(bit for bit)",
             s->name, N, T0, tol, threads, it);
    l2_assert_after_sweeps(s, N, T0, again.u, got.u, it, context);
    ag_grid_free(&start);
    ag_grid_free(&ref);
    ag_grid_free(&got);
    ag_grid_free(&again);
}

/* The norm of the update between two iterates, in long double. */
static double update_norm(int N, const double *before, const double *after)
{
    long double sum = 0.0L;
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++) {
                size_t c = poisson_index(N, i, j, k);
                long double d = (long double)after[c] - before[c];
                sum += d * d;
            }
    return (double)sqrtl(sum);
}

/* u = sin(pi x) sin(pi y) sin(pi z) inside, 0 on the boundary, f = 0: nearly
 * an eigenvector of the Jacobi sweep (factor cos(pi h)), so the norm of the
 * update shrinks by only about 2 h^2 per sweep and every sweep's norm lies
 * close to tol. */
static ag_grid slowest_mode(int N)
{
    ag_grid g = ag_grid_new(N, 0.0);
    const double h = poisson_h(N), pi = acos(-1.0);
    for (int i = 0; i <= N + 1; i++)
        for (int j = 0; j <= N + 1; j++)
            for (int k = 0; k <= N + 1; k++) {
                size_t c = poisson_index(N, i, j, k);
                int inside = i >= 1 && i <= N && j >= 1 && j <= N && k >= 1 && k <= N;
                g.f[c] = 0.0;
                g.u[c] = inside ? sin(pi * (-1 + i * h)) * sin(pi * (-1 + j * h)) * sin(pi * (-1 + k * h)) : 0.0;
            }
    return g;
}

void l2_check_norm_counts_every_thread(const l2_solver *s, int N, int sweeps, int threads, int repeats)
{
    ck_assert_msg(!s->first_touch, "test bug: %s sets up its own problem", s->name);
    ag_grid start = slowest_mode(N), ref = ag_grid_copy(&start);
    double *before = kit_alloc_doubles(start.n), smallest = INFINITY, largest = 0.0;
    for (int w = 1; w <= sweeps; w++) {
        memcpy(before, ref.u, start.n * sizeof *before);
        l2_reference(s, &ref, 0.0, 1);
        double norm = update_norm(N, before, ref.u);
        smallest = fmin(smallest, norm);
        largest = fmax(largest, norm);
    }
    const double tol = smallest * (1.0 - 1e-9);
    for (int r = 0; r < repeats; r++) {
        ag_grid got = ag_grid_copy(&start);
        int it = l2_run(s, &got, 0.0, tol, sweeps + 1, threads);
        ag_grid_free(&got);
        ck_assert_msg(it == sweeps + 1,
                      "%s, N=%d, u = sin(pi x) sin(pi y) sin(pi z), f = 0, %d threads, max_iter=%d, tol=%.17g (run %d "
                      "of %d): stopped after %d sweeps, but the norms of the first %d sweeps lie between %.17g and "
                      "%.6g, all above tol: the norm lost part of its sum. Does every thread add its share of the "
                      "sum of squares through a reduction (a shared sum that several threads update at once loses "
                      "updates)?",
                      s->name, N, threads, sweeps + 1, tol, r + 1, repeats, it, sweeps, smallest, largest);
    }
    kit_free(before);
    ag_grid_free(&start);
    ag_grid_free(&ref);
}

void l2_mandel_check(const int *want, const char *against, int width, int height, int max_iter, int threads,
                     const char *sched_name, omp_sched_t kind, int chunk)
{
    size_t n = (size_t)width * height;
    threads = ag_omp_threads(threads, 0); /* the schedule is the check's; under chaos, the count is drawn */
    int *got = malloc(n * sizeof *got);
    ck_assert_msg(got != NULL, "test: out of memory");
    for (size_t c = 0; c < n; c++)
        got[c] = -1;
    omp_set_dynamic(0);
    omp_set_num_threads(threads);
    omp_set_schedule(kind, chunk);
    mandel(width, height, max_iter, got);
    size_t wrong = 0, first = 0;
    for (size_t c = 0; c < n; c++)
        if (got[c] != want[c] && wrong++ == 0)
            first = c;
    if (wrong) {
        int px = (int)(first / (size_t)height), py = (int)(first % (size_t)height);
        ck_abort_msg("mandel(%d, %d, %d), %d thread(s), schedule %s, against %s: pixel (px=%d, py=%d) = img[%zu] "
                     "should be %d, got %d%s; %zu of %zu pixels differ (img[px * height + py]; x = px * 3.5/width - "
                     "2.25, y = py * 3.5/height - 1.75)",
                     width, height, max_iter, threads, sched_name, against, px, py, first, want[first], got[first],
                     got[first] == -1 ? " (never written)" : "", wrong, n);
    }
    free(got);
}
