/* The MPI checkers' chaos schedules: see mpi_chaos.h. */
#define _GNU_SOURCE
#include "mpi_chaos.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../runner/chaos_seed.h"
#include "random.h"
#include "stuck.h"
#include "watchdog.h"

static unsigned long seed;
static int my_rank;
static int failures;

/* ---- choices: each kind of choice its own numbered sequence ------------------ */

/* One sequence per kind, so that a kind's n-th choice depends on the seed,
 * the rank and n only: how often a rank polled (which the machine decides)
 * does not shift its sends' choices, and a replay makes the same ones. */
enum { DRAW_DELAY, DRAW_WAIT, DRAW_SYNC, DRAW_HIDE_REQ, DRAW_HIDE_POLL, DRAW_ORDER, DRAW_KINDS };
static uint64_t drawn[DRAW_KINDS];

/* A number in [0, n). The sends' choices are the same on every rank (the
 * n-th send of each rank alike): a deadlock of code that relies on
 * buffering needs the sends of both sides synchronous at once. */
static unsigned draw(int kind, unsigned n)
{
    uint64_t who = kind == DRAW_SYNC ? 0 : (uint64_t)(my_rank + 1);
    uint64_t z = kit_splitmix64(seed + 0x9e3779b97f4a7c15ull * who);
    z = kit_splitmix64(z ^ ((uint64_t)kind << 56) ^ drawn[kind]++);
    return n ? (unsigned)(z % n) : 0;
}

void chaos_start(int rank)
{
    my_rank = rank;
    const char *s = getenv("AG_CHAOS_SEED");
    seed = 0;
    if (s && *s && !ag_chaos_seed_from_text(s, &seed))
        fprintf(stderr, "checker: AG_CHAOS_SEED='%s' is not a non-zero decimal below 2^32: no chaos\n", s);
}

unsigned long chaos_seed(void) { return seed; }

int chaos_failures(void) { return failures; }

static void sleep_us(unsigned us)
{
    struct timespec t = {0, (long)us * 1000};
    nanosleep(&t, NULL);
}

void chaos_delay(void)
{
    if (seed && draw(DRAW_DELAY, 4) == 0)
        sleep_us(20 + draw(DRAW_DELAY, 480));
}

void chaos_wait_delay(void)
{
    if (seed && draw(DRAW_WAIT, 2) == 0)
        sleep_us(draw(DRAW_WAIT, 1000));
}

/* ---- buffers ------------------------------------------------------------------- */

/* The bytes of count elements of type, when they lie in one piece from the
 * buffer's address (the predefined types, contiguous derived ones); 0 else. */
static size_t contiguous_bytes(int count, MPI_Datatype type)
{
    int size = 0;
    MPI_Aint lb = 0, extent = 0;
    if (count <= 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(type, &lb, &extent) != MPI_SUCCESS || lb != 0 || extent != size)
        return 0;
    return (size_t)count * (size_t)size;
}

/* Whether the code may read the buffer's first and last bytes: not a
 * device pointer (CUDA-aware MPI) nor unmapped memory. A write to a pipe
 * fails with EFAULT where a load would crash. */
static int host_memory(const void *buf, size_t bytes)
{
    static int fds[2] = {-1, -1};
    if (fds[0] < 0 && pipe(fds) != 0)
        return 0;
    const char *p = buf;
    char c;
    for (int i = 0; i < 2; i++) {
        if (write(fds[1], i ? p + bytes - 1 : p, 1) != 1)
            return 0;
        if (read(fds[0], &c, 1) != 1)
            return 0;
    }
    return 1;
}

/* FNV-1a over 8-byte words: any change of the buffer changes it, bar
 * collisions. */
