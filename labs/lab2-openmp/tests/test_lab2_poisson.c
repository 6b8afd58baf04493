/* Lab 2 (openmp): the visible Poisson tests.
 *
 * The kit fixes the expression and its order (common/poisson.h), so every
 * correct solver gives exactly the bits of the kit's sequential reference
 * at a fixed number of sweeps, whatever the number of threads: most tests
 * compare bit for bit. Where a tolerance stops the sweeps, the order of the
 * norm's sum may differ (a reduction over threads), so the sweep count may
 * differ by one, and u must then be the reference after that many sweeps.
 * Sizes are small and odd on purpose: N = 11 and 23 make N+1 a multiple of
 * 3 (the radiator's z = -2/3 plane lies exactly on grid points) and
 * N = 7, 15 a multiple of 8 (x = -3/8 does). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <omp.h>

#include "alloc.h"
#include "autograder.h"
#include "lab2_checks.h"
#include "poisson.h"
#include "poisson_omp.h"

#define SIDE(N) poisson_side(N), poisson_side(N), poisson_side(N)

START_TEST(init_omp_matches_problem)
{
    static const int Ns[] = {1, 2, 5, 7, 11, 15, 16, 23};
    static const double T0s[] = {0.0, 12.5};
    for (int a = 0; a < 8; a++)
        for (int quiet = 1; quiet <= 3; quiet += 2) {
            int N = Ns[a], t = ag_omp_threads(quiet, 0); /* under chaos, drawn (chaos.h) */
            double T0 = T0s[a % 2];
            size_t n = poisson_points(N);
            double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n), *u_old = kit_alloc_doubles(n);
            double *f_ref = kit_alloc_doubles(n), *u_ref = kit_alloc_doubles(n);
            ag_poison(f, n);
            ag_poison(u, n);
            ag_poison(u_old, n);
            poisson_init(N, T0, f_ref, u_ref);
            omp_set_num_threads(t);
            poisson_init_omp(N, T0, f, u, u_old);
            size_t radiator = 0;
            for (size_t c = 0; c < n; c++)
                radiator += f[c] == POISSON_RADIATOR;
            ck_assert_msg(radiator == poisson_radiator_count(N),
                          "poisson_init_omp, N=%d, %d thread(s): %zu points of f are 200, expected %zu "
                          "(the radiator must be decided with poisson_in_radiator's integer tests)",
                          N, t, radiator, poisson_radiator_count(N));
            ag_assert_grid_eq(f_ref, f, SIDE(N), -1.0, "poisson_init_omp, N=%d, %d thread(s): f", N, t);
            ag_assert_grid_eq(u_ref, u, SIDE(N), -1.0,
                              "poisson_init_omp, N=%d, T0=%g, %d thread(s): u (20 on five faces, 0 on y = -1 "
                              "including its edges, T0 inside)",
                              N, T0, t);
            ag_assert_grid_eq(u_ref, u_old, SIDE(N), -1.0, "poisson_init_omp, N=%d, T0=%g, %d thread(s): u_old",
                              N, T0, t);
            kit_free(f), kit_free(u), kit_free(u_old), kit_free(f_ref), kit_free(u_ref);
        }
}
END_TEST

/* max_iter = 0 changes nothing, and max_iter = 1 does exactly one sweep:
 * a solver that does nothing passes only the first half. */
START_TEST(max_iter_zero_then_one)
{
    for (int s = 0; s < l2_solver_count; s++) {
        const l2_solver *sv = &l2_solvers[s];
        ag_grid ref = ag_grid_new(9, 3.0), got = ag_grid_copy(&ref);
        char context[200];
        /* u first: where it is the reference one sweep off, the message
         * says so ("one step ahead?"), which the sweep count alone does not. */
        int it = l2_run(sv, &got, 3.0, 0.0, 0, 2);
        snprintf(context, sizeof context, "%s, N=9, T0=3, max_iter=0: u must be the input", sv->name);
        l2_assert_after_sweeps(sv, 9, 3.0, ref.u, got.u, 0, context);
        ck_assert_msg(it == 0, "%s, N=9, max_iter=0: returned %d, expected 0 sweeps", sv->name, it);
        it = l2_run(sv, &got, 3.0, 0.0, 1, 2);
        l2_reference(sv, &ref, 0.0, 1);
        snprintf(context, sizeof context, "%s, N=9, T0=3, max_iter=1: u after one sweep", sv->name);
        l2_assert_after_sweeps(sv, 9, 3.0, ref.u, got.u, 1, context);
        ck_assert_msg(it == 1, "%s, N=9, max_iter=1, tol=0: returned %d, expected 1 sweep", sv->name, it);
        ag_grid_free(&ref);
        ag_grid_free(&got);
    }
}
END_TEST

