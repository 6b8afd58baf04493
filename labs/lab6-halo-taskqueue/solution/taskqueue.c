/* Lab 6, stage 4: the taskqueue protocol on the CPU (reference).
 *
 * The arrays are plain ints, shared with CUDA code; C11 atomics reach them
 * through _Atomic int pointers (same size and representation as int on
 * every platform the kit supports). Acquire on every load that tells "the
 * other side is done", release on every store that says "I am done". */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "halo.h"

static _Atomic int *atomic_int_at(int *p)
{
    return (_Atomic int *)p;
}

int tq_cpu_poll_task(taskqueue *tq)
{
    if (!tq->lockfree) {
        if (tq->front >= tq->num_blocks)
            return TQ_EMPTY;
        int block = atomic_load_explicit(atomic_int_at(&tq->task_list[tq->front]), memory_order_acquire);
        if (block != TQ_EMPTY)
            tq->front++;
        return block;
    }
    for (int b = 0; b < tq->num_blocks; b++)
        if (atomic_load_explicit(atomic_int_at(&tq->task_list[b]), memory_order_acquire) == 1) {
            /* taken: block b posts once per iteration, so nobody else writes it now */
            atomic_store_explicit(atomic_int_at(&tq->task_list[b]), 0, memory_order_relaxed);
            return b;
        }
    return TQ_EMPTY;
}

void tq_cpu_notify(taskqueue *tq, int block, int bits)
{
    atomic_fetch_or_explicit(atomic_int_at(&tq->request[block]), bits, memory_order_release);
}

void tq_reset(taskqueue *tq)
{
    for (int b = 0; b < tq->num_blocks; b++) {
        atomic_store_explicit(atomic_int_at(&tq->task_list[b]), TQ_EMPTY, memory_order_relaxed);
        atomic_store_explicit(atomic_int_at(&tq->request[b]), 0, memory_order_relaxed);
    }
    tq->front = 0;
}

void tq_host_push_task(taskqueue *tq, int block)
{
    if (tq->lockfree) {
        /* the release orders the whole pack before the flag */
        atomic_store_explicit(atomic_int_at(&tq->task_list[block]), 1, memory_order_release);
        return;
    }
    int expected = -1;
    while (!atomic_compare_exchange_weak_explicit(atomic_int_at(tq->lock), &expected, block, memory_order_acquire,
                                                  memory_order_relaxed)) {
        expected = -1;
        sched_yield(); /* 27 "blocks" on 2 cores: let the owner run */
    }
    int slot = atomic_load_explicit(atomic_int_at(tq->tail), memory_order_relaxed);
    atomic_store_explicit(atomic_int_at(&tq->task_list[slot]), block, memory_order_release);
    atomic_store_explicit(atomic_int_at(tq->tail), slot + 1, memory_order_relaxed);
    atomic_store_explicit(atomic_int_at(tq->lock), -1, memory_order_release);
}

void tq_host_wait(taskqueue *tq, int block, int bit)
{
    /* Yield first (the answer is usually near), then back off: 27 waiting
     * blocks that only yield still keep two cores busy for nothing. */
    for (int spins = 0; !(atomic_load_explicit(atomic_int_at(&tq->request[block]), memory_order_acquire) & bit);
         spins++) {
        if (spins < 64)
            sched_yield();
        else
            nanosleep(&(struct timespec){.tv_nsec = 20000}, NULL);
    }
}

int memcpy_state_step(int state, memcpy_event ev)
{
    /* the one legal event of each state, and the bit it adds */
    switch (state) {
    case 0:
        return ev == MC_H2D_DONE ? 1 : -1;
    case 1:
        return ev == MC_TASK ? 3 : -1;
    case 3:
        return ev == MC_D2H_DONE ? 7 : -1;
    default:
        return -1;
    }
}

int memcpy_state_needs_query(int state)
{
    return state == 0 || state == 3;
}
