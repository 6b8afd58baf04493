/* Lab 6: the memory orders halo.h's taskqueue contract names, checked in
 * the student's taskqueue.c as written (tq_order_probe.h logs every C11
 * atomic it makes). Run by the suite through ag_run_program; one thread
 * calls each function on one path and the log of that call is read:
 *   tq_host_push_task  posts the task with release (the CPU must see the
 *                      whole pack), and with the lock: takes it with
 *                      acquire, frees it with release;
 *   tq_cpu_poll_task   reads the posted task with acquire;
 *   tq_cpu_notify      sets the bits with release;
 *   tq_host_wait       reads the bits it returns on with acquire.
 * A fence of the same strength in the same call counts (a release fence
 * before a relaxed store, an acquire fence after a relaxed load). Prints
 * "FAIL ..." for each wrong order and exits 1, else reports the end of its
 * checks (checker_report) and exits 0. */
#include <stdarg.h>
#include <stdio.h>

#include "mpi_checker/completion.h"
#include "halo.h"
#include "tq_order_probe.h"

#define MAX_EVENTS 4096

typedef struct {
    const volatile void *addr;
    tq_probe_kind kind;
    int order;
} event;

static event log_[MAX_EVENTS];
static int count, overflow, failures;

int tq_probe_note(const volatile void *addr, tq_probe_kind kind, int order)
{
    if (count == MAX_EVENTS)
        overflow = 1;
    else
        log_[count++] = (event){addr, kind, order};
    return 0;
}

static const char *order_name(int o)
{
    static const char *names[6] = {"relaxed", "consume", "acquire", "release", "acq_rel", "seq_cst"};
    return o >= 0 && o < 6 ? names[o] : "an unknown order";
}

/* consume is acquire in every compiler (and asked for as such) */
static int acquires(int o) { return o == __ATOMIC_CONSUME || o == __ATOMIC_ACQUIRE || o == __ATOMIC_ACQ_REL || o == __ATOMIC_SEQ_CST; }
static int releases(int o) { return o == __ATOMIC_RELEASE || o == __ATOMIC_ACQ_REL || o == __ATOMIC_SEQ_CST; }

static int writes(tq_probe_kind k) { return k == TQP_STORE || k == TQP_RMW || k == TQP_CAS_OK; }
static int reads(tq_probe_kind k) { return k == TQP_LOAD || k == TQP_RMW || k == TQP_CAS_OK || k == TQP_CAS_FAILED; }

/* The first (or last) event of the call at addr of a kind is() takes, or -1. */
static int find_at(const volatile void *addr, int (*is)(tq_probe_kind), int first)
{
    for (int k = 0; k < count; k++) {
        int i = first ? k : count - 1 - k;
        if (log_[i].addr == addr && is(log_[i].kind))
            return i;
    }
    return -1;
}

static int fence_between(int from, int to, int (*strong)(int))
{
    for (int i = from; i < to; i++)
        if (log_[i].kind == TQP_FENCE && strong(log_[i].order))
            return 1;
    return 0;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    failures++;
}

/* The write at addr that says "I am done" must release: its own order, or
 * a release fence earlier in the call. */
static void expect_release(const char *call, const volatile void *addr, const char *what, const char *why)
{
    int i = find_at(addr, writes, 0);
    if (i < 0)
        fail("%s: no C11 atomic write to %s seen (a plain or volatile access, or none?): %s must be an atomic "
             "of <stdatomic.h> with memory_order_release or stronger (%s)", call, what, what, why);
    else if (!releases(log_[i].order) && !fence_between(0, i, releases))
        fail("%s: the write to %s is memory_order_%s; the contract asks release or stronger (%s)", call, what,
             order_name(log_[i].order), why);
}

/* The read at addr that says "the other side is done" (the first or the
 * last of its kind in the call) must acquire: its own order, or an acquire
 * fence later in the call. */
