/* Lab 2 (openmp): the test program. Run it with `make lab2 && make check`.
 *
 * Every test runs in its own forked process, and the OpenMP threads are
 * started only there: the runner's own process never opens a parallel
 * region (libgomp's threads do not survive fork()). Thread counts are set
 * inside each test with omp_set_num_threads; OMP_WAIT_POLICY=passive (set
 * by make check) keeps idle threads from spinning on a busy machine. */
#include "autograder.h"

void lab2_poisson_tests(ag_suite *s);
void lab2_mandel_tests(ag_suite *s);
void lab2_speedup_tests(ag_suite *s);

static void register_tests(ag_suite *s)
{
    lab2_poisson_tests(s);
    lab2_mandel_tests(s);
    lab2_speedup_tests(s);
}

int main(int argc, char **argv)
{
    return ag_main(argc, argv, register_tests);
}
