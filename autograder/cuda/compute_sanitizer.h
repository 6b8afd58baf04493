/* The CUDA toolkit's own checkers as graded tests: a small case
 * of the student's GPU code run under compute-sanitizer's memcheck (reads
 * and writes out of bounds, misaligned, on freed memory), racecheck
 * (shared-memory races) and synccheck (__syncthreads that not every thread
 * of a block reaches), the failure's first line naming the student's file
 * and line (their .cu files are built with -lineinfo: common/mk/lab.mk).
 *
 * A lab registers one test per stage:
 *
 *   static void gpu5_small(void) { ...the case, with the lab's checks... }
 *   static const ag_sanitized_case gpu5_sanitized = {"gpu5_sanitized",
 *       "memcheck racecheck synccheck", gpu5_small};
 *   ag_add(s, (ag_spec){AG_SANITIZED(gpu5_sanitized), .points = 1});
 *
 * (one GPU, 300 s, skipped where the tool cannot run: AG_SANITIZED below).
 * The test runs its own test binary again, `--only NAME` in one process
 * (CK_FORK=no), under each tool in turn; there the body sees
 * AG_SANITIZER_INNER and runs the case itself. It passes when every tool
 * reports no error and the case's own checks pass (so a skeleton that
 * does nothing still loses it). A toolkit without compute-sanitizer skips
 * it, saying so. AG_COMPUTE_SANITIZER=PATH names the tool where it is
 * elsewhere. */
#ifndef KIT_GRADER_COMPUTE_SANITIZER_H
#define KIT_GRADER_COMPUTE_SANITIZER_H

#include <check.h>

typedef struct {
    const char *name;  /* the test's registered name (its --only) */
    const char *tools; /* compute-sanitizer tools, space-separated */
    void (*small_case)(void);
} ag_sanitized_case;

/* runs_here: nonzero when compute-sanitizer is installed; else why not. */
int ag_compute_sanitizer_here(char *why, int len);

/* The one Check test that runs the case of ag_test_arg() (above), and the
 * fields of its ag_spec but the points. */
extern const TTest *const ag_sanitized_test;
#define AG_SANITIZED(row)                                                                                    \
    .test = ag_sanitized_test, .name = (row).name, .arg = &(row), .gpus = 1, .timeout = 300,                 \
    .runs_here = ag_compute_sanitizer_here

/* For its self-test: the first report of a compute-sanitizer output as the
 * message's first line, "FILE:LINE: WHAT" (FILE:LINE the report's first
 * source location, where it has one), into out. Returns the number of
 * errors the output's summary counts (-1 when it has no summary). */
int ag_sanitizer_first_report(const char *output, char *out, int len);

#endif
