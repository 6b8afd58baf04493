/* Lab 7: a direct FFT Poisson solver (after PittPack, Hasbestan & Senocak).
 *
 * The problem: the discrete Laplacian L_h u = f on a box [0,Lx]x[0,Ly]x[0,Lz]
 * divided into nx x ny x nz cells, u at the cell centres
 *
 *     x_i = (i + 1/2) h_x,  h_x = Lx / nx   (and the same in y and z),
 *
 * stored flat with x fastest: idx = i + nx*(j + ny*k) (fp_index). Note the
 * sign: the lab solves laplace(u) = f, the paper's convention, not the
 * -laplace(u) = f of labs 2 and 4 (stage 5 negates).
 *
 * Each axis has one boundary type for both of its faces (the paper's
 * "XX-YY-ZZ": PP, NN or DD), imposed on the cell faces through a ghost cell:
 *   FP_D, Dirichlet: u = g on the face.   Ghost u_g = 2g - u_0 (linear
 *         extrapolation), so row 0 of the 1-D operator is (-3u_0 + u_1)/h^2
 *         and 2g/h^2 moves to the right-hand side.
 *   FP_N, Neumann: du/dx = g on the face. Ghost u_g = u_0 - h g at the low
 *         face (u_n = u_{n-1} + h g at the high one), row 0 is
 *         (-u_0 + u_1)/h^2, and g/h moves to the right-hand side.
 *   FP_P, periodic: u_{-1} = u_{n-1}, u_n = u_0.
 *
 * The transforms that diagonalise each 1-D operator, in FFTW's names:
 *   FP_N: REDFT10 (DCT-II) forward, REDFT01 (DCT-III) back; round trip 2n;
 *         index k has eigenvalue -2 + 2cos(k pi/n)        (unit spacing)
 *   FP_D: RODFT10 (DST-II) forward, RODFT01 (DST-III) back; round trip 2n;
 *         index k has eigenvalue -2 + 2cos((k+1) pi/n)
 *   FP_P: R2HC forward, HC2R back; round trip n; halfcomplex position m
 *         has eigenvalue -2 + 2cos(2 pi m/n) (the same for the real and the
 *         imaginary part of a frequency, so everything stays real).
 * Divide by h^2 for the physical spacing, and sum over the axes.
 *
 * The solver transforms x and y, leaving for every (kx, ky) one
 * tridiagonal system along z (Toeplitz but for its corners), solves those
 * with Thomas, transforms back and normalises once. When no axis is
 * Dirichlet the operator is singular (constants are in its null space):
 * the solver then subtracts the mean of f, and returns the solution whose
 * mean is 0. */
#ifndef LAB7_FFT_POISSON_H
#define LAB7_FFT_POISSON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { FP_P = 0, FP_N = 1, FP_D = 2 } fp_bc;

typedef struct {
    int n[3];      /* cells per axis: x, y, z */
    double L[3];   /* the box's edge lengths */
    fp_bc bc[3];   /* the boundary type of each axis (both faces) */
} fp_grid;

/* A part of the grid: cells lo[a] .. lo[a]+n[a]-1 along each axis a, stored
 * flat with x fastest like the whole grid (a pencil of an MPI rank, or the
 * whole grid: lo = 0, n = grid's n). */
typedef struct {
    int lo[3];
    int n[3];
} fp_box;

/* Boundary values for fp_fold_bc: face[a][0] is the low face of axis a,
 * face[a][1] the high one; each holds one value per cell of that face, in
 * the order of the other two axes with the lower-numbered one fastest
 * (x faces: j + ny*k; y faces: i + nx*k; z faces: i + nx*j). NULL means 0.
 * Dirichlet faces hold u, Neumann faces hold du/d(axis) (not the outward
 * normal derivative: the sign is the axis's); periodic axes are ignored. */
typedef struct {
    const double *face[3][2];
} fp_bcdata;

