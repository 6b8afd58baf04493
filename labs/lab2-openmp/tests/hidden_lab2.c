/* Lab 2 (openmp): hidden tests, for instructors. `make release` leaves this
 * file out of the student copy; the suite then runs without them. */
#include <complex.h>
#include <stdlib.h>

#include <omp.h>

#include "autograder.h"
#include "lab2_checks.h"
#include "poisson.h"

/* Larger grids than the visible tests, and sizes that no thread count
 * divides. */
START_TEST(hidden_larger_grids)
{
    static const int Ns[] = {33, 48};
    for (int a = 0; a < 2; a++)
        for (int s = 0; s < l2_solver_count; s++)
            l2_check_fixed_sweeps(&l2_solvers[s], Ns[a], 1.5, l2_solvers[s].gauss_seidel ? 2 : 3,
                                  l2_solvers[s].threaded ? 2 : 0);
}
END_TEST

/* More threads than planes: some threads get no work at all. */
START_TEST(hidden_more_threads_than_planes)
{
    static const char *const names[] = {"jacobi_omp_v1", "jacobi_omp_v2", "poisson_init_omp + jacobi_omp_v2 (v3)"};
    for (int s = 0; s < 3; s++)
        for (int N = 1; N <= 3; N++)
            l2_check_fixed_sweeps(l2_find(names[s]), N, 2.0, 3, 4);
    l2_check_fixed_sweeps(l2_find("gauss_seidel_omp"), 1, 2.0, 3, 2);
}
END_TEST

/* A second call goes on from where the first one stopped: nothing may be
 * remembered between calls. */
START_TEST(hidden_called_twice)
{
    const int N = 9;
    for (int s = 0; s < l2_solver_count; s++) {
        const l2_solver *sv = &l2_solvers[s];
        if (sv->first_touch)
            continue;
        ag_grid ref = ag_grid_new(N, 0.0), got = ag_grid_copy(&ref);
        l2_run(sv, &got, 0.0, 0.0, 3, 2);
        l2_run(sv, &got, 0.0, 0.0, 2, 2);
        l2_reference(sv, &ref, 0.0, 5);
        ag_assert_grid_eq(ref.u, got.u, poisson_side(N), poisson_side(N), poisson_side(N), -1.0,
                          "%s, N=9: 3 sweeps, then 2 more in a second call, against 5 sweeps of the reference",
                          sv->name);
        ag_grid_free(&ref), ag_grid_free(&got);
    }
}
END_TEST

/* The escape counts of mandel.h, computed independently of any solution:
 * z <- z^2 + c in C's complex arithmetic. Without contraction (the lab
 * builds with -ffp-contract=off) it rounds exactly as mandel.h's real
 * expressions do: Re(z^2) = u*u - v*v, Im(z^2) = u*v + v*u = 2uv exactly,
 * |z|^2 = u*u + v*v; only the pixel's coordinates are the contract's. */
static int *mandel_independent(int width, int height, int max_iter)
{
    int *img = malloc((size_t)width * height * sizeof *img);
    ck_assert_msg(img != NULL, "test: out of memory");
    for (int px = 0; px < width; px++)
        for (int py = 0; py < height; py++) {
            const double complex c = CMPLX(px * (3.5 / width) - 2.25, py * (3.5 / height) - 1.75);
            double complex z = 0.0;
            int iter = 0;
            while (iter < max_iter && creal(z) * creal(z) + cimag(z) * cimag(z) < 4.0) {
                z = z * z + c;
                iter++;
            }
            img[(size_t)px * height + py] = iter == max_iter ? 0 : iter;
        }
    return img;
}

static void mandel_against_independent(int width, int height, int max_iter, int threads, const char *sched_name,
                                       omp_sched_t kind, int chunk)
{
    int *want = mandel_independent(width, height, max_iter);
    l2_mandel_check(want, "complex arithmetic", width, height, max_iter, threads, sched_name, kind, chunk);
    free(want);
}

/* Whole images, not square, small and thin, against the independent
 * computation. */
START_TEST(hidden_mandel_whole_images)
{
    static const int sizes[][3] = {{1, 1, 10}, {37, 23, 50}, {23, 37, 50}, {100, 60, 200}, {5, 300, 80}, {14, 14, 100}};
    for (int s = 0; s < 6; s++)
        mandel_against_independent(sizes[s][0], sizes[s][1], sizes[s][2], 2, "static", omp_sched_static, 0);
}
END_TEST

START_TEST(hidden_mandel_larger_and_thin)
{
    static const int sizes[][3] = {{300, 200, 1000}, {1, 257, 100}, {257, 1, 100}, {64, 64, 1}};
    for (int s = 0; s < 4; s++) {
        mandel_against_independent(sizes[s][0], sizes[s][1], sizes[s][2], 2, "dynamic,3", omp_sched_dynamic, 3);
        mandel_against_independent(sizes[s][0], sizes[s][1], sizes[s][2], 3, "guided,2", omp_sched_guided, 2);
    }
}
END_TEST

void ag_hidden_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = hidden_larger_grids, .points = 2, .hidden = 1, .timeout = 30});
    ag_add(s, (ag_spec){.test = hidden_more_threads_than_planes, .points = 1, .hidden = 1});
    ag_add(s, (ag_spec){.test = hidden_called_twice, .points = 1, .hidden = 1});
    ag_add(s, (ag_spec){.test = hidden_mandel_whole_images, .points = 2, .hidden = 1});
    ag_add(s, (ag_spec){.test = hidden_mandel_larger_and_thin, .points = 1, .hidden = 1});
}
