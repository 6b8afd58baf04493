#include "lab2_checks.h"

#include <math.h>
#include <string.h>

#include <omp.h>

#include "alloc.h"
#include "grader.h"
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

const l2_solver *l2_find(const char *name)
{
    for (int i = 0; i < l2_solver_count; i++)
        if (!strcmp(l2_solvers[i].name, name))
            return &l2_solvers[i];
    ck_abort_msg("test bug: no solver %s", name);
    return NULL;
}

l2_grid l2_grid_new(int N, double T0)
{
    l2_grid g = {N, poisson_points(N), NULL, NULL, NULL};
    g.f = kit_alloc_doubles(g.n);
    g.u = kit_alloc_doubles(g.n);
    g.u_old = kit_alloc_doubles(g.n);
    poisson_init(N, T0, g.f, g.u);
    return g;
}

l2_grid l2_grid_copy(const l2_grid *g)
{
    l2_grid c = *g;
    c.f = kit_alloc_doubles(g->n);
    c.u = kit_alloc_doubles(g->n);
    c.u_old = kit_alloc_doubles(g->n);
    memcpy(c.f, g->f, g->n * sizeof *g->f);
    memcpy(c.u, g->u, g->n * sizeof *g->u);
    return c;
}

void l2_grid_free(l2_grid *g)
{
    kit_free(g->f);
    kit_free(g->u);
    kit_free(g->u_old);
    g->f = g->u = g->u_old = NULL;
}

/* u_old: u's boundary, NaN inside, so that a Jacobi that reads u_old before
 * writing it shows. */
static void prepare_u_old(l2_grid *g)
{
    int N = g->N, last = N + 1;
    memcpy(g->u_old, g->u, g->n * sizeof *g->u);
    for (int i = 1; i < last; i++)
        for (int j = 1; j < last; j++)
            ag_poison(g->u_old + poisson_index(N, i, j, 1), (size_t)N);
}

int l2_run(const l2_solver *s, l2_grid *g, double T0, double tol, int max_iter, int threads)
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

int l2_reference(const l2_solver *s, l2_grid *g, double tol, int max_iter)
{
    return s->jacobi ? poisson_jacobi_reference(g->N, tol, max_iter, g->f, g->u, g->u_old)
                     : poisson_gauss_seidel_reference(g->N, tol, max_iter, g->f, g->u);
}

void l2_check_fixed_sweeps(const l2_solver *s, int N, double T0, int sweeps, int threads)
{
    l2_grid ref = l2_grid_new(N, T0), got = l2_grid_copy(&ref);
    int it = l2_run(s, &got, T0, 0.0, sweeps, threads);
    /* On tiny grids a sweep can reach the fixed point exactly (an update of
     * norm 0 <= tol = 0): stopping there, as the reference does, or going
     * on to max_iter gives the same u. */
    int ref_it = l2_reference(s, &ref, 0.0, sweeps);
    ck_assert_msg(it == sweeps || it == ref_it,
                  "%s, N=%d, T0=%g, tol=0, max_iter=%d, %d thread(s): returned %d sweeps, expected %d",
                  s->name, N, T0, sweeps, threads, it, sweeps);
    size_t side = poisson_side(N);
    ag_assert_grid_eq(ref.u, got.u, side, side, side, -1.0,
                      "%s, N=%d, T0=%g, after %d sweep(s) with %d thread(s), u[i][j][k] against the kit's "
                      "sequential %s (bit for bit)",
                      s->name, N, T0, sweeps, threads, s->jacobi ? "Jacobi" : "Gauss-Seidel");
    l2_grid_free(&ref);
    l2_grid_free(&got);
}

void l2_check_tolerance(const l2_solver *s, int N, double T0, double tol, int threads)
{
    const int max_iter = 100000;
    l2_grid start = l2_grid_new(N, T0), ref = l2_grid_copy(&start), got = l2_grid_copy(&start);
    int want = l2_reference(s, &ref, tol, max_iter);
    int it = l2_run(s, &got, T0, tol, max_iter, threads);
    ck_assert_msg(it >= want - 1 && it <= want + 1,
                  "%s, N=%d, T0=%g, tol=%g, %d thread(s): stopped after %d sweeps; the kit's reference needs %d "
                  "(the norm of the update must be <= tol: sqrt of the sum of squared changes over the interior)",
                  s->name, N, T0, tol, threads, it, want);
    /* The same number of sweeps must give the same bits. */
    l2_grid again = l2_grid_copy(&start);
    l2_reference(s, &again, 0.0, it);
    size_t side = poisson_side(N);
    ag_assert_grid_eq(again.u, got.u, side, side, side, -1.0,
                      "%s, N=%d, T0=%g, tol=%g, %d thread(s): u after its %d sweeps against the reference after "
                      "as many (bit for bit)",
                      s->name, N, T0, tol, threads, it);
    l2_grid_free(&start);
    l2_grid_free(&ref);
    l2_grid_free(&got);
    l2_grid_free(&again);
}
