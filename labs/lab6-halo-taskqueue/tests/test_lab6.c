/* Lab 6 (halo-taskqueue): the visible tests. Run them with
 * `make lab6 && make check`.
 *
 * Stages 1, 2 and the single-threaded protocol are unit tests. The task
 * queue runs under 27 threads at once (lab6_tq_stress), also built with
 * ThreadSanitizer. The baseline and the taskqueue run end to end under
 * mpirun on the host backend (OpenMP threads as GPU blocks), 2 and 4 ranks
 * on this machine's cores (lab6_mpi_check: every element of every buffer
 * checked every iteration, and the order of each block's events). The CUDA
 * tests need a GPU (two for the two-rank ones) and are skipped without.
 *
 * Expected values come from Table 4.1 as printed (lab6_table.h) and the
 * thesis's definitions, not from the reference. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include <cuda_runtime.h>

#include "autograder.h"
#include "cuda/compute_sanitizer.h"
#include "halo.h"
#include "lab6_checks.h"

/* ---- stage 1 ---- */

START_TEST(sizes_table41)
{
    size_t total9 = 0, total27 = 0;
    for (int b = 0; b < 27; b++) {
        size_t got = halo_default_array_size(b);
        ck_assert_msg(got == l6_table41[b], "halo_default_array_size(%d) = %zu; Table 4.1 says %zu doubles", b, got,
                      l6_table41[b]);
        total27 += got;
        total9 += b < 9 ? got : 0;
    }
    ck_assert_msg(total9 == 540001 && total27 == 1755001, "totals %zu (9 blocks), %zu (27); expected 540001, 1755001",
                  total9, total27);
    ck_assert_msg(halo_default_array_size(-1) == 0 && halo_default_array_size(27) == 0,
                  "halo_default_array_size of blocks -1 and 27 (outside the table): %zu, %zu; expected 0, 0",
                  halo_default_array_size(-1), halo_default_array_size(27));
    /* the thesis's "very small" workload: 8, 120, 240, 360 B */
    static const size_t small[4] = {1, 15, 30, 45};
    for (int b = 0; b < 4; b++)
        ck_assert_msg(halo_scaled_array_size(b, 1, 1000) == small[b], "halo_scaled_array_size(%d, 1, 1000) = %zu; expected %zu",
                      b, halo_scaled_array_size(b, 1, 1000), small[b]);
    for (int b = 0; b < 27; b++) {
        ck_assert_msg(halo_scaled_array_size(b, 10, 1) == 10 * l6_table41[b],
                      "halo_scaled_array_size(%d, 10, 1) = %zu; expected %zu (the \"very large\" workload)", b,
                      halo_scaled_array_size(b, 10, 1), 10 * l6_table41[b]);
        ck_assert_msg(halo_scaled_array_size(b, 1, 1) == l6_table41[b], "halo_scaled_array_size(%d, 1, 1) = %zu", b,
                      halo_scaled_array_size(b, 1, 1));
    }
    ck_assert_msg(halo_scaled_array_size(9, 1, 100) == 50 && halo_scaled_array_size(26, 1, 100) == 1300 &&
                      halo_scaled_array_size(9, 3, 7) == 2142,
                  "halo_scaled_array_size: block 9 at 1/100 = %zu (50), block 26 at 1/100 = %zu (1300), block 9 at "
                  "3/7 = %zu (2142)",
                  halo_scaled_array_size(9, 1, 100), halo_scaled_array_size(26, 1, 100), halo_scaled_array_size(9, 3, 7));
    /* num > 1 and den > 1: "times num / den, rounded down" is n * num / den,
     * which differs from n / den * num (or n * (num / den)) where den does
     * not divide n; at least one case here is such a block */
    static const long ratio[][2] = {{3, 9}, {7, 10}, {2, 3}, {5, 4}, {11, 13}};
    int telling = 0;
    for (int r = 0; r < 5; r++)
        for (int b = 0; b < 27; b++) {
            size_t n = l6_table41[b], num = (size_t)ratio[r][0], den = (size_t)ratio[r][1];
            size_t want = n * num / den > 0 ? n * num / den : 1;
            telling |= want != n / den * num;
            ck_assert_msg(halo_scaled_array_size(b, ratio[r][0], ratio[r][1]) == want,
                          "halo_scaled_array_size(%d, %ld, %ld) = %zu; expected %zu = %zu * %ld / %ld rounded down "
                          "(multiply first: %zu / %ld * %ld = %zu)",
                          b, ratio[r][0], ratio[r][1], halo_scaled_array_size(b, ratio[r][0], ratio[r][1]), want, n,
                          ratio[r][0], ratio[r][1], n, ratio[r][1], ratio[r][0], n / den * num);
        }
    ck_assert_msg(telling, "test bug: no case where n * num / den differs from n / den * num");
    ck_assert_msg(halo_scaled_array_size(3, 0, 1) == 0 && halo_scaled_array_size(3, 1, 0) == 0 &&
                      halo_scaled_array_size(27, 1, 1) == 0,
                  "halo_scaled_array_size with num 0, den 0 or block 27 must return 0");
}
END_TEST

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

