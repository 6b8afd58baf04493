/* Lab 4's test helpers: run a solver and compare it with the CPU reference
 * (common/poisson.h), bit for bit. */
#ifndef LAB4_CHECKS_H
#define LAB4_CHECKS_H

typedef int (*l4_solver)(int N, double tol, int max_iter, const double *f, double *u, double *u_old);

/* The sweep counts and sizes most tests use: sizes that are not multiples
 * of any block size, one (47) where a floating-point radiator test puts
 * points on the wrong side, and 0 sweeps (the answer is the input). */
extern const int l4_sweeps[5];
extern const int l4_sizes[5];

/* For each count in sweeps (ascending), runs name's solver for exactly that
 * many sweeps (tol = 0) from the initial state with interior value T0, and
 * demands the CPU reference's grid bit for bit, the count returned, and f
 * unchanged. */
void l4_check_sweeps(const char *name, l4_solver solver, int N, double T0, const int *sweeps, int nsweeps);

/* Runs to tolerance tol: the count must be within 1 of the CPU reference's,
 * and the grid must be the reference's after that many sweeps. */
void l4_check_tolerance(const char *name, l4_solver solver, int N, double tol);

/* Runs build/labN/lab4_mpi_check ARGS on np ranks under mpirun with a time
 * limit; fails the test with the program's FAIL lines if it fails. */
void l4_run_mpi(int np, const char *args, int seconds);

#endif
