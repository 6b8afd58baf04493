/* Gradescope's results.json from a run's verdicts: see results.h. */
#define _GNU_SOURCE
#include "results.h"

#include <stdio.h>
#include <unistd.h>

#include <json-c/json.h>

const char *const ag_status_name[] = {"PASS", "FAIL", "CRASH", "TIMEOUT", "SKIP", "NOT RUN", "PENDING", "NOT RUN"};

void ag_write_results_json(const char *path, const char *lab, const ag_suite *s, const ag_result *res,
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
        json_object_object_add(t, "name", json_object_new_string(s->spec[i].name));
        json_object_object_add(t, "score", json_object_new_double(res[i].score));
        json_object_object_add(t, "max_score", json_object_new_double(s->spec[i].points));
        json_object_object_add(t, "status", json_object_new_string(res[i].status == AG_PASS ? "passed" : "failed"));
        char out[4400];
        snprintf(out, sizeof out, "%s%s%s", ag_status_name[res[i].status], res[i].message[0] ? ": " : "",
                 res[i].message);
        json_object_object_add(t, "output", json_object_new_string(out));
        json_object_object_add(t, "visibility", json_object_new_string(s->spec[i].hidden ? "hidden" : "visible"));
        json_object *extra = json_object_new_object();
        json_object_object_add(extra, "lab", json_object_new_string(lab));
        json_object_object_add(extra, "result", json_object_new_string(ag_status_name[res[i].status]));
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

