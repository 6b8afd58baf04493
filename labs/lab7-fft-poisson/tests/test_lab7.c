/* Lab 7 (fft-poisson): the visible tests. Run them with
 * `make lab7 && make check`.
 *
 * Where the expected values come from (never from the reference's code):
 * the n = 4 eigenvalue constants of the PittPack paper's Table 2; LAPACK's dgtsv_ (OpenBLAS)
 * for Thomas; FFTW's own r2r transforms and direct O(n^2) sums of their
 * definitions for the transforms; the discrete operator itself
 * (fp_apply_laplacian, and the ghost-cell rules recomputed in the checks)
 * for residuals; eigenmode manufactured solutions, whose discrete error is
 * known in closed form, so a solver that is too exact (continuous -w^2)
 * fails as surely as a wrong one; error levels reproduced independently
 * from the paper's verification (its Section 8, Tables 3-7, recomputed
 * here with the captions' errata corrected); common/poisson.h's Jacobi and
 * residual for the radiator. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <omp.h>

#include <fftw3.h>

#include <cuda_runtime.h>

#include "alloc.h"
#include "fp_gpu.h"
#include "autograder.h"
#include "cuda/compute_sanitizer.h"
#include "lab7_checks.h"
#include "poisson.h"

/* The tests of what the answers cannot show (test_lab7_contracts.c). */
void lab7_contract_tests(ag_suite *s);

/* ---- stage 1: eigenvalues ---------------------------------------------- */

/* The paper's Table 2 at n = 4: P, N and D in FFTW's index order. */
static const double eig4[3][4] = {
    {0.0, -2.0, -4.0, -2.0},
    {0.0, -0.585786437626905, -2.0, -3.414213562373095},
    {-0.585786437626905, -2.0, -3.414213562373095, -4.0},
};

START_TEST(eigenvalues_n4)
{
    static const char *name[3] = {"FP_P", "FP_N", "FP_D"};
    for (int bc = 0; bc < 3; bc++)
        for (int k = 0; k < 4; k++) {
            double got = fp_eigenvalue((fp_bc)bc, k, 4);
            ck_assert_msg(fabs(got - eig4[bc][k]) <= 1e-12, "fp_eigenvalue(%s, k=%d, n=4): expected %.15f, got %.15g",
                          name[bc], k, eig4[bc][k], got);
        }
}
END_TEST

/* The only zero eigenvalues are the constants: P and N at k = 0. D never
 * (its k + 1 offset); every eigenvalue lies in [-4, 0]. */
START_TEST(eigenvalue_zeros)
{
    static const char *name[3] = {"FP_P", "FP_N", "FP_D"};
    for (int n = 1; n <= 33; n++)
        for (int bc = 0; bc < 3; bc++)
            for (int k = 0; k < n; k++) {
                double l = fp_eigenvalue((fp_bc)bc, k, n);
                int zero = fabs(l) < 1e-12, want = k == 0 && bc != FP_D;
                ck_assert_msg(zero == want && l <= 1e-12 && l >= -4.0 - 1e-12,
                              "fp_eigenvalue(%s, k=%d, n=%d) = %.15g: %s", name[bc], k, n, l,
                              want ? "expected 0 (the constant vector)" : "expected a value in [-4, 0), not 0");
            }
}
END_TEST

/* ---- stage 1: Thomas against LAPACK ---------------------------------- */

void dgtsv_(const int *n, const int *nrhs, double *dl, double *d, double *du, double *b, const int *ldb, int *info);

START_TEST(thomas_vs_lapack)
{
    static const int sizes[] = {1, 2, 3, 17, 64};
    for (int s = 0; s < 5; s++)
        for (int trial = 0; trial < 4; trial++) {
            int n = sizes[s];
            double c[4];
            l7_random(c, 4, 100u * s + trial);
            /* diagonally dominant, negative diagonal like the solver's */
            double off = 1.0 + c[0], b = -2.0 * fabs(off) - 0.5 - fabs(c[1]);
            double b0 = b + c[2], bn = b - c[3];
            double *r = kit_alloc_doubles(n), *x = kit_alloc_doubles(n), *work = kit_alloc_doubles(n);
            double *dl = kit_alloc_doubles(n), *d = kit_alloc_doubles(n), *du = kit_alloc_doubles(n);
            l7_random(r, n, 7u + s + 10u * trial);
            memcpy(x, r, n * sizeof *r);
            for (int i = 0; i < n; i++) {
                d[i] = i == 0 ? b0 : i == n - 1 ? bn : b;
                dl[i] = du[i] = off;
            }
            if (n == 1)
                d[0] = b0 + bn - b; /* both corners, as fft_poisson.h says */
            int one = 1, info = 0;
            dgtsv_(&n, &one, dl, d, du, x, &n, &info);
            ck_assert_int_eq(info, 0);
            int rc = fp_thomas_toeplitz(n, off, b0, b, bn, r, work);
            ck_assert_msg(rc == 0, "fp_thomas_toeplitz(n=%d, off=%g, b0=%g, b=%g, bn=%g) returned %d on a "
                          "diagonally dominant system", n, off, b0, b, bn, rc);
            ag_assert_matrix_eq(x, r, n, 1, 1e-12 * l7_max_abs(x, n),
                                "fp_thomas_toeplitz, n=%d, off=%g b0=%g b=%g bn=%g, against LAPACK dgtsv_", n, off,
                                b0, b, bn);
            kit_free(r), kit_free(x), kit_free(work), kit_free(dl), kit_free(d), kit_free(du);
        }
}
END_TEST

/* A zero pivot is reported, at the first row or later; a solvable system
 * with a small exact answer is solved. */
