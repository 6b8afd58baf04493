/* The kit's grading layer over Check: points, visibility, skips, an exit()
 * that cannot pass, and Gradescope's results.json. See grader.h. */
#define _GNU_SOURCE
#include "grader.h"

#include <fcntl.h>
#include <float.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "alloc.h"
#include "checker/stuck.h"
#include "gpu.h"
#include "hints.h"
#include "poisson.h"
#include "random.h"
#include "sanitizer_report.h"
#include "timer.h"

#define AG_MAX_TESTS 256
#define AG_DEFAULT_TIMEOUT 10.0

struct ag_suite {
    ag_spec spec[AG_MAX_TESTS];
    int count;
};

/* AG_NOT_RUN: not asked for (--only, --visible-only), no line; AG_HELD: not
 * run because make check's time for hangs was spent, a line and no points. */
typedef enum { AG_PASS, AG_FAIL, AG_CRASH, AG_TIMEOUT, AG_SKIP, AG_NOT_RUN, AG_PENDING, AG_HELD } ag_status;
static const char *const status_name[] = {"PASS", "FAIL", "CRASH", "TIMEOUT", "SKIP", "NOT RUN", "PENDING", "NOT RUN"};

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
 * (run_logged ends it before that limit: test_deadline). */
static char stuck_dir[32], stuck_path[320];
static double stuck_after, test_deadline;

static void arm_stuck_record(void)
{
    stuck_setup(stuck_path);
    stuck_arm_timer(stuck_after);
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
    suite->spec[suite->count++] = spec;
}

/* n random bytes from the kernel; 0 when it gave fewer. The one source of
 * the secrets that say a test, or a checker program, reached its end. */
static int random_bytes(void *buf, size_t n)
{
    int fd = open("/dev/urandom", O_RDONLY);
    ssize_t got = fd >= 0 ? read(fd, buf, n) : -1;
    if (fd >= 0)
        close(fd);
    return got == (ssize_t)n;
}

static int draw_completion_code(void)
{
    unsigned int r = (unsigned int)time(NULL) ^ (unsigned int)getpid();
    if (!random_bytes(&r, sizeof r))
        r ^= (unsigned int)clock();
    return 100 + (int)(r % 120u); /* 100..219: clear of 0, 1, 2 and the shell's 126+ */
}

/* Runs ask(reason) in a child process and returns its answer, with the
 * reason it wrote: what asks the CUDA driver or an OpenMP offload runtime
 * must never run in this process, which forks the tests. */
