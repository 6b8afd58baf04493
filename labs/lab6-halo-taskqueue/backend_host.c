/* Lab 6: the host backend (given): OpenMP threads play the GPU blocks, one
 * thread per block, each running the block's thread loop for tid = 0 ..
 * num_threads - 1 in turn.
 *
 * A launch starts a launcher thread and returns at once, as a kernel launch
 * does; the launcher opens the parallel region, and synchronize joins it.
 * Only the main thread calls MPI. The blocks use your taskqueue.c's host
 * side (tq_host_push_task, tq_host_wait): C11 atomics where a GPU uses
 * __threadfence_system() and volatile loads. */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "halo.h"

/* A kernel takes some microseconds to start: the CPU is ahead of the blocks,
 * and code that does not wait for them is caught doing so. */
#define HOST_LAUNCH_LATENCY_NS 200000L

typedef enum { JOB_PACK, JOB_UNPACK, JOB_TQ } job_kind;

static struct {
    job_kind kind;
    halo_layer *L;
    taskqueue *tq;
    int iteration;
    atomic_int failed;
} job;
static pthread_t launcher;
static int running;

static int host_init(int rank)
{
    (void)rank;
    return 0;
}

static void *host_alloc_shared(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        fprintf(stderr, "host backend: cannot allocate %zu bytes\n", bytes);
    return p;
}

static void host_free_shared(void *p)
{
    free(p);
}

static int host_tq_init(taskqueue *tq, int num_blocks, int lockfree)
{
    *tq = (taskqueue){.num_blocks = num_blocks, .lockfree = lockfree};
    tq->task_list = host_alloc_shared(num_blocks * sizeof(int));
    tq->request = host_alloc_shared(num_blocks * sizeof(int));
    tq->lock = host_alloc_shared(sizeof(int));
    tq->tail = host_alloc_shared(sizeof(int));
    if (!tq->task_list || !tq->request || !tq->lock || !tq->tail)
        return -1;
    tq_reset(tq);
    *tq->lock = -1;
    *tq->tail = 0;
    return 0;
}

static void host_tq_free(taskqueue *tq)
{
    free(tq->task_list);
    free(tq->request);
    free(tq->lock);
    free(tq->tail);
    *tq = (taskqueue){0};
}

static void pack_block(const halo_layer *L, int b, int iteration)
{
    halo_log(HL_STARTED, b);
    double value = halo_msg_value(iteration, L->rank, b);
    for (int t = 0; t < L->num_threads; t++)
        halo_pack_thread(L->send_buf[b], L->sizes[b], value, t, L->num_threads);
    halo_log(HL_PACKED, b);
}

static void unpack_block(const halo_layer *L, int b, int iteration)
{
    halo_log(HL_UNPACK, b);
    double expected = halo_msg_value(iteration, L->recv_from[b], b);
    L->unpack_errors[b] = (unsigned)halo_unpack_check(L->recv_buf[b], L->sizes[b], expected, L->num_threads,
                                                      L->full_check);
}

static void *run_job(void *arg)
{
    (void)arg;
    nanosleep(&(struct timespec){.tv_nsec = HOST_LAUNCH_LATENCY_NS}, NULL);
    halo_layer *L = job.L;
    int nb = L->num_blocks;
#pragma omp parallel num_threads(nb)
    {
        int b = omp_get_thread_num();
        if (omp_get_num_threads() != nb) {
            /* not every block is running: a spinning block could wait forever */
            if (b == 0)
                fprintf(stderr, "host backend: %d blocks asked for, OpenMP gave %d threads\n", nb,
                        omp_get_num_threads());
            atomic_store(&job.failed, 1);
        } else if (job.kind == JOB_PACK) {
            pack_block(L, b, job.iteration);
        } else if (job.kind == JOB_UNPACK) {
            unpack_block(L, b, job.iteration);
        } else {
            /* the persistent kernel: pack, push, wait, unpack */
            pack_block(L, b, job.iteration);
            tq_host_push_task(job.tq, b);
            halo_log(HL_TASK, b);
            tq_host_wait(job.tq, b, TQ_BIT_RECV);
            unpack_block(L, b, job.iteration);
        }
    }
    return NULL;
}

static int launch(job_kind kind, halo_layer *L, taskqueue *tq, int iteration)
{
    if (running) {
        fprintf(stderr, "host backend: a launch while the previous one runs (synchronize first)\n");
        return -1;
    }
    if (L->num_blocks > omp_get_thread_limit()) {
        fprintf(stderr, "host backend: %d blocks cannot all run at once (OMP_THREAD_LIMIT=%d)\n", L->num_blocks,
                omp_get_thread_limit());
        return -1;
    }
    job.kind = kind;
    job.L = L;
    job.tq = tq;
    job.iteration = iteration;
    atomic_store(&job.failed, 0);
    if (pthread_create(&launcher, NULL, run_job, NULL)) {
        fprintf(stderr, "host backend: pthread_create failed\n");
        return -1;
    }
    running = 1;
    return 0;
}

static int host_launch_pack(halo_layer *L, int iteration)
{
    return launch(JOB_PACK, L, NULL, iteration);
}

static int host_launch_unpack(halo_layer *L, int iteration)
{
    return launch(JOB_UNPACK, L, NULL, iteration);
}

static int host_launch_tq(halo_layer *L, taskqueue *tq, int iteration)
{
    /* halo.h's reset scheme: the launch resets lock and tail, before any block runs */
    *tq->lock = -1;
    *tq->tail = 0;
    return launch(JOB_TQ, L, tq, iteration);
}

static int host_synchronize(void)
{
    if (!running)
        return 0;
    running = 0;
    if (pthread_join(launcher, NULL)) {
        fprintf(stderr, "host backend: pthread_join failed\n");
        return -1;
    }
    return atomic_load(&job.failed) ? -1 : 0;
}

/* One line per job: the device (and the wait for it), shared memory, the
 * taskqueue's arrays, the launches. */
const halo_backend halo_host_backend = {
    .name = "host", .init = host_init, .synchronize = host_synchronize,
    .alloc_shared = host_alloc_shared, .free_shared = host_free_shared,
    .tq_init = host_tq_init, .tq_free = host_tq_free,
    .launch_pack = host_launch_pack, .launch_unpack = host_launch_unpack, .launch_tq = host_launch_tq,
};
