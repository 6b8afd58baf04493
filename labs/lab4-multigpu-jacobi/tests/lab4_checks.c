#include "lab4_checks.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "gpu.h"
#include "autograder.h"
#include "offload_where.h"
#include "poisson.h"
#include "random.h"

const int l4_sweeps[5] = {0, 1, 2, 10, 100};
const int l4_sizes[5] = {8, 30, 47, 100, 130};

/* u and u_old both the initial state with interior value T0, as the
 * contract says; f the kit's radiator. */
static void l4_start(ag_grid *g, double T0)
{
    poisson_init(g->N, T0, NULL, g->u);
    memcpy(g->u_old, g->u, g->n * sizeof *g->u);
}

static void l4_check_f(const char *name, const ag_grid *g)
{
    double *f0 = kit_alloc_doubles(g->n);
    poisson_init(g->N, 0.0, f0, NULL);
    size_t s = poisson_side(g->N);
    ag_assert_grid_eq(f0, g->f, s, s, s, -1.0, "%s, N=%d: f (an input) changed", name, g->N);
    kit_free(f0);
}

void l4_check_sweeps(const char *name, l4_solver solver, int N, double T0, const int *sweeps, int nsweeps,
                     double close)
{
    ag_grid ref = ag_grid_new(N, T0), got = ag_grid_copy(&ref);
    size_t s = poisson_side(N);
    /* the reference advances from one count to the next */
    int done = 0;
    for (int c = 0; c < nsweeps; c++) {
        if (sweeps[c] > done)
            poisson_jacobi_reference(N, 0.0, sweeps[c] - done, ref.f, ref.u, ref.u_old);
        done = sweeps[c];
        l4_start(&got, T0);
        int it = solver(N, 0.0, sweeps[c], got.f, got.u, got.u_old);
        ck_assert_msg(it == sweeps[c], "%s, N=%d, T0=%g, tol=0, max_iter=%d: expected %d sweeps, got %d", name, N, T0,
                      sweeps[c], sweeps[c], it);
        ag_assert_grid_eq(ref.u, got.u, s, s, s, close, "%s, N=%d, T0=%g, %d sweeps (u against the CPU reference)", name,
                          N, T0, sweeps[c]);
        l4_check_f(name, &got);
    }
    ag_grid_free(&ref);
    ag_grid_free(&got);
}

void l4_check_fresh(const char *name, l4_solver solver, int N, int sweeps, double close)
{
    static const char *const starts[3] = {
        "", ", called again on a new start (a random interior) in the same arrays",
        ", called again on that start with one interior point changed"};
    ag_grid ref = ag_grid_new(N, 0.0), got = ag_grid_copy(&ref);
    size_t s = poisson_side(N);
    double *start = kit_alloc_doubles(ref.n);
    memcpy(start, ref.u, ref.n * sizeof *start);
    for (int round = 0; round < 3; round++) {
        if (round == 1) {
            kit_rng r = kit_rng_seed(4000 + (uint64_t)N);
            for (int i = 1; i <= N; i++)
                for (int j = 1; j <= N; j++)
                    for (int k = 1; k <= N; k++)
                        start[poisson_index(N, i, j, k)] = 20.0 * kit_rng_uniform(&r);
        } else if (round == 2) /* a key made of a sample of the contents does not change */
            start[poisson_index(N, (N + 1) / 2, (N + 2) / 3, (2 * N + 2) / 3)] += 5.0;
        memcpy(ref.u, start, ref.n * sizeof *start);
        memcpy(ref.u_old, start, ref.n * sizeof *start);
        memcpy(got.u, start, ref.n * sizeof *start);
        memcpy(got.u_old, start, ref.n * sizeof *start);
        poisson_jacobi_reference(N, 0.0, sweeps, ref.f, ref.u, ref.u_old);
        int it = solver(N, 0.0, sweeps, got.f, got.u, got.u_old);
        ck_assert_msg(it == sweeps, "%s, N=%d, tol=0, max_iter=%d%s: expected %d sweeps, got %d", name, N, sweeps,
                      starts[round], sweeps, it);
        ag_assert_grid_eq(ref.u, got.u, s, s, s, close, "%s, N=%d, %d sweeps%s (u against the CPU reference)", name, N,
                          sweeps, starts[round]);
    }
    kit_free(start);
    ag_grid_free(&ref);
    ag_grid_free(&got);
}

void l4_check_tolerance(const char *name, l4_solver solver, int N, double tol, double close)
{
    ag_grid ref = ag_grid_new(N, 0.0), got = ag_grid_copy(&ref);
    size_t s = poisson_side(N);
    int want = poisson_jacobi_reference(N, tol, 1 << 20, ref.f, ref.u, ref.u_old);
    int it = solver(N, tol, 1 << 20, got.f, got.u, got.u_old);
    ck_assert_msg(it >= want - 1 && it <= want + 1,
                  "%s, N=%d, tol=%g: the CPU reference stops after %d sweeps; expected %d +- 1, got %d", name, N, tol,
                  want, want, it);
    l4_start(&ref, 0.0);
    poisson_jacobi_reference(N, 0.0, it, ref.f, ref.u, ref.u_old);
    ag_assert_grid_eq(ref.u, got.u, s, s, s, close,
                      "%s, N=%d, tol=%g, stopped after %d sweeps: u must be the grid after %d sweeps", name, N, tol,
                      it, it);
    ag_grid_free(&ref);
    ag_grid_free(&got);
}

int l4_offload_reaches_the_gpu(char *why, int len)
{
    int gpus = gpu_count();
    if (gpus == 0 || offload_runs_on_device() != 0) /* -1: not loaded; its tests fail saying why */
        return 1;
    snprintf(why, (size_t)len,
             "this host has %d GPU(s), but jacobi_offload.c's target regions run on the host "
             "(no clang-16 or gcc-12 with GPU offloading, or its runtime finds no GPU): a host run is no GPU result",
             gpus);
    return 0;
}
