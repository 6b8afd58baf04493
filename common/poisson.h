/* The 3-D Poisson problem that labs 2 and 4 solve, defined once.
 *
 * Steady heat in the cube [-1,1]^3: -laplace(u) = f. N interior points per
 * direction plus one boundary layer on each side, so arrays hold (N+2)^3
 * doubles, spacing h = 2/(N+1), x_k = -1 + k h (k = 0 .. N+1), and
 *
 *     u[(i*(N+2) + j)*(N+2) + k]     k <-> x (fastest), j <-> y, i <-> z.
 *
 * Boundary: u = 20 on x = +-1, y = +1 and z = +-1; u = 0 on y = -1, and the
 * 0 face wins on its edges. The radiator f = 200 on x in [-1, -3/8],
 * y in [-1, -1/2], z in [-2/3, 0], f = 0 elsewhere; membership is decided
 * with integer tests (x_k <= -3/8 <=> 16k <= 5(N+1)), because a
 * floating-point test like -1 + k*h <= -0.375 flips with rounding when N+1 is
 * a multiple of 8 or 3.
 *
 * One Jacobi sweep: every interior point becomes
 *     (u[z-1] + u[z+1] + u[y-1] + u[y+1] + u[x-1] + u[x+1] + h^2 f) / 6,
 * summed left to right in exactly that order (poisson_jacobi_point), so that
 * every correct implementation, on a CPU or a GPU built without contraction
 * (gcc -ffp-contract=off, nvcc -fmad=false), gives the same bits. The
 * solvers stop when the Frobenius norm of the update, sqrt(sum (new-old)^2)
 * over the interior, is <= tol, or after max_iter sweeps; they return the
 * number of sweeps and leave the answer in u. tol = 0 runs exactly max_iter
 * sweeps. */
#ifndef KIT_POISSON_H
#define KIT_POISSON_H

#include <stddef.h>

#ifdef __CUDACC__
#define POISSON_HD __host__ __device__
#else
#define POISSON_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define POISSON_BOUNDARY_HOT 20.0
#define POISSON_BOUNDARY_COLD 0.0
#define POISSON_RADIATOR 200.0

/* Largest N the kit accepts: (N+2)^3 doubles must fit a size_t product with
 * room to spare, and an int (N+2)^3 overflows from N = 1289 on (the byte
 * count from N = 643: the seed's "out of memory" at N ~ 645). */
#define POISSON_MAX_N 4094

/* Points per direction including the boundary, and the whole array. */
static inline POISSON_HD size_t poisson_side(int N) { return (size_t)N + 2; }
static inline POISSON_HD size_t poisson_points(int N) { return poisson_side(N) * poisson_side(N) * poisson_side(N); }
static inline POISSON_HD size_t poisson_index(int N, int i, int j, int k)
{
    return ((size_t)i * poisson_side(N) + (size_t)j) * poisson_side(N) + (size_t)k;
}
static inline POISSON_HD double poisson_h(int N) { return 2.0 / ((double)N + 1.0); }

/* Is grid point (i, j, k) inside the radiator? Integer tests only:
 *   x_k <= -3/8     <=>  16 k <= 5 (N+1)
 *   y_j <= -1/2     <=>   4 j <= N+1
 *   -2/3 <= z_i <= 0 <=>  N+1 <= 6 i  and  2 i <= N+1
 * (x_k >= -1 and y_j >= -1 hold for every point.) */
static inline POISSON_HD int poisson_radiator_plane(int N, int i)
{
    long n1 = (long)N + 1;
    return n1 <= 6L * i && 2L * i <= n1;
}
static inline POISSON_HD int poisson_radiator_in_plane(int N, int j, int k)
{
    long n1 = (long)N + 1;
    return 16L * k <= 5L * n1 && 4L * j <= n1;
}
/* The two halves apart let a solver that walks along z test (j, k) once
 * per column and i once per plane. */
static inline POISSON_HD int poisson_in_radiator(int N, int i, int j, int k)
{
    return poisson_radiator_in_plane(N, j, k) && poisson_radiator_plane(N, i);
}

/* h^2 f at an interior point, computed the one way every solver must. */
static inline POISSON_HD double poisson_h2f(int N, int i, int j, int k)
{
    double h = poisson_h(N);
    return poisson_in_radiator(N, i, j, k) ? h * h * POISSON_RADIATOR : 0.0;
}

/* The Jacobi update of the point at flat index c, with the y and z strides
 * sj = N+2 and si = (N+2)^2, given h^2 f there. The order of the additions
 * is part of the kit's definition. */
static inline POISSON_HD double poisson_jacobi_point(const double *u, size_t c, size_t sj, size_t si, double h2f)
{
    return (u[c - si] + u[c + si] + u[c - sj] + u[c + sj] + u[c - 1] + u[c + 1] + h2f) / 6.0;
}

/* Returns 0 if N is a size the kit can solve, else prints why to stderr and
 * returns 1 (N < 1, or too large). */
int poisson_check_size(int N);

/* Sets the boundary values on u's six faces, T0 on its interior, and f
 * (POISSON_RADIATOR inside the radiator, 0 elsewhere, boundary included).
 * f or u may be NULL to set only the other. */
void poisson_init(int N, double T0, double *f, double *u);

/* The boundary value of the face point (i, j, k); for interior points, 0. */
double poisson_boundary_value(int N, int i, int j, int k);

/* One Jacobi sweep over the interior, reading u_old and writing u_new (whose
 * boundary must already hold the boundary values); returns the squared
 * Frobenius norm of the update. f holds f, not h^2 f. With u_new == u_old
 * it is a Gauss-Seidel sweep in lexicographic order (each point reads the
 * values its -z, -y and -x neighbours got in this sweep). */
double poisson_jacobi_sweep(int N, const double *f, const double *u_old, double *u_new);

/* The sequential reference solvers of the kit (labs 2 and 4 test against
 * them). Both arrays of Jacobi must hold the initial state (boundary and
 * interior) on entry; the answer is in u on return, whatever the parity of
 * the sweep count. Gauss-Seidel updates u in place, in lexicographic order
 * (i, then j, then k), each point reading the new values of its -z, -y and
 * -x neighbours. */
int poisson_jacobi_reference(int N, double tol, int max_iter, const double *f, double *u, double *u_old);
int poisson_gauss_seidel_reference(int N, double tol, int max_iter, const double *f, double *u);

/* The discrete residual max |(6u - sum of neighbours)/h^2 - f| over the
 * interior: near 0 for a converged solution. */
double poisson_residual_max(int N, const double *f, const double *u);

/* How many interior points lie in the radiator. */
size_t poisson_radiator_count(int N);

#ifdef __cplusplus
}
#endif
#endif
