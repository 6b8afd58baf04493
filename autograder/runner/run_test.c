/* One test under Check, in its own process, within its time limit and make
 * check's time for hangs: its verdict. See run.h. */
#define _GNU_SOURCE
#include "run.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "call_rules.h"
#include "chaos.h"
#include "mpi_checker/stuck.h"
#include "sanitizer_report.h"
#include "timer.h"

#define AG_DEFAULT_TIMEOUT 10.0

static Suite *check_suite;
static SRunner *check_runner;
static const char *lab_name;
static int forking;

int ag_random_bytes(void *buf, size_t n)
{
    int fd = open("/dev/urandom", O_RDONLY);
    ssize_t got = fd >= 0 ? read(fd, buf, n) : -1;
    if (fd >= 0)
        close(fd);
    return got == (ssize_t)n;
}

/* A test passes only if its process ends through our teardown with this
 * exit code, drawn at random per run: Check alone would take exit(0) from
 * student code in the middle of a test as a pass. */
static int completion_code;

static int draw_completion_code(void)
{
    unsigned int r = (unsigned int)time(NULL) ^ (unsigned int)getpid();
    if (!ag_random_bytes(&r, sizeof r))
        r ^= (unsigned int)clock();
    return 100 + (int)(r % 120u); /* 100..219: clear of 0, 1, 2 and the shell's 126+ */
}

static void exit_through_completion_code(void)
{
    fflush(NULL);
    _exit(completion_code);
}

/* An exit() inside a test ends its process at once with the status it was
 * given: the libraries' own exit handlers (OpenMP's, CUDA's, FFTW's) would
 * otherwise run while the test's threads still work, and a crash there
 * would be reported as the student's signal 11, not as their exit. */
static void exit_at_once(int status, void *unused)
{
    (void)unused;
    fflush(NULL);
    _exit(status);
}

/* Where a test that never returns was stuck (mpi_checker/stuck.h): its
 * process records its stack a little before Check's limit ends it, into
 * stuck_path, and a checker program's ranks theirs when its run is ended
 * (launch.c ends it before that limit: ag_test_deadline). */
static char stuck_dir[32], stuck_path[320];
static double stuck_after, test_deadline;

double ag_test_deadline(void) { return test_deadline; }

/* Set before each test is handed to Check; its forked process inherits it. */
static const void *running_arg;
static int one_thread; /* the rerun with one OpenMP thread */

const void *ag_test_arg(void) { return running_arg; }

/* In the test's process, before the test. */
static void test_setup(void)
{
    on_exit(exit_at_once, NULL);
    if (stuck_dir[0]) {
        stuck_setup(stuck_path);
        stuck_arm_timer(stuck_after);
    }
    /* OpenMP read OMP_NUM_THREADS when the program started: set it here,
     * where OpenMP is linked in (the test program has no OpenMP of its own). */
    void (*set_threads)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    if (one_thread && set_threads)
        set_threads(1);
    ag_chaos_omp_setup(); /* under chaos only (chaos.h) */
}

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

void ag_run_setup(const char *lab)
{
    /* No core files from crashing student code, and no buffered output
     * that a forked child could print twice. */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *fork_env = getenv("CK_FORK");
    forking = !(fork_env && !strcmp(fork_env, "no"));
    completion_code = draw_completion_code();
    lab_name = lab;
    /* Chaos is the runner's to give, run by run (chaos.h): none inherited. */
    unsetenv("AG_CHAOS_SEED");
    check_suite = suite_create(lab);
    check_runner = srunner_create(check_suite);
    ag_sanitizer_setup(); /* with SANITIZE builds: reports to files, read per test */
    strcpy(stuck_dir, "/tmp/ag_stuck_XXXXXX");
    if (!mkdtemp(stuck_dir))
        stuck_dir[0] = '\0'; /* TIMEOUT lines name the tested functions only */
}

void ag_run_cleanup(void)
{
    srunner_free(check_runner);
    ag_sanitizer_cleanup();
    if (stuck_dir[0])
        rmdir(stuck_dir);
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
        snprintf(message, len, "the code called exit(%d) inside the test: a function must return to its caller",
                 early);
        return AG_CRASH;
    }
    if (strstr(msg, "Received signal 6")) {
        snprintf(message, len, "%s: the code aborted (a failed assert(), an abort(), or memory freed twice?)", msg);
        return AG_CRASH;
    }
    if (strstr(msg, "Received signal")) {
        snprintf(message, len, "%s: the code crashed (an out-of-bounds access?)", msg);
        return AG_CRASH;
    }
    snprintf(message, len, "%s", msg);
    return rtype == CK_FAILURE ? AG_FAIL : AG_CRASH;
}

