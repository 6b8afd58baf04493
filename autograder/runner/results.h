/* A test's verdict in the runner, and Gradescope's results.json written
 * from the verdicts of a run. Internal to the grader. */
#ifndef KIT_GRADER_RESULTS_H
#define KIT_GRADER_RESULTS_H

#include "runner.h"

/* AG_NOT_RUN: not asked for (--only, --visible-only), no line; AG_HELD: not
 * run because make check's time for hangs was spent, a line and no points. */
typedef enum { AG_PASS, AG_FAIL, AG_CRASH, AG_TIMEOUT, AG_SKIP, AG_NOT_RUN, AG_PENDING, AG_HELD } ag_status;

/* The status as a test's line shows it ("PASS", "TIMEOUT", ...). */
extern const char *const ag_status_name[];

typedef struct {
    ag_status status;
    double score;
    char message[4200];
} ag_result;

/* The runner's registered tests (runner.c). */
#define AG_MAX_TESTS 256
struct ag_suite {
    ag_spec spec[AG_MAX_TESTS];
    int count;
};

/* Writes path whole or not at all (a reader never sees half a file): every
 * test that got a line, with its points, status, message and visibility. */
void ag_write_results_json(const char *path, const char *lab, const ag_suite *s, const ag_result *res,
                           double score, double max_score, double seconds, const char *note);

#endif
