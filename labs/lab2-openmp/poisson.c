/* Lab 2: Jacobi and Gauss-Seidel for the 3-D Poisson problem. This is your
 * file: implement every function declared in poisson_omp.h (read it first:
 * the contract is there). README.md in this folder is the assignment.
 *
 *   make lab2 && make check                       build and run the tests
 *   OMP_NUM_THREADS=2 ./build/lab2/poisson omp_v2 100 1000 1e-6 0 png
 *
 * common/poisson.h gives you the problem: poisson_side(N), poisson_index(N,
 * i, j, k), poisson_h(N), poisson_in_radiator(N, i, j, k),
 * poisson_boundary_value(N, i, j, k) and poisson_jacobi_point(), the update
 * of one point with the kit's summation order. */
#include <math.h>
#include <string.h>

#include "poisson.h"
#include "poisson_omp.h"

/* TODO(lab2.jacobi): sweep src -> dst over the interior (i, j, k = 1..N,
 * k innermost: it is the contiguous one), summing (new - old)^2 as you go;
 * swap the roles of the two arrays after each sweep; stop on
 * sqrt(sum) <= tol or after max_iter sweeps. Return the sweep count, and
 * make sure the newest iterate ends in u: after an odd number of sweeps it
 * is in the other array. Use size_t for indices: (N+2)^3 overflows an int
 * from N = 1289 on. */
int jacobi(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    (void)N, (void)tol, (void)max_iter, (void)f, (void)u, (void)u_old;
    return 0;
}

/* TODO(lab2.gs): the same sweep in place, in u alone. Which neighbours are
 * then new, and which old? */
int gauss_seidel(int N, double tol, int max_iter, const double *f, double *u)
{
    (void)N, (void)tol, (void)max_iter, (void)f, (void)u;
    return 0;
}

/* TODO(lab2.v1): jacobi with `#pragma omp parallel for` on the sweep's
 * outer loop and a reduction for the norm: the threads are created (or
 * woken) and joined in every sweep. */
int jacobi_omp_v1(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    (void)N, (void)tol, (void)max_iter, (void)f, (void)u, (void)u_old;
    return 0;
}

/* TODO(lab2.v2): one `#pragma omp parallel` around the whole sweep loop,
 * `#pragma omp for` inside it. Every thread runs the while loop, so every
 * thread must take the same decision to stop: who swaps the pointers, who
 * resets the norm, and where are the barriers that make that safe? */
int jacobi_omp_v2(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    (void)N, (void)tol, (void)max_iter, (void)f, (void)u, (void)u_old;
    return 0;
}

/* TODO(lab2.v3): poisson_init (common/poisson.c) in parallel, with the same
 * distribution of the i loop as your sweeps, and u_old = u. */
void poisson_init_omp(int N, double T0, double *f, double *u, double *u_old)
{
    (void)N, (void)T0, (void)f, (void)u, (void)u_old;
}

/* TODO(lab2.gs_omp): a wavefront. `#pragma omp for ordered(2)` over i and
 * j with `#pragma omp ordered depend(sink: ...)` before a row's update and
 * `depend(source)` after it: which rows must be finished before row (i, j)
 * may start? Which schedule lets two threads work at the same time? */
int gauss_seidel_omp(int N, double tol, int max_iter, const double *f, double *u)
{
    (void)N, (void)tol, (void)max_iter, (void)f, (void)u;
    return 0;
}
