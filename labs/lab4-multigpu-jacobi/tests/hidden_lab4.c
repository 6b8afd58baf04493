/* Lab 4 (multigpu-jacobi): hidden tests, for instructors. `make release`
 * leaves this file out of the student copy; the suite then runs without
 * them. */
#include "autograder.h"
#include "jacobi.h"
#include "lab4_checks.h"

/* Sizes where the exact radiator test and a floating-point one disagree
 * (N+1 a multiple of 16, 6 or 2), the smallest cube, and a start value. */
static const int odd_sizes[] = {1, 2, 15, 23, 31, 95};

START_TEST(hidden_offload_odd_sizes)
{
    for (int s = 0; s < 6; s++)
        l4_check_sweeps("jacobi_offload", jacobi_offload, odd_sizes[s], 3.0, l4_sweeps, 4, L4_OFFLOAD);
}
END_TEST

START_TEST(hidden_gpu_odd_sizes)
{
    for (int s = 0; s < 6; s++) {
        l4_check_sweeps("jacobi_gpu2", jacobi_gpu2, odd_sizes[s], 3.0, l4_sweeps, 5, L4_EXACT);
        l4_check_sweeps("jacobi_gpu3", jacobi_gpu3, odd_sizes[s], 3.0, l4_sweeps, 5, L4_EXACT);
    }
}
END_TEST

void ag_hidden_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = hidden_offload_odd_sizes, .points = 1, .hidden = 1, .timeout = 60,
                        .runs_here = l4_offload_reaches_the_gpu});
    ag_add(s, (ag_spec){.test = hidden_gpu_odd_sizes, .points = 2, .hidden = 1, .gpus = 1, .timeout = 120});
}