static void expect_acquire(const char *call, const volatile void *addr, int (*is)(tq_probe_kind), int first,
                           const char *what, const char *why)
{
    int i = find_at(addr, is, first);
    if (i < 0)
        fail("%s: no C11 atomic read of %s seen (a plain or volatile access, or none?): it must be an atomic of "
             "<stdatomic.h> with memory_order_acquire or stronger (%s)", call, what, why);
    else if (!acquires(log_[i].order) && !fence_between(i + 1, count, acquires))
        fail("%s: the read of %s is memory_order_%s; the contract asks acquire or stronger (%s)", call, what,
             order_name(log_[i].order), why);
}

static int is_cas_ok(tq_probe_kind k) { return k == TQP_CAS_OK || k == TQP_RMW; }

int main(void)
{
    static int task_list[HALO_MAX_BLOCKS], request[HALO_MAX_BLOCKS], lock, tail;
    taskqueue tq = {.num_blocks = 8, .task_list = task_list, .request = request, .lock = &lock, .tail = &tail};

    /* a channel per block: block 3 posts */
    tq.lockfree = 1;
    tq_reset(&tq);
    count = 0;
    tq_host_push_task(&tq, 3);
    expect_release("tq_host_push_task (channel per block)", &task_list[3], "task_list[3], the post of block 3",
                   "the CPU that reads the post must see every write of the block's pack");

    /* the task queue: block 2 takes the free lock, posts at tail 0, frees it */
    tq.lockfree = 0;
    tq_reset(&tq);
    lock = -1, tail = 0;
    count = 0;
    tq_host_push_task(&tq, 2);
    expect_acquire("tq_host_push_task (task queue)", &lock, is_cas_ok, 1, "the lock, as it is taken",
                   "the block must see the queue as the lock's last owner left it");
    expect_release("tq_host_push_task (task queue)", &task_list[0], "task_list[0], the post of block 2",
                   "the CPU that reads the post must see every write of the block's pack");
    expect_release("tq_host_push_task (task queue)", &lock, "the lock, as it is freed",
                   "the lock's next owner must see this owner's tail");

    /* the CPU polls: the queue's front, then the lowest set channel */
    tq_reset(&tq);
    task_list[0] = 5;
    count = 0;
    int got = tq_cpu_poll_task(&tq);
    if (got != 5)
        fail("tq_cpu_poll_task (task queue): returned %d where task_list[0] holds block 5's post", got);
    expect_acquire("tq_cpu_poll_task (task queue)", &task_list[0], reads, 0, "task_list[0], block 5's post",
                   "the CPU must see every write of the block's pack before it sends it");
    tq.lockfree = 1;
    tq_reset(&tq);
    task_list[4] = 1;
    count = 0;
    got = tq_cpu_poll_task(&tq);
    if (got != 4)
        fail("tq_cpu_poll_task (channel per block): returned %d where only channel 4 is set", got);
    expect_acquire("tq_cpu_poll_task (channel per block)", &task_list[4], reads, 0, "task_list[4], block 4's post",
                   "the CPU must see every write of the block's pack before it sends it");

    /* the CPU notifies block 6; block 7 waits for a bit already set */
    tq_reset(&tq);
    count = 0;
    tq_cpu_notify(&tq, 6, TQ_BIT_RECV);
    expect_release("tq_cpu_notify", &request[6], "request[6]",
                   "the block must see the received message the notification announces");
    request[7] = TQ_BIT_RECV;
    count = 0;
    tq_host_wait(&tq, 7, TQ_BIT_RECV);
    expect_acquire("tq_host_wait", &request[7], reads, 0, "request[7], the bit it returns on",
                   "the block must see every write the CPU made before it set the bit");

    if (overflow)
        fail("more than %d atomic operations in one call", MAX_EVENTS);
    if (failures)
        return 1;
    printf("ok the taskqueue's memory orders: release posts, acquire reads, a lock taken with acquire and freed with "
           "release, notifications released and waited for with acquire\n");
    checker_report(0);
    return 0;
}