/* N < 1 or max_iter < 0: -1, and nothing touched. */
START_TEST(bad_arguments_rejected)
{
    static const struct {
        int N, max_iter;
    } bad[] = {{0, 10}, {-3, 10}, {3, -1}};
    for (int s = 0; s < l2_solver_count; s++)
        for (int b = 0; b < 3; b++) {
            enum { n = 125 }; /* room for N = 3 */
            double f[n], u[n], u_old[n];
            for (int c = 0; c < n; c++)
                f[c] = u[c] = u_old[c] = 7.0;
            const l2_solver *sv = &l2_solvers[s];
            int it = sv->jacobi ? sv->jacobi(bad[b].N, 0.0, bad[b].max_iter, f, u, u_old)
                                : sv->gauss_seidel(bad[b].N, 0.0, bad[b].max_iter, f, u);
            ck_assert_msg(it == -1, "%s(N=%d, max_iter=%d) returned %d, expected -1 (bad arguments)", sv->name,
                          bad[b].N, bad[b].max_iter, it);
            for (int c = 0; c < n; c++)
                ck_assert_msg(u[c] == 7.0 && u_old[c] == 7.0,
                              "%s(N=%d, max_iter=%d) wrote to u or u_old at [%d], but must touch nothing", sv->name,
                              bad[b].N, bad[b].max_iter, c);
        }
}
END_TEST

/* Values worked out by hand, N = 15 (h = 1/8), T0 = 0, one Jacobi sweep. */
START_TEST(jacobi_one_sweep_by_hand)
{
    const int N = 15;
    static const struct {
        int i, j, k;
        double want;
        const char *why;
    } pts[] = {
        {1, 1, 1, 40.0 / 6.0, "20 (z = -1) + 0 (y = -1) + 20 (x = -1), over 6"},
        {1, N, 1, 10.0, "three 20-faces meet: 60 / 6"},
        {N, 1, N, 40.0 / 6.0, "20 (z = +1) + 0 (y = -1) + 20 (x = +1), over 6"},
        {5, 3, 3, 3.125 / 6.0, "inside the radiator, no face near: h^2 200 / 6 = 3.125 / 6"},
        {8, 8, 8, 0.0, "the middle: every neighbour 0, no radiator"},
        {8, 8, N, 20.0 / 6.0, "next to the face x = +1 only: 20 / 6"},
    };
    for (int s = 0; s < l2_solver_count; s++) {
        const l2_solver *sv = &l2_solvers[s];
        if (!sv->jacobi)
            continue;
        ag_grid g = ag_grid_new(N, 0.0);
        l2_run(sv, &g, 0.0, 0.0, 1, 2);
        for (int p = 0; p < 6; p++) {
            double got = g.u[poisson_index(N, pts[p].i, pts[p].j, pts[p].k)];
            ck_assert_msg(got == pts[p].want, "%s, N=15, T0=0, one sweep: u[%d][%d][%d] = %.17g, expected %.17g (%s)",
                          sv->name, pts[p].i, pts[p].j, pts[p].k, got, pts[p].want, pts[p].why);
        }
        ag_grid_free(&g);
    }
}
END_TEST

/* Values worked out by hand, N = 15 (h = 1/8), T0 = 0, one Gauss-Seidel
 * sweep in the order i, then j, then k: a point reads the new values of its
 * -z, -y and -x neighbours, already swept, and the old ones (0 inside) of
 * the rest. None of these points is in the radiator (z = -0.875 and -0.75
 * are below -2/3). Each expected value is written as the sum of the six
 * neighbours in the kit's order (-z, +z, -y, +y, -x, +x), then over 6. */