START_TEST(sentinel_values)
{
    ck_assert_msg(halo_msg_value(0, 0, 0) == 1000.0, "halo_msg_value(0, 0, 0) = %.17g; expected 1000",
                  halo_msg_value(0, 0, 0));
    ck_assert_msg(halo_msg_value(2, 1, 5) == 3105.0, "halo_msg_value(2, 1, 5) = %.17g; expected 3105",
                  halo_msg_value(2, 1, 5));
    ck_assert_msg(halo_msg_value(12, 9, 26) == 13926.0, "halo_msg_value(12, 9, 26) = %.17g; expected 13926",
                  halo_msg_value(12, 9, 26));
    /* distinct for every iteration < 1000, rank < 10, block < 27 */
    size_t n = 1000 * 10 * 27, k = 0;
    double *v = malloc(n * sizeof *v);
    ck_assert(v != NULL);
    for (int it = 0; it < 1000; it++)
        for (int r = 0; r < 10; r++)
            for (int b = 0; b < 27; b++)
                v[k++] = halo_msg_value(it, r, b);
    qsort(v, n, sizeof *v, cmp_double);
    for (k = 1; k < n; k++)
        if (!(v[k] != v[k - 1])) {
            double twice = v[k];
            free(v);
            ck_abort_msg("halo_msg_value gives %.17g to two different (iteration, rank, block) below (1000, 10, 27): a "
                         "stale or misrouted message would pass",
                         twice);
        }
    free(v);
}
END_TEST

START_TEST(block_ids)
{
    static const int grids[4][3] = {{3, 3, 3}, {3, 3, 1}, {4, 2, 3}, {1, 1, 1}};
    for (int g = 0; g < 4; g++) {
        int gx = grids[g][0], gy = grids[g][1], gz = grids[g][2], n = gx * gy * gz, seen[27] = {0};
        for (int z = 0; z < gz; z++)
            for (int y = 0; y < gy; y++)
                for (int x = 0; x < gx; x++) {
                    int id = halo_global_block_id(x, y, z, gx, gy);
                    ck_assert_msg(id >= 0 && id < n && !seen[id]++,
                                  "halo_global_block_id(%d, %d, %d) in a %dx%dx%d grid = %d: not a new id in [0, %d)", x,
                                  y, z, gx, gy, gz, id, n);
                }
    }
    ck_assert_msg(halo_global_block_id(1, 0, 0, 3, 3) == 1 && halo_global_block_id(0, 1, 0, 3, 3) == 3 &&
                      halo_global_block_id(0, 0, 1, 3, 3) == 9 && halo_global_block_id(2, 1, 2, 4, 2) == 22,
                  "halo_global_block_id: x must vary fastest (x + y * gx + z * gx * gy)");
}
END_TEST

