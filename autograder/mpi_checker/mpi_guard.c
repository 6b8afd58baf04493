/* The MPI checkers' guard over MPI's calls: see mpi_checker.h.
 *
 * Linked with ld --wrap=MPI_X for each call below (checker.mk): every
 * reference to MPI_X in the program's objects, the code under test's
 * included, goes to __wrap_MPI_X here, and __real_MPI_X to MPI_X as it
 * would have been: a lab's own PMPI layer (lab 5's lab5_pmpi.c, lab 6's
 * halo_mpi_log.c) if it defines one, else MPI's. The requests table and
 * the watchdog's marks are touched only by the thread that calls MPI (the
 * labs use MPI_THREAD_FUNNELED at most). */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_checker.h"
#include "stuck.h"
#include "watchdog.h"

static int my_rank = -1, started, ending;

/* ---- requests started and not yet completed -------------------------------- */

typedef struct {
    MPI_Request req;
    const char *call;
    int peer, tag;
} open_request;

static open_request *open_reqs;
static size_t n_open, cap_open;

static void opened(MPI_Request req, const char *call, int peer, int tag)
{
    if (req == MPI_REQUEST_NULL)
        return;
    if (n_open == cap_open) {
        cap_open = cap_open ? 2 * cap_open : 64;
        open_reqs = realloc(open_reqs, cap_open * sizeof *open_reqs);
        if (!open_reqs) {
            fprintf(stderr, "checker: out of memory\n");
            abort();
        }
    }
    open_reqs[n_open++] = (open_request){req, call, peer, tag};
}

static void closed(MPI_Request req)
{
    for (size_t i = 0; i < n_open; i++)
        if (open_reqs[i].req == req) {
            open_reqs[i] = open_reqs[--n_open];
            return;
        }
}

/* The requests of an array before a call of the Wait/Test family, and
 * after it: those now null are complete. */
#define BEFORE(n, reqs)                                                   \
    MPI_Request before_[(n) > 0 ? (n) : 1];                               \
    if ((n) > 0)                                                          \
        memcpy(before_, (reqs), (size_t)(n) * sizeof(MPI_Request))

static int closed_since(int n, const MPI_Request *before, const MPI_Request *after)
{
    int done = 0;
    for (int i = 0; i < n; i++)
        if (before[i] != MPI_REQUEST_NULL && after[i] == MPI_REQUEST_NULL) {
            closed(before[i]);
            done++;
        }
    return done;
}

/* ---- the wrappers ------------------------------------------------------------ */

/* One blocking call: waiting while in it, something completed after it. */
#define BLOCKING(call)                       \
    do {                                     \
        watchdog_wait_begin();               \
        int rc_ = (call);                    \
        watchdog_wait_end(1);                \
        return rc_;                          \
    } while (0)

#define REAL(name, ...) int __real_##name(__VA_ARGS__)
#define WRAP(name, ...) int __wrap_##name(__VA_ARGS__)

REAL(MPI_Send, const void *, int, MPI_Datatype, int, int, MPI_Comm);
WRAP(MPI_Send, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    BLOCKING(__real_MPI_Send(b, n, t, dest, tag, c));
}

REAL(MPI_Ssend, const void *, int, MPI_Datatype, int, int, MPI_Comm);
WRAP(MPI_Ssend, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    BLOCKING(__real_MPI_Ssend(b, n, t, dest, tag, c));
}