START_TEST(thomas_zero_pivot)
{
    double r[3] = {1, 2, 3}, w[3];
    ck_assert_msg(fp_thomas_toeplitz(3, 1.0, 0.0, -2.0, -2.0, r, w) == -1,
                  "fp_thomas_toeplitz: b0 = 0 is a zero first pivot: expected -1");
    double r2[3] = {1, 2, 3};
    ck_assert_msg(fp_thomas_toeplitz(3, 1.0, 1.0, 1.0, 1.0, r2, w) == -1,
                  "fp_thomas_toeplitz(n=3, off=1, b0=b=bn=1): the second pivot is 1 - 1*1 = 0: expected -1");
    /* [-2 1 0; 1 -2 1; 0 1 -3] (1, 1, 1) = (-1, 0, -2) */
    double r3[3] = {-1.0, 0.0, -2.0}, want[3] = {1.0, 1.0, 1.0};
    int rc = fp_thomas_toeplitz(3, 1.0, -2.0, -2.0, -3.0, r3, w);
    ck_assert_msg(rc == 0, "fp_thomas_toeplitz(n=3, off=1, b0=-2, b=-2, bn=-3): returned %d, expected 0", rc);
    ag_assert_matrix_eq(want, r3, 3, 1, 1e-14, "fp_thomas_toeplitz: [-2 1 0; 1 -2 1; 0 1 -3] x = [-1 0 -2]");
}
END_TEST

/* ---- stage 3: Makhoul's transforms against FFTW --------------------------- */

static void fftw_1d(fftw_r2r_kind kind, int n, const double *x, double *y)
{
    double *in = fftw_alloc_real(n), *out = fftw_alloc_real(n);
    fftw_plan p = fftw_plan_r2r_1d(n, in, out, kind, FFTW_ESTIMATE);
    memcpy(in, x, n * sizeof *x);
    fftw_execute(p);
    memcpy(y, out, n * sizeof *y);
    fftw_destroy_plan(p);
    fftw_free(in), fftw_free(out);
}

static void check_makhoul(int dst, int n)
{
    double *x = kit_alloc_doubles(n), *want = kit_alloc_doubles(n), *got = kit_alloc_doubles(n);
    l7_random(x, n, 31u * n + dst);
    fftw_1d(dst ? FFTW_RODFT10 : FFTW_REDFT10, n, x, want);
    ag_poison(got, n);
    if (dst)
        fp_dst2_via_fft(n, x, got);
    else
        fp_dct2_via_fft(n, x, got);
    ag_assert_matrix_eq(want, got, n, 1, 1e-12 * n, "%s, n=%d, random input, against FFTW's %s",
                        dst ? "fp_dst2_via_fft" : "fp_dct2_via_fft", n, dst ? "RODFT10" : "REDFT10");
    kit_free(x), kit_free(want), kit_free(got);
}

START_TEST(dct2_vs_fftw)
{
    for (int n = 1; n <= 16; n++)
        check_makhoul(0, n);
    check_makhoul(0, 64);
}
END_TEST

START_TEST(dst2_vs_fftw)
{
    for (int n = 1; n <= 16; n++)
        check_makhoul(1, n);
    check_makhoul(1, 64);
}
END_TEST

/* The inverse against FFTW's REDFT01 / 2n, and the round trip. */
START_TEST(idct2_inverse)
{
    for (int n = 1; n <= 17; n += (n < 16 ? 1 : 47)) {
        double *y = kit_alloc_doubles(n), *want = kit_alloc_doubles(n), *got = kit_alloc_doubles(n);
        l7_random(y, n, 5u * n);
        fftw_1d(FFTW_REDFT01, n, y, want);
        for (int k = 0; k < n; k++)
            want[k] /= 2.0 * n;
        ag_poison(got, n);
        fp_idct2_via_fft(n, y, got);
        ag_assert_matrix_eq(want, got, n, 1, 1e-13, "fp_idct2_via_fft, n=%d, against FFTW's REDFT01 / 2n", n);
        double *back = kit_alloc_doubles(n);
        fp_dct2_via_fft(n, got, back);
        ag_assert_matrix_eq(y, back, n, 1, 1e-13, "fp_dct2_via_fft(fp_idct2_via_fft(y)) = y, n=%d", n);
        kit_free(y), kit_free(want), kit_free(got), kit_free(back);
    }
}
END_TEST

/* ---- stage 2: transforms over a box --------------------------------------- */

/* Every line of a box along each axis against the definition's direct sum,
 * on a box that is part of a larger grid (lo != 0 on the other axes). */
START_TEST(transform_vs_definition)
{
    static const char *names = "PND";
    for (int bc = 0; bc < 3; bc++) {
        char bcs[4] = {names[bc], names[bc], names[bc], 0};
        fp_grid g = l7_grid(bcs, 6, 5, 7, 1.0);
        for (int axis = 0; axis < 3; axis++) {
            fp_box box = {{1, 2, 3}, {3, 2, 4}};
            box.lo[axis] = 0;
            box.n[axis] = g.n[axis];
            size_t n = fp_box_cells(&box), stride[3] = {1, (size_t)box.n[0], (size_t)box.n[0] * box.n[1]};
            double *a = kit_alloc_doubles(n), *want = kit_alloc_doubles(n);
            l7_random(a, n, 11u * bc + axis);
            /* each line: start = any cell with coordinate 0 along axis */
            for (size_t c = 0; c < n; c++) {
                size_t coord[3] = {c % box.n[0], c / box.n[0] % box.n[1], c / stride[2]};
                if (coord[axis] != 0)
                    continue;
                double *y = kit_alloc_doubles(g.n[axis]);
                l7_direct_r2r(g.bc[axis], g.n[axis], a + c, stride[axis], y);
                for (int k = 0; k < g.n[axis]; k++)
                    want[c + k * stride[axis]] = y[k];
                kit_free(y);
            }
            fp_transform(&g, &box, axis, 0, a);
            ag_assert_grid_eq(want, a, box.n[2], box.n[1], box.n[0], 1e-12,
                              "fp_transform forward along axis %d, boundary %c, box n=(%d,%d,%d) of grid 6x5x7, "
                              "against the definition (FFTW r2r kind of the boundary)",
                              axis, names[bc], box.n[0], box.n[1], box.n[2]);
            kit_free(a), kit_free(want);
        }
    }
}
END_TEST