static int ask_child(int (*ask)(char *, int), const char *what, char *reason, int len)
{
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(reason, (size_t)len, "could not run %s (pipe failed)", what);
        return 0;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        alarm(60); /* a wedged driver must not hang the whole run */
        char buf[200] = "";
        int n = ask(buf, (int)sizeof buf);
        dprintf(fds[1], "%d %s", n, buf);
        _exit(0);
    }
    close(fds[1]);
    char buf[256] = {0};
    ssize_t got = 0, r;
    while (pid > 0 && (r = read(fds[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0)
        got += r;
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    int n = 0, used = 0;
    if (sscanf(buf, "%d %n", &n, &used) < 1) {
        snprintf(reason, (size_t)len, "%s failed", what);
        return 0;
    }
    snprintf(reason, (size_t)len, "%s", buf + used);
    return n;
}

/* How many GPUs there are, and why not more. */
static int probe_gpus(char *reason, int len) { return ask_child(gpu_count_reason, "the GPU probe", reason, len); }

typedef struct {
    ag_status status;
    double score;
    char message[4200];
} ag_result;

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

static void write_results_json(const char *path, const char *lab, const ag_suite *s, const ag_result *res,
                               double score, double max_score, double seconds, const char *note)
{
    json_object *root = json_object_new_object();
    json_object_object_add(root, "score", json_object_new_double(score));
    json_object_object_add(root, "max_score", json_object_new_double(max_score));
    json_object_object_add(root, "execution_time", json_object_new_double(seconds));
    json_object_object_add(root, "output", json_object_new_string(note));
    json_object_object_add(root, "visibility", json_object_new_string("visible"));
    json_object *tests = json_object_new_array();
    for (int i = 0; i < s->count; i++) {
        if (res[i].status == AG_NOT_RUN)
            continue;
        json_object *t = json_object_new_object();
        json_object_object_add(t, "name", json_object_new_string(s->spec[i].test->name));
        json_object_object_add(t, "score", json_object_new_double(res[i].score));
        json_object_object_add(t, "max_score", json_object_new_double(s->spec[i].points));
        json_object_object_add(t, "status", json_object_new_string(res[i].status == AG_PASS ? "passed" : "failed"));
        char out[4400];
        snprintf(out, sizeof out, "%s%s%s", status_name[res[i].status], res[i].message[0] ? ": " : "",
                 res[i].message);
        json_object_object_add(t, "output", json_object_new_string(out));
        json_object_object_add(t, "visibility", json_object_new_string(s->spec[i].hidden ? "hidden" : "visible"));
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "lab", json_object_new_string(lab));
        json_object_object_add(extra, "result", json_object_new_string(status_name[res[i].status]));
        json_object_object_add(t, "extra_data", extra);
        json_object_array_add(tests, t);
    }
    json_object_object_add(root, "tests", tests);

    /* Written whole or not at all: a reader never sees half a file. */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    if (json_object_to_file_ext(tmp, root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE) != 0 ||
        rename(tmp, path) != 0) {
        fprintf(stderr, "grader: could not write %s\n", path);
        unlink(tmp);
    }
    json_object_put(root);
}

/* The call rules (autograder/labN/calls.conf), checked in the student's
 * objects before the run (autograder/grading/calls.py): AG_CALL_VIOLATIONS
 * names a file of lines "TEST-GLOB<TAB>MESSAGE". A test that a glob names
 * fails with the message, unrun: what its code computes proves nothing when
 * the function under test called a solution (or skipped the work it is
 * graded for). Returns 1 and the messages for such a test. */
static int call_rule_broken(const char *test, char *message, size_t len)
{
    const char *path = getenv("AG_CALL_VIOLATIONS");
    if (!path || !*path)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "grader: cannot read the call rules' verdicts in %s (AG_CALL_VIOLATIONS)\n", path);
        exit(2);
    }
    /* Each rule's message is said in full once, at the first test it
     * fails; a later test it fails points back there. */
    static char *said[128];
    static const char *said_at[128];
    static int nsaid;
    char line[2048];
    const char *first_at = NULL;
    int broken = 0, said_before = 0;
    message[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        if (fnmatch(line, test, 0) != 0)
            continue;
        broken = 1;
        int k = 0;
        while (k < nsaid && strcmp(said[k], tab + 1) != 0)
            k++;
        if (k < nsaid && strcmp(said_at[k], test) != 0) {
            first_at = first_at ? first_at : said_at[k];
            said_before++;
            continue;
        }
        if (k == nsaid && nsaid < 128) {
            said[nsaid] = strdup(tab + 1);
            said_at[nsaid++] = test;
        }
        size_t used = strlen(message);
        snprintf(message + used, len - used, "%s%s", message[0] ? "; " : "", tab + 1);
    }
    fclose(f);
    if (said_before) {
        size_t used = strlen(message);
        snprintf(message + used, len - used, "%scall rule%s said at %s above", message[0] ? "; and the " : "the ",
                 said_before > 1 ? "s" : "", first_at);
    }
    return broken;
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
        if (strcmp(tr_tcname(trs[r]), suite->spec[i].test->name) != 0)
            continue;
        res[i].status = classify(trs[r], limit, res[i].message, sizeof res[i].message);
        char found[1500];
        if (res[i].status != AG_PASS && ag_sanitizer_report(suite->spec[i].test->name, found, sizeof found)) {
            res[i].status = AG_FAIL;
            snprintf(res[i].message, sizeof res[i].message, "the sanitizers stopped the test: %s", found);
        }
        res[i].score = res[i].status == AG_PASS ? suite->spec[i].points : 0.0;
    }
    free(trs);
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

/* A test that ran out of time: name the student functions it tests, from
 * the lab's call rules (AG_CALLS_CONF, lines "FUNCTION tests GLOB..."), so
 * that the line says where to look for the loop that never ends. */
