/* Inside the runner (autograder/runner/): a run's four jobs, one file each,
 * in the order ag_main (runner.c) calls them:
 *   runner.c    the command line (ag_options), the registry (ag_add)
 *   plan.c      which tests get a line, which are skipped and why (the GPU
 *               probe, a test's runs_here), which fail unrun (call rules),
 *               and the time the run may lose to hangs (ag_plan)
 *   run_test.c  one test under Check, in its own process: its verdict
 *   report.c    each test's line, the score line, results.json, Check's
 *               summary line
 * Not for the labs' tests: they include autograder/autograder.h. */
#ifndef KIT_GRADER_RUN_H
#define KIT_GRADER_RUN_H

#include <stddef.h>

#include "runner.h"

/* AG_NOT_RUN: not asked for (--only, --visible-only), no line; AG_HELD: not
 * run because make check's time for hangs was spent, a line and no points. */
typedef enum { AG_PASS, AG_FAIL, AG_CRASH, AG_TIMEOUT, AG_SKIP, AG_NOT_RUN, AG_PENDING, AG_HELD } ag_status;

/* The status as a test's line shows it ("PASS", "TIMEOUT", ...). */
extern const char *const ag_status_name[];

typedef struct {
    ag_status status;
    double score;
    double seconds; /* its runs' wall time, reruns and chaos seeds included */
    char message[4200];
} ag_result;

#define AG_MAX_TESTS 256
struct ag_suite {
    ag_spec spec[AG_MAX_TESTS];
    int count;
};

/* The test program's command line (runner.h lists it). */
typedef struct {
    const char *results_path; /* --results FILE or AG_RESULTS */
    const char *only;         /* --only NAME[,NAME...] */
    int visible_only, list;
} ag_options;

/* What the run will do, decided before any test runs (plan.c). */
typedef struct {
    int shown;             /* tests that get a line */
    double shown_points;   /* and their points */
    int gpus;              /* GPUs found (0 when no test needs one) */
    char gpu_reason[400];  /* why not more, from the probe */
    int no_image;          /* why: the build has no code for a GPU here (common/cuda/gpu_image.h) */
    int lost_before;       /* a test already lost: AG_STOP_AT_FIRST_LOSS stops */
    int stop_at_loss;      /* AG_STOP_AT_FIRST_LOSS=1 */
    int not_run;           /* tests it left unrun */
    /* AG_HANG_BUDGET (run_test.c spends it) */
    int budgeted;
    double hang_budget, initial_budget;
    const char *budget_text; /* as given, for the HELD lines */
    const char *hung_test;   /* the last test that drew on it */
    int held;                /* tests held so far */
    double multiplier;       /* CK_TIMEOUT_MULTIPLIER */
    /* AG_REPEAT_CONF: a passing test that a race can pass by luck runs
     * this many more times (0: once) */
    const char *repeat_conf;
    /* Chaos schedules (chaos.h): AG_CHAOS_CONF names the tests and their
     * seeds; AG_CHAOS_KEY (grading) makes the seeds a function of the key
     * and the test, else they are fresh; chaos_runs: how many seeds each
     * test of the conf gets (AG_CHAOS_RUNS; make check 1; -1: the conf's
     * count); AG_CHAOS_REPLAY runs the tests under that one seed (0:
     * none). */
    const char *chaos_conf, *chaos_key;
    int chaos_runs;
    unsigned long chaos_replay;
} ag_plan;

/* plan.c: every test's starting status (AG_NOT_RUN, AG_SKIP with its
 * reason, AG_FAIL for a broken call rule, else AG_PENDING) into res. */
void ag_plan_run(const ag_suite *suite, const ag_options *opt, ag_plan *plan, ag_result *res);

/* plan.c: runs ask(reason, len) in a child process (under a 60 s alarm)
 * and returns its answer, with the reason it wrote; `what` names the
 * question in the reason when the child fails. The CUDA driver and an
 * OpenMP offload runtime do not survive the runner's forks once started. */
int ag_ask_child(int (*ask)(char *, int), const char *what, char *reason, int len);

/* run_test.c: before the first test and after the last. */
void ag_run_setup(const char *lab);
void ag_run_cleanup(void);

/* run_test.c: runs test i (status AG_PENDING), or holds it when the time
 * for hangs is spent, or leaves it unrun after a loss under
 * AG_STOP_AT_FIRST_LOSS (returns 0 then: no line); its verdict into
 * res[i]. Returns 1 when the test gets a line. */
int ag_run_test(const ag_suite *suite, int i, ag_plan *plan, ag_result *res);

/* run_test.c: n random bytes from the kernel into buf; 0 when it gave
 * fewer (the forked tests' completion code, a checker program's token). */
int ag_random_bytes(void *buf, size_t n);

/* chaos.c, for the runner: seed k of test under key (grading: the same
 * every regrade) and a fresh one from the kernel's secret source (make
 * check). A seed's text is read by chaos_seed.h. */
unsigned long ag_chaos_keyed_seed(const char *key, const char *test, int k);
unsigned long ag_chaos_fresh_seed(void);

/* report.c: the counts of the lines shown, and the score. */
typedef struct {
    double score, max_score, skipped, skipped_for_gpus;
    int checks, passes, failures, errors, failed;
} ag_tally;

/* report.c: test i's line, counted into t. */
void ag_report_test(const ag_spec *spec, const ag_result *res, ag_tally *t);

/* report.c: the score line, results.json (when asked), Check's summary. */
void ag_report_end(const char *lab, const ag_suite *suite, const ag_result *res, const ag_plan *plan,
                   const ag_options *opt, const ag_tally *t, double seconds);

#endif