START_TEST(gauss_seidel_one_sweep_by_hand)
{
    const int N = 15;
    const double first = (20.0 + 0.0 + 0.0 + 0.0 + 20.0 + 0.0) / 6.0; /* 40/6, as in Jacobi */
    const struct {
        int i, j, k;
        double want;
        const char *why;
    } pts[] = {
        {1, 1, 1, first, "the first point: 20 (z = -1) + 0 (y = -1) + 20 (x = -1), over 6"},
        {1, 1, 2, (20.0 + 0.0 + 0.0 + 0.0 + first + 0.0) / 6.0,
         "20 (z = -1) + the new u[1][1][1] = 40/6 (its -x neighbour), over 6"},
        {1, 2, 1, (20.0 + 0.0 + first + 0.0 + 20.0 + 0.0) / 6.0,
         "20 (z = -1) + the new u[1][1][1] (its -y neighbour) + 20 (x = -1), over 6"},
        {2, 1, 1, (first + 0.0 + 0.0 + 0.0 + 20.0 + 0.0) / 6.0,
         "the new u[1][1][1] (its -z neighbour) + 0 (y = -1) + 20 (x = -1), over 6"},
    };
    static const char *const names[] = {"gauss_seidel", "gauss_seidel_omp"};
    for (int s = 0; s < 2; s++) {
        const l2_solver *sv = l2_find(names[s]);
        ag_grid g = ag_grid_new(N, 0.0);
        l2_run(sv, &g, 0.0, 0.0, 1, 2);
        for (size_t p = 0; p < sizeof pts / sizeof pts[0]; p++) {
            double got = g.u[poisson_index(N, pts[p].i, pts[p].j, pts[p].k)];
            ck_assert_msg(got == pts[p].want, "%s, N=15, T0=0, one sweep: u[%d][%d][%d] = %.17g, expected %.17g (%s)",
                          sv->name, pts[p].i, pts[p].j, pts[p].k, got, pts[p].want, pts[p].why);
        }
        ag_grid_free(&g);
    }
}
END_TEST

static const int fixed_Ns[] = {1, 2, 7, 11, 16, 23};
static const int fixed_sweeps[] = {1, 2, 5, 10, 17, 4};

/* libgomp's doacross waits spin without yielding, so a wavefront with more
 * threads than cores crawls (a waiting thread can hold the core of the one
 * it waits for for a whole time slice): gauss_seidel_omp runs with at most
 * as many threads as cores, and at least 2. */
static int thread_cap(const char *name, int max_threads)
{
    int cores = omp_get_num_procs() < 2 ? 2 : omp_get_num_procs();
    return strcmp(name, "gauss_seidel_omp") || max_threads <= cores ? max_threads : cores;
}

static void fixed_sweeps_all(const char *name, int max_threads)
{
    const l2_solver *s = l2_find(name);
    int wavefront = !strcmp(name, "gauss_seidel_omp");
    max_threads = thread_cap(name, max_threads);
    for (int t = 1; t <= max_threads; t++)
        for (int a = 0; a < 6; a++) {
            int sweeps = fixed_sweeps[(a + t) % 6];
            if (wavefront && sweeps > 3) /* every row of every sweep is a wait */
                sweeps = 3;
            l2_check_fixed_sweeps(s, fixed_Ns[a], a % 2 ? 5.0 : 0.0, sweeps, t);
        }
}

/* One test per solver, all one body: the row is the solver and the most
 * threads it runs on. */
typedef struct {
    const char *solver;
    int max_threads;
} bit_for_bit_row;

static const bit_for_bit_row jacobi_bit_for_bit = {"jacobi", 1};
static const bit_for_bit_row gauss_seidel_bit_for_bit = {"gauss_seidel", 1};
static const bit_for_bit_row omp_v1_bit_for_bit_1_to_4_threads = {"jacobi_omp_v1", 4};
static const bit_for_bit_row omp_v2_bit_for_bit_1_to_4_threads = {"jacobi_omp_v2", 4};
static const bit_for_bit_row omp_v3_bit_for_bit_1_to_4_threads = {"poisson_init_omp + jacobi_omp_v2 (v3)", 4};
static const bit_for_bit_row gs_omp_bit_for_bit_threads = {"gauss_seidel_omp", 4};