static void name_hung_functions(const char *test, char *message, size_t len)
{
    const char *path = getenv("AG_CALLS_CONF");
    FILE *f = path && *path ? fopen(path, "r") : NULL;
    if (!f)
        return;
    char line[1024], names[512] = "";
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        char func[128], kind[32];
        int used = 0;
        if (line[0] == '#' || sscanf(line, "%127s %31s %n", func, kind, &used) < 2 || strcmp(kind, "tests") != 0)
            continue;
        int hit = 0;
        for (char *tok = strtok(line + used, " \t\n"); tok; tok = strtok(NULL, " \t\n"))
            hit |= fnmatch(tok, test, 0) == 0;
        if (hit && !strstr(names, func) && strlen(names) + strlen(func) + 3 < sizeof names) {
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", found ? ", " : "", func);
            found++;
        }
    }
    fclose(f);
    if (found) {
        size_t used = strlen(message);
        snprintf(message + used, len - used, "; %s %s (or a function %s calls) never returned",
                 found > 1 ? "one of" : "the function", names, found > 1 ? "one of them" : "it");
    }
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
            printf("%-48s %6g points  %s%s\n", suite.spec[i].test->name, suite.spec[i].points,
                   suite.spec[i].hidden ? "hidden" : "visible",
                   suite.spec[i].gpus ? "  (needs a GPU)" : "");
        return 0;
    }
    for (const char *p = only; p && *p;) { /* every name of the list must be a test */
        size_t n = strcspn(p, ",");
        int found = 0;
        for (int i = 0; i < suite.count; i++)
            found |= strlen(suite.spec[i].test->name) == n && !strncmp(suite.spec[i].test->name, p, n);
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
    int gpus = need_gpus ? probe_gpus(gpu_reason, (int)sizeof gpu_reason) : 0;

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
        if ((only && !listed(only, sp->test->name)) || (visible_only && sp->hidden))
            continue;
        shown++;
        listed_points += sp->points;
        /* A test that cannot run here is skipped whatever the code does:
         * its call rules are for a host where it runs. */
        if (sp->gpus > gpus) {
            res[i].status = AG_SKIP;
            snprintf(res[i].message, sizeof res[i].message, "needs %d GPU%s: %s", sp->gpus,
                     sp->gpus > 1 ? "s" : "", gpu_reason);
        } else if (sp->runs_here && !ask_child(sp->runs_here, "the test's host check", res[i].message,
                                               (int)sizeof res[i].message)) {
            res[i].status = AG_SKIP;
        } else if (call_rule_broken(sp->test->name, res[i].message, sizeof res[i].message)) {
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
                     hung_test, budget_env, sp->test->name);
        } else if (res[i].status == AG_PENDING) {
            double limit = sp->timeout > 0 ? sp->timeout : AG_DEFAULT_TIMEOUT;
            int cut = budgeted && hang_budget < initial_budget && limit * multiplier > hang_budget;
            if (cut)
                limit = hang_budget / multiplier;
            TCase *tc = tcase_create(sp->test->name);
            tcase_set_timeout(tc, limit);
            snprintf(stuck_path, sizeof stuck_path, "%s/%s", stuck_dir, sp->test->name);
            test_deadline = wall_time() + limit * multiplier;
            stuck_after = limit * multiplier - (limit * multiplier > 10 ? 1 : 0.1 * limit * multiplier);
            if (forking) {
                tcase_add_checked_fixture(tc, stuck_dir[0] ? arm_stuck_record : NULL, exit_through_completion_code);
                tcase_add_exit_test(tc, sp->test, completion_code);
            } else {
                tcase_add_test(tc, sp->test);
            }
            suite_add_tcase(cs, tc);
            double started = wall_time();
            srunner_run(sr, lab, sp->test->name, CK_SILENT);
            collect_results(sr, &suite, res, i, limit * multiplier);
            /* A failure found in seconds is not a hang: only a test that
             * did not pass after 5 s or more draws on the budget, or one
             * that had only what was left of it (its limit cut). */
            double took = wall_time() - started;
            if (res[i].status != AG_PASS && budgeted && (took >= 5 || cut)) {
                hang_budget -= took;
                hung_test = sp->test->name;
            }
            if (res[i].status == AG_TIMEOUT && !name_stuck_place(res[i].message, sizeof res[i].message))
                name_hung_functions(sp->test->name, res[i].message, sizeof res[i].message);
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
        printf("  %-7s %5g/%-4g %s%s%s%s\n", status_name[res[i].status], res[i].score, sp->points,
               sp->test->name, sp->hidden ? " [hidden]" : "", res[i].message[0] ? ": " : "", res[i].message);
    }
    double seconds = wall_time() - t0;

    char note[512];
    if (skipped > 0)
        snprintf(note, sizeof note, "score: %g/%g (%g points skipped, not passed: %s)", score, max_score,
                 skipped, gpu_reason);
    else
        snprintf(note, sizeof note, "score: %g/%g", score, max_score);
    printf("%s\n", note);
    if (results_path)
        write_results_json(results_path, lab, &suite, res, score, max_score, seconds, note);

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

