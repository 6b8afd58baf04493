/* The kit's test runner over Check: points, visibility, skips, an exit()
 * that cannot pass, a time budget for hangs. See runner.h. */
#define _GNU_SOURCE
#include "runner.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "call_rules.h"
#include "mpi_checker/stuck.h"
#include "child_probe.h"
#include "results.h"
#include "sanitizer_report.h"
#include "secret.h"
#include "timer.h"

#define AG_DEFAULT_TIMEOUT 10.0

/* A test passes only if its process ends through our teardown with this
 * exit code, drawn at random per run: Check alone would take exit(0) from
 * student code in the middle of a test as a pass. */
static int completion_code;

static void exit_through_completion_code(void)
{
    fflush(NULL);
    _exit(completion_code);
}

/* Where a test that never returns was stuck (checker/stuck.h): its
 * process records its stack a little before Check's limit ends it, into
 * stuck_path, and a checker program's ranks theirs when its run is ended
 * (launch.c ends it before that limit: ag_test_deadline). */
static char stuck_dir[32], stuck_path[320];
static double stuck_after, test_deadline;

static void arm_stuck_record(void)
{
    stuck_setup(stuck_path);
    stuck_arm_timer(stuck_after);
}

double ag_test_deadline(void) { return test_deadline; }

/* A test that ran out of time: where its process was stuck, from its
 * record (a test whose time ran out in a checker program's run says it in
 * its own message); 0 when there is none. */
static int name_stuck_place(char *message, size_t len)
{
    char exe[PATH_MAX], where[600];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    int named = n > 0 && stuck_describe(stuck_path, exe, where, sizeof where);
    if (named) {
        size_t used = strlen(message);
        snprintf(message + used, len - used, "; %s", where);
    }
    return named;
}

void ag_add(ag_suite *suite, ag_spec spec)
{
    if (suite->count == AG_MAX_TESTS) {
        fprintf(stderr, "grader: more than %d tests registered\n", AG_MAX_TESTS);
        exit(2);
    }
    if (!spec.test || spec.points < 0) {
        fprintf(stderr, "grader: test %d registered without a test or with negative points\n", suite->count);
        exit(2);
    }
    if (!spec.name)
        spec.name = spec.test->name;
    /* Results are matched to tests by name: two tests of one name would
     * share a verdict. */
    for (int i = 0; i < suite->count; i++)
        if (!strcmp(suite->spec[i].name, spec.name)) {
            fprintf(stderr, "grader: two tests named %s\n", spec.name);
            exit(2);
        }
    suite->spec[suite->count++] = spec;
}

/* Set before each test is handed to Check; its forked process inherits it. */
static const void *running_arg;

const void *ag_test_arg(void)
{
    return running_arg;
}

static int draw_completion_code(void)
{
    unsigned int r = (unsigned int)time(NULL) ^ (unsigned int)getpid();
    if (!ag_random_bytes(&r, sizeof r))
        r ^= (unsigned int)clock();
    return 100 + (int)(r % 120u); /* 100..219: clear of 0, 1, 2 and the shell's 126+ */
}

static ag_status classify(TestResult *tr, double timeout, char *message, size_t len)
{
    const char *msg = tr_msg(tr) ? tr_msg(tr) : "";
    int rtype = tr_rtype(tr);
    if (rtype == CK_PASS) {
        message[0] = '\0';
        return AG_PASS;
    }
    int early = 0;
    if (strstr(msg, "Test timeout expired")) {
        snprintf(message, len, "no result within the time limit of %g s (an endless loop, a deadlock, or far too slow)",
                 timeout);
        return AG_TIMEOUT;
    }
    if (sscanf(msg, "Early exit with return value %d", &early) == 1) {
        snprintf(message, len,
                 "the test process exited (status %d) before the test finished: "
                 "does the code call exit() or abort()?", early);
        return AG_CRASH;
    }
    if (strstr(msg, "Received signal")) {
        snprintf(message, len, "%s: the code crashed (an out-of-bounds access?)", msg);
        return AG_CRASH;
    }
    snprintf(message, len, "%s", msg);
    return rtype == CK_FAILURE ? AG_FAIL : AG_CRASH;
}

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--results FILE] [--visible-only] [--only TEST[,TEST...]] [--list]\n", prog);
}

