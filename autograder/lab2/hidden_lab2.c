/* Lab 2 (openmp): hidden tests, for instructors. `make release` leaves this
 * file out of the student copy; the suite then runs without them. */
#include <omp.h>

#include "grader.h"
#include "lab2_checks.h"
#include "mandel_checks.h"
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
        l2_grid ref = l2_grid_new(N, 0.0), got = l2_grid_copy(&ref);
        l2_run(sv, &got, 0.0, 0.0, 3, 2);
        l2_run(sv, &got, 0.0, 0.0, 2, 2);
        l2_reference(sv, &ref, 0.0, 5);
        ag_assert_grid_eq(ref.u, got.u, poisson_side(N), poisson_side(N), poisson_side(N), -1.0,
                          "%s, N=9: 3 sweeps, then 2 more in a second call, against 5 sweeps of the reference",
                          sv->name);
        l2_grid_free(&ref), l2_grid_free(&got);
    }
}
END_TEST

START_TEST(hidden_mandel_larger_and_thin)
{
    static const int sizes[][3] = {{300, 200, 1000}, {1, 257, 100}, {257, 1, 100}, {64, 64, 1}};
    for (int s = 0; s < 4; s++) {
        mandel_check(sizes[s][0], sizes[s][1], sizes[s][2], 2, "dynamic,3", omp_sched_dynamic, 3);
        mandel_check(sizes[s][0], sizes[s][1], sizes[s][2], 3, "guided,2", omp_sched_guided, 2);
    }
}
END_TEST

void lab2_hidden_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = hidden_larger_grids, .points = 2, .hidden = 1, .timeout = 30});
    ag_add(s, (ag_spec){.test = hidden_more_threads_than_planes, .points = 1, .hidden = 1});
    ag_add(s, (ag_spec){.test = hidden_called_twice, .points = 1, .hidden = 1});
    ag_add(s, (ag_spec){.test = hidden_mandel_larger_and_thin, .points = 1, .hidden = 1});
}
