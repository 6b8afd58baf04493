/* Where a process that never returned was stuck: see stuck.h. */
#define _GNU_SOURCE
#include "stuck.h"

#include <dirent.h>
#include <execinfo.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_FRAMES 64

static char record_path[200];
static pthread_t main_thread;
static uintptr_t exe_base, exe_end; /* the program's own mapping */
static atomic_int recorded;

/* The record signal: a real-time one that neither glibc's threads, Open MPI
 * nor the OpenMP runtime uses. */
static int record_signal(void) { return SIGRTMAX - 3; }

/* The first object dl_iterate_phdr lists is the program itself. */
static int find_exe(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size, (void)data;
    exe_base = info->dlpi_addr;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD) {
            uintptr_t end = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz;
            exe_end = end > exe_end ? end : exe_end;
        }
    return 1;
}

static void put_hex(int fd, uintptr_t v)
{
    char buf[2 + 2 * sizeof v + 1];
    int n = (int)sizeof buf;
    buf[--n] = '\n';
    do {
        buf[--n] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    buf[--n] = 'x';
    buf[--n] = '0';
    if (write(fd, buf + n, sizeof buf - (size_t)n) < 0)
        return;
}

/* The stack of the interrupted code, one offset a line: the frames after
 * the signal's own (this handler, then the kernel's return trampoline,
 * which lies outside the program), and of those only the program's. The
 * innermost is where the code was; the others are return addresses, one
 * byte past their call, so one is taken off to name the call's line. */
static void record(void)
{
    void *frames[MAX_FRAMES];
    int n = backtrace(frames, MAX_FRAMES), from = n;
    for (int i = 0; i < n; i++)
        if ((uintptr_t)frames[i] < exe_base || (uintptr_t)frames[i] >= exe_end) {
            from = i + 1;
            break;
        }
    int fd = open(record_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return;
    for (int i = from; i < n; i++) {
        uintptr_t a = (uintptr_t)frames[i];
        if (a >= exe_base && a < exe_end)
            put_hex(fd, a - exe_base - (i > from));
    }
    close(fd);
    atomic_store(&recorded, 1);
}

static void on_record_signal(int sig)
{
    (void)sig;
    record();
}

static void on_term(int sig)
{
    if (!pthread_equal(pthread_self(), main_thread)) {
        pthread_kill(main_thread, sig); /* a thread of MPI's got it */
        return;
    }
    record();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install(int sig, void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

void stuck_setup(const char *path)
{
    snprintf(record_path, sizeof record_path, "%s", path);
    main_thread = pthread_self();
    exe_base = exe_end = 0;
    dl_iterate_phdr(find_exe, NULL);
    void *warm[1];
    backtrace(warm, 1); /* loads libgcc now, not in a handler */
    install(record_signal(), on_record_signal);
}

void stuck_arm_timer(double seconds)
{
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = record_signal();
    ev._sigev_un._tid = gettid();
    timer_t timer;
    if (seconds <= 0 || timer_create(CLOCK_MONOTONIC, &ev, &timer) != 0)
        return;
    struct itimerspec when = {{0, 0}, {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)}};
    timer_settime(timer, 0, &when, NULL);
}

void stuck_on_term(void) { install(SIGTERM, on_term); }

void stuck_record_now(void)
{
    if (!record_path[0] || pthread_kill(main_thread, record_signal()) != 0)
        return;
    for (int i = 0; i < 100 && !atomic_load(&recorded); i++)
        usleep(1000);
}

/* "FUNC\nFILE:LINE" pairs of addr2line, one per offset; names the frames
 * whose file is known and not the kit's test code. */
int stuck_describe(const char *path, const char *exe, char *out, size_t cap)
{
    char offsets[MAX_FRAMES * 20] = "", line[PATH_MAX + 64], cwd[PATH_MAX] = "";
    out[0] = '\0';
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    size_t used = 0;
    while (fgets(line, sizeof line, fp) && used + 20 < sizeof offsets)
        used += (size_t)snprintf(offsets + used, sizeof offsets - used, " %.18s", strtok(line, "\n"));
    fclose(fp);
    if (!used)
        return 0;
    char cmd[PATH_MAX + sizeof offsets + 64];
    snprintf(cmd, sizeof cmd, "addr2line -f -e '%s'%s 2>/dev/null", exe, offsets);
    FILE *a2l = popen(cmd, "r");
    if (!a2l)
        return 0;
    if (getcwd(cwd, sizeof cwd))
        strcat(cwd, "/");
    char func[256], waiting[64] = "";
    int named = 0, frame = 0;
    size_t at = 0;
    for (; named < 3 && fgets(func, sizeof func, a2l) && fgets(line, sizeof line, a2l); frame++) {
        func[strcspn(func, "\n")] = line[strcspn(line, "\n")] = '\0';
        char *file = line, *disc = strstr(line, " (discriminator");
        if (disc)
            *disc = '\0';
        if (cwd[0] && !strncmp(file, cwd, strlen(cwd)))
            file += strlen(cwd);
        /* A rank waiting in MPI is inside the checker's wrapper of the call. */
        if (!named && !strncmp(func, "__wrap_", 7))
            snprintf(waiting, sizeof waiting, "%.60s", func + 7);
        /* The innermost frame is named even without a line (code built
         * without -g); further out, only frames with one (not Check's). */
        if (func[0] == '?' || (file[0] == '?' && frame > 0) || !strncmp(file, "autograder/", 11) ||
            strstr(file, "/autograder/"))
            continue;
        char *omp = strstr(func, "._omp_fn."); /* GCC's name for a function's OpenMP region */
        if (omp && (size_t)(omp - func) + sizeof " (its OpenMP region)" <= sizeof func)
            strcpy(omp, " (its OpenMP region)");
        const char *lead = named ? (named == 1 ? ", called from " : ", ") : waiting[0] ? ", called from " : "stuck in ";
        if (!named && waiting[0])
            at += (size_t)snprintf(out, cap, "waiting in %s", waiting);
        int n = file[0] == '?' ? snprintf(out + at, cap - at, "%s%s", lead, func)
                               : snprintf(out + at, cap - at, "%s%s (%s)", lead, func, file);
        if (n < 0 || (size_t)n >= cap - at)
            break;
        at += (size_t)n;
        named++;
    }
    pclose(a2l);
    return named > 0;
}

int stuck_describe_all(const char *dir, const char *exe, char *out, size_t cap)
{
    char seen[8][400], who[8][120], path[PATH_MAX];
    int kinds = 0;
    out[0] = '\0';
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char text[400];
        if (exe && stuck_describe(path, exe, text, sizeof text)) {
            int k = 0;
            while (k < kinds && strcmp(seen[k], text) != 0)
                k++;
            if (k == kinds && kinds < 8) {
                snprintf(seen[kinds], sizeof seen[kinds], "%s", text);
                snprintf(who[kinds++], sizeof who[0], "%s", e->d_name);
            } else if (k < kinds && strlen(who[k]) + strlen(e->d_name) + 3 < sizeof who[k]) {
                strcat(who[k], ", ");
                strcat(who[k], e->d_name);
            }
        }
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    size_t at = 0;
    for (int k = 0; k < kinds && at < cap; k++)
        at += (size_t)snprintf(out + at, cap - at, "%s%s: %s", k ? "; " : "", who[k], seen[k]);
    return kinds > 0;
}
