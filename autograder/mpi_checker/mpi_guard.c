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

#include "mpi_chaos.h"
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

void *guard_room(void *array, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return array;
    *cap = *cap ? 2 * *cap : 64;
    array = realloc(array, *cap * size);
    if (!array) {
        fprintf(stderr, "checker: out of memory\n");
        abort();
    }
    return array;
}

static void opened(MPI_Request req, const char *call, int peer, int tag)
{
    if (req == MPI_REQUEST_NULL)
        return;
    open_reqs = guard_room(open_reqs, n_open, &cap_open, sizeof *open_reqs);
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

/* Where a completed request's status is: each its own (st[i]: Wait, Test,
 * Waitall, Testall), the one status of the one completed (Waitany,
 * Testany), or st[k] where indices[k] = i (Waitsome, Testsome). */
typedef enum { ST_EACH, ST_ONE, ST_SOME } status_at;

static int closed_since(int n, const MPI_Request *before, const MPI_Request *after, const MPI_Status *st,
                        status_at at, const int *indices, int outcount)
{
    int done = 0;
    for (int i = 0; i < n; i++)
        if (before[i] != MPI_REQUEST_NULL && after[i] == MPI_REQUEST_NULL) {
            const MPI_Status *s = NULL;
            if (st && at == ST_EACH)
                s = &st[i];
            else if (st && at == ST_ONE)
                s = st;
            else if (st)
                for (int k = 0; k < outcount && !s; k++)
                    s = indices[k] == i ? &st[k] : NULL;
            closed(before[i]);
            chaos_request_completed(before[i], s);
            done++;
        }
    return done;
}

/* The statuses a call of the family fills: the caller's, or under chaos
 * where the caller ignores them, the guard's own (chaos restores what lies
 * past a received message, so it needs each one's count). */
typedef struct {
    MPI_Status few[8], *many;
} statuses;

static MPI_Status *statuses_for(statuses *s, int n, MPI_Status *given)
{
    s->many = NULL;
    if (given != MPI_STATUSES_IGNORE || !chaos_seed() || n <= 0)
        return given;
    if (n <= 8)
        return s->few;
    s->many = malloc((size_t)n * sizeof(MPI_Status));
    return s->many ? s->many : given;
}

/* Whether any request of the array is active: only then may a poll answer
 * "not yet" (all null, MPI answers at once). */
static int any_active(int n, const MPI_Request *r)
{
    for (int i = 0; i < n; i++)
        if (r[i] != MPI_REQUEST_NULL)
            return 1;
    return 0;
}

/* Under chaos, the requests as MPI_Testany/Waitany/Testsome/Waitsome see
 * them: in a seeded order (the standard lets them pick any that is
 * complete), put back in the caller's order after the call. */
typedef struct {
    MPI_Request few[16], *reqs;
    int few_order[16], *order, n;
} shuffled;

static MPI_Request *shuffle(shuffled *s, int n, MPI_Request *r)
{
    s->n = 0;
    if (!chaos_seed() || n < 2 || n > 16)
        return r;
    s->n = n, s->reqs = s->few, s->order = s->few_order;
    chaos_order(n, s->order);
    for (int k = 0; k < n; k++)
        s->reqs[k] = r[s->order[k]];
    return s->reqs;
}

/* Back in the caller's order; indices[0..count) from the shuffled order. */
static void unshuffle(const shuffled *s, MPI_Request *r, int *indices, int count)
{
    if (!s->n)
        return;
    for (int k = 0; k < s->n; k++)
        r[s->order[k]] = s->reqs[k];
    for (int k = 0; k < count; k++)
        if (indices[k] >= 0 && indices[k] < s->n)
            indices[k] = s->order[indices[k]];
}

/* ---- the wrappers ------------------------------------------------------------ */

/* One blocking call: waiting while in it, something completed after it. */
#define BLOCKING(call)                       \
    do {                                     \
        chaos_delay();                       \
        watchdog_wait_begin();               \
        int rc_ = (call);                    \
        watchdog_wait_end(1);                \
        return rc_;                          \
    } while (0)

#define REAL(name, ...) int __real_##name(__VA_ARGS__)
#define WRAP(name, ...) int __wrap_##name(__VA_ARGS__)
/* Where the code under test called the wrapped function. */
#define CALL_SITE __builtin_return_address(0)

/* A blocking send: under chaos perhaps synchronous (chaos_send), its buffer
 * checked unchanged over the call. */
WRAP(MPI_Send, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    chaos_op op;
    chaos_send_begin(&op, b, n, t, dest, CALL_SITE);
    chaos_delay();
    watchdog_wait_begin();
    int rc = chaos_send(&op, b, n, t, dest, tag, c);
    watchdog_wait_end(1);
    chaos_send_end(&op, "MPI_Send");
    return rc;
}

REAL(MPI_Ssend, const void *, int, MPI_Datatype, int, int, MPI_Comm);
WRAP(MPI_Ssend, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    chaos_op op;
    chaos_send_begin(&op, b, n, t, dest, CALL_SITE);
    chaos_delay();
    watchdog_wait_begin();
    int rc = __real_MPI_Ssend(b, n, t, dest, tag, c);
    watchdog_wait_end(1);
    chaos_send_end(&op, "MPI_Ssend");
    return rc;
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
    chaos_op op;
    chaos_send_begin(&op, sb, sn, st, dest, CALL_SITE);
    chaos_delay();
    watchdog_wait_begin();
    int rc = __real_MPI_Sendrecv(sb, sn, st, dest, stag, rb, rn, rt, src, rtag, c, status);
    watchdog_wait_end(1);
    chaos_send_end(&op, "MPI_Sendrecv");
    return rc;
}

REAL(MPI_Probe, int, int, MPI_Comm, MPI_Status *);
WRAP(MPI_Probe, int src, int tag, MPI_Comm c, MPI_Status *st)
{
    BLOCKING(__real_MPI_Probe(src, tag, c, st));
}

/* A poll: under chaos, "no message yet" for a few calls in a row. */
REAL(MPI_Iprobe, int, int, MPI_Comm, int *, MPI_Status *);
WRAP(MPI_Iprobe, int src, int tag, MPI_Comm c, int *flag, MPI_Status *st)
{
    if (chaos_poll_hides()) {
        *flag = 0;
        return MPI_SUCCESS;
    }
    return __real_MPI_Iprobe(src, tag, c, flag, st);
}

/* Starting a request completes nothing, but it is a sign of life. */
REAL(MPI_Isend, const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
WRAP(MPI_Isend, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
{
    chaos_op op;
    chaos_send_begin(&op, b, n, t, dest, CALL_SITE);
    chaos_delay();
    int rc = chaos_isend(&op, b, n, t, dest, tag, c, r);
    opened(*r, "MPI_Isend to rank", dest, tag);
    chaos_request_started(*r, &op, "MPI_Isend");
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Issend, const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
WRAP(MPI_Issend, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
{
    chaos_op op;
    chaos_send_begin(&op, b, n, t, dest, CALL_SITE);
    op.sync = 0; /* synchronous already */
    chaos_delay();
    int rc = __real_MPI_Issend(b, n, t, dest, tag, c, r);
    opened(*r, "MPI_Issend to rank", dest, tag);
    chaos_request_started(*r, &op, "MPI_Issend");
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Irecv, void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
WRAP(MPI_Irecv, void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *r)
{
    chaos_op op;
    chaos_delay();
    chaos_irecv_begin(&op, b, n, t, src);
    int rc = __real_MPI_Irecv(b, n, t, src, tag, c, r);
    opened(*r, "MPI_Irecv from rank", src, tag);
    chaos_request_started(*r, &op, "MPI_Irecv");
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Request_free, MPI_Request *);
WRAP(MPI_Request_free, MPI_Request *r)
{
    closed(*r);
    chaos_request_freed(*r);
    return __real_MPI_Request_free(r);
}

REAL(MPI_Wait, MPI_Request *, MPI_Status *);
WRAP(MPI_Wait, MPI_Request *r, MPI_Status *st)
{
    BEFORE(1, r);
    statuses own;
    MPI_Status *use = statuses_for(&own, 1, st);
    chaos_wait_delay();
    watchdog_wait_begin();
    int rc = __real_MPI_Wait(r, use);
    closed_since(1, before_, r, use, ST_EACH, NULL, 0);
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Waitall, int, MPI_Request *, MPI_Status *);
WRAP(MPI_Waitall, int n, MPI_Request *r, MPI_Status *st)
{
    BEFORE(n, r);
    statuses own;
    MPI_Status *use = statuses_for(&own, n, st);
    chaos_wait_delay();
    watchdog_wait_begin();
    int rc = __real_MPI_Waitall(n, r, use);
    closed_since(n, before_, r, use, ST_EACH, NULL, 0);
    free(own.many);
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Waitany, int, MPI_Request *, int *, MPI_Status *);
WRAP(MPI_Waitany, int n, MPI_Request *r, int *index, MPI_Status *st)
{
    BEFORE(n, r);
    statuses own;
    shuffled sh;
    MPI_Status *use = statuses_for(&own, 1, st);
    chaos_wait_delay();
    watchdog_wait_begin();
    int rc = __real_MPI_Waitany(n, shuffle(&sh, n, r), index, use);
    unshuffle(&sh, r, index, 1);
    closed_since(n, before_, r, use, ST_ONE, NULL, 0);
    watchdog_wait_end(1);
    return rc;
}

REAL(MPI_Waitsome, int, MPI_Request *, int *, int *, MPI_Status *);
WRAP(MPI_Waitsome, int n, MPI_Request *r, int *outcount, int *indices, MPI_Status *st)
{
    BEFORE(n, r);
    statuses own;
    shuffled sh;
    MPI_Status *use = statuses_for(&own, n, st);
    chaos_wait_delay();
    watchdog_wait_begin();
    int rc = __real_MPI_Waitsome(n, shuffle(&sh, n, r), outcount, indices, use);
    int count = *outcount == MPI_UNDEFINED ? 0 : *outcount;
    unshuffle(&sh, r, indices, count);
    closed_since(n, before_, r, use, ST_SOME, indices, count);
    free(own.many);
    watchdog_wait_end(1);
    return rc;
}

/* A poll waits like a blocking call when it completes nothing: a rank that
 * spins on MPI_Test for a message that never comes is deadlocked. Under
 * chaos a poll may answer "not yet" (mpi_chaos.h), asking MPI nothing. */
REAL(MPI_Test, MPI_Request *, int *, MPI_Status *);
WRAP(MPI_Test, MPI_Request *r, int *flag, MPI_Status *st)
{
    BEFORE(1, r);
    watchdog_wait_begin();
    if (chaos_test_hides(*r)) {
        *flag = 0;
        watchdog_wait_end(0);
        return MPI_SUCCESS;
    }
    statuses own;
    MPI_Status *use = statuses_for(&own, 1, st);
    int rc = __real_MPI_Test(r, flag, use);
    watchdog_wait_end(closed_since(1, before_, r, use, ST_EACH, NULL, 0) > 0);
    return rc;
}

REAL(MPI_Testall, int, MPI_Request *, int *, MPI_Status *);
WRAP(MPI_Testall, int n, MPI_Request *r, int *flag, MPI_Status *st)
{
    BEFORE(n, r);
    watchdog_wait_begin();
    if (any_active(n, r) && chaos_poll_hides()) {
        *flag = 0;
        watchdog_wait_end(0);
        return MPI_SUCCESS;
    }
    statuses own;
    MPI_Status *use = statuses_for(&own, n, st);
    int rc = __real_MPI_Testall(n, r, flag, use);
    int done = closed_since(n, before_, r, use, ST_EACH, NULL, 0);
    free(own.many);
    watchdog_wait_end(done > 0);
    return rc;
}

REAL(MPI_Testany, int, MPI_Request *, int *, int *, MPI_Status *);
WRAP(MPI_Testany, int n, MPI_Request *r, int *index, int *flag, MPI_Status *st)
{
    BEFORE(n, r);
    watchdog_wait_begin();
    if (any_active(n, r) && chaos_poll_hides()) {
        *flag = 0;
        *index = MPI_UNDEFINED;
        watchdog_wait_end(0);
        return MPI_SUCCESS;
    }
    statuses own;
    shuffled sh;
    MPI_Status *use = statuses_for(&own, 1, st);
    int rc = __real_MPI_Testany(n, shuffle(&sh, n, r), index, flag, use);
    unshuffle(&sh, r, index, 1);
    watchdog_wait_end(closed_since(n, before_, r, use, ST_ONE, NULL, 0) > 0);
    return rc;
}

REAL(MPI_Testsome, int, MPI_Request *, int *, int *, MPI_Status *);
WRAP(MPI_Testsome, int n, MPI_Request *r, int *outcount, int *indices, MPI_Status *st)
{
    BEFORE(n, r);
    watchdog_wait_begin();
    if (any_active(n, r) && chaos_poll_hides()) {
        *outcount = 0;
        watchdog_wait_end(0);
        return MPI_SUCCESS;
    }
    statuses own;
    shuffled sh;
    MPI_Status *use = statuses_for(&own, n, st);
    int rc = __real_MPI_Testsome(n, shuffle(&sh, n, r), outcount, indices, use);
    int count = *outcount == MPI_UNDEFINED ? 0 : *outcount;
    unshuffle(&sh, r, indices, count);
    int done = closed_since(n, before_, r, use, ST_SOME, indices, count);
    free(own.many);
    watchdog_wait_end(done > 0);
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
    chaos_start(my_rank);
}

int checker_mpi_end(int failed)
{
    if (chaos_failures())
        failed = 1;
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