/* ---- array comparison ---------------------------------------------------- */

static void format_index(char *buf, size_t len, const size_t *dims, int ndims, size_t flat)
{
    size_t idx[3] = {0, 0, 0};
    for (int d = ndims - 1; d >= 0; d--) {
        idx[d] = flat % dims[d];
        flat /= dims[d];
    }
    if (ndims == 1)
        snprintf(buf, len, "[%zu]", idx[0]);
    else if (ndims == 2)
        snprintf(buf, len, "[%zu][%zu]", idx[0], idx[1]);
    else
        snprintf(buf, len, "[%zu][%zu][%zu]", idx[0], idx[1], idx[2]);
}

static int element_wrong(double e, double g, double tol)
{
    if (tol < 0)
        return !(g == e); /* exact: -0 equals +0, NaN equals nothing */
    if (isfinite(e) && !isfinite(g))
        return 1;
    return !(fabs(g - e) <= tol);
}

static void assert_array_eq(const double *expected, const double *got, const size_t *dims, int ndims,
                            double tol, const char *context)
{
    size_t n = 1;
    for (int d = 0; d < ndims; d++)
        n *= dims[d];
    size_t wrong = 0, first = 0, worst = 0;
    double worst_err = -1, worst_rel = 0, scale = 0;
    int floats = 1; /* every expected value a float: floats were compared */
    for (size_t i = 0; i < n; i++) {
        scale = isfinite(expected[i]) ? fmax(scale, fabs(expected[i])) : scale;
        floats &= !isfinite(expected[i]) || (double)(float)expected[i] == expected[i];
        if (!element_wrong(expected[i], got[i], tol))
            continue;
        if (wrong++ == 0)
            first = i;
        double err = fabs(got[i] - expected[i]);
        double rel = err / fmax(fabs(expected[i]), DBL_MIN);
        worst_rel = isnan(rel) || rel > worst_rel ? (isnan(rel) ? INFINITY : rel) : worst_rel;
        if (isnan(err) || err > worst_err) {
            worst_err = isnan(err) ? INFINITY : err;
            worst = i;
        }
    }
    if (wrong == 0)
        return;
    char at[64], worst_at[64], shape[64];
    format_index(at, sizeof at, dims, ndims, first);
    format_index(worst_at, sizeof worst_at, dims, ndims, worst);
    if (ndims == 1)
        snprintf(shape, sizeof shape, "%zu", dims[0]);
    else if (ndims == 2)
        snprintf(shape, sizeof shape, "%zux%zu", dims[0], dims[1]);
    else
        snprintf(shape, sizeof shape, "%zux%zux%zu", dims[0], dims[1], dims[2]);
    const char *how = tol < 0 ? "exactly" : "within";
    char tolbuf[48] = "";
    if (tol >= 0)
        snprintf(tolbuf, sizeof tolbuf, " %.3g", tol);
    const char *hint = isnan(got[first]) && !isnan(expected[first])
                           ? " (the output was filled with NaN before the call: never written?)"
                           : ag_order_hint_array(worst_rel, worst_err, scale, floats);
    ck_abort_msg("%s: element %s expected %.17g, got %.17g%s; %zu of %zu elements (%s) not equal %s%s; "
                 "largest error %.3g at %s",
                 context, at, expected[first], got[first], hint, wrong, n, shape, how, tolbuf, worst_err,
                 worst_at);
}

/* The two public comparators differ only in the shape they pass on. */
static void assert_array_eqv(const double *expected, const double *got, const size_t *dims, int ndims, double tol,
                             const char *context_fmt, va_list ap)
{
    char context[512];
    vsnprintf(context, sizeof context, context_fmt, ap);
    assert_array_eq(expected, got, dims, ndims, tol, context);
}