START_TEST(partners_patterns)
{
    static const int sizes[] = {1, 2, 3, 4, 8};
    for (int p = 0; p < 4; p++)
        for (int s = 0; s < 5; s++)
            l6_check_partner_symmetry((halo_pattern)p, sizes[s]);
    int to, from;
    for (int r = 0; r < 4; r++) {
        halo_partners(HALO_PAT_SELF, 13, r, 4, &to, &from);
        ck_assert_msg(to == r && from == r, "HALO_PAT_SELF, rank %d: partners %d, %d", r, to, from);
        /* Fig. 2.6 with 4 ranks: block 0 in pairs {0,1} {2,3}, block 1 to the next, block n to the previous */
        halo_partners(HALO_PAT_FIG26, 0, r, 4, &to, &from);
        ck_assert_msg(to == (r ^ 1) && from == (r ^ 1), "HALO_PAT_FIG26, block 0, rank %d of 4: partners %d, %d; expected %d",
                      r, to, from, r ^ 1);
        halo_partners(HALO_PAT_FIG26, 1, r, 4, &to, &from);
        ck_assert_msg(to == (r + 1) % 4 && from == (r + 3) % 4,
                      "HALO_PAT_FIG26, block 1, rank %d of 4: send_to %d, recv_from %d; expected %d, %d", r, to, from,
                      (r + 1) % 4, (r + 3) % 4);
        halo_partners(HALO_PAT_FIG26, 8, r, 4, &to, &from);
        ck_assert_msg(to == (r + 3) % 4 && from == (r + 1) % 4,
                      "HALO_PAT_FIG26, block 8, rank %d of 4: send_to %d, recv_from %d; expected %d, %d", r, to, from,
                      (r + 3) % 4, (r + 1) % 4);
        halo_partners(HALO_PAT_RING, 5, r, 4, &to, &from);
        ck_assert_msg(to == (r + 1) % 4 && from == (r + 3) % 4, "HALO_PAT_RING, rank %d of 4: send_to %d, recv_from %d",
                      r, to, from);
    }
    halo_partners(HALO_PAT_PAIR, 4, 2, 3, &to, &from);
    ck_assert_msg(to == 2 && from == 2, "HALO_PAT_PAIR, rank 2 of 3 (no mate): partners %d, %d; expected itself", to,
                  from);
    to = from = 77;
    ck_assert_msg(halo_partners(HALO_PAT_RING, 0, 4, 4, &to, &from) == -1 &&
                      halo_partners(HALO_PAT_RING, 0, 0, 0, &to, &from) == -1 &&
                      halo_partners(HALO_PAT_RING, 27, 0, 2, &to, &from) == -1 &&
                      halo_partners(HALO_PAT_RING, -1, 0, 2, &to, &from) == -1 &&
                      halo_partners((halo_pattern)9, 0, 0, 2, &to, &from) == -1,
                  "halo_partners must return -1 for rank 4 of 4, size 0, block 27 or -1, an unknown pattern");
    ck_assert_msg(to == 77 && from == 77, "halo_partners wrote partners for a bad argument");
}
END_TEST

/* ---- stage 2 ---- */

START_TEST(strided_pack_covers_once)
{
    static const size_t ns[] = {1, 2, 15, 31, 32, 33, 127, 128, 129, 5000, 130000};
    static const int threads[] = {1, 16, 32, 64, 128};
    for (int i = 0; i < 11; i++)
        for (int t = 0; t < 5; t++)
            l6_check_strided_pack(ns[i], threads[t]);
}
END_TEST

START_TEST(sample_index)
{
    static const size_t ns[] = {1, 2, 15, 127, 128, 129, 130000};
    static const int threads[] = {1, 16, 32, 128};
    for (int i = 0; i < 7; i++)
        for (int t = 0; t < 4; t++)
            for (int tid = 0; tid < threads[t]; tid++) {
                size_t got = halo_sample_index(ns[i], tid, threads[t]);
                size_t want = ns[i] / (size_t)threads[t] * (size_t)tid; /* Listing 3.8 */
                ck_assert_msg(got == want && got < ns[i],
                              "halo_sample_index(n=%zu, tid %d of %d) = %zu; expected n / nthreads * tid = %zu", ns[i],
                              tid, threads[t], got, want);
            }
}
END_TEST

