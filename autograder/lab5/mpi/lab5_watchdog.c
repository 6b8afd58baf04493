/* Lab 5's check program: the deadlock watchdog (lab5_watchdog.h). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "lab5_watchdog.h"

/* Per rank: when it entered the blocking call it is in (ns of
 * CLOCK_MONOTONIC, one clock for every process of the machine), 0 when it
 * is outside one. Slot np: when the current case began; slot np+1: its
 * hard limit in ns. */
static volatile int64_t *slot;
static int my_rank, nranks;
static char current[200];

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void watchdog_mpi_enter(void)
{
    if (slot)
        slot[my_rank] = now_ns();
}

void watchdog_mpi_leave(void)
{
    if (slot)
        slot[my_rank] = 0;
}

static void stop(const char *why)
{
    char msg[600];
    int n = snprintf(msg, sizeof msg, "FAIL TIMEOUT: %s: %s\n", current, why);
    if (write(STDOUT_FILENO, msg, (size_t)n) < 0)
        _exit(3);
    _exit(3); /* mpirun then ends the other ranks */
}

static void *watch(void *arg)
{
    (void)arg;
    for (;;) {
        usleep(200000);
        int64_t t = now_ns(), newest = 0;
        if (!slot[nranks])
            continue; /* between cases */
        if (t - slot[nranks] > slot[nranks + 1])
            stop("no end within the case's time limit (an endless loop, or far too slow)");
        int all_blocked = 1;
        for (int r = 0; r < nranks; r++) {
            if (!slot[r])
                all_blocked = 0;
            else if (slot[r] > newest)
                newest = slot[r];
        }
        if (all_blocked && t - newest > (int64_t)(WATCHDOG_IDLE_S * 1e9))
            stop("a deadlock: every rank has waited in a blocking MPI call for seconds (a barrier that another rank "
                 "never calls? a receive that no send matches?)");
    }
    return NULL;
}

void watchdog_start(int rank, int np)
{
    char name[64] = "";
    my_rank = rank, nranks = np;
    if (rank == 0)
        snprintf(name, sizeof name, "/lab5_watchdog_%ld_%ld", (long)getpid(), (long)now_ns() % 1000000);
    PMPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    size_t bytes = (size_t)(np + 2) * sizeof(int64_t);
    int fd = shm_open(name, rank == 0 ? O_CREAT | O_RDWR : O_RDWR, 0600);
    if (rank == 0 && fd >= 0 && ftruncate(fd, (off_t)bytes) != 0)
        fd = -1;
    PMPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0)
        fd = shm_open(name, O_RDWR, 0600);
    void *p = fd >= 0 ? mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    PMPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        shm_unlink(name);
    if (p == MAP_FAILED) { /* ranks on several machines: no watchdog, mpirun's limit only */
        if (rank == 0)
            fprintf(stderr, "note: no shared memory for the deadlock watchdog (%s)\n", name);
        return;
    }
    slot = p;
    if (rank == 0) {
        memset((void *)slot, 0, bytes);
        pthread_t th;
        pthread_create(&th, NULL, watch, NULL);
        pthread_detach(th);
    }
    PMPI_Barrier(MPI_COMM_WORLD);
}

void watchdog_case(const char *what, double hard_limit_s)
{
    snprintf(current, sizeof current, "%s", what);
    if (slot && my_rank == 0) {
        slot[nranks + 1] = (int64_t)(hard_limit_s * 1e9);
        slot[nranks] = now_ns();
    }
}

void watchdog_case_end(void)
{
    if (slot && my_rank == 0)
        slot[nranks] = 0;
}
