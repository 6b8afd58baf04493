/* The kit's grading layer over Check.
 *
 * A lab's test file writes Check tests as usual (START_TEST ... END_TEST,
 * ck_assert_*) and registers each one with its points and visibility:
 *
 *   static void register_tests(ag_suite *s)
 *   {
 *       ag_add(s, (ag_spec){.test = mnk_small_integer_sizes, .points = 2});
 *       ag_add(s, (ag_spec){.test = blk_huge_block, .points = 1, .hidden = 1});
 *       ag_add(s, (ag_spec){.test = gpu2_sizes, .points = 3, .gpus = 1});
 *   }
 *   int main(int argc, char **argv) { return ag_main(argc, argv, "lab1-matmult", register_tests); }
 *
 * What it adds to Check:
 * - points per test, a score, and one line per test that a student can act on;
 * - hidden tests (instructors only; the student copy leaves them out);
 * - every test in its own forked process with a time limit, so a crash, an
 *   exit() or an endless loop in student code costs that test only (CRASH,
 *   TIMEOUT) and the run goes on. Check alone counts a test whose code calls
 *   exit(0) as passed; here a test passes only if it reaches its end;
 * - a real SKIP for tests that need more GPUs than the machine has: reported
 *   with the reason, never run, never counted as passed;
 * - results.json in Gradescope's schema, on request.
 *
 * The runner's own process never touches CUDA, OpenMP, threaded BLAS or MPI
 * before forking (none of them survives fork()); all of that happens inside
 * the tests.
 *
 * Command line of every test binary (also through make check):
 *   --results FILE    write Gradescope results.json (or AG_RESULTS=FILE)
 *   --visible-only    run only the visible tests (or AG_VISIBLE_ONLY=1)
 *   --only NAME       run one test
 *   --list            list the tests with points and visibility
 * AG_CALL_VIOLATIONS=FILE fails, unrun, the tests its lines name (the lab's
 * call rules, autograder/labN/calls.conf; make check writes FILE).
 * CK_DEFAULT_TIMEOUT and CK_TIMEOUT_MULTIPLIER scale the time limits as in
 * Check; CK_FORK=no runs in one process (for debuggers; no isolation). */
#ifndef KIT_GRADER_H
#define KIT_GRADER_H

#include <stddef.h>

#include <check.h>

typedef struct ag_suite ag_suite;

typedef struct {
    const TTest *test;  /* the Check test: START_TEST(name) ... END_TEST */
    double points;      /* what passing it is worth */
    int hidden;         /* 1: for instructors only, not in the student copy */
    int gpus;           /* GPUs it needs; with fewer it is skipped, not passed */
    double timeout;     /* seconds; 0 means the suite's default (10 s) */
} ag_spec;

void ag_add(ag_suite *suite, ag_spec spec);

/* Runs the lab's tests and returns the process exit status: 0 when every
 * test that ran passed, 1 otherwise, 2 for bad arguments. */
int ag_main(int argc, char **argv, const char *lab, void (*register_tests)(ag_suite *));

/* Array comparison for tests.
 *
 * Compares got with expected over a rows x cols row-major array (cols = 1
 * for a vector) and fails the running test, once, with a message naming the
 * first wrong element, its expected and actual values, how many elements are
 * wrong and the largest error, prefixed by the context (e.g. "matmult_mkn,
 * m=17 n=13 k=11"). tol < 0 demands exact equality (got == expected, so
 * -0 equals +0); otherwise |got - expected| <= tol. NaN or Inf where a finite value is expected is
 * always wrong. */
void ag_assert_matrix_eq(const double *expected, const double *got, size_t rows, size_t cols,
                         double tol, const char *context_fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The same over an n0 x n1 x n2 grid, index [i][j][k] with k fastest. */
void ag_assert_grid_eq(const double *expected, const double *got, size_t n0, size_t n1, size_t n2,
                       double tol, const char *context_fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* Fills n doubles with NaN: poison an output before a call so that an
 * element the call never writes cannot pass. */
void ag_poison(double *a, size_t n);

/* Runs PROGRAM (a program of the lab's build folder, beside the test binary)
 * with ARGS on np ranks under mpirun --oversubscribe, within a time limit of
 * seconds; fails the running test with the program's FAIL lines (else the
 * end of its output) when it exits non-zero or hangs. The program checks its
 * own results and prints "FAIL ..." lines for what was wrong. */
void ag_run_mpi(const char *program, int np, const char *args, int seconds);

#endif