/* Forward then inverse along each axis, divided by the round-trip factor. */
START_TEST(transform_round_trip)
{
    static const char *names = "PND";
    for (int bc = 0; bc < 3; bc++) {
        char bcs[4] = {names[bc], names[(bc + 1) % 3], names[(bc + 2) % 3], 0};
        fp_grid g = l7_grid(bcs, 7, 6, 5, 2.0);
        fp_box all = {{0, 0, 0}, {7, 6, 5}};
        size_t n = fp_cells(&g);
        double *a = kit_alloc_doubles(n), *orig = kit_alloc_doubles(n);
        l7_random(orig, n, 3u + bc);
        memcpy(a, orig, n * sizeof *a);
        for (int axis = 0; axis < 3; axis++) {
            fp_transform(&g, &all, axis, 0, a);
            fp_transform(&g, &all, axis, 1, a);
            for (size_t c = 0; c < n; c++)
                a[c] /= 2.0 * g.n[axis] / (g.bc[axis] == FP_P ? 2.0 : 1.0);
        }
        ag_assert_grid_eq(orig, a, 5, 6, 7, 1e-13, "fp_transform forward and inverse on each axis of %s, 7x6x5, "
                          "divided by 2n (n for periodic)", bcs);
        kit_free(a), kit_free(orig);
    }
}
END_TEST

/* ---- stage 2: the solver ---------------------------------------------------- */

/* solve on f (copied into u first); its residual must be small, and a
 * singular grid's solution of mean 0. `when` ends the messages. */
static void residual_on(const char *name, l7_solver solve, const char *bcs, const fp_grid *g, const double *f,
                        double *u, const char *when)
{
    size_t n = fp_cells(g);
    memcpy(u, f, n * sizeof *u);
    int rc = solve(g, u);
    ck_assert_msg(rc == 0, "%s, %s, %dx%dx%d, random f%s: returned %d", name, bcs, g->n[0], g->n[1], g->n[2], when, rc);
    double res = fp_residual(g, u, f);
    ck_assert_msg(res < 1e-10, "%s, %s, %dx%dx%d, random f%s: residual max|L u - f|/max|f| = %.3g, expected < 1e-10",
                  name, bcs, g->n[0], g->n[1], g->n[2], when, res);
    if (fp_singular(g)) {
        double m = l7_mean(u, n);
        ck_assert_msg(fabs(m) <= 1e-12 * l7_max_abs(u, n),
                      "%s, %s (singular), %dx%dx%d%s: the solution's mean is %.3g, expected 0", name, bcs, g->n[0],
                      g->n[1], g->n[2], when, m);
    }
}

static void residual_case(const char *name, l7_solver solve, const char *bcs, int nx, int ny, int nz, unsigned seed)
{
    fp_grid g = l7_grid(bcs, nx, ny, nz, 1.3);
    size_t n = fp_cells(&g);
    double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n);
    l7_random(f, n, seed);
    residual_on(name, solve, bcs, &g, f, u, "");
    kit_free(f), kit_free(u);
}

/* Three solves in the same array on the same grid: a random f, a new random
 * f, and that one with one value changed. A solver that remembers its
 * answer (or a transform of its input) by the array's address and the
 * grid, or by a sample of the contents, gives an earlier one. */
static void residual_fresh(const char *name, l7_solver solve, unsigned seed)
{
    const char *bcs = "DND";
    fp_grid g = l7_grid(bcs, 12, 10, 14, 1.3);
    size_t n = fp_cells(&g);
    double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n);
    l7_random(f, n, seed);
    residual_on(name, solve, bcs, &g, f, u, "");
    l7_random(f, n, seed + 1000);
    residual_on(name, solve, bcs, &g, f, u, ", called again with a new f in the same array");
    f[n / 2 + 7] += 1.0;
    residual_on(name, solve, bcs, &g, f, u, ", called again with one value of f changed, the rest as before");
    kit_free(f), kit_free(u);
}

/* All 27 boundary combinations on a grid with three different sizes. */
static void all_residuals(const char *name, l7_solver solve)
{
    static const char *names = "PND";
    for (int c = 0; c < 27; c++) {
        char bcs[4] = {names[c % 3], names[c / 3 % 3], names[c / 9], 0};
        residual_case(name, solve, bcs, 6, 5, 7, 40u + c);
    }
    residual_case(name, solve, "DND", 32, 24, 20, 1);
    residual_case(name, solve, "NPN", 16, 32, 24, 2);
    residual_fresh(name, solve, 3);
}

START_TEST(residual_all_boundaries) { all_residuals("fp_solve_serial", fp_solve_serial); }
END_TEST

/* The z stage's batch is shared by OpenMP threads: each must keep its own
 * buffers. A race shows only when threads really overlap, so this runs 4
 * threads on z lines long enough (2048) that each thread's share of the
 * batches lasts milliseconds: longer than the stagger with which threads
 * start on a busy machine (with OMP_WAIT_POLICY=passive they sleep until
 * woken), and longer than a time slice when fewer cores than threads are
 * free, so a thread is interrupted inside its batch and another thread
 * runs meanwhile. (Short lines, 40, let every thread finish before the
 * next began on a loaded 2-core CI machine: the race went unseen in one
 * run of 100 repeats.) The test is about threads, never about speed. Under
 * chaos (chaos.conf) the count is drawn instead of 4. */
