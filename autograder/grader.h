/* The kit's grading layer over Check.
 *
 * A lab's test file writes Check tests as usual (START_TEST ... END_TEST,
 * ck_assert_*) and registers each one with its points and visibility:
 *
 *   static void register_tests(ag_suite *s)       (test_labN.c)
 *   {
 *       ag_add(s, (ag_spec){.test = mnk_small_integer_sizes, .points = 2});
 *       ag_add(s, (ag_spec){.test = gpu2_sizes, .points = 3, .gpus = 1});
 *   }
 *   int main(int argc, char **argv) { return ag_main(argc, argv, "lab1-matmult", register_tests); }
 *
 *   void ag_hidden_tests(ag_suite *s)              (hidden_labN.c)
 *   {
 *       ag_add(s, (ag_spec){.test = blk_huge_block, .points = 1, .hidden = 1});
 *   }
 *
 * What it adds to Check:
 * - points per test, a score, and one line per test that a student can act on;
 * - hidden tests (instructors only; the student copy leaves them out);
 * - every test in its own forked process with a time limit, so a crash, an
 *   exit() or an endless loop in student code costs that test only (CRASH,
 *   TIMEOUT) and the run goes on. Check alone counts a test whose code calls
 *   exit(0) as passed; here a test passes only if it reaches its end;
 * - a real SKIP for tests that need more GPUs than the machine has, or whose
 *   runs_here check says this host cannot give them meaning: reported with
 *   the reason, never run, never counted as passed;
 * - results.json in Gradescope's schema, on request.
 *
 * The runner's own process never touches CUDA, OpenMP, threaded BLAS or MPI
 * before forking (none of them survives fork()); all of that happens inside
 * the tests.
 *
 * Command line of every test binary (also through make check):
 *   --results FILE    write Gradescope results.json (or AG_RESULTS=FILE)
 *   --visible-only    run only the visible tests (or AG_VISIBLE_ONLY=1)
 *   --only NAME[,NAME...]  run only those tests
 *   --list            list the tests with points and visibility
 * AG_CALL_VIOLATIONS=FILE fails, unrun, the tests its lines name (the lab's
 * call rules, autograder/labN/calls.conf; make check writes FILE), each
 * rule's message in full once. A test that needs more GPUs than there are
 * is skipped first, whatever its call rules say.
 * The tests run one at a time, in the order registered, each line printed
 * as its test ends; the closing summary line, in Check's format, counts
 * those lines (a skip is not a check).
 * AG_HANG_BUDGET=S (make check sets 60; grading never): once tests that do
 * not pass after 5 s or more (or with a limit cut to what was left) have
 * taken all but 5 s of S seconds, the rest are NOT RUN, and after the first
 * such test the others' limits are cut to what is left, so that one
 * endless loop costs a student about a minute.
 * A TIMEOUT line names the function the test was stuck in, with its file
 * and line (autograder/checker/stuck.h: the test's process records its
 * stack shortly before the limit); failing that, with AG_CALLS_CONF=FILE
 * (make check), the functions that the calls.conf's "tests" lines map to
 * that test. A checker program's run (ag_run_mpi, ag_run_program) ends 3 s
 * before its test's limit, so that the test says where each rank was.
 * CK_DEFAULT_TIMEOUT and CK_TIMEOUT_MULTIPLIER scale the time limits as in
 * Check; CK_FORK=no runs in one process (for debuggers; no isolation). */
#ifndef KIT_GRADER_H
#define KIT_GRADER_H

#include <stddef.h>
#include <stdint.h>

#include <check.h>

typedef struct ag_suite ag_suite;

typedef struct {
    const TTest *test;  /* the Check test: START_TEST(name) ... END_TEST */
    double points;      /* what passing it is worth */
    int hidden;         /* 1: for instructors only, not in the student copy */
    int gpus;           /* GPUs it needs; with fewer it is skipped, not passed */
    double timeout;     /* seconds; 0 means the suite's default (10 s) */
    /* Optional: can the test's result mean what it should on this host?
     * Returns nonzero if so; else writes why not, and the test is skipped
     * with that reason. Called in a child process of its own (it may start
     * CUDA or an OpenMP offload runtime). */
    int (*runs_here)(char *why, int len);
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
 * m=17 n=13 k=11"), and a hint where every wrong element is a few rounding
 * steps off (hints.h). For an iterative solver's result, grid_steps.h's
 * ag_assert_grid_steps also says "one step behind?". tol < 0 demands exact equality (got == expected, so
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
 * end of its output) when it exits non-zero or hangs, or when any rank did
 * not report the end of its checks with this run's token (an exit status
 * of 0 alone may come from code under test that ended the program early).
 * The program checks its own results and prints "FAIL ..." lines for what
 * was wrong; it is built on autograder/checker/mpi_checker.h, which makes
 * the report (and ends a deadlock within seconds). */