static inline size_t fp_index(const fp_grid *g, int i, int j, int k)
{
    return (size_t)i + (size_t)g->n[0] * ((size_t)j + (size_t)g->n[1] * (size_t)k);
}
static inline size_t fp_cells(const fp_grid *g) { return (size_t)g->n[0] * (size_t)g->n[1] * (size_t)g->n[2]; }
static inline size_t fp_box_cells(const fp_box *b) { return (size_t)b->n[0] * (size_t)b->n[1] * (size_t)b->n[2]; }
static inline double fp_h(const fp_grid *g, int axis) { return g->L[axis] / g->n[axis]; }
/* The factor by which a forward and an inverse transform along an axis
 * scale the data (FFTW's transforms are unnormalised). */
static inline double fp_round_trip(fp_bc bc, int n) { return bc == FP_P ? (double)n : 2.0 * n; }
/* Is the operator singular? (no Dirichlet axis: constants solve L u = 0) */
static inline int fp_singular(const fp_grid *g)
{
    return g->bc[0] != FP_D && g->bc[1] != FP_D && g->bc[2] != FP_D;
}

/* ---- Given (fp_grid.c) -------------------------------------------------- */

/* Returns 0 for a grid the lab solves, else prints why to stderr and
 * returns -1: every n >= 1 and <= FP_MAX_N, every L > 0 and finite, every
 * bc one of the three. */
#define FP_MAX_N 4096
int fp_grid_check(const fp_grid *g);

/* The whole grid as a box. */
fp_box fp_whole(const fp_grid *g);

/* Lu = L_h u with homogeneous boundary conditions (the ghost rules above
 * with g = 0): the operator the solver inverts. */
void fp_apply_laplacian(const fp_grid *g, const double *u, double *Lu);

/* max |L_h u - f| / max |f| (the solver's residual), with f's mean removed
 * first when the operator is singular. */
double fp_residual(const fp_grid *g, const double *u, const double *f);

/* The pencils of the distributed solvers (stages 4 and 6) on a process
 * grid of pr x pc ranks, rank = r*pc + c (0 <= r < pr, 0 <= c < pc):
 *   FP_XPENCIL: all of x,      y part c of pc,  z part r of pr
 *   FP_YPENCIL: x part c of pc, all of y,        z part r of pr
 *   FP_ZPENCIL: x part c of pc, y part r of pr,  all of z
 * (part q of m of an axis of n cells: cells q n/m .. (q+1) n/m - 1). So
 * x <-> y transposes exchange among the pc ranks of one r (a "row"), and
 * y <-> z transposes among the pr ranks of one c (a "column"). Every rank
 * holds nx ny nz / (pr pc) cells in each pencil. */
typedef enum { FP_XPENCIL = 0, FP_YPENCIL = 1, FP_ZPENCIL = 2 } fp_pencil;

/* Returns 0 if pr x pc ranks can split the grid into equal pencils (pc
 * divides nx and ny, pr divides ny and nz), else prints why and returns -1. */
int fp_pencils_check(const fp_grid *g, int pr, int pc);

/* Rank (r, c)'s box in pencil p. */
fp_box fp_pencil_box(const fp_grid *g, int pr, int pc, int r, int c, fp_pencil p);

/* The cells two boxes share (n = 0 along an axis where they do not meet). */
fp_box fp_box_intersect(const fp_box *a, const fp_box *b);

/* Where a solver reports the time of one of its parts,
 * for the benchmark (make bench reads it; the tests never do). fp_solve_nccl
 * adds the time its four transposes took on the GPU (pack, exchange,
 * unpack; cudaEventElapsedTime between events around each), once per call,
 * after its last synchronisation. A solver that reports nothing shows "-". */
typedef enum { FP_PART_TRANSPOSES = 0, FP_PARTS } fp_part;
void fp_record_seconds(fp_part part, double seconds);
double fp_recorded_seconds(fp_part part); /* the sum since the last reset; -1 if none */
void fp_reset_recorded(void);

/* ---- Stage 1, fp_basics.c ----------------------------------------------- */

/* The eigenvalue of the 1-D operator with unit spacing for transform index
 * k (0 <= k < n) of boundary type bc (the table above). */
