/* See perf_harness.h. */
#define _GNU_SOURCE
#include "perf_harness.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "poisson.h"
#include "random.h"

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

uint64_t perf_unpredictable_seed(void)
{
    uint64_t seed = ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL);
    int fd = open("/dev/urandom", O_RDONLY);
    if (fd >= 0) {
        if (read(fd, &seed, sizeof seed) != (ssize_t)sizeof seed)
            seed ^= (uint64_t)clock();
        close(fd);
    }
    return seed;
}

/* y = M v for an r x cols row-major M. */
static void product(int r, int cols, const double *M, const double *v, double *y)
{
    for (int i = 0; i < r; i++) {
        double sum = 0.0;
        for (int j = 0; j < cols; j++)
            sum += M[(size_t)i * cols + j] * v[j];
        y[i] = sum;
    }
}

int perf_matmult_exact(int m, int n, int k, const double *A, const double *B, const double *C)
{
    double *x = malloc(sizeof(double) * (size_t)n), *bx = malloc(sizeof(double) * (size_t)k);
    double *abx = malloc(sizeof(double) * (size_t)m), *cx = malloc(sizeof(double) * (size_t)m);
    int right = x && bx && abx && cx;
    for (int round = 0; right && round < 2; round++) {
        kit_fill_int(x, (size_t)n, -1000, 1000, perf_unpredictable_seed());
        product(k, n, B, x, bx);
        product(m, k, A, bx, abx);
        product(m, n, C, x, cx);
        for (int i = 0; i < m; i++) /* integers below k 16 n 1000, far below 2^53: exact; NaN != anything */
            right &= cx[i] == abx[i];
    }
    free(x), free(bx), free(abx), free(cx);
    return right;
}

void perf_poisson_random_interior(int N, double *u)
{
    kit_rng r = kit_rng_seed(perf_unpredictable_seed());
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++)
                u[poisson_index(N, i, j, k)] = 20.0 * kit_rng_uniform(&r);
}

static int completion_code(void) { return 30 + (int)(perf_unpredictable_seed() % 90u); }

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

/* The device cases' one child (perf_harness.h). */
static struct {
    pid_t pid;
    int to_child, from_child;
} device = {-1, -1, -1};

static void write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(EXIT_USAGE); /* the harness went away */
        p += w, n -= (size_t)w;
    }
}

/* In the child: set up, then obey commands until the pipe closes. */
static void device_child(perf_case *c, int in, int out, int code)
{
    int status = c->device_setup(c);
    write_all(out, &status, sizeof status);
    if (status != 0)
        _exit(0);
    char cmd;
    while (read(in, &cmd, 1) == 1) {
        if (cmd == 'L')
            c->device_load(c);
        else if (cmd == 'R')
            c->run(c);
        else if (cmd == 'B')
            c->bound(c);
        else if (cmd == 'F')
            c->device_fetch(c);
        else
            break;
        write_all(out, &code, sizeof code);
    }
    _exit(0);
}

/* The child's next int (an answer or its set-up status) within limit
 * seconds: 0 with *value set, -2 past the limit, -1 when the child died. */
static int child_int(int *value, double limit)
{
    size_t have = 0;
    double t0 = now();
    while (have < sizeof *value) {
        double left = limit - (now() - t0);
        if (left <= 0)
            return -2;
        struct pollfd p = {device.from_child, POLLIN, 0};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            continue;
        ssize_t n = read(device.from_child, (char *)value + have, sizeof *value - have);
        if (n <= 0)
            return -1;
        have += (size_t)n;
    }
    return 0;
}

/* The child's next answer within limit seconds: 0 when it is `expect`, -2
 * past the limit, -1 when the child died or said something else. */
static int device_answer(int expect, double limit)
{
    int got = 0, r = child_int(&got, limit);
    return r != 0 ? r : got == expect ? 0 : -1;
}

static void device_stop(void)
{
    if (device.pid > 0) {
        kill(device.pid, SIGKILL);
        waitpid(device.pid, NULL, 0);
        device.pid = -1;
    }
}

/* Starts the child; 0, PERF_NO_DEVICE, or -1 when it failed to start. */
static int device_start(perf_case *c, int code)
{
    int down[2], up[2];
    if (pipe(down) != 0 || pipe(up) != 0)
        return -1;
    fflush(NULL);
    device.pid = fork();
    if (device.pid < 0)
        return -1;
    if (device.pid == 0) {
        close(down[1]), close(up[0]);
        device_child(c, down[0], up[1], code);
    }
    close(down[0]), close(up[1]);
    device.to_child = down[1], device.from_child = up[0];
    signal(SIGPIPE, SIG_IGN); /* a dead child shows as an error, not a killed harness */
    int status = -1; /* set-up: a CUDA context and the device arrays, well within two minutes */
    if (child_int(&status, 120.0) != 0)
        return -1;
    return status == 0 ? 0 : status == PERF_NO_DEVICE ? PERF_NO_DEVICE : -1;
}

/* One step of the child within limit seconds (device_answer's values). */
static int device_step(char cmd, int code, double limit)
{
    if (write(device.to_child, &cmd, 1) != 1)
        return -1;
    return device_answer(code, limit);
}

/* One call of a device case: like timed_call, but in the long-lived child,
 * and only the run step timed. */
static double device_call(perf_case *c, int bound, int code, double limit)
{
    c->prepare(c);
    if (device_step('L', code, 60.0) != 0)
        return -1;
    double t0 = now();
    int r = device_step(bound ? 'B' : 'R', code, limit);
    double t = now() - t0;
    if (r != 0)
        return r;
    if (device_step('F', code, 60.0) != 0)
        return -1;
    int (*check)(perf_case *) = bound && c->verify_bound ? c->verify_bound : c->verify;
    return check(c) ? t : -1;
}

static double one_call(perf_case *c, int bound, int code, double limit)
{
    if (c->device_setup)
        return device_call(c, bound, code, limit);
    return timed_call(c, bound ? c->bound : c->run, code, limit);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of PERF_REPS timed calls after a warm-up, or a negative
 * value from timed_call (the first failure). */
static double median_time(perf_case *c, int bound, int code, double limit, int *failed_call)
{
    double t[PERF_REPS];
    for (int r = -1; r < PERF_REPS; r++) { /* r = -1: the warm-up (caches, page faults, clocks) */
        double tr = one_call(c, bound, code, limit);
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
    if (c->device_setup) {
        int started = device_start(c, code);
        if (started == PERF_NO_DEVICE) {
            fprintf(stderr, "%s: no GPU on this host: nothing timed\n", argv[0]);
            return PERF_NO_DEVICE;
        }
        if (started != 0) {
            fprintf(stderr, "%s: the timing process could not set the GPU up\n", argv[0]);
            device_stop();
            return ref > 0 ? EXIT_WRONG : 1;
        }
        atexit(device_stop);
    }
    /* Past RATIO_MAX x the reference's time no points are left: stop there.
     * The reference itself gets a generous minute. */
    double limit = ref > 0 ? RATIO_MAX * ref * 1.1 + 0.5 : 60.0;
    /* The library's bound, for the feedback only (the reference's run). */
    int failed = 0;
    if (bound && ref == 0 && c->bound) {
        double tb = median_time(c, 1, code, limit, &failed);
        if (tb > 0) {
            printf("bound %s %.9f\n", c->bound_name, tb);
            fflush(stdout); /* before the next fork: no child holds a copy */
        } else
            fprintf(stderr, "%s: the bound (%s) could not be timed\n", argv[0], c->bound_name);
    }
    double median = median_time(c, 0, code, limit, &failed);
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
