/* Lab 5's check program: the deadlock watchdog.
 *
 * A deadlock (the lecture's unmatched barriers, a receive no send matches)
 * leaves every rank inside a blocking MPI call. The PMPI layer marks each
 * rank's entry into and exit from the calls the stages make, in a small
 * shared memory segment; a thread of rank 0 ends the job with "FAIL
 * TIMEOUT ..." when every rank has been inside such a call, without
 * returning, for WATCHDOG_IDLE_S seconds. That takes seconds even on a
 * loaded machine where a slow but live run can take far longer; a case that
 * runs past its hard limit (a livelock, a call the layer does not see) ends
 * the same way. */
#ifndef LAB5_WATCHDOG_H
#define LAB5_WATCHDOG_H

#define WATCHDOG_IDLE_S 3.0

/* Collective: maps the segment on every rank; rank 0 starts the thread. */
void watchdog_start(int rank, int np);
/* A case begins (its name for the message, its hard limit) or ends. */
void watchdog_case(const char *what, double hard_limit_s);
void watchdog_case_end(void);
/* Called by the PMPI layer around every blocking call. */
void watchdog_mpi_enter(void);
void watchdog_mpi_leave(void);

#endif
