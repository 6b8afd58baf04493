/* See perf_harness.h. */
#define _GNU_SOURCE
#include "perf_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_WRONG = 3, EXIT_USAGE = 2, EXIT_NO_FORK = 4, RATIO_BASE = 20, RATIO_STEPS = 10, RATIO_MAX = 10 };

void *perf_shared_alloc(size_t bytes)
{
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("perf: mmap");
        exit(EXIT_USAGE);
    }
    return p;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int completion_code(void)
{
    unsigned int r = (unsigned int)getpid() ^ (unsigned int)time(NULL);
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd >= 0) {
        if (read(fd, &r, sizeof r) != (ssize_t)sizeof r)
            r ^= (unsigned int)clock();
        close(fd);
    }
    return 30 + (int)(r % 90u);
}

/* One call in a child; its time in seconds, or a negative value: -2 when it
 * took longer than limit seconds, -3 when no child could be forked (the
 * sandbox's process limit, for a while), -1 when it did not end through the
 * completion code or its result is wrong. */
static double timed_call(perf_case *c, void (*call)(perf_case *), int code, double limit)
{
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &old);
    c->prepare(c);
    double t0 = now();
    pid_t pid = fork();
    /* Processes of this uid that are on their way out may hold the limit
     * for a moment: try for a few seconds before giving up. */
    for (int tries = 0; pid < 0 && errno == EAGAIN && tries < 100; tries++) {
        nanosleep(&(struct timespec){0, 50000000}, NULL);
        t0 = now();
        pid = fork();
    }
    if (pid < 0)
        return -3;
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        call(c);
        _exit(code);
    }
    int status = 0;
    for (;;) {
        double left = limit - (now() - t0);
        if (left <= 0) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            return -2;
        }
        struct timespec ts = {(time_t)left, (long)((left - floor(left)) * 1e9)};
        int sig = sigtimedwait(&chld, NULL, &ts);
        if (sig == SIGCHLD && waitpid(pid, &status, WNOHANG) == pid)
            break;
        if (sig < 0 && errno != EAGAIN && errno != EINTR)
            return -1;
    }
    double t = now() - t0;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != code || !c->verify(c))
        return -1;
    return t;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of PERF_REPS timed calls after a warm-up, or a negative
 * value from timed_call (the first failure). */
static double median_time(perf_case *c, void (*call)(perf_case *), int code, double limit, int *failed_call)
{
    double t[PERF_REPS];
    for (int r = -1; r < PERF_REPS; r++) { /* r = -1: the warm-up (caches, page faults, clocks) */
        double tr = timed_call(c, call, code, limit);
        if (tr < 0) {
            *failed_call = r + 2;
            return tr;
        }
        if (r >= 0)
            t[r] = tr;
    }
    qsort(t, PERF_REPS, sizeof t[0], by_value);
    return t[PERF_REPS / 2];
}

int perf_main(int argc, char **argv, perf_case *c)
{
    double ref = 0;
    int a = 1, bound = 0;
    if (a < argc && !strcmp(argv[a], "--bound")) {
        bound = 1;
        a++;
    }
    if (a + 1 < argc && !strcmp(argv[a], "--ref-seconds")) {
        ref = strtod(argv[a + 1], NULL);
        a += 2;
        if (!(ref > 0)) {
            fprintf(stderr, "%s: --ref-seconds needs a positive time\n", argv[0]);
            return EXIT_USAGE;
        }
    }
    if (c->setup(c, argc - a, argv + a) != 0) {
        fprintf(stderr, "usage: %s [--ref-seconds T] %s\n", argv[0], c->usage);
        return EXIT_USAGE;
    }
    int code = completion_code();
    /* Past RATIO_MAX x the reference's time no points are left: stop there.
     * The reference itself gets a generous minute. */
    double limit = ref > 0 ? RATIO_MAX * ref * 1.1 + 0.5 : 60.0;
    /* The library's bound, for the feedback only (the reference's run). */
    int failed = 0;
    if (bound && ref == 0 && c->bound) {
        double tb = median_time(c, c->bound, code, limit, &failed);
        if (tb > 0) {
            printf("bound %s %.9f\n", c->bound_name, tb);
            fflush(stdout); /* before the next fork: no child holds a copy */
        } else
            fprintf(stderr, "%s: the bound (%s) could not be timed\n", argv[0], c->bound_name);
    }
    double median = median_time(c, c->run, code, limit, &failed);
    if (median == -2)
        return RATIO_BASE + RATIO_STEPS * RATIO_MAX; /* too slow to score */
    if (median == -3) {
        fprintf(stderr, "%s: call %d: fork failed (%s)\n", argv[0], failed, strerror(errno));
        return EXIT_NO_FORK;
    }
    if (median < 0) {
        fprintf(stderr, "%s: call %d did not complete or gave a wrong result\n", argv[0], failed);
        return ref > 0 ? EXIT_WRONG : 1;
    }
    if (ref == 0) {
        printf("%.9f\n", median);
        return 0;
    }
    double ratio = median / ref;
    long steps = lround(RATIO_STEPS * ratio);
    if (steps > RATIO_STEPS * RATIO_MAX)
        steps = RATIO_STEPS * RATIO_MAX;
    return RATIO_BASE + (int)steps;
}