void ag_run_mpi(const char *program, int np, const char *args, int seconds);

/* The same for a program that is not an MPI program (a stress test of
 * threads, say): run alone, in its own process, within the time limit; it
 * reports the end of its checks with checker_report(0)
 * (autograder/checker/completion.h). */
void ag_run_program(const char *program, const char *args, int seconds);

/* Runs PROGRAM as ag_run_mpi does, for input it must refuse: passes when it
 * ends within the time limit, with a non-zero exit status and text in its
 * output (a clean MPI_Abort with a message, not a hang or a crash). */
void ag_run_mpi_refused(const char *program, int np, const char *args, const char *text, int seconds);

/* ---- helpers the labs' tests share --------------------------------------- */

/* A lab's hidden tests: hidden_labN.c defines this function and registers
 * them there; ag_main calls it after the lab's own register function. The
 * student copy has no hidden_labN.c, so there it is not defined (a weak
 * symbol) and the suite runs without them. */
void ag_hidden_tests(ag_suite *suite) __attribute__((weak));

/* The largest |a[i]| (0 for n = 0): the scale of a tolerance. */
double ag_max_abs(const double *a, size_t n);

/* The entry named `name` of a table of count structs of `stride` bytes
 * whose first member is `const char *name` (a lab's variants or solvers);
 * fails the test when there is none (a bug of the test). */
const void *ag_find_named(const void *table, int count, size_t stride, const char *name);

/* Matrix products (labs 1 and 3): C = A B, A m x k, B k x n, row-major. */
typedef struct {
    int m, n, k;
} ag_mm_size;

/* Small integers in [-4, 4]: every partial sum is an integer far below
 * 2^53, so every summation order gives the same bits and C is compared
 * exactly. Or reals in [-1, 1): compared within 1e-12 k max|A| max|B|. */
typedef enum { AG_MM_INTEGER, AG_MM_REAL } ag_mm_inputs;

typedef struct {
    ag_mm_size size;
    ag_mm_inputs inputs;
    size_t sa, sb, sc;
    double *A, *B; /* seeded inputs */
    double *R;     /* their product, computed without the lab's code */
    double tol;    /* < 0: exact */
} ag_mm_problem;

/* Seeded A and B, and R computed independently of any solution: for
 * integer inputs in 64-bit integer arithmetic (exact), for real ones with
 * long double sums (more precise than any double order). */
void ag_mm_problem_make(ag_mm_problem *p, ag_mm_size size, ag_mm_inputs inputs, uint64_t seed);
void ag_mm_problem_free(ag_mm_problem *p);

/* Elements of C farther from R than tol (NaN counts), without failing. */
size_t ag_mm_count_wrong(const ag_mm_problem *p, const double *C);

/* Runs call(m, n, k, A, B, C, arg) on p with C filled with NaN (or, when C
 * is not NULL, on that C as it is: a second call on the same C), and fails
 * the test, naming `what`, if C is not R or if A or B changed. */
typedef void (*ag_mm_call)(int m, int n, int k, const double *A, const double *B, double *C, const void *arg);
void ag_mm_check(const ag_mm_problem *p, ag_mm_call call, const void *arg, double *C, const char *what);

/* The kit's Poisson problem (labs 2 and 4): f, u and u_old of (N+2)^3
 * doubles (common/poisson.h), set up with poisson_init(N, T0), and u_old a
 * copy of u. */
typedef struct {
    int N;
    size_t n; /* (N+2)^3 */
    double *f, *u, *u_old;
} ag_grid;

ag_grid ag_grid_new(int N, double T0);
ag_grid ag_grid_copy(const ag_grid *g);
void ag_grid_free(ag_grid *g);

#endif
