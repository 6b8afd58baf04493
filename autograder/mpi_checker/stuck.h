/* Where a process that never returned was stuck, or where it crashed: the
 * function it was in, with its file and line, for the line that reports a
 * hang or a crash.
 *
 * A process records the stack of its main thread into a file (glibc's
 * backtrace(), kept to the frames of the program itself, as offsets from
 * its load address), and whoever reports the hang turns the file into
 * "stuck in FUNCTION (FILE:LINE), called from ..." with addr2line
 * (binutils, which GCC needs anyway) and the program's debug information.
 * Two ways to take it:
 * - the forked tests (autograder/runner/run_test.c): a timer armed in the test's
 *   process fires shortly before Check's time limit kills it;
 * - the MPI checker programs (mpi_checker.h): a SIGTERM (timeout(1) ends
 *   mpirun, which forwards it to every rank) or the watchdog's hard limit;
 *   and a crash, from the crashing thread (stuck_on_crash).
 * Async-signal-safe where it runs in a handler: write() only, after
 * backtrace() was called once beforehand (its first call loads libgcc). */
#ifndef KIT_CHECKER_STUCK_H
#define KIT_CHECKER_STUCK_H

#include <stddef.h>

/* The calling thread is the one to record; its stack goes to path (at most
 * 200 bytes). Call once, before the others. */
void stuck_setup(const char *path);

/* After `seconds`, record the stack (the timer's signal is sent to the
 * thread that called stuck_setup); the process goes on. */
void stuck_arm_timer(double seconds);

/* On SIGTERM, record the stack, then die of the SIGTERM as before. */
void stuck_on_term(void);

/* On a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) in any thread,
 * record that thread's stack with the signal, write "FAIL WHO: killed by
 * SIGSEGV (what it most often means)" on stdout, and die of the signal.
 * Replaces MPI's own handler, whose glibc frame list names no line. */
void stuck_on_crash(const char *who);

/* From another thread (the watchdog): record the stack now, and wait up to
 * a tenth of a second for it to be written. */
void stuck_record_now(void);

/* The record at path, of program exe, as "stuck in F (FILE:LINE), called
 * from G (FILE:LINE), H (FILE:LINE)": the innermost frames of the program
 * whose source is not the kit's test code (autograder/), paths relative
 * to the working folder (the student's /student/FILE in the folder that
 * exe's build folder names in its file "source"); a crash's record as "SIGSEGV in F (FILE:LINE),
 * called from ..." or "SIGSEGV inside MPI_X, called from F (FILE:LINE)".
 * Returns 0, out empty, when there is no record or
 * nothing of it can be named. */
int stuck_describe(const char *path, const char *exe, char *out, size_t cap);

/* The call whose return address is ret, in the program's own code, as "in
 * FUNC, FILE:LINE" (files named as stuck_describe names them); returns 0,
 * out empty, when it cannot be named (not the program's code, no addr2line). */
int stuck_name_address(const void *ret, char *out, size_t cap);

/* Every record in folder dir (files named for their process: "rank 2"),
 * described as stuck_describe does, each description once with the
 * processes it holds for ("rank 0, rank 1: stuck in ..."), joined with
 * "; ", crashes first; the records and the folder removed (exe NULL: only removed).
 * Returns 0 when none could be named. */
int stuck_describe_all(const char *dir, const char *exe, char *out, size_t cap);

#endif
