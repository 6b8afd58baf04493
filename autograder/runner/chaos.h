/* Chaos schedules: a test whose answer depends on ordering is
 * run again on perturbed schedules, each drawn from a seed that its
 * failure prints and `make check CHAOS_SEED=N` replays.
 *
 * The contract (the runner keeps it; the perturbers rely on it):
 *   AG_CHAOS_SEED=N, N a non-zero unsigned decimal, is in the environment
 *   of a test's run when that run is under chaos, and absent otherwise
 *   (the runner sets it in its own process before Check forks the test,
 *   and unsets it after). The test's process inherits it, and so do what
 *   it starts: mpirun and the ranks of a checker program. Whatever
 *   perturbs a schedule (the OpenMP settings here, the MPI interposer of
 *   autograder/mpi_checker/, the CUDA stream perturber) does so only
 *   while it is set, and draws its choices from N alone, so that a seed
 *   replays the same choices.
 *
 * Which tests, and how many seeds: labs/labN-name/tests/chaos.conf (lines
 * 'TESTGLOB SEEDS', '#' comments), which make passes as AG_CHAOS_CONF
 * (runner.h says how the runner uses it).
 *
 * For the labs' OpenMP tests, in the test's process: */
#ifndef KIT_GRADER_CHAOS_H
#define KIT_GRADER_CHAOS_H

/* The seed of this run (AG_CHAOS_SEED), 0 when the run is not under chaos. */
unsigned long ag_chaos_seed(void);

/* Under chaos, a number in [0, n) drawn from the seed (the same sequence
 * every time the seed is replayed in this test); 0 otherwise, or if n < 1. */
unsigned ag_chaos_draw(unsigned n);

/* The OpenMP threads a test should run with where it would run `quiet`:
 * quiet itself outside chaos, or when quiet is 1 (one thread is the
 * baseline a test compares with); under chaos a count drawn from
 * {2, 3, 5, 7, 8, 13}, more threads than cores on purpose, so that a
 * thread is stopped in the middle of its work and another runs meanwhile.
 * most > 0 caps the draw (a wavefront of busy-waiting threads crawls when
 * there are more threads than cores). */
int ag_omp_threads(int quiet, int most);

/* In the test's process before the test (run_test.c), under chaos only:
 * OpenMP's default thread count (a drawn one, as ag_omp_threads) and its
 * run-time schedule (static, dynamic or guided, with a drawn chunk, which
 * only loops declared schedule(runtime) follow), for the code that does
 * not set its own. Found by dlsym: a lab without OpenMP is left alone. */
void ag_chaos_omp_setup(void);

#endif