START_TEST(bit_for_bit)
{
    const bit_for_bit_row *row = ag_test_arg();
    fixed_sweeps_all(row->solver, row->max_threads);
}
END_TEST

START_TEST(tolerance_stop_sequential)
{
    l2_check_tolerance(l2_find("jacobi"), 12, 0.0, 1e-3, 1);
    l2_check_tolerance(l2_find("jacobi"), 7, 20.0, 1e-6, 1);
    l2_check_tolerance(l2_find("gauss_seidel"), 12, 0.0, 1e-3, 1);
    l2_check_tolerance(l2_find("gauss_seidel"), 7, 20.0, 1e-6, 1);
}
END_TEST

START_TEST(tolerance_stop_omp)
{
    static const char *const names[] = {"jacobi_omp_v1", "jacobi_omp_v2"};
    for (int s = 0; s < 2; s++)
        for (int t = 2; t <= 4; t++) {
            if (t <= 3) {
                l2_check_tolerance(l2_find(names[s]), 12, 0.0, 1e-3, t);
                l2_check_tolerance(l2_find(names[s]), 7, 20.0, 1e-6, t);
            }
            /* Big enough that the threads really overlap: a norm summed
             * without a reduction loses updates here. */
            l2_check_tolerance(l2_find(names[s]), 40, 0.0, 3.0, t);
        }
    /* Small, because each row of each sweep of the wavefront is a wait. */
    l2_check_tolerance(l2_find("gauss_seidel_omp"), 6, 0.0, 1e-4, 2);
    l2_check_tolerance(l2_find("gauss_seidel_omp"), 5, 20.0, 1e-2, 2);
}
END_TEST

/* Every thread's share of the norm counts, in every sweep: N = 96 and more
 * threads than the machine has cores (at least 5), so that threads run at
 * once and are also interrupted in the middle of their work; 10 sweeps near
 * the tolerance, 12 times over. A norm summed into one shared variable
 * without a reduction loses updates in some sweep of these runs, and the
 * solver then stops early; the margin on tol keeps every correct order of
 * addition passing. */
START_TEST(omp_norm_counts_every_thread)
{
    int threads = 2 * omp_get_num_procs() + 1;
    threads = threads < 5 ? 5 : threads > 48 ? 48 : threads;
    l2_check_norm_counts_every_thread(l2_find("jacobi_omp_v1"), 96, 10, threads, 12);
    l2_check_norm_counts_every_thread(l2_find("jacobi_omp_v2"), 96, 10, threads, 12);
}
END_TEST

/* Boundary values nobody would hard-code: a solver must read them from the
 * array and never write them. */
START_TEST(boundary_read_never_written)
{
    const int N = 8, last = N + 1;
    for (int s = 0; s < l2_solver_count; s++) {
        const l2_solver *sv = &l2_solvers[s];
        if (sv->first_touch)
            continue; /* its set-up writes the kit's boundary */
        ag_grid ref = ag_grid_new(N, 4.0);
        for (int i = 0; i <= last; i++)
            for (int j = 0; j <= last; j++)
                for (int k = 0; k <= last; k++)
                    if (i == 0 || i == last || j == 0 || j == last || k == 0 || k == last)
                        ref.u[poisson_index(N, i, j, k)] = 1.0 + (double)((7 * i + 3 * j + k) % 13);
        ag_grid start = ag_grid_copy(&ref), got = ag_grid_copy(&ref);
        int it = l2_run(sv, &got, 4.0, 0.0, 3, 2);
        ck_assert_msg(it == 3, "%s, N=8, 3 sweeps: returned %d", sv->name, it);
        for (int i = 0; i <= last; i++)
            for (int j = 0; j <= last; j++)
                for (int k = 0; k <= last; k++) {
                    size_t c = poisson_index(N, i, j, k);
                    if (i == 0 || i == last || j == 0 || j == last || k == 0 || k == last)
                        ck_assert_msg(got.u[c] == start.u[c],
                                      "%s, N=8: boundary point u[%d][%d][%d] was %g before 3 sweeps and is %.17g "
                                      "after: boundary points are read, never written",
                                      sv->name, i, j, k, start.u[c], got.u[c]);
                }
        l2_reference(sv, &ref, 0.0, 3);
        ag_assert_grid_eq(ref.u, got.u, SIDE(N), -1.0,
                          "%s, N=8, boundary values 1..13 (not the kit's 20 and 0), 3 sweeps: u against the "
                          "reference, which reads the boundary from the array",
                          sv->name);
        ag_grid_free(&ref), ag_grid_free(&start), ag_grid_free(&got);
    }
}
END_TEST