/* The last verdict Check gave test `name` (run under `limit` seconds). */
static void last_verdict(const char *name, double limit, ag_result *out)
{
    int nres = srunner_ntests_run(check_runner);
    TestResult **trs = srunner_results(check_runner);
    for (int r = nres - 1; r >= 0; r--)
        if (!strcmp(tr_tcname(trs[r]), name)) {
            out->status = classify(trs[r], limit, out->message, sizeof out->message);
            break;
        }
    free(trs);
    char found[1500], stopped[64];
    snprintf(stopped, sizeof stopped, "exit(%d)", AG_SANITIZER_EXIT);
    if (out->status != AG_PASS &&
        (ag_sanitizer_report(name, found, sizeof found) ||
         (strstr(out->message, stopped) && ag_sanitizer_report_newest(found, sizeof found)))) {
        out->status = AG_FAIL;
        snprintf(out->message, sizeof out->message, "the sanitizers stopped the test: %s", found);
    }
}

/* Runs the test's Check case once more (it was added to the suite before),
 * its verdict into out; returns the seconds it took. */
static double run_case(const ag_spec *sp, double limit, ag_result *out)
{
    snprintf(stuck_path, sizeof stuck_path, "%s/%s", stuck_dir, sp->name);
    test_deadline = wall_time() + limit;
    stuck_after = limit - (limit > 10 ? 1 : 0.1 * limit);
    running_arg = sp->arg;
    /* Inherited by every process the test starts, ranks included: the
     * grading sandbox names the test in which one of its limits was reached. */
    setenv("AG_TEST_NAME", sp->name, 1);
    double started = wall_time();
    out->status = AG_CRASH;
    snprintf(out->message, sizeof out->message, "Check gave no verdict");
    srunner_run(check_runner, lab_name, sp->name, CK_SILENT);
    last_verdict(sp->name, limit, out);
    double took = wall_time() - started;
    if (out->status == AG_TIMEOUT && !name_stuck_place(out->message, sizeof out->message))
        ag_name_hung_functions(sp->name, out->message, sizeof out->message);
    unlink(stuck_path);
    return took;
}

/* How many runs a conf of lines 'GLOB RUNS' ('#' comments) gives test
 * name, the most of the lines that match it; 0 when it names none.
 * AG_REPEAT_CONF (labs/labN-name/tests/repeat.conf, the tests that a race can
 * pass by luck: how many more runs) and AG_CHAOS_CONF (chaos.conf, the
 * tests whose answer depends on ordering: how many chaos seeds). */
static int conf_runs(const char *conf, const char *name)
{
    FILE *f = conf ? fopen(conf, "r") : NULL;
    char line[512], glob[256];
    int most = 0, runs;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "#")] = '\0';
        if (sscanf(line, "%255s %d", glob, &runs) == 2 && !fnmatch(glob, name, 0) && runs > most)
            most = runs;
    }
    if (f)
        fclose(f);
    return most;
}

/* Runs the test's case once more with AG_CHAOS_SEED=seed in the
 * environment that Check's fork hands the test (chaos.h's contract), or
 * without it when seed is 0; returns the seconds it took. */
static double run_under(const ag_spec *sp, double limit, unsigned long seed, ag_result *out)
{
    char text[24];
    if (seed) {
        snprintf(text, sizeof text, "%lu", seed);
        setenv("AG_CHAOS_SEED", text, 1);
    }
    double took = run_case(sp, limit, out);
    unsetenv("AG_CHAOS_SEED");
    return took;
}

/* A failure under chaos seed `seed` (which = ", seed k of K", or "" for a
 * replay), its message into res: the seed and the line that replays it
 * first (a long message is cut at its end), then what a quiet schedule
 * gave, then the failing run's own message. */
static void chaos_failure(const ag_spec *sp, unsigned long seed, const char *which, int quiet_passes,
                          const ag_result *failed, ag_result *res)
{
    char detail[3000];
    snprintf(detail, sizeof detail, "%.2900s", failed->message);
    const char *lab = strncmp(lab_name, "lab", 3) ? lab_name : lab_name + 3;
    res->status = failed->status;
    snprintf(res->message, sizeof res->message,
             "under chaos seed %lu (replay: make check LAB=%.*s CHAOS_SEED=%lu CHECK_ARGS='--only %s')%s: %s; "
             "under that seed: %s",
             seed, (int)strspn(lab, "0123456789"), lab, seed, sp->name, which,
             quiet_passes ? "it passes on a quiet schedule: an ordering bug (a race, a missing wait)"
                          : "it fails on a quiet schedule too",
             detail);
}

/* A test of AG_CHAOS_CONF that passed: runs again under its chaos seeds
 * (the conf's count, or plan->chaos_runs), and fails at the first
 * seed that fails; returns the seconds of that failing run (0 if none). */
static double judge_chaos(const ag_spec *sp, double limit, const ag_plan *plan, ag_result *res)
{
    int seeds = conf_runs(plan->chaos_conf, sp->name);
    if (seeds && plan->chaos_runs >= 0)
        seeds = plan->chaos_runs;
    ag_result again;
    for (int k = 1; res->status == AG_PASS && k <= seeds; k++) {
        unsigned long seed = plan->chaos_key ? ag_chaos_keyed_seed(plan->chaos_key, sp->name, k)
                                             : ag_chaos_fresh_seed();
        double took = run_under(sp, limit, seed, &again);
        if (again.status != AG_PASS) {
            char which[40];
            snprintf(which, sizeof which, ", seed %d of %d", k, seeds);
            chaos_failure(sp, seed, which, 1, &again, res);
            return took;
        }
    }
    return 0;
}