START_TEST(unpack_check_catches)
{
    enum { N = 1000 };
    /* on the heap, exactly N: AddressSanitizer sees a read past its end
     * (a static array of this file, built without it, has no red zone) */
    double *buf = malloc(N * sizeof *buf);
    ck_assert_ptr_nonnull(buf);
    double good = l6_sentinel(4, 2, 7);
    struct {
        const char *what;
        double value;
        size_t at, count;
    } bad[] = {
        {"a corrupted element", good + 0.5, 537, 1},
        {"a stale element (the previous iteration's)", l6_sentinel(3, 2, 7), 999, 1},
        {"an element from the wrong rank", l6_sentinel(4, 1, 7), 0, 1},
        {"an element from the wrong block", l6_sentinel(4, 2, 8), 500, 1},
        {"a NaN (never received)", NAN, 123, 1},
        {"a whole buffer from the wrong rank", l6_sentinel(4, 3, 7), 0, N},
    };
    l6_fill(buf, N, good);
    ck_assert_msg(halo_unpack_check(buf, N, good, 16, 1) == 0 && halo_unpack_check(buf, N, good, 16, 0) == 0,
                  "halo_unpack_check of a correct buffer: %s (full), %s (sampled); expected 0",
                  l6_count(halo_unpack_check(buf, N, good, 16, 1)), l6_count(halo_unpack_check(buf, N, good, 16, 0)));
    for (int k = 0; k < 6; k++) {
        l6_fill(buf, N, good);
        for (size_t i = bad[k].at; i < bad[k].at + bad[k].count; i++)
            buf[i] = bad[k].value;
        size_t got = halo_unpack_check(buf, N, good, 16, 1);
        ck_assert_msg(got == bad[k].count, "halo_unpack_check (full), %s at [%zu]: %s mismatches; expected %zu",
                      bad[k].what, bad[k].at, l6_count(got), bad[k].count);
    }
    /* sampled, 16 threads on 1000: thread t checks 62 * t only */
    l6_fill(buf, N, good);
    buf[186] = good + 1;
    ck_assert_msg(halo_unpack_check(buf, N, good, 16, 0) == 1,
                  "halo_unpack_check (sampled, 16 threads), element 186 (thread 3's) wrong: %s; expected 1",
                  l6_count(halo_unpack_check(buf, N, good, 16, 0)));
    buf[186] = good;
    buf[187] = good + 1;
    ck_assert_msg(halo_unpack_check(buf, N, good, 16, 0) == 0,
                  "halo_unpack_check (sampled, 16 threads), element 187 (sampled by no thread) wrong: %s; expected "
                  "0 (the sampled check reads one element per thread)",
                  l6_count(halo_unpack_check(buf, N, good, 16, 0)));
    /* 5 doubles, 16 threads: every thread samples element 0 */
    l6_fill(buf, 5, good);
    buf[0] = good - 1;
    ck_assert_msg(halo_unpack_check(buf, 5, good, 16, 0) == 16,
                  "halo_unpack_check (sampled, n=5, 16 threads), element 0 wrong: %s; expected 16 (all sample it)",
                  l6_count(halo_unpack_check(buf, 5, good, 16, 0)));
    free(buf);
}
END_TEST

/* ---- stage 4, one thread ---- */

static int t_list[HALO_MAX_BLOCKS], t_request[HALO_MAX_BLOCKS], t_lock = -1, t_tail;

static taskqueue fresh_queue(int nb, int lockfree)
{
    taskqueue tq = {.num_blocks = nb, .lockfree = lockfree, .task_list = t_list, .request = t_request,
                    .lock = &t_lock, .tail = &t_tail};
    for (int b = 0; b < HALO_MAX_BLOCKS; b++)
        t_list[b] = t_request[b] = 55; /* garbage that tq_reset must clear */
    tq.front = 5;
    tq_reset(&tq);
    t_lock = -1; /* the launch's part */
    t_tail = 0;
    return tq;
}

static void assert_reset(const taskqueue *tq)
{
    for (int b = 0; b < tq->num_blocks; b++)
        ck_assert_msg(tq->task_list[b] == TQ_EMPTY && tq->request[b] == 0,
                      "after tq_reset: task_list[%d] = %d, request[%d] = %d; expected TQ_EMPTY (-1) and 0", b,
                      tq->task_list[b], b, tq->request[b]);
    ck_assert_msg(tq->front == 0, "after tq_reset: front = %d; expected 0", tq->front);
}

