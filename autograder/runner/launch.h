/* Process launching for the labs' tests: a checker program run alone or
 * on several ranks under mpirun, within a time limit, its verdict read
 * from its output and from the report of every rank (MPI does not survive
 * Check's fork, so an MPI test runs its checks in a program of its own). */
#ifndef KIT_GRADER_LAUNCH_H
#define KIT_GRADER_LAUNCH_H

#include <check.h>

/* Runs PROGRAM (a program of the lab's build folder, beside the test binary)
 * with ARGS on np ranks under mpirun --oversubscribe, within a time limit of
 * seconds; fails the running test with the program's FAIL lines (else the
 * end of its output) when it exits non-zero or hangs, or when any rank did
 * not report the end of its checks with this run's token (an exit status
 * of 0 alone may come from code under test that ended the program early).
 * The program checks its own results and prints "FAIL ..." lines for what
 * was wrong; it is built on autograder/mpi_checker/mpi_checker.h, which makes
 * the report (and ends a deadlock within seconds). */
void ag_run_mpi(const char *program, int np, const char *args, int seconds);

/* The same for a program that is not an MPI program (a stress test of
 * threads, say): run alone, in its own process, within the time limit; it
 * reports the end of its checks with checker_report(0)
 * (autograder/mpi_checker/completion.h). */
void ag_run_program(const char *program, const char *args, int seconds);

/* Runs PROGRAM as ag_run_mpi does, for input it must refuse: passes when it
 * ends within the time limit, with a non-zero exit status and text in its
 * output (a clean MPI_Abort with a message, not a hang or a crash). */
void ag_run_mpi_refused(const char *program, int np, const char *args, const char *text, int seconds);

/* A test that is nothing but launches of checker programs needs no body of
 * its own: a table of launches, ended by {NULL}, each run in turn (the
 * first that fails fails the test), registered as
 *
 *   static const ag_launch e2e_three_ranks[] = {{"lab5_mpi_check", 3, "halo", 120}, {NULL}};
 *   ag_add(s, (ag_spec){AG_LAUNCHES(e2e_three_ranks), .points = 3, .timeout = 150});
 *
 * which names the test after its table. */
typedef struct {
    const char *program; /* a program of the lab's build folder; NULL ends a table */
    int np;              /* ranks under mpirun (ag_run_mpi); 0: run alone (ag_run_program) */
    const char *args;
    int seconds;         /* this launch's time limit */
} ag_launch;

/* The one Check test that runs the table of ag_test_arg(). */
extern const TTest *const ag_launches_test;
#define AG_LAUNCHES(table) .test = ag_launches_test, .name = #table, .arg = (table)

#endif
