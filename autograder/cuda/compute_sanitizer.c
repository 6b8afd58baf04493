/* The compute-sanitizer tests (compute_sanitizer.h says what they do). */
#define _GNU_SOURCE
#include "compute_sanitizer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/runner.h"
#include "timer.h"

/* The toolkit the kit was built with (cuda_tests.mk). */
#ifndef AG_CUDA_HOME
#define AG_CUDA_HOME "/usr/local/cuda"
#endif

/* A sanitizer's report is long; what the message quotes is its start. */
#define KEEP_BYTES (1 << 20)

static int executable(const char *path) { return path && *path && access(path, X_OK) == 0; }

/* AG_COMPUTE_SANITIZER, else the build's toolkit (bin/, or the tool's own
 * folder where a toolkit keeps it), else PATH. */
static const char *find_sanitizer(void)
{
    static char found[4096];
    const char *env = getenv("AG_COMPUTE_SANITIZER");
    if (env && *env)
        return executable(env) ? env : NULL;
    const char *in_home[] = {"/bin/compute-sanitizer", "/compute-sanitizer/compute-sanitizer"};
    for (int i = 0; i < 2; i++) {
        snprintf(found, sizeof found, "%s%s", AG_CUDA_HOME, in_home[i]);
        if (executable(found))
            return found;
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(found, sizeof found, "%.*s/compute-sanitizer", (int)n, path);
        if (n && executable(found))
            return found;
        path += n + (path[n] == ':');
    }
    return NULL;
}

/* compute-sanitizer reads the program it starts, and starts it under
 * ptrace. The program it runs is the test program built again without the
 * tests students do not see, beside it (test_labN_sanitizer,
 * common/mk/lab.mk): grading keeps the test program itself unreadable (an
 * unreadable program runs non-dumpable, so a test's code cannot write the
 * runner's memory through /proc) and leaves this one readable. Without it
 * (a build from before), the test program itself, where it is readable.
 * With the test program unreadable the tool says only "Error launching target app."; with it readable, lab 3's
 * tests pass in the grading sandbox. */
static int sanitizer_target(char *path, size_t len)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return 0;
    self[n] = '\0';
    snprintf(path, len, "%s_sanitizer", self);
    if (access(path, R_OK | X_OK) == 0)
        return 1;
    snprintf(path, len, "%s", self);
    return access(path, R_OK) == 0;
}

/* A child asks to be traced, and says whether it may. */
static int ptrace_allowed(void)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0)
        _exit(ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0 ? 0 : 1);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int ag_compute_sanitizer_here(char *why, int len)
{
    if (getenv("AG_SANITIZER_INNER"))
        return 1;
    if (!find_sanitizer()) {
        snprintf(why, (size_t)len,
                 "this CUDA toolkit (%s) has no compute-sanitizer, nor has PATH (a GPU host's full toolkit has it; "
                 "AG_COMPUTE_SANITIZER=PATH names it elsewhere)",
                 AG_CUDA_HOME);
        return 0;
    }
    char target[4200];
    int readable = sanitizer_target(target, sizeof target);
    if (!readable || !ptrace_allowed()) {
        snprintf(why, (size_t)len, "compute-sanitizer cannot start the program here: %s",
                 readable ? "ptrace is refused" : "it is execute-only, and no readable test_labN_sanitizer is beside it");
        return 0;
    }
    return 1;
}

/* --- reading a report ---------------------------------------------------- */

/* The text of a sanitizer line ("========= TEXT"), with its indent, or NULL. */
static const char *report_text(const char *line, int *indent)
{
    if (strncmp(line, "=========", 9))
        return NULL;
    line += 9;
    *indent = (int)strspn(line, " ");
    return line + *indent;
}

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* Lines of the tool's own, not a report's headline. */
static int banner(const char *text)
{
    static const char *const own[] = {"COMPUTE-SANITIZER", "ERROR SUMMARY", "LEAK SUMMARY", "RACECHECK SUMMARY",
                                      "Target application", "Saved host backtrace", "Host Frame", "Device Frame"};
    if (!*text)
        return 1;
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (starts(text, own[i]))
            return 1;
    return 0;
}

/* The first "FILE.cu:LINE" (or .cuh, .c, .h, .cpp) in the line's n bytes,
 * into out; 0 when there is none. */
