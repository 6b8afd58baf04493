/* Performance scoring: one harness per scored function, linked with the
 * student's objects (or the reference's). Class grading runs the
 * reference's harness and the student's alternately, three times each, and
 * turns the median ratio of their times into points with the thresholds in
 * the lab's tests/perf.conf (what is timed, and its points).
 * A run on a course's cluster times the student's alone for the class
 * standing (autograder/sched/record_run). Performance is never part of a
 * correctness test: a lab's suite says whether the code is right, this
 * says how fast.
 *
 *   HARNESS ARGS...                    prints the median time in seconds
 *   HARNESS --bound ARGS...            first "bound NAME SECONDS": the median
 *                                      time of the same work by a library
 *                                      (a case with a bound: lab 1's DGEMM),
 *                                      timed the same way, for the student's
 *                                      feedback; then the median as above
 *   HARNESS --ref-seconds T ARGS...    exits with 20 + round(10 t / T), at most
 *                                      120 (t / T >= 10: clear of the 124-127
 *                                      of timeout and the sandbox); 3 when a result was
 *                                      wrong or the call did not complete; 4
 *                                      when it could not fork a timed call
 *                                      (the process limit); 5 when a device
 *                                      case finds no GPU; 2 for bad arguments
 *
 * The student's time comes back as the exit status because the harness's
 * standard output is shared with the student's code, which could print a
 * fake time; an exit status only this process sets. Each timed call runs in
 * a forked child (outputs in shared memory), timed here from fork to exit,
 * and must end through this harness's random completion code: an exit(0)
 * half-way does not count as done. One warm-up call, then the median of
 * PERF_REPS calls; the output is poisoned with NaN before each call and
 * checked after it, so that skipping work on large sizes is caught.
 *
 * Device cases (a GPU lab: device_setup is set) cannot fork per call: a
 * CUDA context does not survive fork() and costs far more to create than a
 * kernel runs. Their calls run in ONE child, started once, which the
 * harness drives through a pipe: load the call's inputs (new ones every
 * call, drawn here, so that no call can reuse an earlier result), run (the
 * only step timed, here, from the command to the child's answer, which it
 * gives after the device is idle), fetch the output into shared memory,
 * checked here. The child answers each step with the completion code. When
 * the host has no GPU the harness exits with status 5. */
#ifndef KIT_PERF_HARNESS_H
#define KIT_PERF_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#define PERF_REPS 5

typedef struct perf_case {
    /* Parses ARGS and prepares inputs and the expected output; 0 on success. */
    int (*setup)(struct perf_case *c, int argc, char **argv);
    /* Before each call, in the harness: poison the output. */
    void (*prepare)(struct perf_case *c);
    /* The timed call, in the child. */
    void (*run)(struct perf_case *c);
    /* After each call, in the harness: 1 when the output is right. */
    int (*verify)(struct perf_case *c);
    const char *usage; /* ARGS, for the usage line */
    void *state;
    /* Optional: the same work done by a library, in the child, checked by
     * verify like run (--bound); NULL where the case has none. */
    void (*bound)(struct perf_case *c);
    const char *bound_name;
    /* Device cases only (NULL for host cases), all in the child: */
    /* once, before the first call: 0, or PERF_NO_DEVICE (there is no GPU) */
    int (*device_setup)(struct perf_case *c);
    /* before each call: the inputs prepare() drew, to the device */
    void (*device_load)(struct perf_case *c);
    /* after each call: the output, to shared memory for verify() */
    void (*device_fetch)(struct perf_case *c);
    /* verify() for the bound where its output differs from run's; NULL: verify */
    int (*verify_bound)(struct perf_case *c);
} perf_case;

#define PERF_NO_DEVICE 5 /* device_setup's and the harness's status: no GPU here */

int perf_main(int argc, char **argv, perf_case *c);

/* A seed no one can know in advance (/dev/urandom): inputs and checks that
 * a submission cannot have been written for. */
uint64_t perf_unpredictable_seed(void);

/* 1 when C = A B (A m x k, B k x n, C m x n, row-major) for integer A
 * and B in [-4, 4], where every sum is exact: Freivalds' check, C x =
 * A (B x) for two integer vectors x in [-1000, 1000] drawn now (a wrong
 * element survives one with probability at most 1/2001; a NaN never), in
 * O(mn + nk + mk). 0 when it is wrong, or memory ran out. */
int perf_matmult_exact(int m, int n, int k, const double *A, const double *B, const double *C);

/* The interior of a Poisson array u of side N + 2 (common/poisson.h) drawn
 * in [0, 20], between the walls' temperatures, from a seed drawn now: a
 * start no submission can have been written for. */
void perf_poisson_random_interior(int N, double *u);

/* Memory the child writes and the harness reads: MAP_SHARED, zeroed. */
void *perf_shared_alloc(size_t bytes);

#endif