static void expect_polls(taskqueue *tq, const int *want, int n, const char *variant)
{
    for (int i = 0; i < n; i++) {
        int got = tq_cpu_poll_task(tq);
        ck_assert_msg(got == want[i], "%s: poll %d returned %d; expected %d", variant, i, got, want[i]);
    }
    for (int i = 0; i < 2; i++) {
        int got = tq_cpu_poll_task(tq);
        ck_assert_msg(got == TQ_EMPTY, "%s: poll after the %d tasks returned %d; expected TQ_EMPTY (-1)", variant, n,
                      got);
    }
}

START_TEST(taskqueue_one_thread)
{
    taskqueue tq = fresh_queue(9, 0);
    assert_reset(&tq);
    ck_assert_msg(tq_cpu_poll_task(&tq) == TQ_EMPTY, "queue with a lock: a poll of an empty queue must give TQ_EMPTY");
    int fifo[3] = {5, 2, 8};
    for (int i = 0; i < 3; i++)
        tq_host_push_task(&tq, fifo[i]);
    ck_assert_msg(t_tail == 3 && t_lock == -1, "queue with a lock after 3 pushes: tail %d, lock %d; expected 3, -1",
                  t_tail, t_lock);
    expect_polls(&tq, fifo, 3, "queue with a lock (FIFO)");
    tq_reset(&tq);
    assert_reset(&tq);

    tq = fresh_queue(9, 1);
    ck_assert_msg(tq_cpu_poll_task(&tq) == TQ_EMPTY, "channel per block: a poll with no task must give TQ_EMPTY");
    tq_host_push_task(&tq, 8);
    tq_host_push_task(&tq, 2);
    tq_host_push_task(&tq, 5);
    int lowest[3] = {2, 5, 8};
    expect_polls(&tq, lowest, 3, "channel per block (lowest id first)");
    tq_reset(&tq);
    assert_reset(&tq);
    tq_host_push_task(&tq, 0);
    int zero[1] = {0};
    expect_polls(&tq, zero, 1, "channel per block after tq_reset");
}
END_TEST

static atomic_int waiter_done;
static taskqueue wait_tq;

static void *waiter(void *arg)
{
    (void)arg;
    tq_host_wait(&wait_tq, 3, TQ_BIT_RECV);
    atomic_store(&waiter_done, 1);
    return NULL;
}

START_TEST(notification_bits)
{
    wait_tq = fresh_queue(9, 1);
    tq_cpu_notify(&wait_tq, 3, TQ_BIT_H2D);
    ck_assert_msg(t_request[3] == TQ_BIT_H2D && t_request[2] == 0 && t_request[4] == 0,
                  "tq_cpu_notify(block 3, TQ_BIT_H2D): request[2..4] = %d %d %d; expected 0 1 0", t_request[2],
                  t_request[3], t_request[4]);
    tq_host_wait(&wait_tq, 3, TQ_BIT_H2D); /* set: returns */
    pthread_t t;
    atomic_store(&waiter_done, 0);
    ck_assert(pthread_create(&t, NULL, waiter, NULL) == 0);
    nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
    int early = atomic_load(&waiter_done);
    tq_cpu_notify(&wait_tq, 3, TQ_BIT_RECV);
    pthread_join(t, NULL);
    ck_assert_msg(!early, "tq_host_wait(block 3, TQ_BIT_RECV) returned while only TQ_BIT_H2D was set");
    ck_assert_msg(t_request[3] == (TQ_BIT_H2D | TQ_BIT_RECV),
                  "after both notifications request[3] = %d; expected %d (the bits are ORed, not overwritten)",
                  t_request[3], TQ_BIT_H2D | TQ_BIT_RECV);
}
END_TEST

/* ---- stage 6: the memcpy variant's state machine ---- */

