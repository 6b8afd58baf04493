/* Lab 4, stage 1: Jacobi with OpenMP target offload.
 *
 * Port lab 2's Jacobi to the GPU with OpenMP: keep f, u and u_old on the
 * device for all sweeps (one target data region), and run each sweep as one
 * target region spread over teams and their threads. Only the norm of the
 * update should cross to the host after a sweep. Without a GPU the target
 * regions run on the host, so `make check` tests this file everywhere.
 *
 * Contract (jacobi.h): u and u_old hold the initial state; stop when the
 * Frobenius norm of the update is <= tol (tol = 0: run exactly max_iter
 * sweeps); return the number of sweeps; leave the answer in u. Compute each
 * point with poisson_jacobi_point() and h^2 f as h*h*f[c]. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jacobi.h"
#include "poisson.h"
#include "timer.h"

int jacobi_offload(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    if (poisson_check_size(N))
        return -1;
    /* TODO 1: map f (to the device) and u, u_old (both ways) for the whole
     *         solve: #pragma omp target data map(...) { ... }
     * TODO 2: inside it, loop over the sweeps; each sweep is
     *         #pragma omp target teams distribute parallel for collapse(3) reduction(+ : norm2)
     *         over i, j, k = 1 .. N (k innermost: why?), reading one grid and
     *         writing the other; then swap the two pointers.
     * TODO 3: stop when tol > 0 and sqrt(norm2) <= tol.
     * TODO 4: report the time of the sweep loop alone with
     *         lab4_record_sweep_seconds(), and make sure the answer ends in
     *         u whatever the parity of the sweep count. */
    (void)tol;
    (void)max_iter;
    (void)f;
    (void)u;
    (void)u_old;
    fprintf(stderr, "jacobi_offload: not implemented yet\n");
    return -1;
}
