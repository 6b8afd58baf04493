/* Lab 6's MPI test program, run by the Check suite under mpirun
 * (ag_run_mpi); MPI does not survive Check's fork, so the ranks run here and
 * the suite judges the exit status and the FAIL lines.
 *
 *   lab6_mpi_check BACKEND baseline ITERS CASE...   every baseline variant
 *   lab6_mpi_check BACKEND tq ITERS CASE...         both taskqueue variants,
 *                                                   blocking and not
 *   lab6_mpi_check BACKEND testany                  halo_waitall_via_testany
 * BACKEND is host (OpenMP threads as blocks) or cuda (one GPU per rank).
 * CASE is BLOCKS:NUM/DEN:PATTERN[:THREADS]: Table 4.1 times NUM/DEN, pattern
 * pair, self, fig26 or ring, e.g. 9:1/10:pair (rendezvous sizes up to
 * 96 kB, block 0 eager at 8 B).
 *
 * Every iteration, on every rank: the receive buffers are poisoned (NaN)
 * and the unpack counts set to garbage before the call; after it, every
 * element of every send and receive buffer is compared with the thesis's
 * sentinel, every unpack count must be 0, every block sent and received
 * exactly once with tag = block id, the right partner and count (seen
 * through MPI's profiling interface, halo_mpi_log.c), the taskqueue must
 * report 2 x blocks events, and (host backend) the per-block event log must
 * show each block packed before it was sent and unpacked only after its
 * receive completed. The kit's watchdog (autograder/mpi_checker/mpi_checker.h)
 * turns a hang into a FAIL line: every rank without progress (no block's
 * event, nothing completed by MPI) for seconds. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lab6_table.h"
#include "mpi_checker/mpi_checker.h"
#include "halo_mpi.h"
#include "halo_mpi_log.h"
#include "mpi_check.h"

/* A case's hard limits, far above its normal time (a hang ends sooner, at
 * the watchdog's CHECKER_IDLE_S without progress). */
#define ITERATION_LIMIT_S 60
#define TESTANY_LIMIT_S 20
#define MAX_FAIL_LINES 6