START_TEST(memcpy_state_machine)
{
    /* the legal path: H2D done (+1), task (+2), D2H done (+4) */
    int s = 0;
    static const memcpy_event path[3] = {MC_H2D_DONE, MC_TASK, MC_D2H_DONE};
    static const int after[3] = {1, 3, 7};
    for (int k = 0; k < 3; k++) {
        int next = memcpy_state_step(s, path[k]);
        ck_assert_msg(next == after[k], "memcpy_state_step(%d, event %d) = %d; expected %d", s, (int)path[k], next,
                      after[k]);
        s = next;
    }
    /* every other (state, event) pair is illegal */
    static const int states[4] = {0, 1, 3, 7};
    for (int i = 0; i < 4; i++)
        for (int e = 0; e < 3; e++)
            if (!(i < 3 && e == i))
                ck_assert_msg(memcpy_state_step(states[i], (memcpy_event)e) == -1,
                              "memcpy_state_step(%d, event %d) = %d; expected -1 (not the next step)", states[i], e,
                              memcpy_state_step(states[i], (memcpy_event)e));
    ck_assert_msg(memcpy_state_step(2, MC_TASK) == -1 && memcpy_state_step(-1, MC_H2D_DONE) == -1,
                  "memcpy_state_step of states 2 and -1 (never reached) must be -1");
    for (int st = -1; st <= 7; st++) {
        int want = st == 0 || st == 3; /* a copy in flight */
        ck_assert_msg(memcpy_state_needs_query(st) == want, "memcpy_state_needs_query(%d) = %d; expected %d", st,
                      memcpy_state_needs_query(st), want);
    }
}
END_TEST

/* ---- stage 4, many threads ---- */

static const ag_launch taskqueue_27_threads[] = {
    {"lab6_tq_stress", 0, "27 150", 100},
    {NULL},
};

/* The memory orders the contract names (release posts and notifications,
 * acquire reads, the lock taken with acquire and freed with release), as
 * the code asks for them: on x86 a relaxed order runs like the right one,
 * and ThreadSanitizer misses a lock taken with a relaxed compare-and-swap
 * (labs/lab6-halo-taskqueue/tests/orders/). */
static const ag_launch taskqueue_memory_orders[] = {
    {"lab6_tq_orders", 0, "", 30},
    {NULL},
};

static const ag_launch taskqueue_thread_sanitizer[] = {
    {"lab6_tq_stress_tsan", 0, "27 12", 150},
    {NULL},
};

/* ---- stage 3 and 4 end to end on the host backend ---- */

static const ag_launch testany_order[] = {
    {"lab6_mpi_check", 2, "host testany", 60},
    {NULL},
};

/* 9 blocks at 1/10 (8 B to 96 kB: eager and rendezvous), 27 at 1/100. */
static const ag_launch baseline_two_ranks[] = {
    {"lab6_mpi_check", 2, "host baseline 3 9:1/10:pair 27:1/100:pair", 120},
    {NULL},
};

static const ag_launch baseline_four_ranks[] = {
    {"lab6_mpi_check", 4, "host baseline 2 27:1/1000:fig26 9:1/100:ring", 120},
    {NULL},
};

static const ag_launch taskqueue_two_ranks[] = {
    {"lab6_mpi_check", 2, "host tq 3 9:1/10:pair 27:1/100:pair", 120},
    {NULL},
};

static const ag_launch taskqueue_four_ranks[] = {
    {"lab6_mpi_check", 4, "host tq 2 27:1/1000:fig26 9:1/100:ring", 120},
    {NULL},
};

/* ---- stage 5: CUDA ---- */

/* One case of stage 5's pack and unpack kernels: its blocks, their sizes
 * and threads, and the flaws put into the receive buffers: a wrong element
 * that no thread samples, a NaN where a thread samples, and a stale last
 * element (the previous iteration's sentinel), unsampled. */
typedef struct {
    int blocks, threads;
    const size_t *sizes;
    int unsampled_block, nan_block, stale_block;
    size_t unsampled_at, nan_at;
} pack_unpack_case;

/* Packs with GPU_global_Write, checks every element here; then unpacks
 * buffers with known flaws and demands GPU_global_Read's counts. */
