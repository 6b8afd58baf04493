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
/* This rank is (on = 1) or is no longer (0) in a send that chaos made
 * synchronous (mpi_chaos.h), or has such a send's request open: a
 * deadlock's message then says what that means. */
void watchdog_sync_sends(int on);
/* Ends the job now with "FAIL TIMEOUT: case: why" (the first caller only,
 * whichever rank). */
void watchdog_stop(const char *why) __attribute__((noreturn));

#endif