/* From T0 = 0 each sweep can only warm the room: u after k+1 sweeps >= u
 * after k, at every point. */
START_TEST(monotone_from_zero)
{
    const int N = 10;
    size_t n = poisson_points(N);
    for (int s = 0; s < l2_solver_count; s++) {
        const l2_solver *sv = &l2_solvers[s];
        double *prev = kit_alloc_doubles(n);
        ag_grid g0 = ag_grid_new(N, 0.0);
        memcpy(prev, g0.u, n * sizeof *prev);
        for (int k = 1; k <= 6; k++) {
            ag_grid g = ag_grid_copy(&g0);
            int it = l2_run(sv, &g, 0.0, 0.0, k, 2);
            double warmer = 0.0;
            for (size_t c = 0; c < n; c++)
                warmer += g.u[c] - prev[c];
            ck_assert_msg(it == k && warmer > 0.0,
                          "%s, N=10, T0=0, max_iter=%d, tol=0: returned %d sweeps and the sum of u grew by %g; "
                          "expected %d sweeps and a warmer room after each",
                          sv->name, k, it, warmer, k);
            for (size_t c = 0; c < n; c++)
                ck_assert_msg(g.u[c] >= prev[c],
                              "%s, N=10, T0=0: at flat index %zu, u = %.17g after %d sweeps but %.17g after %d: "
                              "from T0 = 0 the iterates must never decrease",
                              sv->name, c, g.u[c], k, prev[c], k - 1);
            memcpy(prev, g.u, n * sizeof *prev);
            ag_grid_free(&g);
        }
        ag_grid_free(&g0);
        kit_free(prev);
    }
}
END_TEST

/* A manufactured solution: u* = sin(pi x) sin(pi y) sin(pi z) is 0 on every
 * face and -laplace(u*) = 3 pi^2 u*. The discrete solution's error must
 * fall about 4 times each time h halves (second order); a wrong h, a
 * missing h^2 or a shifted grid breaks that. */
static double manufactured_error(const l2_solver *sv, int N)
{
    ag_grid g = ag_grid_new(N, 0.0);
    double h = poisson_h(N), pi = acos(-1.0);
    for (int i = 0; i <= N + 1; i++)
        for (int j = 0; j <= N + 1; j++)
            for (int k = 0; k <= N + 1; k++) {
                size_t c = poisson_index(N, i, j, k);
                double exact = sin(pi * (-1 + k * h)) * sin(pi * (-1 + j * h)) * sin(pi * (-1 + i * h));
                g.f[c] = 3.0 * pi * pi * exact;
                g.u[c] = 0.0;
            }
    int it = l2_run(sv, &g, 0.0, 1e-9, 100000, 2);
    ck_assert_msg(it > 0 && it < 100000, "%s, manufactured solution, N=%d, tol=1e-9: %d sweeps", sv->name, N, it);
    double err = 0.0;
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++) {
                double exact = sin(pi * (-1 + k * h)) * sin(pi * (-1 + j * h)) * sin(pi * (-1 + i * h));
                err = fmax(err, fabs(g.u[poisson_index(N, i, j, k)] - exact));
            }
    ag_grid_free(&g);
    return err;
}

static void check_second_order(const char *name)
{
    const l2_solver *sv = l2_find(name);
    static const int Ns[] = {7, 15, 31}; /* h = 1/4, 1/8, 1/16 */
    double e[3];
    for (int a = 0; a < 3; a++)
        e[a] = manufactured_error(sv, Ns[a]);
    for (int a = 0; a < 2; a++)
        ck_assert_msg(e[a] / e[a + 1] >= 3.0 && e[a] / e[a + 1] <= 5.0,
                      "%s, u* = sin(pi x) sin(pi y) sin(pi z), f = 3 pi^2 u*: max error %.3g at N=%d, %.3g at N=%d: "
                      "ratio %.2f, expected about 4 (3 to 5) when h = 2/(N+1) halves",
                      name, e[a], Ns[a], e[a + 1], Ns[a + 1], e[a] / e[a + 1]);
}