double fp_eigenvalue(fp_bc bc, int k, int n);

/* Solves the n x n tridiagonal system whose off-diagonals are all off and
 * whose diagonal is b0, b, b, ..., b, bn (first row b0, last row bn; for
 * n = 1 the single diagonal entry is b0 + bn - b: both corner corrections).
 * r holds the right-hand side on entry and the solution on return; work
 * holds at least n doubles. Returns 0, or -1 if a pivot is exactly 0 (r is
 * then unspecified). Thomas's algorithm, no pivoting. */
int fp_thomas_toeplitz(int n, double off, double b0, double b, double bn, double *r, double *work);

/* Moves the boundary values of bd into the right-hand side f (the whole
 * grid): for a Dirichlet face f -= 2g/h^2 in the cells next to it; for a
 * Neumann face f += g/h at the low face and f -= g/h at the high face. After
 * this, solving L_h u = f with homogeneous conditions solves the problem
 * with the given ones. */
void fp_fold_bc(const fp_grid *g, const fp_bcdata *bd, double *f);

/* ---- Stage 2, fp_serial.c ------------------------------------------------ */

/* Transforms every line of a box along axis (0, 1 or 2; the box must hold
 * whole lines: lo[axis] = 0 and n[axis] = the grid's) in place with FFTW's
 * r2r kind for the axis's boundary type: forward (inverse = 0) or backward
 * (inverse = 1), unnormalised like FFTW. */
void fp_transform(const fp_grid *g, const fp_box *box, int axis, int inverse, double *a);

/* The z stage, on a box holding whole z lines whose x and y have been
 * transformed (box->lo gives each line's global kx, ky): for every (kx, ky)
 * solves the z system with the diagonal shifted by
 * lambda_x(kx)/hx^2 + lambda_y(ky)/hy^2 (Thomas, OpenMP over the lines; for a
 * periodic z, a transform along z and a division instead), and divides by
 * the x and y round-trip factors (the one normalisation). The singular mode
 * (kx = ky = 0 when fp_singular) gets the solution whose first z value is 0.
 * Returns 0, or -1 on a zero pivot. */
int fp_solve_z(const fp_grid *g, const fp_box *box, double *a);

/* Solves L_h u = f on the whole grid: f on entry (boundary values already
 * folded in), u on return. When fp_singular(g), f's mean is removed first
 * and u has mean 0. Returns 0, or -1 for a bad grid (fp_grid_check) or a
 * zero pivot. */
int fp_solve_serial(const fp_grid *g, double *f);

/* ---- Stage 3, fp_makhoul.c ----------------------------------------------- */

/* FFTW's REDFT10 (y_k = 2 sum_j x_j cos(pi (j+1/2) k / n)) computed with one
 * complex FFT of length n (Makhoul's reordering): what a GPU must do, since
 * cuFFT has no real-to-real transforms. */
void fp_dct2_via_fft(int n, const double *x, double *y);
/* The exact inverse of fp_dct2_via_fft: fp_idct2_via_fft(fp_dct2_via_fft(x)) = x. */
void fp_idct2_via_fft(int n, const double *y, double *x);
/* FFTW's RODFT10 (y_k = 2 sum_j x_j sin(pi (j+1/2)(k+1) / n)) through fp_dct2_via_fft. */
void fp_dst2_via_fft(int n, const double *x, double *y);

/* ---- Stage 5, fp_radiator.c ---------------------------------------------- */

/* Solves the kit's radiator problem (common/poisson.h: -laplace(u) = f on
 * the vertex-centred grid of N^3 interior points, the Dirichlet boundary of
 * poisson_init) directly, with DST-I (FFTW's RODFT00) along the three axes:
 * the exact solution of the discrete system that Jacobi iterates towards.
 * u is (N+2)^3; the boundary is set and the interior solved. Returns 0, or
 * -1 for a bad N. */
int fp_radiator_solve(int N, double *u);

#ifdef __cplusplus
}
#endif
#endif
