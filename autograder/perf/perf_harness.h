/* Performance scoring: one harness per scored function, linked with the
 * student's objects (or the reference's). autograder/grade runs the
 * reference's harness and the student's alternately, three times each, and
 * turns the median ratio of their times into points with the thresholds in
 * autograder/perf/perf.conf. Performance is never part of a correctness
 * test: a lab's suite says whether the code is right, this says how fast.
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
 *                                      (the process limit); 2 for bad arguments
 *
 * The student's time comes back as the exit status because the harness's
 * standard output is shared with the student's code, which could print a
 * fake time; an exit status only this process sets. Each timed call runs in
 * a forked child (outputs in shared memory), timed here from fork to exit,
 * and must end through this harness's random completion code: an exit(0)
 * half-way does not count as done. One warm-up call, then the median of
 * PERF_REPS calls; the output is poisoned with NaN before each call and
 * checked after it, so that skipping work on large sizes is caught. */
#ifndef KIT_PERF_HARNESS_H
#define KIT_PERF_HARNESS_H

#include <stddef.h>

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
} perf_case;

int perf_main(int argc, char **argv, perf_case *c);

/* Memory the child writes and the harness reads: MAP_SHARED, zeroed. */
void *perf_shared_alloc(size_t bytes);

#endif