static int source_location(const char *line, size_t n, char *out, size_t len)
{
    static const char *const ext[] = {".cu:", ".cuh:", ".c:", ".h:", ".cpp:"};
    for (size_t i = 0; i < n; i++)
        for (size_t e = 0; e < sizeof ext / sizeof ext[0]; e++) {
            size_t el = strlen(ext[e]);
            if (i + el >= n || strncmp(line + i, ext[e], el) || line[i + el] < '0' || line[i + el] > '9')
                continue;
            size_t start = i, end = i + el;
            while (start > 0 && !strchr(" \t(", line[start - 1]))
                start--;
            while (end < n && line[end] >= '0' && line[end] <= '9')
                end++;
            if (start < i) {
                snprintf(out, len, "%.*s", (int)(end - start), line + start);
                return 1;
            }
        }
    return 0;
}

int ag_sanitizer_first_report(const char *output, char *out, int len)
{
    int errors = -1;
    const char *summary = strstr(output, "ERROR SUMMARY: ");
    if (summary)
        errors = atoi(summary + strlen("ERROR SUMMARY: "));
    /* racecheck ends with its own line instead (CUDA 13):
     * "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)" */
    const char *races = strstr(output, "RACECHECK SUMMARY: ");
    const char *open = races ? strchr(races, '(') : NULL;
    if (errors < 0 && open && strcspn(races, "\n") > (size_t)(open - races))
        errors = atoi(open + 1);
    char headline[600] = "", where[600] = "";
    int in_report = 0;
    for (const char *line = output; *line;) {
        size_t n = strcspn(line, "\n");
        int indent = 0;
        const char *text = report_text(line, &indent);
        if (text) {
            size_t tn = n - (size_t)(text - line);
            /* a headline has one space of indent; its details more */
            if (indent <= 1 && !banner(text)) {
                if (in_report)
                    break; /* the next report: the first has no location */
                in_report = 1;
                snprintf(headline, sizeof headline, "%.*s", (int)tn, text);
            }
            if (in_report && source_location(text, tn, where, sizeof where))
                break;
        }
        line += n + (line[n] == '\n');
    }
    if (headline[0] && where[0])
        snprintf(out, (size_t)len, "%s: %s", where, headline);
    else if (headline[0])
        snprintf(out, (size_t)len, "%s", headline);
    else
        snprintf(out, (size_t)len, "compute-sanitizer counted %d error%s", errors, errors == 1 ? "" : "s");
    return errors;
}

/* --- running the case under one tool --------------------------------------- */

typedef struct {
    char *text;
    size_t len;
    int status;    /* waitpid's */
    int timed_out;
} run_output;