static uint64_t checksum(const void *buf, size_t bytes)
{
    const unsigned char *p = buf;
    uint64_t h = 0xcbf29ce484222325ull, w;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    for (; i < bytes; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static void fail(const char *fmt, const char *call, const void *site)
{
    char where[400] = "", msg[800];
    if (!site || !stuck_name_address(site, where, sizeof where))
        snprintf(where, sizeof where, "call site unknown");
    snprintf(msg, sizeof msg, fmt, call, where);
    if (failures++ < 3)
        printf("FAIL rank %d: %s (chaos seed %lu)\n", my_rank, msg, seed);
    fflush(stdout);
}

/* ---- sends: synchronous where chaos says, through the lab's PMPI layer -------- */

/* A send made synchronous is in flight (a blocking one, or a request): the
 * watchdog names it when every rank hangs. */
static int sync_open, in_sync_send;

static void sync_changed(void) { watchdog_sync_sends(sync_open + in_sync_send > 0); }

void chaos_send_begin(chaos_op *op, const void *buf, int count, MPI_Datatype type, int dest, const void *site)
{
    memset(op, 0, sizeof *op);
    op->site = site;
    if (!seed)
        return;
    /* the share of sends made synchronous: 2, 3 or 4 in 4, by the seed
     * (drawn for a send to MPI_PROC_NULL too: the ranks at an edge keep
     * the same numbering of their sends as the others) */
    op->sync = draw(DRAW_SYNC, 4) < 2 + seed % 3 && dest != MPI_PROC_NULL;
    size_t bytes = contiguous_bytes(count, type);
    if (buf && bytes && host_memory(buf, bytes)) {
        op->buf = (void *)buf;
        op->bytes = bytes;
        op->sum = checksum(buf, bytes);
    }
}

void chaos_send_end(const chaos_op *op, const char *call)
{
    if (op->buf && checksum(op->buf, op->bytes) != op->sum)
        fail("the send buffer of %s (%s) changed while it was being sent: another thread, or a copy still in "
             "flight, wrote to it before the send returned",
             call, op->site);
}

/* A lab's own PMPI layer (lab 5's lab5_pmpi.c, lab 6's halo_mpi_log.c)
 * defines MPI_Send in the program and logs it: a send made synchronous
 * goes through it as the MPI_Send it is, and its call of PMPI_Send (linked
 * with ld --wrap=PMPI_Send, checker.mk) becomes PMPI_Ssend. Without one,
 * MPI_Send is MPI's and the guard calls MPI_Ssend itself. */
int __real_MPI_Send(const void *, int, MPI_Datatype, int, int, MPI_Comm);
int __real_MPI_Ssend(const void *, int, MPI_Datatype, int, int, MPI_Comm);
int __real_PMPI_Send(const void *, int, MPI_Datatype, int, int, MPI_Comm);
int __real_MPI_Isend(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int __real_MPI_Issend(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int __real_PMPI_Isend(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);

static int send_armed, isend_armed;

/* Whether fn (MPI_Send or MPI_Isend as the program links it) is the
 * program's own: a PMPI layer. A layer that turns out not to pass the call
 * on is forgotten (the send was standard that once). */
static int has_layer(void *fn, int *known)
{
    if (*known < 0) {
        Dl_info mine, its;
        *known = dladdr((void *)chaos_start, &mine) && dladdr(fn, &its) && mine.dli_fbase == its.dli_fbase;
    }
    return *known;
}
static int send_layer = -1, isend_layer = -1;

int chaos_send(const chaos_op *op, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    if (!op->sync)
        return __real_MPI_Send(b, n, t, dest, tag, c);
    in_sync_send = 1;
    sync_changed();
    int rc;
    if (has_layer((void *)__real_MPI_Send, &send_layer)) {
        send_armed = 1;
        rc = __real_MPI_Send(b, n, t, dest, tag, c);
        if (send_armed)
            send_armed = send_layer = 0;
    } else {
        rc = __real_MPI_Ssend(b, n, t, dest, tag, c);
    }
    in_sync_send = 0;
    sync_changed();
    return rc;
}

int chaos_isend(const chaos_op *op, const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c,
                MPI_Request *r)
{
    if (!op->sync)
        return __real_MPI_Isend(b, n, t, dest, tag, c, r);
    if (!has_layer((void *)__real_MPI_Isend, &isend_layer))
        return __real_MPI_Issend(b, n, t, dest, tag, c, r);
    isend_armed = 1;
    int rc = __real_MPI_Isend(b, n, t, dest, tag, c, r);
    if (isend_armed)
        isend_armed = isend_layer = 0;
    return rc;
}

int __wrap_PMPI_Send(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    if (!send_armed)
        return __real_PMPI_Send(b, n, t, dest, tag, c);
    send_armed = 0;
    return PMPI_Ssend(b, n, t, dest, tag, c);
}

int __wrap_PMPI_Isend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
{
    if (!isend_armed)
        return __real_PMPI_Isend(b, n, t, dest, tag, c, r);
    isend_armed = 0;
    return PMPI_Issend(b, n, t, dest, tag, c, r);
}

/* ---- receives ------------------------------------------------------------------ */

void chaos_irecv_begin(chaos_op *op, void *buf, int count, MPI_Datatype type, int source)
{
    memset(op, 0, sizeof *op);
    if (!seed || source == MPI_PROC_NULL) /* a receive from MPI_PROC_NULL leaves the buffer as it was */
        return;
    size_t bytes = contiguous_bytes(count, type);
    if (!buf || !bytes || !host_memory(buf, bytes) || !(op->saved = malloc(bytes)))
        return;
    memcpy(op->saved, buf, bytes);
    memset(buf, 0xFF, bytes);
    op->buf = buf;
    op->bytes = bytes;
}

/* ---- requests from start to completion ---------------------------------------- */

typedef struct {
    MPI_Request req;
    chaos_op op;
    const char *call;
    int hides; /* MPI_Test's answers "not yet" left */
} chaos_req;

static chaos_req *reqs;
static size_t n_reqs, cap_reqs;

static chaos_req *find(MPI_Request req)
{
    for (size_t i = 0; i < n_reqs; i++)
        if (reqs[i].req == req)
            return &reqs[i];
    return NULL;
}

/* Puts back a receive buffer's bytes from `from` on (those the message did
 * not write) and drops the copy. */
static void restore(chaos_op *op, size_t from)
{
    if (op->saved && from < op->bytes)
        memcpy((char *)op->buf + from, op->saved + from, op->bytes - from);
    free(op->saved);
    op->saved = NULL;
}

void chaos_request_started(MPI_Request req, const chaos_op *op, const char *call)
{
    if (!seed)
        return;
    chaos_op o = *op;
    if (req == MPI_REQUEST_NULL) { /* not started: nothing to wait for */
        restore(&o, 0);
        return;
    }
    reqs = guard_room(reqs, n_reqs, &cap_reqs, sizeof *reqs);
    reqs[n_reqs++] = (chaos_req){req, o, call, (int)draw(DRAW_HIDE_REQ, 4)};
    if (o.sync) {
        sync_open++;
        sync_changed();
    }
}

static void forget(chaos_req *e)
{
    if (e->op.sync) {
        sync_open--;
        sync_changed();
    }
    *e = reqs[--n_reqs];
}

void chaos_request_completed(MPI_Request req, const MPI_Status *status)
{
    chaos_req *e = seed ? find(req) : NULL;
    if (!e)
        return;
    if (e->op.saved) {
        int got = 0, cancelled = 0;
        if (!status) /* no count known (cannot happen: mpi_guard.c passes statuses under chaos) */
            got = (int)e->op.bytes;
        else if (PMPI_Test_cancelled(status, &cancelled) != MPI_SUCCESS || cancelled ||
                 PMPI_Get_count(status, MPI_BYTE, &got) != MPI_SUCCESS || got < 0)
            got = 0; /* cancelled, or MPI_UNDEFINED (negative): nothing was written */
        restore(&e->op, (size_t)got);
    } else if (e->op.buf && checksum(e->op.buf, e->op.bytes) != e->op.sum) {
        fail("the send buffer of %s (%s) changed before its wait completed: MPI may read it until the send is "
             "complete (MPI_Wait/MPI_Test), so what arrives is the buffer at some moment in between",
             e->call, e->op.site);
    }
    forget(e);
}

void chaos_request_freed(MPI_Request req)
{
    chaos_req *e = seed ? find(req) : NULL;
    if (!e)
        return;
    free(e->op.saved); /* the receive goes on unseen: its buffer is the code's again only then */
    forget(e);
}

/* ---- answers "not yet", and the order requests are looked at ------------------- */

int chaos_test_hides(MPI_Request req)
{
    chaos_req *e = seed && req != MPI_REQUEST_NULL ? find(req) : NULL;
    if (!e || e->hides <= 0)
        return 0;
    e->hides--;
    return 1;
}

int chaos_poll_hides(void)
{
    static int left;
    if (!seed)
        return 0;
    if (left > 0) {
        left--;
        return 1;
    }
    left = (int)draw(DRAW_HIDE_POLL, 4);
    return 0;
}

void chaos_order(int n, int *order)
{
    for (int i = 0; i < n; i++)
        order[i] = i;
    if (!seed)
        return;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)draw(DRAW_ORDER, (unsigned)i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}
