/* The grading layer's reading of sanitizer reports: see sanitizer_report.h. */
#define _GNU_SOURCE
#include "sanitizer_report.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The sanitizers' runtime, when the program is linked with one. */
void __sanitizer_set_report_path(const char *path) __attribute__((weak));

/* Read by the sanitizers at start-up, in every process: stop at the first
 * report with a status of our own; no leak check (the test processes end by
 * _exit, the runner's allocations are not the student's); the shadow gap
 * left unprotected, or the CUDA driver cannot map the GPU's memory under
 * AddressSanitizer (labs 5-7 link CUDA into sanitized programs); and no
 * demand that the runtime come first among the libraries, since the
 * grading sandbox preloads its log of refusals (refusals.c). These must be compiled in: in the
 * sandbox the programs are execute-only, and a runtime that cannot read
 * /proc/self/environ never sees ASAN_OPTIONS. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "detect_leaks=0:exitcode=86:halt_on_error=1:protect_shadow_gap=0:verify_asan_link_order=0";
}
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) { return "exitcode=86:halt_on_error=1:print_stacktrace=1"; }

static char folder[64];

void ag_sanitizer_setup(void)
{
    if (!__sanitizer_set_report_path || folder[0])
        return;
    strcpy(folder, "/tmp/ag_san_XXXXXX");
    if (!mkdtemp(folder)) {
        folder[0] = '\0';
        return; /* the reports go to stderr, as without this */
    }
    char path[96];
    snprintf(path, sizeof path, "%s/report", folder);
    __sanitizer_set_report_path(path); /* each process writes report.PID */
}

/* One line of a report as a student wants it, or NULL to leave it out:
 * the error without addresses, the access, where it fell, and the frames
 * in the student's files (a path with /student/) as "in FUNCTION
 * file:line". */
static const char *worth(char *line)
{
    line[strcspn(line, "\n")] = '\0';
    char *s;
    if ((s = strstr(line, "ERROR: "))) {
        char *cut = strstr(s, " on address");
        if (cut)
            *cut = '\0';
        return s + 7;
    }
    if ((s = strstr(line, "runtime error:"))) { /* UBSan: file:line:col: runtime error: what */
        char *file = strstr(line, "/student/");
        return file ? file + 9 : line;
    }
    if ((s = strstr(line, "READ of size")) || (s = strstr(line, "WRITE of size"))) {
        char *cut = strstr(s, " at 0x");
        if (cut)
            *cut = '\0';
        return s;
    }
    if ((s = strstr(line, " is located ")))
        return s + 1;
    char *file = strstr(line, "/student/"), *in = strstr(line, " in ");
    if (file && in && in < file) {
        /* "#0 0x... in FUNC path/student/file.c:39": FUNC file.c:39 */
        size_t func = (size_t)(strchr(in + 4, ' ') ? strchr(in + 4, ' ') - in : 0);
        if (!func)
            return NULL;
        memmove(in + func + 1, file + 9, strlen(file + 9) + 1);
        return in + 1;
    }
    return NULL;
}

/* The report's lines worth reading, at most 6, joined with "; ". */
static void summarise(FILE *fp, char *out, size_t cap)
{
    char line[1024];
    size_t used = 0;
    int lines = 0;
    out[0] = '\0';
    while (fgets(line, sizeof line, fp) && lines < 6) {
        const char *s = worth(line);
        if (!s)
            continue;
        int n = snprintf(out + used, cap - used, "%s%s", used ? "; " : "", s);
        if (n < 0 || (size_t)n >= cap - used)
            break;
        used += (size_t)n;
        lines++;
    }
}

int ag_sanitizer_report(const char *test, char *message, size_t cap)
{
    if (!folder[0])
        return 0;
    DIR *dir = opendir(folder);
    if (!dir)
        return 0;
    char frame[300], path[400], line[1024];
    snprintf(frame, sizeof frame, " in %s_fn ", test);
    int found = 0;
    struct dirent *e;
    while (!found && (e = readdir(dir))) {
        if (strncmp(e->d_name, "report.", 7) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        FILE *fp = fopen(path, "r");
        if (!fp)
            continue;
        while (!found && fgets(line, sizeof line, fp))
            found = strstr(line, frame) != NULL;
        if (found) {
            rewind(fp);
            summarise(fp, message, cap);
        }
        fclose(fp);
        if (found)
            unlink(path);
    }
    closedir(dir);
    return found;
}

int ag_sanitizer_report_newest(char *message, size_t cap)
{
    if (!folder[0])
        return 0;
    DIR *dir = opendir(folder);
    if (!dir)
        return 0;
    char path[400], newest[400] = "";
    time_t when = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        if (!strncmp(e->d_name, "report.", 7) && !stat(path, &st) && st.st_mtime >= when) {
            when = st.st_mtime;
            snprintf(newest, sizeof newest, "%s", path);
        }
    }
    closedir(dir);
    FILE *fp = newest[0] ? fopen(newest, "r") : NULL;
    if (!fp)
        return 0;
    summarise(fp, message, cap);
    fclose(fp);
    unlink(newest);
    return 1;
}

int ag_sanitizer_summary(const char *dir, char *message, size_t cap)
{
    struct dirent **names = NULL;
    int count = scandir(dir, &names, NULL, alphasort), found = 0;
    char path[400];
    message[0] = '\0';
    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        FILE *fp = !found && names[i]->d_name[0] != '.' ? fopen(path, "r") : NULL;
        if (fp) {
            summarise(fp, message, cap);
            found = message[0] != '\0';
            fclose(fp);
        }
        if (names[i]->d_name[0] != '.')
            unlink(path);
        free(names[i]);
    }
    free(names);
    rmdir(dir);
    return found;
}

void ag_sanitizer_cleanup(void)
{
    if (!folder[0])
        return;
    DIR *dir = opendir(folder);
    struct dirent *e;
    char path[400];
    while (dir && (e = readdir(dir)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
            unlink(path);
        }
    if (dir)
        closedir(dir);
    rmdir(folder);
    folder[0] = '\0';
}
