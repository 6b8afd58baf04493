/* The kit's checker programs (labs/labN-name/tests/mpi/, lab 6's stress test):
 * the report that a run's checks were done.
 *
 * ag_run_mpi and ag_run_program (autograder/runner/launch.c) pass a run only when
 * its exit status is 0 AND every rank has reported reaching the end of the
 * checker's own code. An exit status of 0 alone proves nothing: code under
 * test that calls exit(0), _exit(0) or MPI_Finalize then exit(0) before the
 * checks ends the program "successfully" with nothing checked.
 *
 * The grader draws a fresh token per run and passes it, with the path of a
 * fresh report file, in the environment (AG_CHECKER_TOKEN,
 * AG_CHECKER_REPORT). This file takes both in a constructor, before main
 * and before any constructor of the code under test, and wipes them from
 * the environment. A rank appends "TOKEN RANK ok" to the report only when
 * checker_report is called, at the end of the checker's main, after its
 * checks passed. Like the completion code of the forked tests, this guards
 * against code that ends the program early, not against code written to
 * read the grader's memory. */
#ifndef KIT_CHECKER_COMPLETION_H
#define KIT_CHECKER_COMPLETION_H

/* Appends this rank's line to the run's report (rank 0 for a program that
 * is not an MPI program). Without the grader's environment (a checker run
 * by hand) it does nothing. */
void checker_report(int rank);

#endif