void ag_assert_matrix_eq(const double *expected, const double *got, size_t rows, size_t cols, double tol,
                         const char *context_fmt, ...)
{
    size_t dims[2] = {rows, cols};
    va_list ap;
    va_start(ap, context_fmt);
    assert_array_eqv(expected, got, dims, cols == 1 ? 1 : 2, tol, context_fmt, ap);
    va_end(ap);
}

void ag_assert_grid_eq(const double *expected, const double *got, size_t n0, size_t n1, size_t n2, double tol,
                       const char *context_fmt, ...)
{
    size_t dims[3] = {n0, n1, n2};
    va_list ap;
    va_start(ap, context_fmt);
    assert_array_eqv(expected, got, dims, 3, tol, context_fmt, ap);
    va_end(ap);
}

void ag_poison(double *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = NAN;
}

/* Keeps the program's FAIL lines (else the last 1000 bytes of its output)
 * in out, for the failure message. */
static void mpi_log_excerpt(const char *log, char *out, size_t cap)
{
    char line[512];
    size_t used = 0;
    int fails = 0;
    FILE *fp = fopen(log, "r");
    out[0] = '\0';
    if (!fp)
        return;
    while (fgets(line, sizeof line, fp))
        if (!strncmp(line, "FAIL", 4) && used + strlen(line) < cap) {
            strcpy(out + used, line);
            used += strlen(line);
            fails++;
        }
    if (!fails) {
        /* A sanitizer's report: its first error (a race or an overflow in
         * the student's code, with its stack), not the tail, which names
         * the harness the report ends in. Else the end of the output. */
        long from = -1, at = 0;
        rewind(fp);
        while (from < 0 && fgets(line, sizeof line, fp)) {
            if (strstr(line, "WARNING: ThreadSanitizer") || strstr(line, "ERROR: AddressSanitizer") ||
                strstr(line, "runtime error:"))
                from = at;
            at = ftell(fp);
        }
        fseek(fp, 0, SEEK_END);
        long size = ftell(fp);
        fseek(fp, from >= 0 ? from : size > 1000 ? size - 1000 : 0, SEEK_SET);
        used = fread(out, 1, cap - 1, fp);
        out[used] = '\0';
    }
    fclose(fp);
}

/* A checked run: its output, and the report in which each rank of a
 * checker program says it reached the end of its checks (see
 * autograder/checker/completion.h), with the token drawn for this run. */
typedef struct {
    char log[32], report[32], token[40], stuck[32];
} ag_run_files;

/* A fresh token of 128 random bits, in hex: the checker programs' form of
 * the forked tests' completion code. */
static void draw_token(char *out, size_t cap)
{
    unsigned char r[16] = {0};
    ck_assert_msg(random_bytes(r, sizeof r), "cannot read /dev/urandom for the checker's token");
    size_t used = 0;
    for (size_t i = 0; i < sizeof r && used + 3 <= cap; i++)
        used += (size_t)snprintf(out + used, cap - used, "%02x", r[i]);
}

static void fresh_tmp_file(char *path, const char *pattern)
{
    strcpy(path, pattern);
    int fd = mkstemp(path);
    ck_assert_msg(fd >= 0, "cannot create a file in /tmp");
    close(fd);
}

/* Runs PROGRAM of the test binary's folder (on np ranks under mpirun; np =
 * 0: alone) within the time limit, its output into a fresh file of /tmp;
 * returns its exit status (124 or 137: it ran out of time). */
