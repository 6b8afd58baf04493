/* The MPI checkers' chaos schedules: while AG_CHAOS_SEED is set
 * (autograder/runner/chaos.h gives the contract), the guard's wrappers
 * (mpi_guard.c) perturb each rank's schedule with choices drawn from the
 * seed and the rank, and stay within what the MPI standard promises, so
 * that a correct program passes under every seed and never hangs:
 *
 * - a standard-mode send may wait for its matching receive: a seeded share
 *   of MPI_Send and MPI_Isend calls go out as MPI_Ssend and MPI_Issend
 *   (code that relies on MPI's buffering, or posts a receive only after the
 *   matching send's wait, hangs, and the watchdog says why);
 * - a completed request need not be reported at once: MPI_Test answers
 *   "not yet" a seeded number of times per request, MPI_Testany, Testall,
 *   Testsome and MPI_Iprobe a seeded number of calls in a row, always
 *   finitely many (progress is kept); MPI_Testany/Testsome/Waitany/Waitsome
 *   look at the requests in a seeded order (the standard lets them pick any
 *   that completed); MPI_Wait* sleep a little before completing, and some
 *   calls start after a short sleep, so that the ranks' order shifts;
 * - a receive buffer's contents are undefined until its receive completes:
 *   MPI_Irecv fills it with 0xFF bytes (a NaN as float or double) before
 *   posting it, and what lies past the message that arrived is put back at
 *   completion (the standard leaves it untouched);
 * - a send buffer must not change until the send completes: its checksum
 *   at MPI_Isend, MPI_Issend (or before a blocking send) is compared at
 *   completion (after it), and a change is a FAIL line naming the call.
 * Outside chaos every function here does nothing (the wrappers call MPI as
 * they always did). Only the thread that calls MPI uses this file. */
#ifndef KIT_CHECKER_MPI_CHAOS_H
#define KIT_CHECKER_MPI_CHAOS_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* From checker_mpi_start: reads AG_CHAOS_SEED, seeds this rank. */
void chaos_start(int rank);
/* The seed (0: no chaos). Safe from any thread once chaos_start ran. */
unsigned long chaos_seed(void);
/* FAIL lines printed by the chaos checks on this rank (checker_mpi_end
 * fails the run for them). */
int chaos_failures(void);

/* A short seeded sleep at the entry of a call (some calls only), and
 * before a Wait* completes. */
void chaos_delay(void);
void chaos_wait_delay(void);

/* What the guard keeps about one operation from its start to its end. */
typedef struct {
    void *buf;            /* NULL: nothing to poison or check */
    size_t bytes;
    unsigned char *saved; /* a receive's buffer as it was before the poison */
    uint64_t sum;         /* a send buffer's checksum at the start */
    const void *site;     /* where the code under test called MPI */
    int sync;             /* a send made synchronous by chaos */
} chaos_op;

/* Sends. The send's buffer is summed; sync says whether it goes out
 * synchronously (mpi_guard.c then calls chaos_send/chaos_isend). */
void chaos_send_begin(chaos_op *op, const void *buf, int count, MPI_Datatype type, int dest, const void *site);
/* After a blocking send: FAIL if its buffer changed while it was sent. */
void chaos_send_end(const chaos_op *op, const char *call);
/* The send itself, in standard or (op->sync) synchronous mode, through the
 * lab's own PMPI layer when it has one (its log sees an MPI_Send). */
int chaos_send(const chaos_op *op, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c);
int chaos_isend(const chaos_op *op, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c,
                MPI_Request *r);

/* A receive about to be posted: the buffer is saved and poisoned where the
 * standard allows (a real source, contiguous data in host memory). */
void chaos_irecv_begin(chaos_op *op, void *buf, int count, MPI_Datatype type, int source);

/* The request that an operation started (op is copied), its completion
 * with its status (the bytes past the message restored, the send's
 * checksum compared), and a request freed unfinished (forgotten). */
void chaos_request_started(MPI_Request req, const chaos_op *op, const char *call);
void chaos_request_completed(MPI_Request req, const MPI_Status *status);
void chaos_request_freed(MPI_Request req);

/* MPI_Test on req: 1 when this call must answer "not yet" (req is active
 * and still has answers "not yet" left). */
int chaos_test_hides(MPI_Request req);
/* MPI_Testany/Testall/Testsome/Iprobe: 1 when this call must answer "not
 * yet"; a number of calls in a row drawn after each call that asked MPI. */
int chaos_poll_hides(void);
/* A seeded order of 0..n-1 (the identity without chaos). */
void chaos_order(int n, int *order);

/* (mpi_guard.c) array with room for element n, of size bytes each: grown
 * by doubling (cap), the program aborted when memory runs out. */
void *guard_room(void *array, size_t n, size_t *cap, size_t size);

#endif