REAL(MPI_Recv, void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
WRAP(MPI_Recv, void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *st)
{
    BLOCKING(__real_MPI_Recv(b, n, t, src, tag, c, st));
}

REAL(MPI_Sendrecv, const void *, int, MPI_Datatype, int, int, void *, int, MPI_Datatype, int, int, MPI_Comm,
     MPI_Status *);
WRAP(MPI_Sendrecv, const void *sb, int sn, MPI_Datatype st, int dest, int stag, void *rb, int rn, MPI_Datatype rt,
     int src, int rtag, MPI_Comm c, MPI_Status *status)
{
    BLOCKING(__real_MPI_Sendrecv(sb, sn, st, dest, stag, rb, rn, rt, src, rtag, c, status));
}

REAL(MPI_Probe, int, int, MPI_Comm, MPI_Status *);
WRAP(MPI_Probe, int src, int tag, MPI_Comm c, MPI_Status *st)
{
    BLOCKING(__real_MPI_Probe(src, tag, c, st));
}

/* Starting a request completes nothing, but it is a sign of life. */
REAL(MPI_Isend, const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
WRAP(MPI_Isend, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
{
    int rc = __real_MPI_Isend(b, n, t, dest, tag, c, r);
    opened(*r, "MPI_Isend to rank", dest, tag);
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Issend, const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
WRAP(MPI_Issend, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
{
    int rc = __real_MPI_Issend(b, n, t, dest, tag, c, r);
    opened(*r, "MPI_Issend to rank", dest, tag);
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Irecv, void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
WRAP(MPI_Irecv, void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *r)
{
    int rc = __real_MPI_Irecv(b, n, t, src, tag, c, r);
    opened(*r, "MPI_Irecv from rank", src, tag);
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Request_free, MPI_Request *);
WRAP(MPI_Request_free, MPI_Request *r)
{
    closed(*r);
    return __real_MPI_Request_free(r);
}

REAL(MPI_Wait, MPI_Request *, MPI_Status *);
WRAP(MPI_Wait, MPI_Request *r, MPI_Status *st)
{
    BEFORE(1, r);
    watchdog_wait_begin();
    int rc = __real_MPI_Wait(r, st);
    closed_since(1, before_, r);
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Waitall, int, MPI_Request *, MPI_Status *);
WRAP(MPI_Waitall, int n, MPI_Request *r, MPI_Status *st)
{
    BEFORE(n, r);
    watchdog_wait_begin();
    int rc = __real_MPI_Waitall(n, r, st);
    closed_since(n, before_, r);
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Waitany, int, MPI_Request *, int *, MPI_Status *);
WRAP(MPI_Waitany, int n, MPI_Request *r, int *index, MPI_Status *st)
{
    BEFORE(n, r);
    watchdog_wait_begin();
    int rc = __real_MPI_Waitany(n, r, index, st);
    closed_since(n, before_, r);
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Waitsome, int, MPI_Request *, int *, int *, MPI_Status *);
WRAP(MPI_Waitsome, int n, MPI_Request *r, int *outcount, int *indices, MPI_Status *st)
{
    BEFORE(n, r);
    watchdog_wait_begin();
    int rc = __real_MPI_Waitsome(n, r, outcount, indices, st);
    closed_since(n, before_, r);
    watchdog_wait_end(1);
    return rc;
}

/* A poll waits like a blocking call when it completes nothing: a rank that
 * spins on MPI_Test for a message that never comes is deadlocked. */
REAL(MPI_Test, MPI_Request *, int *, MPI_Status *);
WRAP(MPI_Test, MPI_Request *r, int *flag, MPI_Status *st)
{
    BEFORE(1, r);
    watchdog_wait_begin();
    int rc = __real_MPI_Test(r, flag, st);
    watchdog_wait_end(closed_since(1, before_, r) > 0);
    return rc;
}

REAL(MPI_Testall, int, MPI_Request *, int *, MPI_Status *);
WRAP(MPI_Testall, int n, MPI_Request *r, int *flag, MPI_Status *st)
{
    BEFORE(n, r);
    watchdog_wait_begin();
    int rc = __real_MPI_Testall(n, r, flag, st);
    watchdog_wait_end(closed_since(n, before_, r) > 0);
    return rc;
}

REAL(MPI_Testany, int, MPI_Request *, int *, int *, MPI_Status *);
WRAP(MPI_Testany, int n, MPI_Request *r, int *index, int *flag, MPI_Status *st)
{
    BEFORE(n, r);
    watchdog_wait_begin();
    int rc = __real_MPI_Testany(n, r, index, flag, st);
    watchdog_wait_end(closed_since(n, before_, r) > 0);
    return rc;
}

REAL(MPI_Testsome, int, MPI_Request *, int *, int *, MPI_Status *);
WRAP(MPI_Testsome, int n, MPI_Request *r, int *outcount, int *indices, MPI_Status *st)
{
    BEFORE(n, r);
    watchdog_wait_begin();
    int rc = __real_MPI_Testsome(n, r, outcount, indices, st);
    watchdog_wait_end(closed_since(n, before_, r) > 0);
    return rc;
}

REAL(MPI_Barrier, MPI_Comm);
WRAP(MPI_Barrier, MPI_Comm c) { BLOCKING(__real_MPI_Barrier(c)); }

REAL(MPI_Bcast, void *, int, MPI_Datatype, int, MPI_Comm);
WRAP(MPI_Bcast, void *b, int n, MPI_Datatype t, int root, MPI_Comm c) { BLOCKING(__real_MPI_Bcast(b, n, t, root, c)); }

REAL(MPI_Reduce, const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
WRAP(MPI_Reduce, const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    BLOCKING(__real_MPI_Reduce(s, r, n, t, op, root, c));
}

REAL(MPI_Allreduce, const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
WRAP(MPI_Allreduce, const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    BLOCKING(__real_MPI_Allreduce(s, r, n, t, op, c));
}

REAL(MPI_Gather, const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
WRAP(MPI_Gather, const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root, MPI_Comm c)
{
    BLOCKING(__real_MPI_Gather(s, sn, st, r, rn, rt, root, c));
}

REAL(MPI_Gatherv, const void *, int, MPI_Datatype, void *, const int *, const int *, MPI_Datatype, int, MPI_Comm);
WRAP(MPI_Gatherv, const void *s, int sn, MPI_Datatype st, void *r, const int *rn, const int *displs, MPI_Datatype rt,
     int root, MPI_Comm c)
{
    BLOCKING(__real_MPI_Gatherv(s, sn, st, r, rn, displs, rt, root, c));
}

REAL(MPI_Scatterv, const void *, const int *, const int *, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
WRAP(MPI_Scatterv, const void *s, const int *sn, const int *displs, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
     int root, MPI_Comm c)
{
    BLOCKING(__real_MPI_Scatterv(s, sn, displs, st, r, rn, rt, root, c));
}

REAL(MPI_Allgather, const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
WRAP(MPI_Allgather, const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c)
{
    BLOCKING(__real_MPI_Allgather(s, sn, st, r, rn, rt, c));
}

REAL(MPI_Alltoall, const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
WRAP(MPI_Alltoall, const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, MPI_Comm c)
{
    BLOCKING(__real_MPI_Alltoall(s, sn, st, r, rn, rt, c));
}

REAL(MPI_Alltoallv, const void *, const int *, const int *, MPI_Datatype, void *, const int *, const int *,
     MPI_Datatype, MPI_Comm);
WRAP(MPI_Alltoallv, const void *s, const int *sn, const int *sd, MPI_Datatype st, void *r, const int *rn,
     const int *rd, MPI_Datatype rt, MPI_Comm c)
{
    BLOCKING(__real_MPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, c));
}

/* ---- the end: early or at checker_mpi_end ------------------------------------ */

static void ended_early(const char *how)
{
    char msg[400];
    int n = snprintf(msg, sizeof msg,
                     "FAIL rank %d: %s before the checker's checks ended: the code under test must return, not end "
                     "the program\n",
                     my_rank, how);
    if (write(STDOUT_FILENO, msg, (size_t)n) < 0)
        _exit(3);
    _exit(3); /* a non-zero status: mpirun ends the other ranks */
}

REAL(MPI_Finalize, void);
WRAP(MPI_Finalize, void)
{
    if (started && !ending)
        ended_early("MPI_Finalize was called");
    return __real_MPI_Finalize();
}

static void exit_guard(void)
{
    if (!ending)
        ended_early("the program exited (exit() or a return from main)");
}

void checker_mpi_start(void)
{
    int np = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &np);
    atexit(exit_guard);
    started = 1;
    /* Where this rank is when the run is ended (a hang): the test names it. */
    const char *stuck_dir = getenv("AG_CHECKER_STUCK");
    if (stuck_dir && *stuck_dir) {
        char path[200];
        snprintf(path, sizeof path, "%s/rank %d", stuck_dir, my_rank);
        stuck_setup(path);
        stuck_on_term();
    }
    /* A crash names its signal, and where (from the record), in one line. */
    char who[32];
    snprintf(who, sizeof who, "rank %d", my_rank);
    stuck_on_crash(who);
    watchdog_start(my_rank, np);
}

int checker_mpi_end(int failed)
{
    if (n_open > 0) {
        const open_request *o = &open_reqs[0];
        printf("FAIL rank %d: %zu MPI request(s) never completed, the first of %s %d, tag %d: every request of "
               "MPI_Isend/MPI_Irecv must be completed by MPI_Wait*/MPI_Test* (a send left unwaited works only below "
               "MPI's eager limit)\n",
               my_rank, n_open, o->call, o->peer, o->tag);
        fflush(stdout);
        failed = 1;
    }
    int any = 0;
    PMPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!any)
        checker_report(my_rank);
    ending = 1;
    return any ? 1 : 0;
}