static void check_gpu_pack_unpack(const pack_unpack_case *c)
{
    ck_assert_msg(halo_cuda_init(0) == 0, "halo_cuda_init(0) failed");
    halo_layer L;
    ck_assert_msg(halo_layer_init(&L, c->blocks, c->threads, 0, 1, c->sizes, HALO_PAT_SELF, &halo_cuda_backend) == 0,
                  "halo_layer_init with the CUDA backend failed (halo_cuda_alloc_shared?)");
    for (int it = 3; it <= 4; it++) {
        ck_assert_msg(halo_cuda_launch_pack(&L, it) == 0 && halo_cuda_synchronize() == 0, "the pack launch failed");
        for (int b = 0; b < c->blocks; b++)
            for (size_t i = 0; i < L.sizes[b]; i++)
                ck_assert_msg(L.send_buf[b][i] == l6_sentinel(it, 0, b),
                              "GPU_global_Write, iteration %d, block %d, element %zu of %zu: expected %.0f, got %.17g",
                              it, b, i, L.sizes[b], l6_sentinel(it, 0, b), L.send_buf[b][i]);
    }
    for (int full = 1; full >= 0; full--) {
        L.full_check = full;
        for (int b = 0; b < c->blocks; b++) {
            l6_fill(L.recv_buf[b], L.sizes[b], l6_sentinel(4, 0, b));
            L.unpack_errors[b] = 0xdead;
        }
        L.recv_buf[c->unsampled_block][c->unsampled_at] = -1;
        L.recv_buf[c->nan_block][c->nan_at] = NAN;
        L.recv_buf[c->stale_block][L.sizes[c->stale_block] - 1] = l6_sentinel(3, 0, c->stale_block);
        ck_assert_msg(halo_cuda_launch_unpack(&L, 4) == 0 && halo_cuda_synchronize() == 0, "the unpack launch failed");
        for (int b = 0; b < c->blocks; b++) {
            unsigned want = full ? (b == c->unsampled_block || b == c->nan_block || b == c->stale_block)
                                 : b == c->nan_block;
            ck_assert_msg(L.unpack_errors[b] == want,
                          "GPU_global_Read (%s check), block %d: counted %u mismatches; expected %u", full ? "full" : "sampled",
                          b, L.unpack_errors[b], want);
        }
    }
    halo_layer_free(&L);
}

/* Table 4.1, 128 threads. Block 5: 75000 doubles, 128 threads sample every
 * 585th; 586 is no sample. Block 7: 105000 / 128 = 820; 2460 is thread 3's
 * sample. Block 26: its last element, 129999. */
static const pack_unpack_case table41_case = {27, 128, l6_table41, 5, 7, 26, 586, 2460};

START_TEST(gpu_pack_unpack) { check_gpu_pack_unpack(&table41_case); }
END_TEST

/* The CUDA toolkit's checkers (autograder/cuda/compute_sanitizer.h): the
 * pack and the unpack under memcheck, on 9 blocks (a grid of 3 x 3) of 100
 * threads (the last warp part full), of sizes smaller than, equal to and
 * just past the block and not a multiple of it. Block 6: 1000 doubles,
 * every 10th sampled, 31 is not; block 7: 1031 doubles, 50 is thread 5's
 * sample; block 8: 4099 doubles, its last unsampled. */
static const size_t sanitized_sizes[9] = {1, 7, 99, 100, 101, 257, 1000, 1031, 4099};
static const pack_unpack_case sanitized_case = {9, 100, sanitized_sizes, 6, 7, 8, 31, 50};

static void pack_unpack_small_case(void) { check_gpu_pack_unpack(&sanitized_case); }

static const ag_sanitized_case gpu_memcheck = {"gpu_memcheck", "memcheck", pack_unpack_small_case};

START_TEST(gpu_coresidency_guard)
{
    ck_assert_msg(halo_cuda_init(0) == 0, "halo_cuda_init(0) failed");
    int dev = 0, sms = 0, per_sm_threads = 0;
    ck_assert(cudaGetDevice(&dev) == cudaSuccess);
    ck_assert(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess);
    ck_assert(cudaDeviceGetAttribute(&per_sm_threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev) == cudaSuccess);
    ck_assert_msg(halo_cuda_tq_fits(27, 128) == 1 && halo_cuda_tq_fits(1, 1024) == 1,
                  "halo_cuda_tq_fits refuses 27 x 128 or 1 x 1024 threads, which fit on any GPU of the kit");
    /* an SM holds at most per_sm_threads / 1024 blocks of 1024 threads */
    int too_many = sms * (per_sm_threads / 1024) + 1;
    ck_assert_msg(halo_cuda_tq_fits(too_many, 1024) == 0,
                  "halo_cuda_tq_fits(%d blocks, 1024 threads) = 1, but %d SMs of %d threads hold at most %d such "
                  "blocks: the spinning kernel would hang",
                  too_many, sms, per_sm_threads, too_many - 1);
    ck_assert_msg(halo_cuda_tq_fits(0, 128) == 0 && halo_cuda_tq_fits(27, 2048) == 0,
                  "halo_cuda_tq_fits must refuse 0 blocks and 2048 threads per block");
}
END_TEST

