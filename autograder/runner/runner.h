/* The kit's test runner over Check (autograder/autograder.h gathers it with
 * the comparisons, the launchers and the labs' helpers).
 *
 * Registration is shown in autograder/autograder.h.
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
 *   --list            list the tests: name, points, visibility, and the GPUs
 *                     each needs ("(needs 2 GPUs)"; what a scheduler's job asks
 *                     for: autograder/sched/gpus)
 * AG_CALL_VIOLATIONS=FILE fails, unrun, the tests its lines name (the lab's
 * call rules, labs/labN-name/tests/calls.conf; make check writes FILE), each
 * rule's message in full once. A test that needs more GPUs than there are
 * is skipped first, whatever its call rules say.
 * The tests run one at a time, in the order registered, each line printed
 * as its test ends. Then the score line, in points, saying what the points
 * skipped need (a GPU: with the way to one, make check SCHED=...), and
 * last Check's summary line, in Check's format, which counts the lines of
 * the tests that ran (a skip is not a check), not points.
 * AG_REPEAT_CONF=FILE (make check: labs/labN-name/tests/repeat.conf, the tests
 * that a race can pass by luck): such a test that passed runs that many
 * more times and fails if one run fails; one that failed runs once more
 * with one OpenMP thread; either says "results differ between runs: a
 * data race?". (Grading repeats them itself: instructor/grading/repeat.py.)
 * AG_CHAOS_CONF=FILE (make check and grading: labs/labN-name/tests/chaos.conf,
 * the tests whose answer depends on ordering, 'GLOB SEEDS' a line): such a
 * test that passed (and its repeats) runs again under chaos seeds
 * (chaos.h: AG_CHAOS_SEED in the run's environment), and fails at the
 * first seed that fails, saying "under chaos seed N (replay: make check
 * LAB=L CHAOS_SEED=N CHECK_ARGS='--only TEST')", that it passes on a quiet
 * schedule, and the failing run's message. How many seeds: with
 * AG_CHAOS_KEY=K (grading: instructor/grading/chaos_key.py, the files'
 * digest with the grading folder's secret), the conf's count, each a
 * function of K and the test's name (a regrade draws the same); without
 * (make check), one fresh seed from getrandom per test and run;
 * AG_CHAOS_RUNS=N sets the count in either case. AG_CHAOS_REPLAY=N
 * (make check CHAOS_SEED=N): those tests run under seed N only, and a
 * failure runs once more quietly to say whether that passes.
 * AG_HANG_BUDGET=S (make check sets 60; grading never): once tests that do
 * not pass after 5 s or more (or with a limit cut to what was left) have
 * taken all but 5 s of S seconds, the rest are NOT RUN, and after the first
 * such test the others' limits are cut to what is left, so that one
 * endless loop costs a student about a minute.
 * A TIMEOUT line names the function the test was stuck in, with its file
 * and line (autograder/mpi_checker/stuck.h: the test's process records its
 * stack shortly before the limit); failing that, with AG_CALLS_CONF=FILE
 * (make check), the functions that the calls.conf's "tests" lines map to
 * that test. A checker program's run (ag_run_mpi, ag_run_program) ends 3 s
 * before its test's limit, so that the test says where each rank was.
 * CK_DEFAULT_TIMEOUT and CK_TIMEOUT_MULTIPLIER scale the time limits as in
 * Check; CK_FORK=no runs in one process (for debuggers; no isolation). */
#ifndef KIT_GRADER_RUNNER_H
#define KIT_GRADER_RUNNER_H

#include <stddef.h>

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
    /* Optional, for one Check test that serves every row of a table (a
     * variant each, a list of launches each) instead of one copy of its
     * body per row: the name this row's test is known by (in the output,
     * --only, calls.conf and results.json; default: the Check test's own),
     * and the row, which the body reads with ag_test_arg(). */
    const char *name;
    const void *arg;
} ag_spec;

void ag_add(ag_suite *suite, ag_spec spec);

/* The .arg of the test now running (NULL when it was registered without). */
const void *ag_test_arg(void);

/* For the layer's checker-program runs (launch.c): the wall-clock time
 * (timer.h's wall_time) at which the test now running hits its limit; 0
 * outside a test. */
double ag_test_deadline(void);

/* A row of a table test: `static const my_row gpu2_sizes = {...};` and
 * ag_add(s, (ag_spec){AG_ROW(variant_sizes, gpu2_sizes), .points = 2}) make
 * a test named gpu2_sizes that runs variant_sizes's body on that row. */
#define AG_ROW(check_test, row) .test = (check_test), .name = #row, .arg = &(row)

/* Runs the lab's tests and returns the process exit status: 0 when every
 * test that ran passed, 1 otherwise, 2 for bad arguments. The lab's name
 * (labN-name) is make's: common/mk/lab.mk compiles the tests with
 * -DAG_LAB='"labN-name"' (an "AG_LAB undeclared" error: the test file was
 * compiled outside the kit's make). */
int ag_run_lab(int argc, char **argv, const char *lab, void (*register_tests)(ag_suite *));
#define ag_main(argc, argv, register_tests) ag_run_lab((argc), (argv), AG_LAB, (register_tests))

/* The entry named `name` of a table of count structs of `stride` bytes
 * whose first member is `const char *name` (a lab's variants or solvers);
 * fails the test when there is none (a bug of the test). */
const void *ag_find_named(const void *table, int count, size_t stride, const char *name);

/* A lab's hidden tests: hidden_labN.c defines this function and registers
 * them there; ag_main calls it after the lab's own register function. The
 * student copy has no hidden_labN.c, so there it is not defined (a weak
 * symbol) and the suite runs without them. */
void ag_hidden_tests(ag_suite *suite) __attribute__((weak));

#endif