START_TEST(batch_threads)
{
    /* 4 threads, or under chaos a drawn count, up to 13 (chaos.h) */
    int threads = ag_omp_threads(4, 0);
    char name[64];
    snprintf(name, sizeof name, "fp_solve_serial with %d OpenMP threads", threads);
    omp_set_num_threads(threads);
    for (int rep = 0; rep < 6; rep++)
        residual_case(name, fp_solve_serial, rep % 2 ? "DND" : "NDN", 64, 48, 2048, 500u + rep);
}
END_TEST

/* The six cases of the error table below on non-cubic grids: the error must be
 * the closed form |S/Lambda - 1| RMS(u) (1e-8 relative). */
static const struct {
    const char *bcs;
    int w[3];
    double table[4]; /* the RMS errors, recomputed, at N = 8, 16, 32, 64 (N^3 cells) */
} l7_modes[6] = {
    {"DDD", {1, 3, 4}, {6.499828e-02, 1.511826e-02, 3.713324e-03, 9.242570e-04}},
    {"NND", {1, 2, 3}, {3.339270e-02, 8.048001e-03, 1.993809e-03, 4.973241e-04}},
    {"PPD", {6, 6, 6}, {4.426781e-01, 8.778747e-02, 2.080555e-02, 5.133719e-03}},
    {"NNN", {1, 3, 6}, {1.688344e-01, 3.586232e-02, 8.618456e-03, 2.133628e-03}},
    {"PPP", {2, 2, 2}, {5.302929e-02, 1.295075e-02, 3.218964e-03, 8.035777e-04}},
    {"DDD", {3, 4, 2}, {6.031448e-02, 1.412551e-02, 3.475092e-03, 8.653042e-04}},
};

static void eigenmodes(const char *name, l7_solver solve)
{
    static const int sizes[3][3] = {{16, 12, 20}, {24, 32, 16}, {20, 20, 28}};
    const double pi = acos(-1.0);
    for (int m = 0; m < 6; m++)
        for (int s = 0; s < 3; s++) {
            fp_grid g = l7_grid(l7_modes[m].bcs, sizes[s][0], sizes[s][1], sizes[s][2], pi);
            double oracle, err = l7_eigenmode_error(solve, &g, l7_modes[m].w, &oracle, NULL);
            ck_assert_msg(fabs(err - oracle) <= 1e-8 * oracle,
                          "%s, %s, w=(%d,%d,%d) on [0,pi]^3, %dx%dx%d cells: RMS error %.10g, expected exactly "
                          "|S/Lambda - 1| RMS(u) = %.10g (u is an eigenvector of L_h: %s)",
                          name, l7_modes[m].bcs, l7_modes[m].w[0], l7_modes[m].w[1], l7_modes[m].w[2], sizes[s][0],
                          sizes[s][1], sizes[s][2], err, oracle,
                          err < 0.5 * oracle ? "too exact: the continuous -w^2 instead of the discrete eigenvalue?"
                                             : "wrong eigenvalues, indexing or normalisation?");
        }
}

START_TEST(eigenmode_exact_error) { eigenmodes("fp_solve_serial", fp_solve_serial); }
END_TEST

/* The paper's verification (Tables 3-7), reproduced at smaller N: the RMS
 * errors recomputed independently (the corrected captions, not the printed ones). */
START_TEST(error_tables)
{
    const double pi = acos(-1.0);
    for (int m = 0; m < 6; m++)
        for (int s = 1; s <= 2; s++) {
            int N = 8 << s;
            fp_grid g = l7_grid(l7_modes[m].bcs, N, N, N, pi);
            double oracle, err = l7_eigenmode_error(fp_solve_serial, &g, l7_modes[m].w, &oracle, NULL);
            double want = l7_modes[m].table[s];
            ck_assert_msg(fabs(err - want) <= 2e-6 * want,
                          "%s, w=(%d,%d,%d), N=%d on [0,pi]^3: RMS error %.7g, expected %.7g (the paper's Section 8, recomputed)",
                          l7_modes[m].bcs, l7_modes[m].w[0], l7_modes[m].w[1], l7_modes[m].w[2], N, err, want);
        }
}
END_TEST

/* Second order: RMS ratios e(N)/e(2N) in [3.7, 4.4] at 16 -> 32 -> 64, the
 * order at 32 -> 64 in [1.9, 2.15], and L-infinity's order > 1.8. N = 8 is
 * not used: its ratios reach 5 for the high-w cases. */
static void convergence(const char *name, l7_solver solve)
{
    const double pi = acos(-1.0);
    for (int m = 0; m < 6; m += (m == 0 ? 1 : m == 1 ? 2 : 3)) { /* DDD, NNN, DDD (3,4,2): one of each kind */
        double e[3], linf[3];
        for (int s = 0; s < 3; s++) {
            int N = 16 << s;
            fp_grid g = l7_grid(l7_modes[m].bcs, N, N, N, pi);
            double oracle;
            e[s] = l7_eigenmode_error(solve, &g, l7_modes[m].w, &oracle, &linf[s]);
        }
        for (int s = 0; s < 2; s++)
            ck_assert_msg(e[s] / e[s + 1] >= 3.7 && e[s] / e[s + 1] <= 4.4,
                          "%s, %s, w=(%d,%d,%d): RMS error ratio e(%d)/e(%d) = %.4g (errors %.4g, %.4g), expected "
                          "3.7..4.4 (second order)",
                          name, l7_modes[m].bcs, l7_modes[m].w[0], l7_modes[m].w[1], l7_modes[m].w[2], 16 << s, 32 << s,
                          e[s] / e[s + 1], e[s], e[s + 1]);
        double p = log2(e[1] / e[2]), pinf = log2(linf[1] / linf[2]);
        ck_assert_msg(p >= 1.9 && p <= 2.15 && pinf > 1.8,
                      "%s, %s: observed order at 32 -> 64: RMS %.4g (expected 1.9..2.15), max %.4g (expected > 1.8)",
                      name, l7_modes[m].bcs, p, pinf);
    }
}

