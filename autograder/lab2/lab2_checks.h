/* Shared by lab 2's visible and hidden tests: run one of the student's
 * Poisson solvers on a prepared problem and compare it with the kit's
 * sequential references (common/poisson.h), which compute the same
 * expression in the same order, so that a correct solver matches them bit
 * for bit. */
#ifndef LAB2_CHECKS_H
#define LAB2_CHECKS_H

#include <stddef.h>

#include "poisson_driver.h"

typedef struct {
    const char *name;            /* as in the poisson driver: jacobi, gs, omp_v1, ... */
    poisson_jacobi_fn jacobi;    /* one of these two */
    poisson_gs_fn gauss_seidel;
    int first_touch;             /* v3: set up with the student's poisson_init_omp */
    int threaded;                /* worth running at several thread counts */
} l2_solver;

/* Every solver of poisson_omp.h, sequential ones first. */
extern const l2_solver l2_solvers[];
extern const int l2_solver_count;
const l2_solver *l2_find(const char *name);

/* A problem: f, u and (for Jacobi) u_old of size (N+2)^3. */
typedef struct {
    int N;
    size_t n;
    double *f, *u, *u_old;
} l2_grid;

/* The kit's problem: poisson_init(N, T0) into f and u. */
l2_grid l2_grid_new(int N, double T0);
void l2_grid_free(l2_grid *g);
l2_grid l2_grid_copy(const l2_grid *g);

/* Runs s on g with the given number of OpenMP threads (0: leave as is).
 * Jacobi gets a u_old whose boundary is u's and whose interior is NaN,
 * which the contract allows. For first_touch solvers the problem is first
 * set up again with poisson_init_omp(N, T0), so g must be the kit's problem
 * for that T0. Returns the solver's sweep count. */
int l2_run(const l2_solver *s, l2_grid *g, double T0, double tol, int max_iter, int threads);

/* The kit's reference answer for the same input: Jacobi or Gauss-Seidel,
 * as s is. */
int l2_reference(const l2_solver *s, l2_grid *g, double tol, int max_iter);

/* Runs s for `sweeps` sweeps with tol = 0 on the kit's problem (N, T0) and
 * fails unless it returns `sweeps` and u equals the reference bit for bit. */
void l2_check_fixed_sweeps(const l2_solver *s, int N, double T0, int sweeps, int threads);

/* Runs s with a tolerance and fails unless its sweep count is within 1 of
 * the reference's and u is, bit for bit, the reference after that many
 * sweeps. */
void l2_check_tolerance(const l2_solver *s, int N, double T0, double tol, int threads);

#endif
