/* A run's plan, before any test runs: which tests get a line, which are
 * skipped and why, which fail unrun, and the time hangs may cost. See
 * run.h. */
#define _GNU_SOURCE
#include "chaos_seed.h"
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "call_rules.h"
#include "cuda/gpu_image.h"
#include "gpu.h"

/* Linked into the test programs of the labs with CUDA only (common/mk/lab.mk). */
#pragma weak gpu_image_reason

int ag_ask_child(int (*ask)(char *, int), const char *what, char *reason, int len)
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
        char buf[400] = "";
        int n = ask(buf, (int)sizeof buf);
        dprintf(fds[1], "%d %s", n, buf);
        _exit(0);
    }
    close(fds[1]);
    char buf[512] = {0};
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

/* The GPUs, asked only when a test needs one (common/gpu.h, in a child),
 * and of those the ones this build has code for: a GPU without is no GPU
 * to the tests, skipped with the build's one line, never a crash. */
static void probe_gpus(const ag_suite *suite, ag_plan *plan)
{
    int need = 0;
    for (int i = 0; i < suite->count; i++)
        if (suite->spec[i].gpus > need)
            need = suite->spec[i].gpus;
    plan->gpu_reason[0] = '\0';
    plan->gpus = need ? ag_ask_child(gpu_image_reason ? gpu_image_reason : gpu_count_reason, "the GPU probe",
                                     plan->gpu_reason, (int)sizeof plan->gpu_reason)
                      : 0;
    plan->no_image = !strncmp(plan->gpu_reason, GPU_IMAGE_MISSING, strlen(GPU_IMAGE_MISSING));
}

/* Chaos schedules (runner.h, chaos.h). A replay's seed is the student's
 * typing: a bad one is refused in one line, before any test runs. */
static void read_chaos_settings(ag_plan *plan)
{
    const char *conf = getenv("AG_CHAOS_CONF"), *key = getenv("AG_CHAOS_KEY");
    const char *runs = getenv("AG_CHAOS_RUNS"), *replay = getenv("AG_CHAOS_REPLAY");
    plan->chaos_conf = conf && *conf ? conf : NULL;
    plan->chaos_key = key && *key ? key : NULL;
    /* make check: one fresh seed a test (each run tries new schedules, and
     * stays quick); grading and the self-test (a key): the conf's count. */
    plan->chaos_runs = runs && *runs ? atoi(runs) : plan->chaos_key ? -1 : 1;
    if (replay && *replay && !ag_chaos_seed_from_text(replay, &plan->chaos_replay)) {
        fprintf(stderr, "grader: CHAOS_SEED=%s is not a seed: a failure's line gives one (a whole number from 1 "
                        "to 4294967295)\n", replay);
        exit(2);
    }
    if (plan->chaos_replay && !plan->chaos_conf) {
        fprintf(stderr, "grader: CHAOS_SEED given, but this lab runs no test under chaos (no chaos.conf)\n");
        exit(2);
    }
}

/* The environment's settings of the run. AG_STOP_AT_FIRST_LOSS=1 (the
 * kit's self-test, for its mutants): stop at the first test that does not
 * pass, or before any if a call rule is broken; a mutant is caught as soon
 * as it loses a point, and the rest of its tests would only cost time (on a
 * GPU host, GPU time). Never in grading: a student gets every test.
 * AG_HANG_BUDGET=S (make check, never grading): runner.h. */
static void read_settings(ag_plan *plan)
{
    const char *stop = getenv("AG_STOP_AT_FIRST_LOSS");
    plan->stop_at_loss = stop && !strcmp(stop, "1");
    const char *budget = getenv("AG_HANG_BUDGET");
    plan->budgeted = budget && atof(budget) > 0;
    plan->hang_budget = plan->initial_budget = plan->budgeted ? atof(budget) : 0;
    plan->budget_text = budget;
    const char *mul = getenv("CK_TIMEOUT_MULTIPLIER");
    plan->multiplier = mul && atoi(mul) > 0 ? atoi(mul) : 1;
    const char *repeat = getenv("AG_REPEAT_CONF");
    plan->repeat_conf = repeat && *repeat ? repeat : NULL;
    read_chaos_settings(plan);
}

void ag_plan_run(const ag_suite *suite, const ag_options *opt, ag_plan *plan, ag_result *res)
{
    *plan = (ag_plan){0};
    read_settings(plan);
    probe_gpus(suite, plan);
    /* Who is skipped and whose call rule is broken is known before any
     * test runs; the header counts every test that gets a line. */
    for (int i = 0; i < suite->count; i++) {
        const ag_spec *sp = &suite->spec[i];
        res[i].status = AG_NOT_RUN;
        res[i].score = 0;
        res[i].message[0] = '\0';
        if ((opt->only && !listed(opt->only, sp->name)) || (opt->visible_only && sp->hidden))
            continue;
        plan->shown++;
        plan->shown_points += sp->points;
        /* A test that cannot run here is skipped whatever the code does:
         * its call rules are for a host where it runs. */
        if (sp->gpus > plan->gpus && plan->no_image && plan->gpus == 0) {
            res[i].status = AG_SKIP;
            snprintf(res[i].message, sizeof res[i].message, "%s", plan->gpu_reason);
        } else if (sp->gpus > plan->gpus) {
            res[i].status = AG_SKIP;
            snprintf(res[i].message, sizeof res[i].message, "needs %d GPU%s: %s", sp->gpus,
                     sp->gpus > 1 ? "s" : "", plan->gpu_reason);
        } else if (sp->runs_here && !ag_ask_child(sp->runs_here, "the test's host check", res[i].message,
                                                  (int)sizeof res[i].message)) {
            res[i].status = AG_SKIP;
        } else if (ag_call_rule_broken(sp->name, res[i].message, sizeof res[i].message)) {
            res[i].status = AG_FAIL;
            plan->lost_before = 1;
        } else {
            res[i].status = AG_PENDING;
        }
    }
}