START_TEST(convergence_order) { convergence("fp_solve_serial", fp_solve_serial); }
END_TEST

/* Non-homogeneous boundary values: the RMS error at N = 32
 * against independently reproduced levels (1e-4 relative), the ratios at
 * 16 -> 32 -> 64, and the discrete equation with the ghost cells rebuilt
 * from the face data (1e-10). */
START_TEST(boundary_folding)
{
    static const struct {
        const char *bcs;
        double e32;
    } cases[5] = {{"DDD", 5.3700e-05}, {"NDD", 8.1679e-05}, {"DND", 2.4855e-05}, {"NND", 5.6096e-05},
                  {"NNN", 8.2616e-06}};
    for (int c = 0; c < 5; c++) {
        double e[3], ghost;
        for (int s = 0; s < 3; s++)
            e[s] = l7_fold_error(cases[c].bcs, 16 << s, 16 << s, 16 << s, NULL, s == 1 ? &ghost : NULL);
        ck_assert_msg(ghost < 1e-10,
                      "%s, N=32, u = exp(x/2) sin(y+1/2) cos(0.7z+0.2) on [0,1]^3: with the ghost cells of the face "
                      "data, max|stencil(u) - f|/max|f| = %.3g, expected < 1e-10 (a folding sign or factor?)",
                      cases[c].bcs, ghost);
        ck_assert_msg(fabs(e[1] - cases[c].e32) <= 1e-4 * cases[c].e32,
                      "%s, N=32, u = exp(x/2) sin(y+1/2) cos(0.7z+0.2): RMS error %.5g, expected %.5g", cases[c].bcs,
                      e[1], cases[c].e32);
        for (int s = 0; s < 2; s++)
            ck_assert_msg(e[s] / e[s + 1] >= 3.7 && e[s] / e[s + 1] <= 4.4,
                          "%s, non-homogeneous boundary: RMS ratio e(%d)/e(%d) = %.4g, expected 3.7..4.4",
                          cases[c].bcs, 16 << s, 32 << s, e[s] / e[s + 1]);
    }
}
END_TEST

/* The singular problems: f plus a constant (incompatible), the solution
 * must be finite with mean 0 and solve the projected problem. */
static void null_spaces(const char *name, l7_solver solve)
{
    static const char *cases[4] = {"NNN", "PPP", "PNN", "NNP"};
    for (int c = 0; c < 4; c++) {
        fp_grid g = l7_grid(cases[c], 12, 10, 14, 1.0);
        size_t n = fp_cells(&g);
        double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n);
        l7_random(f, n, 77u + c);
        for (size_t i = 0; i < n; i++)
            f[i] += 3.0;
        memcpy(u, f, n * sizeof *u);
        int rc = solve(&g, u);
        double m = l7_mean(u, n), res = fp_residual(&g, u, f), big = l7_max_abs(u, n);
        ck_assert_msg(rc == 0 && isfinite(big) && fabs(m) <= 1e-12 * big && res < 1e-10,
                      "%s, %s (singular), random f + 3: returned %d, max|u| = %.3g, mean(u) = %.3g "
                      "(expected 0), residual against f - mean(f) = %.3g (expected < 1e-10)",
                      name, cases[c], rc, big, m, res);
        kit_free(f), kit_free(u);
    }
}

START_TEST(null_space) { null_spaces("fp_solve_serial", fp_solve_serial); }
END_TEST

/* ---- stage 5: the kit's radiator problem, directly ----------------------- */

START_TEST(radiator_direct)
{
    static const int sizes[3] = {15, 20, 41};
    for (int s = 0; s < 3; s++) {
        int N = sizes[s];
        size_t n = poisson_points(N);
        double *u = kit_alloc_doubles(n), *f = kit_alloc_doubles(n), *want = kit_alloc_doubles(n);
        ag_poison(u, n);
        poisson_init(N, 0.0, f, want);
        int rc = fp_radiator_solve(N, u);
        ck_assert_msg(rc == 0, "fp_radiator_solve(N=%d) returned %d", N, rc);
        /* the boundary is common's, exactly */
        for (size_t c = 0; c < n; c++) {
            size_t i = c / (poisson_side(N) * poisson_side(N)), j = c / poisson_side(N) % poisson_side(N),
                   k = c % poisson_side(N);
            if (i == 0 || j == 0 || k == 0 || i == (size_t)N + 1 || j == (size_t)N + 1 || k == (size_t)N + 1)
                ck_assert_msg(u[c] == want[c], "fp_radiator_solve(N=%d): boundary point (%zu,%zu,%zu) is %g, "
                              "expected %g (poisson_init)", N, i, j, k, u[c], want[c]);
        }
        double res = poisson_residual_max(N, f, u);
        ck_assert_msg(res < 1e-9 * POISSON_RADIATOR,
                      "fp_radiator_solve(N=%d): poisson_residual_max = %.3g, expected < %.3g (the direct solution)", N,
                      res, 1e-9 * POISSON_RADIATOR);
        if (N == 15) { /* Jacobi to convergence reaches the same grid */
            double *old = kit_alloc_doubles(n);
            poisson_init(N, 0.0, NULL, want);
            memcpy(old, want, n * sizeof *old);
            poisson_jacobi_reference(N, 1e-13, 20000, f, want, old);
            size_t sd = poisson_side(N);
            ag_assert_grid_eq(want, u, sd, sd, sd, 1e-9, "fp_radiator_solve(N=15) against common's Jacobi run to "
                              "an update norm of 1e-13");
            kit_free(old);
        }
        kit_free(u), kit_free(f), kit_free(want);
    }
}
END_TEST

