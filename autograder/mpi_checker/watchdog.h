/* The MPI checkers' deadlock watchdog (see mpi_checker.h), as the MPI
 * wrappers of mpi_guard.c see it. */
#ifndef KIT_CHECKER_WATCHDOG_H
#define KIT_CHECKER_WATCHDOG_H

/* Collective (PMPI calls only): maps the shared slots, starts this rank's
 * thread. */
void watchdog_start(int rank, int np);
/* This rank starts waiting (a blocking call, or a poll), and stops:
 * completed = 1 when the call completed something (a blocking call always
 * does), 0 for a poll that found nothing. */
void watchdog_wait_begin(void);
void watchdog_wait_end(int completed);
/* Ends the job now with "FAIL TIMEOUT: case: why" (the first caller only,
 * whichever rank). */
void watchdog_stop(const char *why) __attribute__((noreturn));

#endif
