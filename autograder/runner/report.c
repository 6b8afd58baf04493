/* What a run reports: each test's line, the score line in points (and what
 * a host without the GPUs leaves out, with the way to a GPU), Gradescope's
 * results.json, and Check's summary line. See run.h. */
#define _GNU_SOURCE
#include "run.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

const char *const ag_status_name[] = {"PASS", "FAIL", "CRASH", "TIMEOUT", "SKIP", "NOT RUN", "PENDING", "NOT RUN"};

/* Where a GPU is missing, once per run: the way to one (the students' README, STUDENTS.md in the kit: its
 * section of that name tells it whole; common/bench/bench_lib.sh says the
 * same for make bench). */
#define AG_GPU_ROUTE                                                                                              \
    "on a cluster: make check SCHED=slurm|lsf SCHED_OPTS='...' (the students' README: \"GPU tests on a cluster\")"

void ag_report_test(const ag_spec *sp, const ag_result *r, ag_tally *t)
{
    t->max_score += sp->points;
    t->score += r->score;
    if (r->status == AG_SKIP) {
        t->skipped += sp->points;
    } else { /* a skip is not a check */
        t->checks++;
        t->passes += r->status == AG_PASS;
        t->failures += r->status == AG_FAIL;
        t->errors += r->status == AG_CRASH || r->status == AG_TIMEOUT || r->status == AG_HELD;
        t->failed += r->status != AG_PASS;
    }
    printf("  %-7s %5g/%-4g %s%s%s%s\n", ag_status_name[r->status], r->score, sp->points, sp->name,
           sp->hidden ? " [hidden]" : "", r->message[0] ? ": " : "", r->message);
}

/* Appends "; " (nothing first) and text to buf, unless buf holds text
 * already; what does not fit is cut. */
static void add_once(char *buf, size_t cap, const char *text)
{
    if (strstr(buf, text))
        return;
    size_t used = strlen(buf);
    if (snprintf(buf + used, cap - used, "%s%s", used ? "; " : "", text) < 0)
        buf[used] = '\0';
}

/* The score line: the points, and what the skipped points need, each
 * different reason once: the GPU probe's answer (with the way to a GPU)
 * where there are too few GPUs, else a test's own host check's answer. */
static void score_line(const ag_suite *suite, const ag_result *res, const ag_plan *plan, const ag_tally *t,
                       char *line, size_t cap)
{
    double for_gpus = 0, other = 0;
    char gpu_why[500] = "", other_why[600] = "";
    for (int i = 0; i < suite->count; i++) {
        const ag_spec *sp = &suite->spec[i];
        if (res[i].status != AG_SKIP)
            continue;
        if (sp->gpus > plan->gpus) {
            for_gpus += sp->points;
            char why[450];
            if (plan->gpus > 0)
                snprintf(why, sizeof why, "%d GPUs: %.400s", sp->gpus, plan->gpu_reason);
            else
                snprintf(why, sizeof why, "%s", plan->gpu_reason);
            add_once(gpu_why, sizeof gpu_why, why);
        } else {
            other += sp->points;
            add_once(other_why, sizeof other_why, res[i].message);
        }
    }
    int n = snprintf(line, cap, "score: %g/%g points", t->score, t->max_score);
    if (t->max_score > 0 && n > 0 && (size_t)n < cap)
        n += snprintf(line + n, cap - (size_t)n, " (%.0f%%)", 100 * t->score / t->max_score);
    /* A GPU the build has no code for needs a build for it, not a cluster. */
    if (for_gpus > 0 && n > 0 && (size_t)n < cap && plan->no_image)
        n += snprintf(line + n, cap - (size_t)n, "; %g point%s skipped, not passed: the build, not the code (%s)",
                      for_gpus, for_gpus == 1 ? "" : "s", gpu_why);
    else if (for_gpus > 0 && n > 0 && (size_t)n < cap)
        n += snprintf(line + n, cap - (size_t)n, "; %g point%s need%s %s (here: %s); %s", for_gpus,
                      for_gpus == 1 ? "" : "s", for_gpus == 1 ? "s" : "",
                      plan->gpus > 0 ? "more GPUs" : "a GPU", gpu_why, AG_GPU_ROUTE);
    if (other > 0 && n > 0 && (size_t)n < cap)
        snprintf(line + n, cap - (size_t)n, "; %g point%s skipped, not passed: %s", other, other == 1 ? "" : "s",
                 other_why);
}