/* ---- stage 4: pencils over MPI (labs/lab7-fft-poisson/tests/mpi/lab7_mpi_check.c) ---- */

/* Each run: the transposes on a global-index code, element by element
 * and back to the start, then fp_solve_mpi against fp_solve_serial to
 * 1e-12, on 1, 1 x 2 and 2 x 1, and 2 x 2 ranks, at N = 16
 * and 32 and on grids that are not cubes. One mpirun per rank count: its
 * start-up is most of the time. */
START_TEST(mpi_one_rank)
{
    ag_run_mpi("lab7_mpi_check", 1, "transpose:8x6x4:1x1 solve:DND:16x16x16:1x1 solve:NNN:16x12x8:1x1", 60);
}
END_TEST

START_TEST(mpi_two_ranks)
{
    ag_run_mpi("lab7_mpi_check", 2,
               "transpose:8x6x4:1x2 transpose:6x8x4:2x1 transpose:16x16x16:2x1 "
               "solve:DDD:16x16x16:1x2 solve:DDD:16x16x16:2x1 solve:NND:32x32x32:1x2 solve:NND:32x32x32:2x1 "
               "solve:PNP:16x8x12:1x2 solve:NNN:12x16x8:2x1",
               90);
}
END_TEST

START_TEST(mpi_four_ranks)
{
    ag_run_mpi("lab7_mpi_check", 4,
               "transpose:8x12x6:2x2 transpose:16x16x16:2x2 "
               "solve:DND:16x16x16:2x2 solve:PPD:32x32x32:2x2 solve:NNN:16x16x16:2x2 solve:DPN:8x12x16:2x2",
               90);
}
END_TEST

/* ---- stage 6: GPUs ------------------------------------------------------------ */

/* Forward and back along y and z on a grid of thousands of tiles, each
 * round trip compared with its input. Why: the lines along y and z are
 * gathered through shared memory a tile at a time (32 x 32 cells, 8 warps
 * a block), and a missing barrier between the stores and the loads of a
 * tile shows only when one warp of a block outruns another, which the few
 * blocks of the small grids above rarely do (a large GPU once passed such
 * a kernel). Here: about 10 000 blocks a gather over 75 MB of doubles
 * (more than a large GPU's 50 MB of L2, so the warps' loads wait on
 * memory for different times), 3 round trips per axis (a gather each
 * way), 12 gathers in all, random values that
 * differ from cell to cell, a new field every round: a stale value read
 * from shared memory is another cell's, and the round trip loses it. The
 * grid is not a multiple of the tile in any direction. */
static void gpu_round_trips_many_tiles(void)
{
    enum { ROUNDS = 3 };
    fp_grid g = l7_grid("NDP", 250, 190, 198, 1.0);
    fp_box all[3] = {fp_whole(&g), fp_whole(&g), fp_whole(&g)};
    size_t n = fp_cells(&g);
    double *a = kit_alloc_doubles(n), *got = kit_alloc_doubles(n), *d_a;
    ck_assert_int_eq(cudaMalloc((void **)&d_a, n * sizeof *d_a), cudaSuccess);
    fp_gpu *P = fp_gpu_create(&g, all, 0);
    ck_assert_msg(P != NULL, "fp_gpu_create returned NULL (250x190x198)");
    for (int axis = 1; axis < 3; axis++)
        for (int round = 0; round < ROUNDS; round++) {
            l7_random(a, n, 900u + 10u * axis + round);
            ck_assert_int_eq(cudaMemcpy(d_a, a, n * sizeof *a, cudaMemcpyHostToDevice), cudaSuccess);
            fp_gpu_transform(P, axis, 0, d_a);
            fp_gpu_transform(P, axis, 1, d_a);
            ag_poison(got, n);
            ck_assert_int_eq(cudaMemcpy(got, d_a, n * sizeof *a, cudaMemcpyDeviceToHost), cudaSuccess);
            double rt = fp_round_trip(g.bc[axis], g.n[axis]);
            for (size_t c = 0; c < n; c++)
                got[c] /= rt;
            ag_assert_grid_eq(a, got, 198, 190, 250, 1e-13, "fp_gpu_transform forward and inverse, axis %d of NDP, "
                              "250x190x198 (thousands of tiles), round %d of %d, divided by the round trip",
                              axis, round + 1, ROUNDS);
        }
    fp_gpu_destroy(P);
    cudaFree(d_a);
    kit_free(a), kit_free(got);
}

/* The GPU's transforms of an nx x ny x nz grid against the definitions
 * (FFTW's r2r kinds), forward and back (divided by the round trip), every
 * axis and type (the three rotations of PND). */
