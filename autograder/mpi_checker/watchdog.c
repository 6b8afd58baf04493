/* The MPI checkers' deadlock watchdog: see mpi_checker.h and watchdog.h.
 *
 * A small segment of shared memory holds, per rank, since when it has been
 * waiting (ns of CLOCK_MONOTONIC, one clock for every process of the
 * machine; 0: working), and for the whole job the current case's start,
 * its hard limit and whether the job is being stopped. Every rank runs a
 * thread that looks at all of it every 200 ms: the job survives the death
 * of any one rank's thread, and the first to see a deadlock stops it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "mpi_chaos.h"
#include "mpi_checker.h"
#include "stuck.h"
#include "watchdog.h"

typedef struct {
    _Atomic int64_t case_start, case_limit_ns; /* written by rank 0 */
    atomic_int stopping;
    _Atomic uint64_t sync_sends; /* bit r: rank r waits in a send made synchronous by chaos (ranks 0-63) */
    _Atomic int64_t waiting_since[]; /* per rank */
} shared_slots;

static shared_slots *slots;
static int my_rank, nranks;
static char current[200] = "before the first case";
static long (*_Atomic progress_fn)(void);
/* AG_CHECKER_SECONDS (the test's limit for the whole run, autograder/runner/launch.c): the
 * job stops itself shortly before it, saying where each rank was, before
 * timeout(1) ends mpirun (which ends the ranks with no word). */
static int64_t job_deadline;

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void watchdog_wait_begin(void)
{
    if (!slots || atomic_load(&progress_fn))
        return; /* with a progress count, the last sign of life already counts */
    int64_t zero = 0;
    atomic_compare_exchange_strong(&slots->waiting_since[my_rank], &zero, now_ns());
}

void watchdog_wait_end(int completed)
{
    if (slots && completed)
        atomic_store(&slots->waiting_since[my_rank], atomic_load(&progress_fn) ? now_ns() : 0);
}

void watchdog_sync_sends(int on)
{
    if (!slots || my_rank >= 64)
        return;
    if (on)
        atomic_fetch_or(&slots->sync_sends, 1ull << my_rank);
    else
        atomic_fetch_and(&slots->sync_sends, ~(1ull << my_rank));
}

/* A deadlock's message; under chaos, with the ranks whose sends chaos made
 * synchronous (the standard lets a standard-mode send wait for its receive). */
static void stop_deadlocked(void)
{
    char why[900];
    int n = snprintf(why, sizeof why,
                     "a deadlock: every rank has waited for seconds with nothing completing (a receive that no send "
                     "matches? a collective or barrier that a rank never calls? a lost task?)");
    uint64_t sync = atomic_load(&slots->sync_sends);
    if (sync) {
        n += snprintf(why + n, sizeof why - (size_t)n, "; under chaos seed %lu, MPI_Send/MPI_Isend of rank%s",
                      chaos_seed(), sync & (sync - 1) ? "s" : "");
        for (int r = 0, first = 1; r < 64 && n < (int)sizeof why - 200; r++)
            if (sync >> r & 1) {
                n += snprintf(why + n, sizeof why - (size_t)n, "%s %d", first ? "" : ",", r);
                first = 0;
            }
        snprintf(why + n, sizeof why - (size_t)n,
                 " waited for its matching receive, as the MPI standard lets a standard-mode send do (MPI_Ssend): "
                 "the code relies on MPI buffering the message (a send before the receive on every side, or a "
                 "receive posted only after the matching send's wait), which large messages never get");
    }
    watchdog_stop(why);
}

void watchdog_stop(const char *why)
{
    if (slots && atomic_exchange(&slots->stopping, 1))
        for (;;)
            pause(); /* another rank is stopping the job */
    char msg[1200];
    int n = snprintf(msg, sizeof msg, "FAIL TIMEOUT: %s: %s\n", current, why);
    if (write(STDOUT_FILENO, msg, (size_t)n) < 0)
        _exit(3);
    _exit(3); /* mpirun then ends the other ranks */
}

static void *watch(void *arg)
{
    (void)arg;
    long seen = 0;
    for (;;) {
        usleep(200000);
        long (*progress)(void) = atomic_load(&progress_fn);
        if (progress) {
            long now_count = progress();
            if (now_count != seen)
                atomic_store(&slots->waiting_since[my_rank], now_ns());
            seen = now_count;
        }
        int64_t start = atomic_load(&slots->case_start), t = now_ns(), newest = 0;
        if (!start)
            continue; /* between cases */
        if (t - start > atomic_load(&slots->case_limit_ns)) {
            stuck_record_now(); /* where this rank's code was: the test names it */
            watchdog_stop("no end within the case's time limit (an endless loop, or far too slow)");
        }
        if (job_deadline && t > job_deadline) {
            stuck_record_now();
            watchdog_stop("no end within the test's time limit (an endless loop, or far too slow)");
        }
        int all_waiting = 1;
        for (int r = 0; r < nranks && all_waiting; r++) {
            int64_t w = atomic_load(&slots->waiting_since[r]);
            all_waiting = w != 0;
            newest = w > newest ? w : newest;
        }
        if (all_waiting && t - newest > (int64_t)(CHECKER_IDLE_S * 1e9))
            stop_deadlocked();
    }
    return NULL;
}

void watchdog_start(int rank, int np)
{
    char name[64] = "";
    my_rank = rank, nranks = np;
    const char *seconds = getenv("AG_CHECKER_SECONDS");
    if (seconds && atof(seconds) > 3)
        job_deadline = now_ns() + (int64_t)((atof(seconds) - 2) * 1e9);
    if (rank == 0)
        snprintf(name, sizeof name, "/kit_watchdog_%ld_%ld", (long)getpid(), (long)(now_ns() % 1000000));
    PMPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    size_t bytes = sizeof(shared_slots) + (size_t)np * sizeof(int64_t);
    int fd = rank == 0 ? shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600) : -1;
    if (rank == 0 && fd >= 0 && ftruncate(fd, (off_t)bytes) != 0) /* zero-filled */
        fd = -1;
    PMPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0)
        fd = shm_open(name, O_RDWR, 0600);
    void *p = fd >= 0 ? mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (fd >= 0)
        close(fd);
    PMPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        shm_unlink(name);
    int mapped = p != MAP_FAILED, everywhere = 0;
    PMPI_Allreduce(&mapped, &everywhere, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!everywhere) { /* ranks on several machines: no watchdog, mpirun's limit only */
        if (rank == 0)
            fprintf(stderr, "note: no shared memory for the deadlock watchdog (%s)\n", name);
        return;
    }
    slots = p;
    pthread_t th;
    if (pthread_create(&th, NULL, watch, NULL) == 0)
        pthread_detach(th);
    PMPI_Barrier(MPI_COMM_WORLD);
}

void checker_case(const char *what, double hard_limit_s)
{
    snprintf(current, sizeof current, "%s", what);
    if (!slots)
        return;
    atomic_store(&slots->waiting_since[my_rank], 0);
    if (my_rank == 0) {
        atomic_store(&slots->case_limit_ns, (int64_t)(hard_limit_s * 1e9));
        atomic_store(&slots->case_start, now_ns());
    }
}

void checker_case_progress(long (*progress)(void))
{
    if (slots)
        atomic_store(&slots->waiting_since[my_rank], now_ns());
    atomic_store(&progress_fn, progress);
}

void checker_case_end(void)
{
    atomic_store(&progress_fn, NULL);
    if (!slots)
        return;
    atomic_store(&slots->waiting_since[my_rank], 0);
    if (my_rank == 0)
        atomic_store(&slots->case_start, 0);
}
