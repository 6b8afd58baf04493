/* Shared by all of lab 2's tests: run one of the student's
 * Poisson solvers on a prepared problem and compare it with the kit's
 * sequential references (common/poisson.h), which compute the same
 * expression in the same order, so that a correct solver matches them bit
 * for bit; and compare Mandelbrot images. */
#ifndef LAB2_CHECKS_H
#define LAB2_CHECKS_H

#include <stddef.h>

#include <omp.h>

#include "autograder.h"
#include "poisson_driver.h"

typedef struct {
    const char *name;            /* as in the poisson driver: jacobi, gs, omp_v1, ... */
    poisson_jacobi_fn jacobi;    /* one of these two */
    poisson_gs_fn gauss_seidel;
    int first_touch;             /* v3: set up with the student's poisson_init_omp */
    int threaded;                /* worth running at several thread counts */
} l2_solver;

/* A solver on the kit's problem (N, T0). */
typedef struct {
    const l2_solver *solver;
    int N;
    double T0;
} l2_start;

/* Every solver of poisson_omp.h, sequential ones first. */
extern const l2_solver l2_solvers[];
extern const int l2_solver_count;
#define l2_find(name) ((const l2_solver *)ag_find_named(l2_solvers, l2_solver_count, sizeof *l2_solvers, (name)))

/* Runs s on g with the given number of OpenMP threads (0: leave as is).
 * Jacobi gets a u_old whose boundary is u's and whose interior is NaN,
 * which the contract allows. For first_touch solvers the problem is first
 * set up again with poisson_init_omp(N, T0), so g must be the kit's problem
 * for that T0. Returns the solver's sweep count. */
int l2_run(const l2_solver *s, ag_grid *g, double T0, double tol, int max_iter, int threads);

/* The kit's reference answer for the same input: Jacobi or Gauss-Seidel,
 * as s is. */
int l2_reference(const l2_solver *s, ag_grid *g, double tol, int max_iter);

/* Fails, naming the context, unless got (u of solver s on the kit's problem
 * (N, T0)) is want, the reference after `sweeps` sweeps, bit for bit; says
 * "one step behind?" (autograder/runner/grid.h) when it is the reference one sweep off. */
void l2_assert_after_sweeps(const l2_solver *s, int N, double T0, const double *want, const double *got, int sweeps,
                            const char *context);

/* Runs s for `sweeps` sweeps with tol = 0 on the kit's problem (N, T0) and
 * fails unless it returns `sweeps` and u equals the reference bit for bit. */
void l2_check_fixed_sweeps(const l2_solver *s, int N, double T0, int sweeps, int threads);

/* Runs s with a tolerance and fails unless its sweep count is within 1 of
 * the reference's and u is, bit for bit, the reference after that many
 * sweeps. */
void l2_check_tolerance(const l2_solver *s, int N, double T0, double tol, int threads);

/* The norm of every sweep must hold every thread's part. Runs s `repeats`
 * times for sweeps + 1 sweeps from the slowest mode of the iteration (u =
 * sin(pi x) sin(pi y) sin(pi z), f = 0, whose update norm shrinks by a
 * fraction of a percent per sweep) with tol just below the smallest norm of
 * the first `sweeps` sweeps (worked out here from the reference's iterates,
 * in long double): a correct solver never stops early, whatever order its
 * reduction adds in (a margin of 1e-9, against rounding differences below
 * 1e-11), while one that loses a few percent of any sweep's sum stops
 * early. Not for first_touch solvers (they set up the kit's problem). */
void l2_check_norm_counts_every_thread(const l2_solver *s, int N, int sweeps, int threads, int repeats);

/* Runs mandel(width, height, max_iter) with this many threads and schedule
 * (omp_set_schedule: the student's schedule(runtime) loop takes it) on an
 * image filled with -1, and fails, naming the first wrong pixel, unless it
 * equals want (width x height, img[px * height + py]); `against` says what
 * want is. */
void l2_mandel_check(const int *want, const char *against, int width, int height, int max_iter, int threads,
                     const char *sched_name, omp_sched_t kind, int chunk);

#endif