static void gpu_transforms_vs_definition(int nx, int ny, int nz)
{
    static const char *names = "PND";
    for (int bc = 0; bc < 3; bc++) {
        char bcs[4] = {names[bc], names[(bc + 1) % 3], names[(bc + 2) % 3], 0};
        fp_grid g = l7_grid(bcs, nx, ny, nz, 1.0);
        fp_box all[3] = {fp_whole(&g), fp_whole(&g), fp_whole(&g)};
        size_t n = fp_cells(&g), stride[3] = {1, (size_t)nx, (size_t)nx * ny};
        double *a = kit_alloc_doubles(n), *want = kit_alloc_doubles(n), *got = kit_alloc_doubles(n), *d_a;
        double *y = kit_alloc_doubles((size_t)(nx + ny + nz)); /* longer than any line */
        ck_assert_int_eq(cudaMalloc((void **)&d_a, n * sizeof *d_a), cudaSuccess);
        fp_gpu *P = fp_gpu_create(&g, all, 0);
        ck_assert_msg(P != NULL, "fp_gpu_create returned NULL");
        for (int axis = 0; axis < 3; axis++) {
            l7_random(a, n, 50u + 3u * bc + axis);
            for (size_t c = 0; c < n; c++) { /* each line from its first cell */
                size_t coord[3] = {c % stride[1], c / stride[1] % (size_t)ny, c / stride[2]};
                if (coord[axis] != 0)
                    continue;
                l7_direct_r2r(g.bc[axis], g.n[axis], a + c, stride[axis], y);
                for (int k = 0; k < g.n[axis]; k++)
                    want[c + k * stride[axis]] = y[k];
            }
            ck_assert_int_eq(cudaMemcpy(d_a, a, n * sizeof *a, cudaMemcpyHostToDevice), cudaSuccess);
            fp_gpu_transform(P, axis, 0, d_a);
            ag_poison(got, n);
            ck_assert_int_eq(cudaMemcpy(got, d_a, n * sizeof *a, cudaMemcpyDeviceToHost), cudaSuccess);
            ag_assert_grid_eq(want, got, nz, ny, nx, 1e-12, "fp_gpu_transform forward, axis %d of %s, %dx%dx%d, against "
                              "the definition of FFTW's kind", axis, bcs, nx, ny, nz);
            fp_gpu_transform(P, axis, 1, d_a);
            ck_assert_int_eq(cudaMemcpy(got, d_a, n * sizeof *a, cudaMemcpyDeviceToHost), cudaSuccess);
            for (size_t c = 0; c < n; c++)
                got[c] /= fp_round_trip(g.bc[axis], g.n[axis]);
            ag_assert_grid_eq(a, got, nz, ny, nx, 1e-13, "fp_gpu_transform forward and inverse, axis %d of %s, %dx%dx%d, "
                              "divided by the round trip", axis, bcs, nx, ny, nz);
        }
        fp_gpu_destroy(P);
        cudaFree(d_a);
        kit_free(a), kit_free(want), kit_free(got), kit_free(y);
    }
}

/* The GPU's transforms on a small grid, then round trips on a grid of many
 * tiles (above). */
START_TEST(gpu_transforms)
{
    gpu_transforms_vs_definition(6, 5, 7);
    gpu_round_trips_many_tiles();
}
END_TEST

/* fp_solve_cuda equals fp_solve_serial to 1e-12 of max |u|, and its own
 * residual is small, on every boundary combination. */
static void gpu_vs_serial(const char *bcs, int nx, int ny, int nz)
{
    fp_grid g = l7_grid(bcs, nx, ny, nz, 1.0);
    size_t n = fp_cells(&g);
    double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n), *v = kit_alloc_doubles(n);
    l7_random(f, n, 333u + nx);
    memcpy(u, f, n * sizeof *u);
    memcpy(v, f, n * sizeof *v);
    ck_assert_int_eq(fp_solve_serial(&g, u), 0);
    int rc = fp_solve_cuda(&g, v);
    ck_assert_msg(rc == 0, "fp_solve_cuda, %s, %dx%dx%d: returned %d", bcs, nx, ny, nz, rc);
    ag_assert_grid_eq(u, v, nz, ny, nx, 1e-12 * l7_max_abs(u, n), "fp_solve_cuda against fp_solve_serial, %s, "
                      "%dx%dx%d, random f (index [z][y][x])", bcs, nx, ny, nz);
    kit_free(f), kit_free(u), kit_free(v);
}

START_TEST(gpu_solve_equals_serial)
{
    static const char *names = "PND";
    for (int c = 0; c < 27; c++) {
        char bcs[4] = {names[c % 3], names[c / 3 % 3], names[c / 9], 0};
        gpu_vs_serial(bcs, 6, 5, 7);
    }
    gpu_vs_serial("DND", 32, 24, 20);
    gpu_vs_serial("NPD", 64, 48, 33);
    all_residuals("fp_solve_cuda", fp_solve_cuda);
}
END_TEST

START_TEST(gpu_eigenmodes_and_order)
{
    eigenmodes("fp_solve_cuda", fp_solve_cuda);
    convergence("fp_solve_cuda", fp_solve_cuda);
    null_spaces("fp_solve_cuda", fp_solve_cuda);
}
END_TEST

/* The staged solve on the device, from fp_gpu.h's parts as fp_solve_cuda
 * runs them where no fused solve applies (x, y, the z stage, y and x
 * back), against fp_solve_serial; bcs has a D (no mean to remove). */
static void gpu_staged_vs_serial(const char *bcs, int nx, int ny, int nz)
{
    fp_grid g = l7_grid(bcs, nx, ny, nz, 1.0);
    fp_box all[3] = {fp_whole(&g), fp_whole(&g), fp_whole(&g)};
    size_t n = fp_cells(&g);
    double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n), *v = kit_alloc_doubles(n), *d_a;
    l7_random(f, n, 777u + nx);
    memcpy(u, f, n * sizeof *u);
    ck_assert_int_eq(fp_solve_serial(&g, u), 0);
    ck_assert_int_eq(cudaMalloc((void **)&d_a, n * sizeof *d_a), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(d_a, f, n * sizeof *f, cudaMemcpyHostToDevice), cudaSuccess);
    fp_gpu *P = fp_gpu_create(&g, all, 0);
    ck_assert_msg(P != NULL, "fp_gpu_create returned NULL");
    fp_gpu_transform(P, 0, 0, d_a);
    fp_gpu_transform(P, 1, 0, d_a);
    int rc = fp_gpu_solve_z(P, d_a);
    fp_gpu_transform(P, 1, 1, d_a);
    fp_gpu_transform(P, 0, 1, d_a);
    ag_poison(v, n);
    ck_assert_int_eq(cudaMemcpy(v, d_a, n * sizeof *v, cudaMemcpyDeviceToHost), cudaSuccess);
    ck_assert_msg(rc == 0, "fp_gpu_solve_z, %s, %dx%dx%d: returned %d", bcs, nx, ny, nz, rc);
    ag_assert_grid_eq(u, v, nz, ny, nx, 1e-12 * l7_max_abs(u, n), "fp_gpu_transform along x and y, fp_gpu_solve_z, "
                      "and back along y and x, against fp_solve_serial, %s, %dx%dx%d, random f", bcs, nx, ny, nz);
    fp_gpu_destroy(P);
    cudaFree(d_a);
    kit_free(f), kit_free(u), kit_free(v);
}

