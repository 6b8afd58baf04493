#define _POSIX_C_SOURCE 200809L /* readlink, mkstemp */
#include "lab4_checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "grader.h"
#include "poisson.h"

const int l4_sweeps[5] = {0, 1, 2, 10, 100};
const int l4_sizes[5] = {8, 30, 47, 100, 130};

typedef struct {
    int N;
    double *f, *u, *u_old, *ref, *ref_old;
} l4_arrays;

static l4_arrays l4_alloc(int N)
{
    size_t n = poisson_points(N);
    l4_arrays a = {N, kit_alloc_doubles(n), kit_alloc_doubles(n), kit_alloc_doubles(n), kit_alloc_doubles(n),
                   kit_alloc_doubles(n)};
    return a;
}

static void l4_free(l4_arrays *a)
{
    kit_free(a->f);
    kit_free(a->u);
    kit_free(a->u_old);
    kit_free(a->ref);
    kit_free(a->ref_old);
}

/* u and u_old both the initial state, as the contract says. */
static void l4_start(l4_arrays *a, double T0)
{
    poisson_init(a->N, T0, a->f, a->u);
    memcpy(a->u_old, a->u, poisson_points(a->N) * sizeof *a->u);
}

static void l4_check_f(const char *name, l4_arrays *a)
{
    double *f0 = kit_alloc_doubles(poisson_points(a->N));
    poisson_init(a->N, 0.0, f0, NULL);
    size_t s = poisson_side(a->N);
    ag_assert_grid_eq(f0, a->f, s, s, s, -1.0, "%s, N=%d: f (an input) changed", name, a->N);
    kit_free(f0);
}

void l4_check_sweeps(const char *name, l4_solver solver, int N, double T0, const int *sweeps, int nsweeps,
                     double close)
{
    l4_arrays a = l4_alloc(N);
    size_t s = poisson_side(N);
    /* the reference advances from one count to the next */
    poisson_init(N, T0, NULL, a.ref);
    poisson_init(N, T0, a.f, NULL);
    int done = 0;
    for (int c = 0; c < nsweeps; c++) {
        if (sweeps[c] > done)
            poisson_jacobi_reference(N, 0.0, sweeps[c] - done, a.f, a.ref, a.ref_old);
        done = sweeps[c];
        l4_start(&a, T0);
        int got = solver(N, 0.0, sweeps[c], a.f, a.u, a.u_old);
        ck_assert_msg(got == sweeps[c], "%s, N=%d, T0=%g, tol=0, max_iter=%d: expected %d sweeps, got %d", name, N, T0,
                      sweeps[c], sweeps[c], got);
        ag_assert_grid_eq(a.ref, a.u, s, s, s, close, "%s, N=%d, T0=%g, %d sweeps (u against the CPU reference)", name,
                          N, T0, sweeps[c]);
        l4_check_f(name, &a);
    }
    l4_free(&a);
}

void l4_check_tolerance(const char *name, l4_solver solver, int N, double tol, double close)
{
    l4_arrays a = l4_alloc(N);
    size_t s = poisson_side(N);
    l4_start(&a, 0.0);
    memcpy(a.ref, a.u, poisson_points(N) * sizeof *a.u);
    int want = poisson_jacobi_reference(N, tol, 1 << 20, a.f, a.ref, a.ref_old);
    l4_start(&a, 0.0);
    int got = solver(N, tol, 1 << 20, a.f, a.u, a.u_old);
    ck_assert_msg(got >= want - 1 && got <= want + 1,
                  "%s, N=%d, tol=%g: the CPU reference stops after %d sweeps; expected %d +- 1, got %d", name, N, tol,
                  want, want, got);
    poisson_init(N, 0.0, NULL, a.ref);
    poisson_jacobi_reference(N, 0.0, got, a.f, a.ref, a.ref_old);
    ag_assert_grid_eq(a.ref, a.u, s, s, s, close,
                      "%s, N=%d, tol=%g, stopped after %d sweeps: u must be the grid after %d sweeps", name, N, tol,
                      got, got);
    l4_free(&a);
}