START_TEST(manufactured_solution_second_order)
{
    check_second_order("jacobi");
    check_second_order("gauss_seidel");
}
END_TEST

/* Converged (tol 1e-10), the discrete equation holds: the residual
 * |(6u - neighbours)/h^2 - f| is tiny everywhere. */
START_TEST(residual_after_convergence)
{
    static const char *const names[] = {"jacobi", "gauss_seidel", "jacobi_omp_v2"};
    for (int s = 0; s < 3; s++) {
        ag_grid g = ag_grid_new(15, 0.0);
        int it = l2_run(l2_find(names[s]), &g, 0.0, 1e-10, 100000, 2);
        double r = poisson_residual_max(15, g.f, g.u);
        ck_assert_msg(r <= 1e-6, "%s, N=15, tol=1e-10 (stopped after %d sweeps): residual max |(6u - sum of "
                      "neighbours)/h^2 - f| = %.3g, expected <= 1e-6",
                      names[s], it, r);
        ag_grid_free(&g);
    }
}
END_TEST

START_TEST(gauss_seidel_needs_about_half_the_sweeps)
{
    ag_grid a = ag_grid_new(15, 0.0), b = ag_grid_copy(&a);
    int nj = l2_run(l2_find("jacobi"), &a, 0.0, 1e-6, 100000, 1);
    int ng = l2_run(l2_find("gauss_seidel"), &b, 0.0, 1e-6, 100000, 1);
    double ratio = (double)ng / nj;
    ck_assert_msg(ratio >= 0.4 && ratio <= 0.65,
                  "N=15, T0=0, tol=1e-6: Gauss-Seidel took %d sweeps, Jacobi %d: ratio %.2f, expected about 0.5 "
                  "(0.4 to 0.65)",
                  ng, nj, ratio);
    ag_grid_free(&a), ag_grid_free(&b);
}
END_TEST

void lab2_poisson_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = init_omp_matches_problem, .points = 2});
    ag_add(s, (ag_spec){.test = max_iter_zero_then_one, .points = 1});
    ag_add(s, (ag_spec){.test = bad_arguments_rejected, .points = 1});
    ag_add(s, (ag_spec){.test = jacobi_one_sweep_by_hand, .points = 2});
    ag_add(s, (ag_spec){.test = gauss_seidel_one_sweep_by_hand, .points = 1});
    ag_add(s, (ag_spec){AG_ROW(bit_for_bit, jacobi_bit_for_bit), .points = 2});
    ag_add(s, (ag_spec){AG_ROW(bit_for_bit, gauss_seidel_bit_for_bit), .points = 2});
    ag_add(s, (ag_spec){AG_ROW(bit_for_bit, omp_v1_bit_for_bit_1_to_4_threads), .points = 2});
    ag_add(s, (ag_spec){AG_ROW(bit_for_bit, omp_v2_bit_for_bit_1_to_4_threads), .points = 2});
    ag_add(s, (ag_spec){AG_ROW(bit_for_bit, omp_v3_bit_for_bit_1_to_4_threads), .points = 1});
    ag_add(s, (ag_spec){AG_ROW(bit_for_bit, gs_omp_bit_for_bit_threads), .points = 3, .timeout = 30});
    ag_add(s, (ag_spec){.test = tolerance_stop_sequential, .points = 2});
    ag_add(s, (ag_spec){.test = tolerance_stop_omp, .points = 2, .timeout = 30});
    ag_add(s, (ag_spec){.test = omp_norm_counts_every_thread, .points = 2, .timeout = 60});
    ag_add(s, (ag_spec){.test = boundary_read_never_written, .points = 1});
    ag_add(s, (ag_spec){.test = monotone_from_zero, .points = 1});
    ag_add(s, (ag_spec){.test = manufactured_solution_second_order, .points = 2, .timeout = 20});
    ag_add(s, (ag_spec){.test = residual_after_convergence, .points = 1});
    ag_add(s, (ag_spec){.test = gauss_seidel_needs_about_half_the_sweeps, .points = 1});
}
