/* Checker programs run alone or under mpirun, with a time limit and a
 * token each rank reports at the end of its checks: see launch.h. */
#define _GNU_SOURCE
#include "launch.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "mpi_checker/stuck.h"
#include "runner.h"
#include "run.h"
#include "sanitizer_report.h"
#include "timer.h"

/* What a rank's line "FAIL rank N: TEXT" says after its rank, or NULL. */
static const char *after_rank(const char *line)
{
    int n = 0;
    sscanf(line, "FAIL rank %*d: %n", &n);
    return n ? line + n : NULL;
}

/* Whether out already holds a rank's line that says what line says (every
 * rank that crashes alike says it alike: once is enough; the ranks are
 * named with where each was). */
static int said_by_another_rank(const char *out, const char *line)
{
    const char *text = after_rank(line);
    for (const char *at = out; text && at && *at; at = strchr(at, '\n'), at = at ? at + 1 : NULL) {
        const char *other = after_rank(at);
        if (other && !strncmp(other, text, strlen(text)))
            return 1;
    }
    return 0;
}

/* A line of its own in which the kit's code (a backend, a checker, a
 * given driver) says why a call failed, "host backend: a launch while the
 * previous one runs (synchronize first)": a name, a colon and the reason.
 * Not a FAIL line, nor the runtimes' capitals (a sanitizer's SUMMARY, an
 * MPI library's WARNING: read elsewhere, or not about the code), nor
 * mpirun's. */