/* Whether name is one of the comma-separated names of list. */
static int listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == len && !strncmp(p, name, n))
            return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

/* The verdict of test i (run under the limit of `limit` seconds), into res. */
static void collect_results(SRunner *sr, const ag_suite *suite, ag_result *res, int i, double limit)
{
    int nres = srunner_ntests_run(sr);
    TestResult **trs = srunner_results(sr);
    for (int r = 0; r < nres; r++) {
        if (strcmp(tr_tcname(trs[r]), suite->spec[i].name) != 0)
            continue;
        res[i].status = classify(trs[r], limit, res[i].message, sizeof res[i].message);
        char found[1500];
        if (res[i].status != AG_PASS && ag_sanitizer_report(suite->spec[i].name, found, sizeof found)) {
            res[i].status = AG_FAIL;
            snprintf(res[i].message, sizeof res[i].message, "the sanitizers stopped the test: %s", found);
        }
        res[i].score = res[i].status == AG_PASS ? suite->spec[i].points : 0.0;
    }
    free(trs);
}

int ag_main(int argc, char **argv, const char *lab, void (*register_tests)(ag_suite *))
{
    static ag_suite suite;
    static ag_result res[AG_MAX_TESTS];
    const char *results_path = getenv("AG_RESULTS");
    const char *only = NULL;
    int visible_only = getenv("AG_VISIBLE_ONLY") && strcmp(getenv("AG_VISIBLE_ONLY"), "1") == 0;
    int list = 0;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--results") && a + 1 < argc)
            results_path = argv[++a];
        else if (!strcmp(argv[a], "--only") && a + 1 < argc)
            only = argv[++a];
        else if (!strcmp(argv[a], "--visible-only"))
            visible_only = 1;
        else if (!strcmp(argv[a], "--list"))
            list = 1;
        else {
            usage(argv[0]);
            return 2;
        }
    }

    register_tests(&suite);
    if (ag_hidden_tests) /* absent from the student copy */
        ag_hidden_tests(&suite);
    if (list) {
        for (int i = 0; i < suite.count; i++)
            printf("%-48s %6g points  %s%s\n", suite.spec[i].name, suite.spec[i].points,
                   suite.spec[i].hidden ? "hidden" : "visible",
                   suite.spec[i].gpus ? "  (needs a GPU)" : "");
        return 0;
    }
    for (const char *p = only; p && *p;) { /* every name of the list must be a test */
        size_t n = strcspn(p, ",");
        int found = 0;
        for (int i = 0; i < suite.count; i++)
            found |= strlen(suite.spec[i].name) == n && !strncmp(suite.spec[i].name, p, n);
        if (!found) {
            fprintf(stderr, "%s: no test named '%.*s' (--list lists them)\n", argv[0], (int)n, p);
            return 2;
        }
        p += n + (p[n] == ',');
    }

    /* No core files from crashing student code, and no buffered output that
     * a forked child could print twice. */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    setvbuf(stdout, NULL, _IOLBF, 0);

    const char *fork_env = getenv("CK_FORK");
    int forking = !(fork_env && !strcmp(fork_env, "no"));
    completion_code = draw_completion_code();

    int need_gpus = 0;
    for (int i = 0; i < suite.count; i++)
        if (suite.spec[i].gpus > need_gpus)
            need_gpus = suite.spec[i].gpus;
    char gpu_reason[256] = "";
    int gpus = need_gpus ? ag_probe_gpus(gpu_reason, (int)sizeof gpu_reason) : 0;

    /* AG_STOP_AT_FIRST_LOSS=1 (the kit's self-test, for its mutants): stop
     * at the first test that does not pass, or before any if a call rule is
     * broken. A mutant is caught as soon as it loses a point; the rest of
     * its tests would only cost time (on a GPU host, GPU time). Never in
     * grading: a student gets every test. */
    const char *stop_env = getenv("AG_STOP_AT_FIRST_LOSS");
    int stop_at_loss = stop_env && !strcmp(stop_env, "1");
    /* AG_HANG_BUDGET=S (make check, never grading): the seconds that tests
     * which do not pass may cost in all. Once one has drawn on it, a test's
     * limit is cut to what is left of it, and once it is spent the
     * remaining tests are not run, so that one endless loop costs a student
     * about S seconds (at most the limit of the first test it hangs), not
     * the sum of every test's limit. Until then every test has its own
     * limit: a slow but right test (a big GPU case) is never cut short. (Tests that do not pass after 5 s or more, not only
     * TIMEOUTs: an MPI test's own watchdog reports a hung rank as a FAIL.) */
    const char *budget_env = getenv("AG_HANG_BUDGET");
    int budgeted = budget_env && atof(budget_env) > 0;
    double hang_budget = budgeted ? atof(budget_env) : 0, initial_budget = hang_budget;
    const char *mul_env = getenv("CK_TIMEOUT_MULTIPLIER");
    double multiplier = mul_env && atoi(mul_env) > 0 ? atoi(mul_env) : 1;

    /* Who is skipped and whose call rule is broken is known before any test
     * runs; the header counts every test that gets a line below. */
    int shown = 0, lost_before = 0;
    double listed_points = 0;
    for (int i = 0; i < suite.count; i++) {
        const ag_spec *sp = &suite.spec[i];
        res[i].status = AG_NOT_RUN;
        res[i].message[0] = '\0';
        if ((only && !listed(only, sp->name)) || (visible_only && sp->hidden))
            continue;
        shown++;
        listed_points += sp->points;
        /* A test that cannot run here is skipped whatever the code does:
         * its call rules are for a host where it runs. */
        if (sp->gpus > gpus) {
            res[i].status = AG_SKIP;
            snprintf(res[i].message, sizeof res[i].message, "needs %d GPU%s: %s", sp->gpus,
                     sp->gpus > 1 ? "s" : "", gpu_reason);
        } else if (sp->runs_here && !ag_ask_child(sp->runs_here, "the test's host check", res[i].message,
                                                  (int)sizeof res[i].message)) {
            res[i].status = AG_SKIP;
        } else if (ag_call_rule_broken(sp->name, res[i].message, sizeof res[i].message)) {
            res[i].status = AG_FAIL;
            lost_before = 1;
        } else {
            res[i].status = AG_PENDING;
        }
    }
    printf("%s: %d test%s, %g points\n", lab, shown, shown == 1 ? "" : "s", listed_points);

    Suite *cs = suite_create(lab);
    SRunner *sr = srunner_create(cs);
    ag_sanitizer_setup(); /* with SANITIZE builds: reports to files, read per test */
    strcpy(stuck_dir, "/tmp/ag_stuck_XXXXXX");
    if (!mkdtemp(stuck_dir))
        stuck_dir[0] = '\0'; /* TIMEOUT lines name the tested functions only */
    double t0 = wall_time();
    int not_run = 0;
    const char *hung_test = NULL;
    double score = 0, max_score = 0, skipped = 0;
    int failed = 0, checks = 0, passes = 0, failures = 0, errors = 0, held = 0;
    for (int i = 0; i < suite.count; i++) {
        const ag_spec *sp = &suite.spec[i];
        if (res[i].status == AG_NOT_RUN)
            continue;
        if (res[i].status == AG_PENDING && stop_at_loss && lost_before) {
            res[i].status = AG_NOT_RUN;
            not_run++;
            continue;
        }
        if (res[i].status == AG_PENDING && budgeted && hang_budget < 5 && held++) {
            res[i].status = AG_HELD;
            snprintf(res[i].message, sizeof res[i].message, "as the test above");
        } else if (res[i].status == AG_PENDING && budgeted && hang_budget < 5) {
            res[i].status = AG_HELD;
            snprintf(res[i].message, sizeof res[i].message,
                     "slow tests that did not pass, up to %s above, took the %s s make check gives them "
                     "(AG_HANG_BUDGET); fix those, or run one test alone: make check CHECK_ARGS='--only %s' "
                     "(grading runs every test)",
                     hung_test, budget_env, sp->name);
        } else if (res[i].status == AG_PENDING) {
            double limit = sp->timeout > 0 ? sp->timeout : AG_DEFAULT_TIMEOUT;
            int cut = budgeted && hang_budget < initial_budget && limit * multiplier > hang_budget;
            if (cut)
                limit = hang_budget / multiplier;
            TCase *tc = tcase_create(sp->name);
            tcase_set_timeout(tc, limit);
            snprintf(stuck_path, sizeof stuck_path, "%s/%s", stuck_dir, sp->name);
            test_deadline = wall_time() + limit * multiplier;
            stuck_after = limit * multiplier - (limit * multiplier > 10 ? 1 : 0.1 * limit * multiplier);
            if (forking) {
                tcase_add_checked_fixture(tc, stuck_dir[0] ? arm_stuck_record : NULL, exit_through_completion_code);
                tcase_add_exit_test(tc, sp->test, completion_code);
            } else {
                tcase_add_test(tc, sp->test);
            }
            suite_add_tcase(cs, tc);
            running_arg = sp->arg;
            double started = wall_time();
            srunner_run(sr, lab, sp->name, CK_SILENT);
            collect_results(sr, &suite, res, i, limit * multiplier);
            /* A failure found in seconds is not a hang: only a test that
             * did not pass after 5 s or more draws on the budget, or one
             * that had only what was left of it (its limit cut). */
            double took = wall_time() - started;
            if (res[i].status != AG_PASS && budgeted && (took >= 5 || cut)) {
                hang_budget -= took;
                hung_test = sp->name;
            }
            if (res[i].status == AG_TIMEOUT && !name_stuck_place(res[i].message, sizeof res[i].message))
                ag_name_hung_functions(sp->name, res[i].message, sizeof res[i].message);
            unlink(stuck_path);
            lost_before |= res[i].status != AG_PASS;
        }
        max_score += sp->points;
        score += res[i].score;
        if (res[i].status == AG_SKIP) {
            skipped += sp->points;
        } else {
            checks++;
            passes += res[i].status == AG_PASS;
            failures += res[i].status == AG_FAIL;
            errors += res[i].status == AG_CRASH || res[i].status == AG_TIMEOUT || res[i].status == AG_HELD;
            failed += res[i].status != AG_PASS;
        }
        printf("  %-7s %5g/%-4g %s%s%s%s\n", ag_status_name[res[i].status], res[i].score, sp->points,
               sp->name, sp->hidden ? " [hidden]" : "", res[i].message[0] ? ": " : "", res[i].message);
    }
    double seconds = wall_time() - t0;

    /* why the points were skipped, each different reason once: the GPU
     * probe's answer where there is no GPU, the count a test needs where
     * there are too few, or a test's own host check's answer */
    char reasons[384] = "";
    for (int i = 0; i < suite.count; i++) {
        if (res[i].status != AG_SKIP)
            continue;
        char why[256];
        if (suite.spec[i].gpus > gpus && gpus > 0)
            snprintf(why, sizeof why, "needs %d GPUs, %s", suite.spec[i].gpus, gpu_reason);
        else
            snprintf(why, sizeof why, "%s", suite.spec[i].gpus > gpus ? gpu_reason : res[i].message);
        if (strstr(reasons, why))
            continue;
        size_t used = strlen(reasons);
        snprintf(reasons + used, sizeof reasons - used, "%s%s", used ? "; " : "", why);
    }
    char note[512];
    if (skipped > 0)
        snprintf(note, sizeof note, "score: %g/%g (%g point%s skipped, not passed: %s)", score, max_score, skipped,
                 skipped == 1 ? "" : "s", reasons[0] ? reasons : gpu_reason);
    else
        snprintf(note, sizeof note, "score: %g/%g", score, max_score);
    printf("%s\n", note);
    if (results_path)
        ag_write_results_json(results_path, lab, &suite, res, score, max_score, seconds, note);

    /* Check's summary line closes the output, in Check's own format, over
     * the lines above (skipped tests are not checks): the runner ran one
     * test at a time, and tests a call rule fails never reach Check. */
    if (not_run > 0)
        printf("stopped at the first test lost (AG_STOP_AT_FIRST_LOSS=1): %d not run\n", not_run);
    printf("%d%%: Checks: %d, Failures: %d, Errors: %d\n", checks ? 100 * passes / checks : 100, checks, failures,
           errors);
    srunner_free(sr);
    ag_sanitizer_cleanup();
    if (stuck_dir[0])
        rmdir(stuck_dir);
    return failed > 0 ? 1 : 0;
}

