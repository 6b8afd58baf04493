/* Lab 6: the task queue under contention (run by the tests, also built with
 * ThreadSanitizer).
 *
 *   lab6_tq_stress BLOCKS ROUNDS
 *
 * Each round, for each variant (queue with a lock, channel per block):
 * BLOCKS threads start at once, each a "block" that writes a payload,
 * posts its task (tq_host_push_task), waits for its notification
 * (tq_host_wait) and then reads the CPU's reply; the main thread polls
 * (tq_cpu_poll_task) and, for each task, reads that block's payload, writes
 * its reply and notifies it (tq_cpu_notify). Payload and reply are plain
 * variables: only the protocol's release and acquire order them, so a
 * missing one is a data race that ThreadSanitizer reports, and a wrong value
 * read here. Every block id must arrive exactly once, within a time limit;
 * then tq_reset, and the next round. Prints FAIL lines and exits 1 on the
 * first wrong round. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_checker/completion.h"
#include "halo.h"

#define ROUND_LIMIT_S 2.0

#ifdef __SANITIZE_THREAD__
/* The first race ends the run: the variant running then is the one that
 * raced (said before it starts), and no "ok" is printed for it. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void) { return "halt_on_error=1"; }
#endif

static taskqueue tq;
static int payload[HALO_MAX_BLOCKS], reply[HALO_MAX_BLOCKS], seen_reply[HALO_MAX_BLOCKS];
static int round_no;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void *block_main(void *arg)
{
    int b = (int)(long)arg;
    payload[b] = 1000 * round_no + b; /* the "pack" */
    tq_host_push_task(&tq, b);
    tq_host_wait(&tq, b, TQ_BIT_RECV);
    seen_reply[b] = reply[b]; /* the "unpack" */
    return NULL;
}

/* One round; returns 0 or prints what went wrong. */
static int one_round(int nb, const char *variant)
{
    pthread_t threads[HALO_MAX_BLOCKS];
    int got[HALO_MAX_BLOCKS] = {0}, received = 0, bad = 0;
    *tq.lock = -1; /* the launch's part of the reset */
    *tq.tail = 0;
    for (int b = 0; b < nb; b++)
        if (pthread_create(&threads[b], NULL, block_main, (void *)(long)b)) {
            fprintf(stderr, "pthread_create failed\n");
            exit(2);
        }
    double deadline = now() + ROUND_LIMIT_S;
    while (received < nb && now() < deadline) {
        int b = tq_cpu_poll_task(&tq);
        if (b == TQ_EMPTY) {
            sched_yield();
            continue;
        }
        if (b < 0 || b >= nb) {
            printf("FAIL %s, round %d: tq_cpu_poll_task returned %d, not a block id in [0, %d) nor TQ_EMPTY\n",
                   variant, round_no, b, nb);
            bad = 1;
            break;
        }
        if (got[b]++) {
            printf("FAIL %s, round %d: block %d's task polled twice\n", variant, round_no, b);
            bad = 1;
            break;
        }
        if (payload[b] != 1000 * round_no + b) {
            printf("FAIL %s, round %d: block %d's task arrived before its data (read %d, expected %d)\n", variant,
                   round_no, b, payload[b], 1000 * round_no + b);
            bad = 1;
        }
        received++;
        reply[b] = 7000 * (round_no + 1) + b;
        tq_cpu_notify(&tq, b, TQ_BIT_RECV);
    }
    if (!bad && received < nb) {
        printf("FAIL %s, round %d: %d of %d tasks arrived within %.0f s; missing:", variant, round_no, received, nb,
               ROUND_LIMIT_S);
        for (int b = 0; b < nb; b++)
            if (!got[b])
                printf(" %d", b);
        /* none at all is a queue that does nothing yet, not a race */
        printf("%s\n", received ? " (a task lost under contention?)"
                                 : " (none arrived: do the queue's functions post and poll yet?)");
        bad = 1;
    }
    if (bad) {
        fflush(stdout);
        _Exit(1); /* blocks may wait forever: do not join them */
    }
    int extra = tq_cpu_poll_task(&tq);
    for (int b = 0; b < nb; b++)
        pthread_join(threads[b], NULL);
    if (extra != TQ_EMPTY) {
        printf("FAIL %s, round %d: a poll after all %d tasks returned %d (expected TQ_EMPTY)\n", variant, round_no, nb,
               extra);
        return 1;
    }
    for (int b = 0; b < nb; b++)
        if (seen_reply[b] != 7000 * (round_no + 1) + b) {
            printf("FAIL %s, round %d: block %d left its wait before the CPU's reply was visible (read %d)\n", variant,
                   round_no, b, seen_reply[b]);
            return 1;
        }
    tq_reset(&tq);
    return 0;
}

int main(int argc, char **argv)
{
    int nb = argc > 1 ? atoi(argv[1]) : 0, rounds = argc > 2 ? atoi(argv[2]) : 0;
    if (nb < 1 || nb > HALO_MAX_BLOCKS || rounds < 1) {
        fprintf(stderr, "usage: %s BLOCKS(1-%d) ROUNDS\n", argv[0], HALO_MAX_BLOCKS);
        return 2;
    }
    static int task_list[HALO_MAX_BLOCKS], request[HALO_MAX_BLOCKS], lock, tail;
    for (int lockfree = 0; lockfree < 2; lockfree++) {
        const char *variant = lockfree ? "channel per block" : "queue with a lock";
        tq = (taskqueue){.num_blocks = nb, .lockfree = lockfree, .task_list = task_list, .request = request,
                         .lock = &lock, .tail = &tail};
        tq_reset(&tq);
#ifdef __SANITIZE_THREAD__
        fprintf(stderr, "lab6_tq_stress: the %s now (a race reported next is in it; the test "
                        "taskqueue_memory_orders names the order each atomic access asks for)\n", variant);
#endif
        for (round_no = 0; round_no < rounds; round_no++)
            if (one_round(nb, variant))
                return 1;
        printf("ok %s: %d blocks, %d rounds, every task exactly once\n", variant, nb, rounds);
        fflush(stdout); /* before a later variant's race ends the run */
    }
    checker_report(0); /* the checks are done: see autograder/mpi_checker/completion.h */
    return 0;
}