static const ag_launch gpu_baseline[] = {
    {"lab6_mpi_check", 1, "cuda baseline 3 27:1/1:self:128 9:1/1000:self:16", 120},
    /* two ranks on one GPU: fine for the baseline, whose kernels end */
    {"lab6_mpi_check", 2, "cuda baseline 3 27:1/1:pair:128", 120},
    {NULL},
};

/* np = 1 on the self pattern: full Table 4.1 sizes, then 1000 iterations
 * at small sizes as a memory-ordering stress. */
static const ag_launch gpu_taskqueue_self[] = {
    {"lab6_mpi_check", 1, "cuda tq 3 27:1/1:self:128 9:1/1:self:128", 120},
    {"lab6_mpi_check", 1, "cuda tq 1000 9:1/1000:self:32", 240},
    {NULL},
};

static const ag_launch gpu_two_ranks[] = {
    {"lab6_mpi_check", 2, "cuda baseline 3 27:1/1:pair:128", 120},
    {"lab6_mpi_check", 2, "cuda tq 3 27:1/1:pair:128 9:1/10:pair:128", 120},
    {"lab6_mpi_check", 2, "cuda tq 1000 9:1/1000:pair:32", 240},
    {NULL},
};

static void register_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = sizes_table41, .points = 1});
    ag_add(s, (ag_spec){.test = sentinel_values, .points = 1});
    ag_add(s, (ag_spec){.test = block_ids, .points = 1});
    ag_add(s, (ag_spec){.test = partners_patterns, .points = 2});
    ag_add(s, (ag_spec){.test = strided_pack_covers_once, .points = 1});
    ag_add(s, (ag_spec){.test = sample_index, .points = 1});
    ag_add(s, (ag_spec){.test = unpack_check_catches, .points = 2});
    ag_add(s, (ag_spec){AG_LAUNCHES(testany_order), .points = 1, .timeout = 70});
    ag_add(s, (ag_spec){AG_LAUNCHES(baseline_two_ranks), .points = 2, .timeout = 130});
    ag_add(s, (ag_spec){AG_LAUNCHES(baseline_four_ranks), .points = 2, .timeout = 130});
    ag_add(s, (ag_spec){.test = taskqueue_one_thread, .points = 2});
    ag_add(s, (ag_spec){.test = notification_bits, .points = 1});
    ag_add(s, (ag_spec){.test = memcpy_state_machine, .points = 1});
    ag_add(s, (ag_spec){AG_LAUNCHES(taskqueue_27_threads), .points = 2, .timeout = 110});
    ag_add(s, (ag_spec){AG_LAUNCHES(taskqueue_thread_sanitizer), .points = 1, .timeout = 160});
    ag_add(s, (ag_spec){AG_LAUNCHES(taskqueue_memory_orders), .points = 1, .timeout = 40});
    ag_add(s, (ag_spec){AG_LAUNCHES(taskqueue_two_ranks), .points = 3, .timeout = 130});
    ag_add(s, (ag_spec){AG_LAUNCHES(taskqueue_four_ranks), .points = 2, .timeout = 130});
    ag_add(s, (ag_spec){.test = gpu_pack_unpack, .points = 2, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){.test = gpu_coresidency_guard, .points = 1, .gpus = 1, .timeout = 30});
    ag_add(s, (ag_spec){AG_LAUNCHES(gpu_baseline), .points = 2, .gpus = 1, .timeout = 250});
    ag_add(s, (ag_spec){AG_LAUNCHES(gpu_taskqueue_self), .points = 3, .gpus = 1, .timeout = 370});
    ag_add(s, (ag_spec){AG_LAUNCHES(gpu_two_ranks), .points = 3, .gpus = 2, .timeout = 490});
    ag_add(s, (ag_spec){AG_SANITIZED(gpu_memcheck), .points = 1});
}

int main(int argc, char **argv)
{
    return ag_main(argc, argv, register_tests);
}
