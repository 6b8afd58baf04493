/* The Poisson driver core shared by lab 2 (CPU, OpenMP) and lab 4 (GPUs),
 * in the spirit of DTU's 02614 driver:
 *
 *   poisson METHOD N max_iter tol T0 [output [file]]
 *   -> N sweeps seconds Mflop/s GB/s GLUP/s total_seconds residual # poisson_METHOD
 *
 * N interior points per direction; max_iter sweeps at most; stop when the
 * Frobenius norm of the update is <= tol (0: run exactly max_iter sweeps);
 * T0 the interior start value; output one of
 *   none    nothing (the default)
 *   binary  the (N+2)^3 doubles, raw           (default file poisson_METHOD_N.bin)
 *   vtk     legacy VTK for ParaView            (poisson_METHOD_N.vtk)
 *   png     heat map of the slice through the radiator (poisson_METHOD_N.png)
 *
 * seconds is the solve alone. total_seconds adds a staged method's set-up and
 * finish (for a GPU: allocation and the copies in and out); for the other
 * methods it equals seconds. Mflop/s counts flops_per_point per interior
 * point per sweep, GB/s bytes_per_point (the traffic the method counts, as
 * stated in its table entry), GLUP/s 1e9 lattice-site updates per second.
 * residual is max |(6u - neighbours)/h^2 - f| over the interior: near 0
 * once the solution has converged. A rate whose time was not measurable
 * prints as "-".
 *
 * POISSON_CHECK=1 (the benchmarks set it) adds a line
 *   # check poisson_METHOD: wrong=W sweeps=S reference_sweeps=R ...
 * after solving the same problem with the kit's sequential reference: W
 * elements of u differ from it bit for bit; S and R are the two sweep
 * counts. A correct method has W = 0 and S = R.
 *
 * Each lab's driver is its table of methods and a main that calls
 * poisson_driver_main. An unknown METHOD, a bad number or a bad output type
 * prints the usage and exits with status 2. */
#ifndef KIT_POISSON_DRIVER_H
#define KIT_POISSON_DRIVER_H

#ifdef __cplusplus
extern "C" {
#endif

/* The solver signatures of the kit (common/poisson.h states the contract:
 * the answer ends in u; the return value is the number of sweeps). On entry
 * u holds the initial state; Jacobi's u_old holds the boundary values too. */
typedef int (*poisson_jacobi_fn)(int N, double tol, int max_iter, const double *f, double *u, double *u_old);
typedef int (*poisson_gs_fn)(int N, double tol, int max_iter, const double *f, double *u);

/* Sets up f, u and (if not NULL) u_old as poisson_init does, u_old equal to
 * u; a method may bring its own, for instance a parallel first touch. */
typedef void (*poisson_init_fn)(int N, double T0, double *f, double *u, double *u_old);

/* A method whose data live elsewhere (a GPU, several GPUs). The driver calls
 * setup (untimed by the solve clock: allocate, copy in), then solve (timed:
 * the sweeps only, synchronised before it returns), then finish (copy the
 * answer into u, free). u_old is NULL for Gauss-Seidel-style methods. setup
 * returns NULL on failure, after printing why; solve returns the sweeps or
 * a negative number on failure; finish returns nonzero on failure. */
typedef struct {
    void *(*setup)(int N, const double *f, const double *u, const double *u_old);
    int (*solve)(void *state, int N, double tol, int max_iter);
    int (*finish)(void *state, int N, double *u);
} poisson_staged_fn;

/* Flops per interior point and sweep of a Jacobi or Gauss-Seidel sweep that
 * computes the update norm: 6 additions, h^2 f (1), the division (1), and
 * (new - old)^2 summed (3). */
#define POISSON_FLOPS_PER_POINT 11.0

typedef struct {
    const char *name;                /* METHOD on the command line */
    poisson_jacobi_fn jacobi;        /* set exactly one of jacobi, */
    poisson_gs_fn gauss_seidel;      /* gauss_seidel */
    const poisson_staged_fn *staged; /* and staged */
    int staged_needs_u_old;          /* staged only: allocate u_old (Jacobi-style) */
    poisson_init_fn init;            /* NULL: poisson_init, then u_old = u */
    double bytes_per_point;          /* memory traffic counted per point and sweep */
    double flops_per_point;          /* 0: POISSON_FLOPS_PER_POINT */
    const char *about;               /* one line for the usage text */
    /* Optional, for one-call Jacobi methods that allocate and copy inside
     * the call (lab 4's GPU solvers): the seconds the last call spent in its
     * sweeps alone, or a negative number if it did not say. The driver then
     * prints these as seconds (and computes the rates from them) and the
     * whole call as total_seconds. */
    double (*sweep_seconds)(void);
    /* Optional: a second byte count per point (e.g. 24 where
     * bytes_per_point is 16); the driver adds its GB/s on stderr. */
    double bytes_per_point_alt;
} poisson_method;

int poisson_driver_main(int argc, char **argv, const poisson_method *methods, int count);

#ifdef __cplusplus
}
#endif
#endif
