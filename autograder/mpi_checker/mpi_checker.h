/* The kit's MPI checker programs (labs/labN-name/tests/mpi/, labs 4-7): the one
 * layer under all of them that ends a run that went wrong, and reports one
 * that went right.
 *
 *   int main(...) {
 *       MPI_Init(...);                       (or nccl_world_init)
 *       checker_mpi_start();
 *       for each case:
 *           checker_case("what", 100);       its name and hard limit (s)
 *           ... the code under test, the checks, FAIL lines ...
 *           checker_case_end();
 *       int status = checker_mpi_end(failed);
 *       MPI_Finalize();                      (or nccl_world_finalize)
 *       return status;
 *   }
 *
 * What the layer does (mpi_guard.c: MPI's calls, wrapped at link time with
 * ld --wrap, CHECKER_MPI_LDFLAGS in checker.mk, so that the labs' own PMPI
 * layers stay as they are under it; watchdog.c: the watchdog):
 * - a deadlock ends the job within CHECKER_IDLE_S seconds with "FAIL
 *   TIMEOUT: case: ...": every rank is waiting (inside a blocking MPI call,
 *   or polling with MPI_Test* that completes nothing) and none has
 *   completed anything for that long. A rank that fails its checks and
 *   skips a collective that the others enter stops them this way, at once,
 *   not at the suite's time limit. A case past its hard limit ends the same
 *   way (an endless loop outside MPI);
 * - MPI_Finalize or exit() before checker_mpi_end (code under test ending
 *   the program) fails the job at once, naming the rank;
 * - a request of MPI_Isend, MPI_Issend or MPI_Irecv never completed by an
 *   MPI_Wait* or MPI_Test* (or freed) is a FAIL at checker_mpi_end: below
 *   MPI's eager limit such a send "works", above it the data never leaves;
 * - checker_mpi_end reports every rank's completion (completion.h), only
 *   when every rank passed;
 * - a run that would outlast its test's limit (AG_CHECKER_SECONDS, set by
 *   the grader) ends itself 2 s before it with "FAIL TIMEOUT", and at that
 *   or a case's hard limit each rank records where its main thread was
 *   (stuck.h, into AG_CHECKER_STUCK), which the test's line names;
 * - a rank that crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) writes
 *   "FAIL rank N: killed by SIG..." and records where, which the test's
 *   line names as the student's function, file and line (not MPI's glibc
 *   frame list, whose handler this one replaces). */
#ifndef KIT_CHECKER_MPI_CHECKER_H
#define KIT_CHECKER_MPI_CHECKER_H

#include "completion.h"

/* How long every rank may wait without anything completing. */
#define CHECKER_IDLE_S 3.0

/* Collective, after MPI_Init: the watchdog's shared memory and threads. */
void checker_mpi_start(void);

/* A case begins (its name for the messages, its hard limit) or ends. */
void checker_case(const char *what, double hard_limit_s);
void checker_case_end(void);

/* For the current case, a count that grows while this rank makes progress
 * outside MPI (lab 6: the blocks' events). With one, the rank is waiting
 * whenever the count and its MPI calls stand still, even outside MPI. Read
 * from the watchdog's thread: it must be safe to call from any thread. */
void checker_case_progress(long (*progress)(void));

/* Collective, at the end of the checks: adds the requests never completed
 * to failed, agrees on the outcome with every rank, reports this rank's
 * completion when all passed, and returns the exit status (0 or 1). Call
 * MPI_Finalize after it. */
int checker_mpi_end(int failed);

#endif
