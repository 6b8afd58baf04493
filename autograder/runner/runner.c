/* The kit's test runner over Check: the registry, the command line, and
 * ag_main, which runs a lab's tests in four steps (run.h names the file of
 * each). See runner.h for what it adds to Check. */
#define _GNU_SOURCE
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "timer.h"

void ag_add(ag_suite *suite, ag_spec spec)
{
    if (suite->count == AG_MAX_TESTS) {
        fprintf(stderr, "grader: more than %d tests registered\n", AG_MAX_TESTS);
        exit(2);
    }
    if (!spec.test || spec.points < 0 || spec.gpus < 0) {
        fprintf(stderr, "grader: test %d registered without a test or with negative points or GPUs\n",
                suite->count);
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

/* The command line into opt; 0, or 2 after a one-line error. */
static int parse_options(int argc, char **argv, ag_options *opt)
{
    const char *visible_env = getenv("AG_VISIBLE_ONLY");
    *opt = (ag_options){.results_path = getenv("AG_RESULTS"),
                        .visible_only = visible_env && !strcmp(visible_env, "1")};
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--results") && a + 1 < argc)
            opt->results_path = argv[++a];
        else if (!strcmp(argv[a], "--only") && a + 1 < argc)
            opt->only = argv[++a];
        else if (!strcmp(argv[a], "--visible-only"))
            opt->visible_only = 1;
        else if (!strcmp(argv[a], "--list"))
            opt->list = 1;
        else {
            fprintf(stderr, "usage: %s [--results FILE] [--visible-only] [--only TEST[,TEST...]] [--list]\n",
                    argv[0]);
            return 2;
        }
    }
    return 0;
}

/* Every name of --only must be a test: 0, or 2 after naming the first that
 * is not. */
static int check_only(const ag_suite *suite, const char *only, const char *prog)
{
    for (const char *p = only; p && *p;) {
        size_t n = strcspn(p, ",");
        int found = 0;
        for (int i = 0; i < suite->count; i++)
            found |= strlen(suite->spec[i].name) == n && !strncmp(suite->spec[i].name, p, n);
        if (!found) {
            fprintf(stderr, "%s: no test named '%.*s' (--list lists them)\n", prog, (int)n, p);
            return 2;
        }
        p += n + (p[n] == ',');
    }
    return 0;
}

/* --list: one test a line, its name first; the GPUs it needs are what a
 * scheduler's job asks for (autograder/sched/gpus). */
static void list_tests(const ag_suite *suite)
{
    for (int i = 0; i < suite->count; i++) {
        const ag_spec *sp = &suite->spec[i];
        printf("%-48s %6g points  %s", sp->name, sp->points, sp->hidden ? "hidden" : "visible");
        if (sp->gpus)
            printf("  (needs %d GPU%s)", sp->gpus, sp->gpus > 1 ? "s" : "");
        printf("\n");
    }
}

int ag_run_lab(int argc, char **argv, const char *lab, void (*register_tests)(ag_suite *))
{
    static ag_suite suite;
    static ag_result res[AG_MAX_TESTS];
    ag_options opt;
    if (parse_options(argc, argv, &opt))
        return 2;
    register_tests(&suite);
    if (ag_hidden_tests) /* absent from the student copy */
        ag_hidden_tests(&suite);
    if (opt.list) {
        list_tests(&suite);
        return 0;
    }
    if (check_only(&suite, opt.only, argv[0]))
        return 2;

    ag_plan plan;
    ag_plan_run(&suite, &opt, &plan, res);
    printf("%s: %d test%s, %g points\n", lab, plan.shown, plan.shown == 1 ? "" : "s", plan.shown_points);

    ag_run_setup(lab);
    ag_tally tally = {0};
    double t0 = wall_time();
    for (int i = 0; i < suite.count; i++)
        if (ag_run_test(&suite, i, &plan, res))
            ag_report_test(&suite.spec[i], &res[i], &tally);
    ag_report_end(lab, &suite, res, &plan, &opt, &tally, wall_time() - t0);
    ag_run_cleanup();
    return tally.failed > 0 ? 1 : 0;
}
