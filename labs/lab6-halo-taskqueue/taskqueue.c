/* Lab 6, stage 4: the taskqueue protocol on the CPU. Yours to write
 * (halo.h): C11 atomics (<stdatomic.h>) on the shared ints, acquire where
 * you learn that the other side is done, release where you say you are;
 * every spin yields (sched_yield), or 27 "blocks" on 2 cores crawl. */
#include "halo.h"

int tq_cpu_poll_task(taskqueue *tq)
{
    /* TODO: the queue's front, or the lowest set channel; consume it. */
    (void)tq;
    return TQ_EMPTY;
}

void tq_cpu_notify(taskqueue *tq, int block, int bits)
{
    /* TODO */
    (void)tq;
    (void)block;
    (void)bits;
}

void tq_reset(taskqueue *tq)
{
    /* TODO: the CPU's part of the reset scheme (halo.h). */
    (void)tq;
}

void tq_host_push_task(taskqueue *tq, int block)
{
    /* TODO: lock, slot, tail, unlock; or the block's own channel. */
    (void)tq;
    (void)block;
}

void tq_host_wait(taskqueue *tq, int block, int bit)
{
    /* TODO: spin (yielding) until request[block] has bit. */
    (void)tq;
    (void)block;
    (void)bit;
}

int memcpy_state_step(int state, memcpy_event ev)
{
    /* TODO (stage 6): 0 -> 1 -> 3 -> 7, -1 for anything else. */
    (void)state;
    (void)ev;
    return -1;
}

int memcpy_state_needs_query(int state)
{
    /* TODO (stage 6) */
    (void)state;
    return -1;
}