/* Written whole or not at all (a reader never sees half a file): every
 * test that got a line, with its points, status, message and visibility. */
static void write_results_json(const char *path, const char *lab, const ag_suite *s, const ag_result *res,
                               const ag_tally *t, double seconds, const char *note)
{
    json_object *root = json_object_new_object();
    json_object_object_add(root, "score", json_object_new_double(t->score));
    json_object_object_add(root, "max_score", json_object_new_double(t->max_score));
    json_object_object_add(root, "execution_time", json_object_new_double(seconds));
    json_object_object_add(root, "output", json_object_new_string(note));
    json_object_object_add(root, "visibility", json_object_new_string("visible"));
    json_object *tests = json_object_new_array();
    for (int i = 0; i < s->count; i++) {
        if (res[i].status == AG_NOT_RUN)
            continue;
        json_object *o = json_object_new_object();
        json_object_object_add(o, "name", json_object_new_string(s->spec[i].name));
        json_object_object_add(o, "score", json_object_new_double(res[i].score));
        json_object_object_add(o, "max_score", json_object_new_double(s->spec[i].points));
        json_object_object_add(o, "status", json_object_new_string(res[i].status == AG_PASS ? "passed" : "failed"));
        char out[4400];
        snprintf(out, sizeof out, "%s%s%s", ag_status_name[res[i].status], res[i].message[0] ? ": " : "",
                 res[i].message);
        json_object_object_add(o, "output", json_object_new_string(out));
        json_object_object_add(o, "visibility", json_object_new_string(s->spec[i].hidden ? "hidden" : "visible"));
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "lab", json_object_new_string(lab));
        json_object_object_add(extra, "result", json_object_new_string(ag_status_name[res[i].status]));
        /* which tests cost the time (a maintainer's question; the grade never reads it) */
        char secs[32];
        snprintf(secs, sizeof secs, "%.3f", res[i].seconds);
        json_object_object_add(extra, "seconds", json_object_new_double_s(res[i].seconds, secs));
        json_object_object_add(o, "extra_data", extra);
        json_object_array_add(tests, o);
    }
    json_object_object_add(root, "tests", tests);

    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    if (json_object_to_file_ext(tmp, root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE) != 0 ||
        rename(tmp, path) != 0) {
        fprintf(stderr, "grader: could not write %s\n", path);
        unlink(tmp);
    }
    json_object_put(root);
}

void ag_report_end(const char *lab, const ag_suite *suite, const ag_result *res, const ag_plan *plan,
                   const ag_options *opt, const ag_tally *t, double seconds)
{
    char note[1200];
    score_line(suite, res, plan, t, note, sizeof note);
    if (opt->results_path)
        write_results_json(opt->results_path, lab, suite, res, t, seconds, note);
    if (plan->not_run > 0)
        printf("stopped at the first test lost (AG_STOP_AT_FIRST_LOSS=1): %d not run\n", plan->not_run);
    /* The score line (points: what a student reads), then Check's summary
     * line last, in Check's own format, where tools read it (DESIGN.md): it
     * counts the tests that ran here, not points (a skip is not a check;
     * the runner ran one test at a time, and tests a call rule fails never
     * reach Check). */
    printf("%s\n", note);
    printf("%d%%: Checks: %d, Failures: %d, Errors: %d\n", t->checks ? 100 * t->passes / t->checks : 100, t->checks,
           t->failures, t->errors);
}
