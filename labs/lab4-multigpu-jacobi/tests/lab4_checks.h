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

/* How close a stage's grid must be to the CPU reference's: L4_EXACT (bit
 * for bit) for every CUDA stage, built with -fmad=false; L4_OFFLOAD for the
 * offload stage, because GCC 12's nvptx code leaves a*b+c to the PTX
 * compiler, which fuses it into an FMA whatever -ffp-contract says (about
 * 5.6e-17 at radiator points after 2 sweeps). Values are <= ~22,
 * so 1e-12 is still ~5e4 ulps: a wrong point is always far off that. */
#define L4_EXACT (-1.0)
#define L4_OFFLOAD 1e-12

/* For each count in sweeps (ascending), runs name's solver for exactly that
 * many sweeps (tol = 0) from the initial state with interior value T0, and
 * demands the CPU reference's grid (within close, or exactly), the count
 * returned, and f unchanged. */
void l4_check_sweeps(const char *name, l4_solver solver, int N, double T0, const int *sweeps, int nsweeps,
                     double close);

/* Three times on the same arrays, same N and sweeps: from the start with
 * interior 0, from new contents (a seeded interior in [0, 20], in u and
 * u_old), and from those with one interior point changed; each grid must be
 * the reference's from its start. A solver that keeps a device copy of u or
 * its answer by address and size, or by a sample of the contents, gives an
 * earlier one. */
void l4_check_fresh(const char *name, l4_solver solver, int N, int sweeps, double close);

/* Runs to tolerance tol: the count must be within 1 of the CPU reference's,
 * and the grid must be the reference's after that many sweeps. */
void l4_check_tolerance(const char *name, l4_solver solver, int N, double tol, double close);

/* The offload tests' runs_here (grader.h): on a host with a GPU, the offload
 * stage must run on it; built for the host only there, its tests skip with
 * the reason. On a host without a GPU the host run is the check. */
int l4_offload_reaches_the_gpu(char *why, int len);


#endif
