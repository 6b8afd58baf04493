/* Lab 2: Jacobi and Gauss-Seidel for the 3-D Poisson problem, sequential
 * and with OpenMP. Given header: do not edit.
 *
 * The problem (common/poisson.h defines it, once, for the whole kit):
 * -laplace(u) = f in the cube [-1,1]^3, N interior points per direction, so
 * every array holds (N+2)^3 doubles, u[(i*(N+2) + j)*(N+2) + k] with k <-> x
 * fastest, j <-> y, i <-> z; h = 2/(N+1). Use poisson_index(), poisson_h()
 * and poisson_jacobi_point() from common/poisson.h rather than writing your
 * own: one sweep updates every interior point (1 <= i, j, k <= N) to
 *
 *     poisson_jacobi_point(src, c, N+2, (N+2)^2, h*h*f[c])
 *   = (u[c-si] + u[c+si] + u[c-sj] + u[c+sj] + u[c-1] + u[c+1] + h*h*f[c]) / 6
 *
 * in exactly that order, so that every correct solver gives the same bits
 * (the tests compare bit for bit). Boundary points (any index 0 or N+1) are
 * read, never written.
 *
 * Every solver:
 * - stops when the Frobenius norm of the update of the last sweep,
 *   sqrt(sum over the interior of (new - old)^2), is <= tol, or after
 *   max_iter sweeps, whichever comes first; tol = 0 runs exactly max_iter
 *   sweeps (or stops where a sweep changed nothing at all: a fixed point);
 *   max_iter = 0 changes nothing;
 * - returns the number of sweeps it did, or -1 (touching nothing) when
 *   N < 1 or max_iter < 0;
 * - leaves the answer in u, whatever the number of sweeps.
 * Jacobi: on entry u holds the start (boundary values and the interior
 * start), u_old is scratch whose boundary holds the same boundary values
 * (its interior may hold anything, even NaN). Gauss-Seidel updates u in
 * place, in lexicographic order (i, then j, then k): each point reads the
 * new values of its -z, -y and -x neighbours and the old ones of the rest.
 * f is read, never written. */
#ifndef LAB2_POISSON_OMP_H
#define LAB2_POISSON_OMP_H

/* Stage 1: sequential. */
int jacobi(int N, double tol, int max_iter, const double *f, double *u, double *u_old);
int gauss_seidel(int N, double tol, int max_iter, const double *f, double *u);

/* Stage 2: OpenMP Jacobi, the same iterates as jacobi() bit for bit, for any
 * number of threads.
 * v1: a parallel region (a parallel for) in every sweep.
 * v2: one parallel region around the whole sweep loop. */
int jacobi_omp_v1(int N, double tol, int max_iter, const double *f, double *u, double *u_old);
int jacobi_omp_v2(int N, double tol, int max_iter, const double *f, double *u, double *u_old);

/* Stage 3 (v3 = this set-up, then jacobi_omp_v2): the set-up of the problem
 * with the threads that will later sweep the data, so that each page is
 * first touched, and so placed, where it is used. Must give exactly what
 * poisson_init(N, T0, f, u) gives, and u_old equal to u:
 * u = 20 on the faces x = -1, x = +1, y = +1, z = -1, z = +1, u = 0 on the
 * face y = -1 (it wins on its edges), T0 inside; f = 200 inside the
 * radiator (decided with common/poisson.h's poisson_in_radiator, never with
 * floating-point coordinates), 0 elsewhere, boundary included. */
void poisson_init_omp(int N, double T0, double *f, double *u, double *u_old);

/* Stage 4: Gauss-Seidel with OpenMP: the same iterates as gauss_seidel()
 * bit for bit, for any number of threads (a wavefront: OpenMP's doacross
 * loops, ordered(2) with depend(sink)/depend(source)). */
int gauss_seidel_omp(int N, double tol, int max_iter, const double *f, double *u);

#endif