static int explains(const char *line)
{
    size_t name = strspn(line, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ ");
    return name > 0 && name <= 40 && line[0] != ' ' && line[name] == ':' && line[name + 1] == ' ' &&
           strcspn(line, "abcdefghijklmnopqrstuvwxyz") < name && strncmp(line, "mpirun", 6) &&
           !strstr(line, "Sanitizer");
}

/* A sanitizer's stop after the checker's failures may be their
 * consequence (a pack still running when the failed call returned), so it
 * is said after them and not as their cause. */
static const char AFTER_FAILURES[] = "after those failures the sanitizers stopped a rank (perhaps their consequence: "
                                     "fix the first failure first; the line it names may be correct): ";

/* Keeps the program's own explanations (at most 4 distinct lines, the
 * reason a FAIL line alone does not give: "returned -1") and its FAIL
 * lines (else the last 1000 bytes of its output) in out, for the failure
 * message; returns how many FAIL lines it had. */
static int mpi_log_excerpt(const char *log, char *out, size_t cap)
{
    char line[512], fail_lines[1200] = "";
    size_t used = 0, failed = 0;
    int fails = 0, reasons = 0;
    FILE *fp = fopen(log, "r");
    out[0] = '\0';
    if (!fp)
        return 0;
    while (fgets(line, sizeof line, fp)) {
        if (!strncmp(line, "FAIL", 4) && failed + strlen(line) < sizeof fail_lines) {
            fails++;
            if (said_by_another_rank(fail_lines, line))
                continue;
            strcpy(fail_lines + failed, line);
            failed += strlen(line);
        } else if (explains(line) && reasons < 4 && used + strlen(line) < cap / 3 && !strstr(out, line)) {
            reasons++;
            strcpy(out + used, line);
            used += strlen(line);
        }
    }
    if (fails) {
        used += (size_t)snprintf(out + used, cap - used, "%s", fail_lines);
        /* a sanitizer's stop written to the output (a rank's report that
         * its log_path did not take): after the failures, as theirs */
        rewind(fp);
        while (fgets(line, sizeof line, fp))
            if (strstr(line, "runtime error:") || strstr(line, "ERROR: AddressSanitizer") ||
                strstr(line, "WARNING: ThreadSanitizer")) {
                if (used < cap)
                    snprintf(out + used, cap - used, "%s%s", AFTER_FAILURES, line);
                break;
            }
    } else {
        /* A sanitizer's report: its first error (a race or an overflow in
         * the student's code, with its stack), not the tail, which names
         * the harness the report ends in. Else the end of the output
         * (after the explanations, which it may not reach). */
        long from = -1, at = 0;
        rewind(fp);
        while (from < 0 && fgets(line, sizeof line, fp)) {
            if (strstr(line, "WARNING: ThreadSanitizer") || strstr(line, "ERROR: AddressSanitizer") ||
                strstr(line, "runtime error:"))
                from = at;
            at = ftell(fp);
        }
        fseek(fp, 0, SEEK_END);
        long size = ftell(fp), tail = (long)(cap - 1 - used) < 1000 ? (long)(cap - 1 - used) : 1000;
        fseek(fp, from >= 0 ? from : size > tail ? size - tail : 0, SEEK_SET);
        used += fread(out + used, 1, cap - 1 - used, fp);
        out[used] = '\0';
    }
    fclose(fp);
    return fails;
}

/* A checked run: its output, and the report in which each rank of a
 * checker program says it reached the end of its checks (see
 * autograder/mpi_checker/completion.h), with the token drawn for this run. */
typedef struct {
    char log[32], report[32], token[40], stuck[32], san[32];
} ag_run_files;

/* A fresh token of 128 random bits, in hex: the checker programs' form of
 * the forked tests' completion code. */
static void draw_token(char *out, size_t cap)
{
    unsigned char r[16] = {0};
    ck_assert_msg(ag_random_bytes(r, sizeof r), "cannot read /dev/urandom for the checker's token");
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
    /* a build that left it out is the kit's fault, not a failure of the code */
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, program);
    ck_assert_msg(access(path, X_OK) == 0,
                  "test bug: %s is not built (the lab's tests.mk names the programs its tests run: TEST_PROGRAMS, "
                  "TEST_DRIVERS)", path);
    fresh_tmp_file(f->log, "/tmp/ag_run_XXXXXX");
    fresh_tmp_file(f->report, "/tmp/ag_done_XXXXXX");
    draw_token(f->token, sizeof f->token);
    setenv("AG_CHECKER_TOKEN", f->token, 1);
    setenv("AG_CHECKER_REPORT", f->report, 1);
    /* The ranks record where they are when the run is ended (a hang). */
    strcpy(f->stuck, "/tmp/ag_where_XXXXXX");
    setenv("AG_CHECKER_STUCK", mkdtemp(f->stuck) ? f->stuck : "", 1);
    /* A sanitized program's reports (labs whose lab.mk sets SANITIZE), one
     * file a rank, not interleaved in the output: read by their summary. */
    char asan_was[512] = "", ubsan_was[512] = "", option[600];
    snprintf(asan_was, sizeof asan_was, "%s", getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "");
    snprintf(ubsan_was, sizeof ubsan_was, "%s", getenv("UBSAN_OPTIONS") ? getenv("UBSAN_OPTIONS") : "");
    strcpy(f->san, "/tmp/ag_msan_XXXXXX");
    if (mkdtemp(f->san)) {
        snprintf(option, sizeof option, "%s%slog_path=%s/report", asan_was, asan_was[0] ? ":" : "", f->san);
        setenv("ASAN_OPTIONS", option, 1);
        snprintf(option, sizeof option, "%s%slog_path=%s/report", ubsan_was, ubsan_was[0] ? ":" : "", f->san);
        setenv("UBSAN_OPTIONS", option, 1);
    } else
        f->san[0] = '\0';
    /* A run ends before its test's time limit, so that the test, not
     * Check, says what happened (and where it was stuck), and no rank is
     * left running. */
    double deadline = ag_test_deadline();
    int left = (int)(deadline - wall_time()) - 3;
    if (deadline > 0 && left < seconds)
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
                 "-x AG_CHECKER_STUCK -x AG_CHECKER_SECONDS -x ASAN_OPTIONS -x UBSAN_OPTIONS",
                 geteuid() == 0 ? "--allow-run-as-root" : "", np);
    }
    snprintf(cmd, sizeof cmd, "timeout -k 5 %d %s %s/%s %s >%s 2>&1", seconds, mpirun, dir, program, args, f->log);
    int status = system(cmd);
    unsetenv("AG_CHECKER_TOKEN");
    unsetenv("AG_CHECKER_REPORT");
    unsetenv("AG_CHECKER_STUCK");
    unsetenv("AG_CHECKER_SECONDS");
    asan_was[0] ? setenv("ASAN_OPTIONS", asan_was, 1) : unsetenv("ASAN_OPTIONS");
    ubsan_was[0] ? setenv("UBSAN_OPTIONS", ubsan_was, 1) : unsetenv("UBSAN_OPTIONS");
    return status == -1 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void remove_run_files(const ag_run_files *f)
{
    unlink(f->log);
    unlink(f->report);
    char where[8];
    stuck_describe_all(f->stuck, NULL, where, sizeof where); /* removes what is left */
    if (f->san[0])
        ag_sanitizer_summary(f->san, where, sizeof where);
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
    char where[700] = "", exe[PATH_MAX], san[600] = "";
    /* a sanitizer's stop after failures the checker reported: it may be
     * their consequence, so it follows them and names no line as the cause */
    int after = 0;
    if (rc != 0 || unreported) {
        int fails = mpi_log_excerpt(f.log, out, sizeof out);
        /* what a sanitizer stopped, and where in the student's files (the
         * output's tail is then mpirun's words on the status alone) */
        if (f.san[0] && ag_sanitizer_summary(f.san, san + 2, sizeof san - 2)) {
            memcpy(san, "; ", 2);
            if (!fails)
                out[0] = '\0';
            else
                after = 1;
        }
        f.san[0] = '\0';
        /* the checker program beside the test binary: its symbols name
         * where each rank was stuck */
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
    if (after)
        ck_abort_msg("%s %s (exit status %d)%s:\n%s%s%s", name,
                     ran_out_of_time(rc) ? "ran out of time (a hang: a missing or mismatched exchange?)" : "failed", rc,
                     where, out, AFTER_FAILURES, san + 2);
    ck_abort_msg("%s %s (exit status %d)%s%s%s%s%s", name,
                 ran_out_of_time(rc) ? "ran out of time (a hang: a missing or mismatched exchange?)" : "failed", rc,
                 san[0] ? "; the sanitizers stopped a rank: " : "", san[0] ? san + 2 : "", where, out[0] ? ":\n" : "",
                 out);
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


/* The body of every AG_LAUNCHES test (a TTest of our own: START_TEST's
 * would be static). */
static void run_launches(int _i)
{
    (void)_i;
    const ag_launch *l = ag_test_arg();
    ck_assert_msg(l != NULL, "test bug: a launch test registered without its table (AG_LAUNCHES)");
    for (; l->program; l++) {
        if (l->np > 0)
            ag_run_mpi(l->program, l->np, l->args, l->seconds);
        else
            ag_run_program(l->program, l->args, l->seconds);
    }
}

static const TTest launches = {"ag_launches", run_launches, __FILE__, __LINE__};
const TTest *const ag_launches_test = &launches;