static void run_tool(const char *sanitizer, const char *tool, const char *name, double deadline, run_output *r)
{
    char target[4200];
    ck_assert_msg(sanitizer_target(target, sizeof target),
                  "sanitizer test: no readable program to run under the tool (%s)", target);
    int fd[2];
    ck_assert_msg(pipe(fd) == 0, "sanitizer test: pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_msg(pid >= 0, "sanitizer test: fork: %s", strerror(errno));
    if (pid == 0) {
        setpgid(0, 0);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        /* the case alone, once, in one process: none of the outer run's
         * repeats, chaos seeds, results file or budgets */
        setenv("AG_SANITIZER_INNER", "1", 1);
        setenv("CK_FORK", "no", 1);
        /* A lab whose files are built with AddressSanitizer (5-7): its
         * runtime checks that it is the first library loaded, and under the
         * tool (whose injection library is loaded first) it is not; the
         * order does not matter to what it checks. */
        const char *asan = getenv("ASAN_OPTIONS");
        char asan_options[1024];
        snprintf(asan_options, sizeof asan_options, "%s%sverify_asan_link_order=0", asan ? asan : "",
                 asan && *asan ? ":" : "");
        setenv("ASAN_OPTIONS", asan_options, 1);
        const char *outer[] = {"AG_RESULTS",    "AG_REPEAT_CONF",        "AG_CHAOS_CONF", "AG_HANG_BUDGET",
                               "AG_CALLS_CONF", "AG_CALL_VIOLATIONS",    "AG_STOP_AT_FIRST_LOSS"};
        for (size_t i = 0; i < sizeof outer / sizeof outer[0]; i++)
            unsetenv(outer[i]);
        char *argv[] = {(char *)sanitizer, "--tool", (char *)tool, "--error-exitcode", "86",
                        /* the case's own CUDA_CHECKs report a failing call; the tool looks at the kernels */
                        "--report-api-errors", "no", "--print-limit", "20", target, "--only", (char *)name, NULL};
        execv(sanitizer, argv);
        fprintf(stderr, "cannot run %s: %s\n", sanitizer, strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    fcntl(fd[0], F_SETFL, O_NONBLOCK);
    r->text = calloc(KEEP_BYTES + 1, 1);
    ck_assert_msg(r->text != NULL, "sanitizer test: out of memory");
    r->len = 0;
    r->timed_out = 0;
    for (;;) {
        double left = deadline - wall_time();
        if (left <= 0) {
            r->timed_out = 1;
            kill(-pid, SIGKILL);
            break;
        }
        struct pollfd p = {fd[0], POLLIN, 0};
        if (poll(&p, 1, left > 1 ? 1000 : (int)(left * 1000) + 1) <= 0)
            continue;
        char buf[8192];
        ssize_t got = read(fd[0], buf, sizeof buf);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR))
            break;
        if (got > 0 && r->len < KEEP_BYTES) {
            size_t take = (size_t)got < KEEP_BYTES - r->len ? (size_t)got : KEEP_BYTES - r->len;
            memcpy(r->text + r->len, buf, take);
            r->len += take;
        }
    }
    close(fd[0]);
    waitpid(pid, &r->status, 0);
}

/* The inner run's own line for the test (the runner's "  FAIL ... NAME: why"). */
static void inner_verdict(const char *output, const char *name, char *out, size_t len)
{
    /* failing that, the first line past the tool's banner (a tool or a
     * program that did not start says why there: "==N==ASan runtime does
     * not come first ...", "========= Error: ...") */
    snprintf(out, len, "%.*s", (int)strcspn(output, "\n"), output);
    for (const char *line = output; *line;) {
        size_t n = strcspn(line, "\n");
        if (n && !strstr(line, "COMPUTE-SANITIZER")) {
            snprintf(out, len, "%.*s", (int)n, line);
            break;
        }
        line += n + (line[n] == '\n');
    }
    for (const char *line = output; *line;) {
        size_t n = strcspn(line, "\n");
        const char *at = strstr(line, name);
        if (at && at < line + n && strncmp(line, "=========", 9) &&
            (strstr(line, "FAIL") || strstr(line, "CRASH") || strstr(line, "TIMEOUT"))) {
            snprintf(out, len, "%.*s", (int)(n - (size_t)(at - line)), at);
            return;
        }
        line += n + (line[n] == '\n');
    }
}

/* The body of every AG_SANITIZED test (a TTest of our own, as launch.c's:
 * START_TEST's would be static). */
static void run_sanitized(int _i)
{
    (void)_i;
    const ag_sanitized_case *c = ag_test_arg();
    ck_assert_msg(c != NULL, "test bug: a sanitizer test registered without its case (AG_SANITIZED)");
    if (getenv("AG_SANITIZER_INNER")) {
        c->small_case();
        return;
    }
    const char *sanitizer = find_sanitizer();
    ck_assert_msg(sanitizer != NULL, "compute-sanitizer is gone since the test was planned");
    double deadline = ag_test_deadline();
    /* the runner's deadline is on wall_time's clock (CLOCK_MONOTONIC) */
    if (deadline > 0)
        deadline -= 2; /* time to say which tool did not finish */
    else
        deadline = wall_time() + 600;
    char tools[256];
    snprintf(tools, sizeof tools, "%s", c->tools);
    for (char *save = NULL, *tool = strtok_r(tools, " ", &save); tool; tool = strtok_r(NULL, " ", &save)) {
        run_output r;
        run_tool(sanitizer, tool, c->name, deadline, &r);
        char first[1400];
        int errors = ag_sanitizer_first_report(r.text, first, sizeof first);
        int code = WIFEXITED(r.status) ? WEXITSTATUS(r.status) : -1;
        if (r.timed_out) {
            free(r.text);
            ck_abort_msg("compute-sanitizer --tool %s did not finish %s's small case within the test's limit "
                         "(a kernel that never ends, or one far too slow under the tool)",
                         tool, c->name);
        }
        if (errors > 0 || code == 86) {
            char msg[1700];
            snprintf(msg, sizeof msg,
                     "%s (compute-sanitizer --tool %s, %d error%s in %s's small case; replay: AG_SANITIZER_INNER=1 "
                     "CK_FORK=no compute-sanitizer --tool %s TEST_PROGRAM --only %s)",
                     first, tool, errors, errors == 1 ? "" : "s", c->name, tool, c->name);
            free(r.text);
            ck_abort_msg("%s", msg);
        }
        if (errors < 0 || code != 0) {
            char why[1000];
            inner_verdict(r.text, c->name, why, sizeof why);
            free(r.text);
            ck_abort_msg("the small case failed under compute-sanitizer --tool %s (exit %d%s): %s", tool, code,
                         errors < 0 ? ", no error summary" : "", why);
        }
        free(r.text);
    }
}

static const TTest sanitized = {"ag_sanitized", run_sanitized, __FILE__, __LINE__};
const TTest *const ag_sanitized_test = &sanitized;