/* The CUDA toolkit's checkers (autograder/cuda/compute_sanitizer.h) on a
 * 37 x 35 x 33 grid: a whole 32 x 32 tile and part of one along x and along
 * each line. Memcheck: the transforms, the staged solve (a Thomas z and a
 * periodic z), and fp_solve_cuda (the reference's fused solve, where it
 * applies) on a regular, a singular-periodic and a singular-Neumann grid.
 * Racecheck and synccheck: the transforms, whose y and z lines the
 * reference gathers and scatters through shared-memory tiles. */
static void solves_small_case(void)
{
    gpu_transforms_vs_definition(37, 35, 33);
    gpu_staged_vs_serial("DND", 37, 35, 33);
    gpu_staged_vs_serial("NDP", 37, 35, 33);
    gpu_vs_serial("DND", 37, 35, 33);
    gpu_vs_serial("NPP", 37, 35, 33);
    gpu_vs_serial("PNN", 37, 35, 33);
}

static void transforms_small_case(void) { gpu_transforms_vs_definition(37, 35, 33); }

static const ag_sanitized_case gpu_memcheck = {"gpu_memcheck", "memcheck", solves_small_case};
static const ag_sanitized_case gpu_racecheck = {"gpu_racecheck", "racecheck synccheck", transforms_small_case};

/* fp_solve_nccl against fp_solve_cuda (and the CPU) under mpirun, one rank
 * per GPU; on one GPU the 1 x 1 grid still runs every stage. */
START_TEST(nccl_one_rank)
{
    ag_run_mpi("lab7_mpi_check", 1, "nccl:DND:16x16x16:1x1 nccl:NNN:16x12x8:1x1 nccl:PPD:32x32x32:1x1", 120);
}
END_TEST

START_TEST(nccl_two_ranks)
{
    ag_run_mpi("lab7_mpi_check", 2,
               "nccl:DDD:16x16x16:1x2 nccl:DDD:16x16x16:2x1 nccl:NND:32x32x32:1x2 nccl:NND:32x32x32:2x1 "
               "nccl:PNP:16x8x12:1x2 nccl:NNN:12x16x8:2x1 nccl:DND:64x64x64:1x2",
               180);
}
END_TEST

static void register_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = eigenvalues_n4, .points = 1});
    ag_add(s, (ag_spec){.test = eigenvalue_zeros, .points = 1});
    ag_add(s, (ag_spec){.test = thomas_vs_lapack, .points = 2});
    ag_add(s, (ag_spec){.test = thomas_zero_pivot, .points = 1});
    ag_add(s, (ag_spec){.test = transform_vs_definition, .points = 2});
    ag_add(s, (ag_spec){.test = transform_round_trip, .points = 1});
    ag_add(s, (ag_spec){.test = residual_all_boundaries, .points = 2, .timeout = 30});
    ag_add(s, (ag_spec){.test = batch_threads, .points = 1, .timeout = 30});
    ag_add(s, (ag_spec){.test = eigenmode_exact_error, .points = 3, .timeout = 30});
    ag_add(s, (ag_spec){.test = error_tables, .points = 2, .timeout = 30});
    ag_add(s, (ag_spec){.test = convergence_order, .points = 2, .timeout = 60});
    ag_add(s, (ag_spec){.test = boundary_folding, .points = 3, .timeout = 60});
    lab7_contract_tests(s);
    ag_add(s, (ag_spec){.test = null_space, .points = 2});
    ag_add(s, (ag_spec){.test = dct2_vs_fftw, .points = 2});
    ag_add(s, (ag_spec){.test = dst2_vs_fftw, .points = 1});
    ag_add(s, (ag_spec){.test = idct2_inverse, .points = 1});
    ag_add(s, (ag_spec){.test = radiator_direct, .points = 2, .timeout = 30});
    ag_add(s, (ag_spec){.test = mpi_one_rank, .points = 1, .timeout = 90});
    ag_add(s, (ag_spec){.test = mpi_two_ranks, .points = 4, .timeout = 120});
    ag_add(s, (ag_spec){.test = mpi_four_ranks, .points = 3, .timeout = 120});
    ag_add(s, (ag_spec){.test = gpu_transforms, .points = 2, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){.test = gpu_solve_equals_serial, .points = 3, .gpus = 1, .timeout = 120});
    ag_add(s, (ag_spec){.test = gpu_eigenmodes_and_order, .points = 3, .gpus = 1, .timeout = 120});
    ag_add(s, (ag_spec){.test = nccl_one_rank, .points = 1, .gpus = 1, .timeout = 180});
    ag_add(s, (ag_spec){.test = nccl_two_ranks, .points = 3, .gpus = 2, .timeout = 240});
    ag_add(s, (ag_spec){AG_SANITIZED(gpu_memcheck), .points = 1});
    ag_add(s, (ag_spec){AG_SANITIZED(gpu_racecheck), .points = 1});
}

int main(int argc, char **argv)
{
    return ag_main(argc, argv, register_tests);
}