/* make check CHAOS_SEED=N (AG_CHAOS_REPLAY): a test of AG_CHAOS_CONF runs
 * under that seed only; a failure runs once more on a quiet schedule, to
 * say whether that passes. Returns the seconds of the seeded run. */
static double replay_chaos(const ag_spec *sp, double limit, const ag_plan *plan, ag_result *res)
{
    double took = run_under(sp, limit, plan->chaos_replay, res);
    if (res->status != AG_PASS) {
        ag_result failed = *res, quiet;
        run_under(sp, limit, 0, &quiet);
        chaos_failure(sp, plan->chaos_replay, "", quiet.status == AG_PASS, &failed, res);
    }
    return took;
}

static const char race[] = "results differ between runs: a data race?";

/* A test a race can pass by luck (AG_REPEAT_CONF): once passed, it runs
 * again, and fails if a run fails; once failed, it runs with one OpenMP
 * thread, and the failure says so if that passes. */
static void judge_race(const ag_spec *sp, double limit, const ag_plan *plan, ag_result *res)
{
    int runs = conf_runs(plan->repeat_conf, sp->name);
    if (!runs)
        return;
    ag_result again;
    if (res->status == AG_PASS) {
        for (int r = 1; r <= runs; r++) {
            run_case(sp, limit, &again);
            if (again.status != AG_PASS) {
                char first[3000];
                snprintf(first, sizeof first, "%.2900s", again.message);
                res->status = again.status;
                snprintf(res->message, sizeof res->message, "%s passed run 1, failed run %d of %d: %s", race,
                         r + 1, runs + 1, first);
                return;
            }
        }
    } else if (res->status == AG_FAIL) {
        one_thread = 1;
        run_case(sp, limit, &again);
        one_thread = 0;
        if (again.status == AG_PASS) {
            char first[3000];
            snprintf(first, sizeof first, "%.2900s", res->message);
            snprintf(res->message, sizeof res->message, "%s it passes with one OpenMP thread: %s", race, first);
        }
    }
}

/* make check's time for hangs (AG_HANG_BUDGET, runner.h): whether test sp
 * is held, unrun, because it is spent; the HELD line's reason into res. */
static int held(const ag_spec *sp, ag_plan *plan, ag_result *res)
{
    if (!plan->budgeted || plan->hang_budget >= 5)
        return 0;
    res->status = AG_HELD;
    if (plan->held++)
        snprintf(res->message, sizeof res->message, "as the test above");
    else
        snprintf(res->message, sizeof res->message,
                 "slow tests that did not pass, up to %s above, took the %s s make check gives them "
                 "(AG_HANG_BUDGET); fix those, or run one test alone: make check CHECK_ARGS='--only %s' "
                 "(grading runs every test)",
                 plan->hung_test, plan->budget_text, sp->name);
    return 1;
}

int ag_run_test(const ag_suite *suite, int i, ag_plan *plan, ag_result *res)
{
    const ag_spec *sp = &suite->spec[i];
    ag_result *r = &res[i];
    if (r->status == AG_NOT_RUN)
        return 0;
    if (r->status == AG_PENDING && plan->stop_at_loss && plan->lost_before) {
        r->status = AG_NOT_RUN;
        plan->not_run++;
        return 0;
    }
    if (r->status == AG_PENDING && !held(sp, plan, r)) {
        /* Until the time for hangs has been drawn on, every test has its own
         * limit; after, a limit is cut to what is left of it. */
        double limit = sp->timeout > 0 ? sp->timeout : AG_DEFAULT_TIMEOUT;
        int cut = plan->budgeted && plan->hang_budget < plan->initial_budget &&
                  limit * plan->multiplier > plan->hang_budget;
        if (cut)
            limit = plan->hang_budget / plan->multiplier;
        TCase *tc = tcase_create(sp->name);
        tcase_set_timeout(tc, limit);
        if (forking) {
            tcase_add_checked_fixture(tc, test_setup, exit_through_completion_code);
            tcase_add_exit_test(tc, sp->test, completion_code);
        } else {
            tcase_add_test(tc, sp->test);
        }
        suite_add_tcase(check_suite, tc);
        double took, started = wall_time();
        if (plan->chaos_replay && conf_runs(plan->chaos_conf, sp->name)) {
            took = replay_chaos(sp, limit * plan->multiplier, plan, r);
        } else {
            took = run_case(sp, limit * plan->multiplier, r);
            judge_race(sp, limit * plan->multiplier, plan, r);
            took += judge_chaos(sp, limit * plan->multiplier, plan, r);
        }
        r->seconds = wall_time() - started;
        /* A failure found in seconds is not a hang: only a test that did
         * not pass after 5 s or more draws on the budget, or one that had
         * only what was left of it (its limit cut). */
        if (r->status != AG_PASS && plan->budgeted && (took >= 5 || cut)) {
            plan->hang_budget -= took;
            plan->hung_test = sp->name;
        }
        plan->lost_before |= r->status != AG_PASS;
    }
    r->score = r->status == AG_PASS ? sp->points : 0.0;
    return 1;
}