static int rank, nranks, fail_lines;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    if (fail_lines++ >= MAX_FAIL_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL rank %d: ", rank);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

/* The partner of rank for block b, written from the definitions in halo.h
 * (sending: whom rank sends to; else whom it receives from). */
static int expected_partner(halo_pattern p, int b, int sending)
{
    int next = rank + 1 == nranks ? 0 : rank + 1, prev = rank == 0 ? nranks - 1 : rank - 1;
    int mate = rank % 2 ? rank - 1 : (rank + 1 < nranks ? rank + 1 : rank);
    switch (p) {
    case HALO_PAT_PAIR:
        return mate;
    case HALO_PAT_SELF:
        return rank;
    case HALO_PAT_RING:
        return sending ? next : prev;
    case HALO_PAT_FIG26:
        return b == 0 ? mate : (b == 1) == sending ? next : prev;
    }
    return -1;
}

typedef struct {
    int blocks, threads;
    long num, den;
    halo_pattern pattern;
    const char *text;
} check_case;

static int parse_case(const char *s, check_case *c)
{
    char pat[16] = "";
    c->threads = 32;
    c->text = s;
    if (sscanf(s, "%d:%ld/%ld:%15[a-z0-9]:%d", &c->blocks, &c->num, &c->den, pat, &c->threads) < 4 ||
        c->blocks < 1 || c->blocks > HALO_MAX_BLOCKS || c->num < 1 || c->den < 1)
        return -1;
    return halo_pattern_parse(pat, &c->pattern);
}

/* All ranks agree that every rank is fine (or stop together). */
static int all_ok(int ok)
{
    int all = 0;
    MPI_CHECK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    return all;
}

/* Compares n elements with value; returns the mismatches, first in *first. */
static size_t mismatches(const double *a, size_t n, double value, size_t *first)
{
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        if (!(a[i] == value) && wrong++ == 0)
            *first = i;
    return wrong;
}

static void verify_block(const halo_layer *L, const check_case *c, int tq, int it, int b, const char *what)
{
    size_t first = 0, wrong;
    int src = expected_partner(c->pattern, b, 0), dst = expected_partner(c->pattern, b, 1);
    double want = l6_sentinel(it, src, b), mine = l6_sentinel(it, rank, b);
    char hint[300] = "";
    if ((wrong = mismatches(L->recv_buf[b], L->sizes[b], want, &first))) {
        /* every double the sender's of the iteration before: stale data */
        size_t stale_first = 0;
        if (isnan(L->recv_buf[b][first]))
            snprintf(hint, sizeof hint, " (never received)");
        else if (it > 0 && !mismatches(L->recv_buf[b], L->sizes[b], l6_sentinel(it - 1, src, b), &stale_first))
            snprintf(hint, sizeof hint,
                     " (every double is rank %d's of iteration %d: one iteration behind? the data of the iteration "
                     "before, read before this iteration's arrived or never replaced)",
                     src, it - 1);
        fail("%s, iteration %d, block %d: %zu of %zu received doubles wrong; first [%zu] expected %.0f (from rank %d), "
             "got %.17g%s",
             what, it, b, wrong, L->sizes[b], first, want, src, L->recv_buf[b][first], hint);
    }
    if ((wrong = mismatches(L->send_buf[b], L->sizes[b], mine, &first)))
        fail("%s, iteration %d, block %d: %zu of %zu packed doubles wrong; first [%zu] expected %.0f, got %.17g", what,
             it, b, wrong, L->sizes[b], first, mine, L->send_buf[b][first]);
    if (L->unpack_errors[b] != 0)
        fail("%s, iteration %d, block %d: the unpack counted %u mismatches (correct data should give 0)", what, it, b,
             L->unpack_errors[b]);
    const halo_mpi_block_log *m = halo_mpi_block(b);
    if (m->irecvs != 1 || m->recv_tag != b || m->recv_source != src || m->recv_count != (long)L->sizes[b])
        fail("%s, iteration %d, block %d: %d receive(s) posted, the last with tag %d, source %d, count %ld; expected "
             "one, tag %d (the block id), source %d, count %zu",
             what, it, b, m->irecvs, m->recv_tag, m->recv_source, m->recv_count, b, src, L->sizes[b]);
    if (m->sends != 1 || m->send_tag != b || m->send_dest != dst || m->send_count != (long)L->sizes[b])
        fail("%s, iteration %d, block %d: %d send(s), the last with tag %d, destination %d, count %ld; expected one, "
             "tag %d (the block id), destination %d, count %zu",
             what, it, b, m->sends, m->send_tag, m->send_dest, m->send_count, b, dst, L->sizes[b]);
    if (halo_log_count(HL_RECEIVED, b) != 1)
        fail("%s, iteration %d, block %d: its receive was seen complete %d times by MPI_Wait*/MPI_Test* (expected 1)",
             what, it, b, halo_log_count(HL_RECEIVED, b));
    if (L->backend != &halo_host_backend)
        return;
    /* the order of events: only the host backend logs the blocks' side */
    if (halo_log_tick(HL_SENT, b) && halo_log_tick(HL_SENT, b) < halo_log_tick(HL_PACKED, b))
        fail("%s, iteration %d, block %d: sent before its pack had finished", what, it, b);
    if (tq && halo_log_tick(HL_UNPACK, b) < halo_log_tick(HL_RECEIVED, b))
        fail("%s, iteration %d, block %d: unpacked before its receive had completed (notified too early?)", what, it,
             b);
    if (!tq)
        for (int o = 0; o < L->num_blocks; o++)
            if (halo_log_tick(HL_UNPACK, b) < halo_log_tick(HL_RECEIVED, o)) {
                fail("%s, iteration %d: block %d unpacked before block %d's receive had completed (the baseline "
                     "unpacks after every receive)",
                     what, it, b, o);
                break;
            }
}

/* Runs ITERS iterations of one variant; returns 0 if all went well here. */
static int run_variant(const halo_backend *be, const check_case *c, int tq_mode, int flag_a, int blocking, int iters)
{
    char what[160];
    if (tq_mode)
        snprintf(what, sizeof what, "taskqueue (%s, %s sends), %s", flag_a ? "channel per block" : "queue with a lock",
                 blocking ? "blocking" : "non-blocking", c->text);
    else
        snprintf(what, sizeof what, "baseline (%s sends, %s), %s", blocking ? "blocking" : "non-blocking",
                 flag_a ? "Testany" : "Waitall", c->text);
    size_t sizes[HALO_MAX_BLOCKS];
    for (int b = 0; b < c->blocks; b++) {
        sizes[b] = l6_table41[b] * (size_t)c->num / (size_t)c->den;
        sizes[b] = sizes[b] ? sizes[b] : 1;
    }
    int before = fail_lines;
    halo_layer L;
    if (!all_ok(halo_layer_init(&L, c->blocks, c->threads, rank, nranks, sizes, c->pattern, be) == 0)) {
        fail("%s: halo_layer_init failed on some rank (halo_partners?)", what);
        halo_layer_free(&L);
        return 1;
    }
    for (int b = 0; b < c->blocks; b++)
        if (L.send_to[b] != expected_partner(c->pattern, b, 1) || L.recv_from[b] != expected_partner(c->pattern, b, 0))
            fail("%s, block %d: halo_partners gave send_to %d, recv_from %d; expected %d and %d", what, b, L.send_to[b],
                 L.recv_from[b], expected_partner(c->pattern, b, 1), expected_partner(c->pattern, b, 0));
    taskqueue tq = {0};
    if (tq_mode && !all_ok(be->tq_init(&tq, c->blocks, flag_a) == 0)) {
        fail("%s: the backend's tq_init failed", what);
        halo_layer_free(&L);
        return 1;
    }
    halo_comm C = {.comm = MPI_COMM_WORLD};
    for (int it = 0; it < iters && all_ok(fail_lines == before); it++) {
        for (int b = 0; b < c->blocks; b++) {
            for (size_t i = 0; i < sizes[b]; i++)
                L.recv_buf[b][i] = NAN;
            L.unpack_errors[b] = 0xdead;
        }
        halo_log_reset();
        halo_mpi_watch(&L);
        char iteration[220];
        snprintf(iteration, sizeof iteration, "rank %d: %s, iteration %d", rank, what, it);
        checker_case(iteration, ITERATION_LIMIT_S);
        checker_case_progress(halo_log_events);
        int rc = tq_mode ? halo_tq_iteration(&L, &C, &tq, it, blocking)
                         : halo_baseline_iteration(&L, &C, it, blocking, flag_a);
        checker_case_end();
        halo_mpi_watch(NULL);
        if (tq_mode && rc != 2 * c->blocks) {
            fail("%s, iteration %d: halo_tq_iteration returned %d; expected %d (one task and one receive per block)",
                 what, it, rc, 2 * c->blocks);
            if (rc < 0)
                continue;
        }
        if (!tq_mode && rc != 0) {
            fail("%s, iteration %d: halo_baseline_iteration returned %d", what, it, rc);
            continue;
        }
        for (int b = 0; b < c->blocks; b++)
            verify_block(&L, c, tq_mode, it, b, what);
    }
    if (tq_mode)
        be->tq_free(&tq);
    halo_layer_free(&L);
    return fail_lines != before;
}

/* halo_waitall_via_testany: rank 1 sends six messages in a known order with
 * synchronous sends (the next leaves only once the last was matched), so
 * rank 0's receives complete in exactly that order. */
static int testany_case(void)
{
    static const int order_sent[6] = {3, 0, 5, 1, 4, 2};
    int before = fail_lines;
    if (nranks < 2) {
        fail("testany needs 2 ranks");
        return 1;
    }
    checker_case("halo_waitall_via_testany", TESTANY_LIMIT_S);
    if (rank == 0) {
        double in[6];
        int order[6] = {-7, -7, -7, -7, -7, -7};
        MPI_Request req[6];
        for (int i = 0; i < 6; i++)
            MPI_CHECK(MPI_Irecv(&in[i], 1, MPI_DOUBLE, 1, i, MPI_COMM_WORLD, &req[i]));
        int rc = halo_waitall_via_testany(6, req, order);
        if (rc != 0)
            fail("halo_waitall_via_testany returned %d for 6 pending receives (expected 0)", rc);
        for (int i = 0; i < 6; i++)
            if (order[i] != order_sent[i]) {
                fail("halo_waitall_via_testany: order[%d] = %d; the receives completed in the order 3 0 5 1 4 2", i,
                     order[i]);
                break;
            }
        for (int i = 0; i < 6; i++)
            if (in[i] != i + 0.5 || req[i] != MPI_REQUEST_NULL) {
                fail("halo_waitall_via_testany: receive %d not completed (value %g, request %s)", i, in[i],
                     req[i] == MPI_REQUEST_NULL ? "null" : "still active");
                break;
            }
        rc = halo_waitall_via_testany(6, req, order);
        if (rc != -1)
            fail("halo_waitall_via_testany returned %d for 6 null requests (expected -1: nothing to wait for)", rc);
    } else if (rank == 1) {
        for (int k = 0; k < 6; k++) {
            double v = order_sent[k] + 0.5;
            MPI_CHECK(MPI_Ssend(&v, 1, MPI_DOUBLE, 0, order_sent[k], MPI_COMM_WORLD));
        }
    }
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    checker_case_end();
    return fail_lines != before;
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &nranks));
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 3 || (strcmp(argv[1], "host") && strcmp(argv[1], "cuda"))) {
        if (rank == 0)
            fprintf(stderr, "usage: %s host|cuda baseline|tq ITERS CASE... | host|cuda testany\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    if (provided < MPI_THREAD_FUNNELED) {
        fail("MPI gives no MPI_THREAD_FUNNELED");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const halo_backend *be = strcmp(argv[1], "cuda") ? &halo_host_backend : &halo_cuda_backend;
    checker_mpi_start();
    int failed = 0;
    if (!strcmp(argv[2], "testany")) {
        failed = testany_case();
    } else {
        int tq_mode = !strcmp(argv[2], "tq"), iters = argc > 3 ? atoi(argv[3]) : 0;
        if ((!tq_mode && strcmp(argv[2], "baseline")) || iters < 1 || argc < 5) {
            if (rank == 0)
                fprintf(stderr, "%s: bad arguments (mode %s, %d iterations)\n", argv[0], argv[2], iters);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        int backend_ok = all_ok(be->init(rank) == 0);
        if (!backend_ok) {
            fail("the %s backend did not start", be->name);
            failed = 1;
        }
        for (int a = 4; a < argc && backend_ok; a++) {
            check_case c;
            if (parse_case(argv[a], &c)) {
                if (rank == 0)
                    fprintf(stderr, "%s: bad case '%s' (BLOCKS:NUM/DEN:PATTERN[:THREADS])\n", argv[0], argv[a]);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            for (int flag_a = 0; flag_a < 2; flag_a++)
                for (int blocking = 0; blocking < 2; blocking++)
                    failed |= run_variant(be, &c, tq_mode, flag_a, blocking, iters);
        }
    }
    int status = checker_mpi_end(failed);
    if (rank == 0 && !status)
        printf("ok %s\n", argv[2]);
    MPI_Finalize();
    return status;
}