static int run_logged(const char *program, int np, const char *args, int seconds, ag_run_files *f)
{
    char dir[PATH_MAX], cmd[2 * PATH_MAX + 640], mpirun[256] = "";
    ssize_t len = readlink("/proc/self/exe", dir, sizeof dir - 1);
    ck_assert_msg(len > 0, "cannot find the test program's own path");
    dir[len] = '\0';
    *strrchr(dir, '/') = '\0';
    fresh_tmp_file(f->log, "/tmp/ag_run_XXXXXX");
    fresh_tmp_file(f->report, "/tmp/ag_done_XXXXXX");
    draw_token(f->token, sizeof f->token);
    setenv("AG_CHECKER_TOKEN", f->token, 1);
    setenv("AG_CHECKER_REPORT", f->report, 1);
    /* The ranks record where they are when the run is ended (a hang). */
    strcpy(f->stuck, "/tmp/ag_where_XXXXXX");
    setenv("AG_CHECKER_STUCK", mkdtemp(f->stuck) ? f->stuck : "", 1);
    /* A run ends before its test's time limit, so that the test, not
     * Check, says what happened (and where it was stuck), and no rank is
     * left running. */
    int left = (int)(test_deadline - wall_time()) - 3;
    if (test_deadline > 0 && left < seconds)
        seconds = left > 1 ? left : 1;
    char limit[16];
    snprintf(limit, sizeof limit, "%d", seconds);
    setenv("AG_CHECKER_SECONDS", limit, 1);
    if (np > 0) {
        /* Open MPI 4 will not start without an ssh or rsh to launch daemons
         * on other hosts, even when every rank runs on this one (it then
         * never calls it), and the sandbox has neither: name one that
         * exists. A setting of the grader's own environment wins. */
        setenv("OMPI_MCA_plm_rsh_agent", "false", 0);
        /* NCCL's NVLink multicast stays off on the kit's GPU hosts; the
         * checker's token and report reach every rank. */
        snprintf(mpirun, sizeof mpirun,
                 "mpirun %s --oversubscribe -np %d -x NCCL_NVLS_ENABLE=0 -x AG_CHECKER_TOKEN -x AG_CHECKER_REPORT "
                 "-x AG_CHECKER_STUCK -x AG_CHECKER_SECONDS",
                 geteuid() == 0 ? "--allow-run-as-root" : "", np);
    }
    snprintf(cmd, sizeof cmd, "timeout -k 5 %d %s %s/%s %s >%s 2>&1", seconds, mpirun, dir, program, args, f->log);
    int status = system(cmd);
    unsetenv("AG_CHECKER_TOKEN");
    unsetenv("AG_CHECKER_REPORT");
    unsetenv("AG_CHECKER_STUCK");
    unsetenv("AG_CHECKER_SECONDS");
    return status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void remove_run_files(const ag_run_files *f)
{
    unlink(f->log);
    unlink(f->report);
    char where[8];
    stuck_describe_all(f->stuck, NULL, where, sizeof where); /* removes what is left */
}

/* The ranks (of np, or the one process for np = 0) that did not report
 * the end of their checks with this run's token, as a list in missing;
 * returns how many. A line with another token counts for nothing. */
static int unreported_ranks(const ag_run_files *f, int np, char *missing, size_t cap)
{
    int ranks = np > 0 ? np : 1, count = 0;
    char *seen = calloc((size_t)ranks, 1), line[160], tok[64];
    ck_assert_msg(seen != NULL, "test: out of memory");
    FILE *fp = fopen(f->report, "r");
    while (fp && fgets(line, sizeof line, fp)) {
        int r, used = 0;
        if (sscanf(line, "%63s %d ok%n", tok, &r, &used) == 2 && used && !strcmp(tok, f->token) && r >= 0 && r < ranks)
            seen[r] = 1;
    }
    if (fp)
        fclose(fp);
    size_t at = 0;
    missing[0] = '\0';
    for (int r = 0; r < ranks; r++)
        if (!seen[r] && count++ < 16 && at < cap)
            at += (size_t)snprintf(missing + at, cap - at, "%s%d", at ? " " : "", r);
    free(seen);
    return count;
}

static int ran_out_of_time(int rc) { return rc == 124 || rc == 137; }

/* How a run is named in messages: "mpirun -np 3 prog args" or "prog args". */
static const char *run_name(char *buf, size_t cap, const char *program, int np, const char *args)
{
    if (np > 0)
        snprintf(buf, cap, "mpirun -np %d %s %s", np, program, args);
    else
        snprintf(buf, cap, "%s %s", program, args);
    return buf;
}

/* Passes only on exit status 0 with every rank's report of the end of its
 * checks: a status of 0 alone may come from code under test that ended the
 * program before the checks ran. */
static void run_expecting_success(const char *program, int np, const char *args, int seconds)
{
    ag_run_files f;
    char out[1500], name[512], missing[128] = "";
    int rc = run_logged(program, np, args, seconds, &f);
    int unreported = rc == 0 ? unreported_ranks(&f, np, missing, sizeof missing) : 0;
    char where[700] = "", exe[PATH_MAX];
    if (rc != 0 || unreported) {
        mpi_log_excerpt(f.log, out, sizeof out);
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = '\0';
        if (n > 0 && strrchr(exe, '/'))
            snprintf(strrchr(exe, '/') + 1, sizeof exe - (size_t)(strrchr(exe, '/') + 1 - exe), "%s", program);
        if (stuck_describe_all(f.stuck, exe, where + 2, sizeof where - 2))
            memcpy(where, "; ", 2);
    }
    remove_run_files(&f);
    run_name(name, sizeof name, program, np, args);
    char who[160] = "the program";
    if (np > 0)
        snprintf(who, sizeof who, "%s %s", unreported > 1 ? "ranks" : "rank", missing);
    if (rc == 0 && unreported)
        ck_abort_msg("%s: exit status 0, but %s never reached the end of the checker's checks: the program ended "
                     "before its results were checked (an exit(), _exit() or MPI_Finalize in the code under test?):\n%s",
                     name, who, out);
    if (rc == 0)
        return;
    ck_abort_msg("%s %s (exit status %d)%s:\n%s", name,
                 ran_out_of_time(rc) ? "ran out of time (a hang: a missing or mismatched exchange?)" : "failed", rc,
                 where, out);
}

void ag_run_mpi(const char *program, int np, const char *args, int seconds)
{
    ck_assert_msg(np > 0, "test bug: ag_run_mpi needs np >= 1");
    run_expecting_success(program, np, args, seconds);
}

void ag_run_program(const char *program, const char *args, int seconds)
{
    run_expecting_success(program, 0, args, seconds);
}

void ag_run_mpi_refused(const char *program, int np, const char *args, const char *text, int seconds)
{
    ag_run_files f;
    char out[4096], name[512];
    int rc = run_logged(program, np, args, seconds, &f);
    run_name(name, sizeof name, program, np, args);
    FILE *fp = fopen(f.log, "r");
    size_t got = fp ? fread(out, 1, sizeof out - 1, fp) : 0;
    out[got] = '\0';
    if (fp)
        fclose(fp);
    remove_run_files(&f);
    ck_assert_msg(!ran_out_of_time(rc), "%s: no end within %d s (expected a clean refusal)", name, seconds);
    ck_assert_msg(rc != 0, "%s: exit status 0; expected a message and a non-zero exit (output: %.300s)", name, out);
    ck_assert_msg(strstr(out, text) != NULL, "%s: exit status %d, but its output lacks \"%s\": %.400s", name, rc, text,
                  out);
}

/* ---- helpers the labs' tests share --------------------------------------- */

double ag_max_abs(const double *a, size_t n)
{
    double mx = 0.0;
    for (size_t i = 0; i < n; i++)
        mx = fmax(mx, fabs(a[i]));
    return mx;
}

const void *ag_find_named(const void *table, int count, size_t stride, const char *name)
{
    for (int i = 0; i < count; i++) {
        const char *const *entry = (const char *const *)((const char *)table + (size_t)i * stride);
        if (!strcmp(*entry, name))
            return entry;
    }
    ck_abort_msg("test bug: no entry named %s", name);
    return NULL;
}

void ag_mm_problem_make(ag_mm_problem *p, ag_mm_size s, ag_mm_inputs inputs, uint64_t seed)
{
    p->size = s;
    p->inputs = inputs;
    p->sa = (size_t)s.m * s.k;
    p->sb = (size_t)s.k * s.n;
    p->sc = (size_t)s.m * s.n;
    p->A = kit_alloc_doubles(p->sa);
    p->B = kit_alloc_doubles(p->sb);
    p->R = kit_alloc_doubles(p->sc);
    const size_t n = (size_t)s.n, k = (size_t)s.k;
    if (inputs == AG_MM_INTEGER) {
        kit_fill_int(p->A, p->sa, -4, 4, seed);
        kit_fill_int(p->B, p->sb, -4, 4, seed + 1);
        /* In integers: |sum| <= 16 k, exact in int64_t and in double. Row
         * by row, l outside j, so that 2^28 elements of C stay cheap. */
        int64_t *row = malloc(n * sizeof *row);
        ck_assert_msg(row != NULL, "test: out of memory");
        for (size_t i = 0; i < (size_t)s.m; i++) {
            memset(row, 0, n * sizeof *row);
            for (size_t l = 0; l < k; l++) {
                const int64_t a = (int64_t)p->A[i * k + l];
                const double *b = &p->B[l * n];
                for (size_t j = 0; j < n; j++)
                    row[j] += a * (int64_t)b[j];
            }
            for (size_t j = 0; j < n; j++)
                p->R[i * n + j] = (double)row[j];
        }
        free(row);
        p->tol = -1.0;
    } else {
        kit_fill_real(p->A, p->sa, -1.0, 1.0, seed);
        kit_fill_real(p->B, p->sb, -1.0, 1.0, seed + 1);
        long double *row = malloc(n * sizeof *row);
        ck_assert_msg(row != NULL, "test: out of memory");
        for (size_t i = 0; i < (size_t)s.m; i++) {
            for (size_t j = 0; j < n; j++)
                row[j] = 0.0L;
            for (size_t l = 0; l < k; l++) {
                const long double a = p->A[i * k + l];
                const double *b = &p->B[l * n];
                for (size_t j = 0; j < n; j++)
                    row[j] += a * b[j];
            }
            for (size_t j = 0; j < n; j++)
                p->R[i * n + j] = (double)row[j];
        }
        free(row);
        p->tol = 1e-12 * s.k * ag_max_abs(p->A, p->sa) * ag_max_abs(p->B, p->sb);
    }
}

void ag_mm_problem_free(ag_mm_problem *p)
{
    kit_free(p->A), kit_free(p->B), kit_free(p->R);
    p->A = p->B = p->R = NULL;
}

size_t ag_mm_count_wrong(const ag_mm_problem *p, const double *C)
{
    size_t wrong = 0;
    for (size_t i = 0; i < p->sc; i++)
        wrong += p->tol < 0 ? !(C[i] == p->R[i]) : !(fabs(C[i] - p->R[i]) <= p->tol);
    return wrong;
}

void ag_mm_check(const ag_mm_problem *p, ag_mm_call call, const void *arg, double *C, const char *what)
{
    const ag_mm_size s = p->size;
    double *own = NULL;
    if (!C) {
        C = own = kit_alloc_doubles(p->sc);
        ag_poison(C, p->sc);
    }
    double *A0 = kit_alloc_doubles(p->sa), *B0 = kit_alloc_doubles(p->sb);
    memcpy(A0, p->A, p->sa * sizeof *A0);
    memcpy(B0, p->B, p->sb * sizeof *B0);
    call(s.m, s.n, s.k, p->A, p->B, C, arg);
    const char *kind = p->inputs == AG_MM_INTEGER ? "integer" : "real";
    ag_assert_matrix_eq(p->R, C, (size_t)s.m, (size_t)s.n, p->tol, "%s, m=%d n=%d k=%d, %s inputs, C", what, s.m, s.n,
                        s.k, kind);
    ag_assert_matrix_eq(A0, p->A, (size_t)s.m, (size_t)s.k, -1.0, "%s, m=%d n=%d k=%d changed its input A", what, s.m,
                        s.n, s.k);
    ag_assert_matrix_eq(B0, p->B, (size_t)s.k, (size_t)s.n, -1.0, "%s, m=%d n=%d k=%d changed its input B", what, s.m,
                        s.n, s.k);
    kit_free(own), kit_free(A0), kit_free(B0);
}

ag_grid ag_grid_new(int N, double T0)
{
    ag_grid g = {N, poisson_points(N), NULL, NULL, NULL};
    g.f = kit_alloc_doubles(g.n);
    g.u = kit_alloc_doubles(g.n);
    g.u_old = kit_alloc_doubles(g.n);
    poisson_init(N, T0, g.f, g.u);
    memcpy(g.u_old, g.u, g.n * sizeof *g.u);
    return g;
}

ag_grid ag_grid_copy(const ag_grid *g)
{
    ag_grid c = *g;
    c.f = kit_alloc_doubles(g->n);
    c.u = kit_alloc_doubles(g->n);
    c.u_old = kit_alloc_doubles(g->n);
    memcpy(c.f, g->f, g->n * sizeof *g->f);
    memcpy(c.u, g->u, g->n * sizeof *g->u);
    memcpy(c.u_old, g->u_old, g->n * sizeof *g->u_old);
    return c;
}

void ag_grid_free(ag_grid *g)
{
    kit_free(g->f), kit_free(g->u), kit_free(g->u_old);
    g->f = g->u = g->u_old = NULL;
}
