/* Where a process that never returned was stuck: see stuck.h. */
#define _GNU_SOURCE
#include "stuck.h"

#include <dirent.h>
#include <dlfcn.h>
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
static void put_text(int fd, const char *text)
{
    if (write(fd, text, strlen(text)) < 0)
        return;
}

/* sig > 0: the record of a crash, its first line "signal SIG". */
static void record(int sig)
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
    if (sig > 0) {
        char num[4] = {(char)('0' + sig / 10 % 10), (char)('0' + sig % 10), '\n', '\0'};
        put_text(fd, "signal ");
        put_text(fd, num + (sig < 10));
    }
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
    record(0);
}

static void on_term(int sig)
{
    if (!pthread_equal(pthread_self(), main_thread)) {
        pthread_kill(main_thread, sig); /* a thread of MPI's got it */
        return;
    }
    record(0);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* What each crash most often means in the labs' code. */
static const struct {
    int sig;
    const char *name, *meaning;
} crashes[] = {
    {SIGSEGV, "SIGSEGV", "a bad memory access: an index past an array's end, a null or freed pointer, or a buffer "
                         "smaller than the count and datatype given to MPI"},
    {SIGBUS, "SIGBUS", "a bad memory access: a misaligned or unmapped address"},
    {SIGFPE, "SIGFPE", "an arithmetic fault: an integer division by zero?"},
    {SIGILL, "SIGILL", "an illegal instruction: a corrupted stack or function pointer?"},
    {SIGABRT, "SIGABRT", "abort(): a failed assert(), or the C library found its heap corrupted by a write past "
                         "an array's end or a double free"},
};

static char crash_who[64];

/* Records the crashing thread's stack, says so in one line on stdout, and
 * dies of the signal (the handler was reset: a second fault ends it too). */
static void on_crash(int sig)
{
    record(sig);
    /* one write, so that ranks crashing at once do not mix their lines */
    char line[512] = "";
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        if (crashes[i].sig == sig) {
            const char *parts[] = {"FAIL ", crash_who, ": killed by ", crashes[i].name, " (", crashes[i].meaning, ")\n"};
            for (size_t p = 0, at = 0; p < sizeof parts / sizeof parts[0]; p++)
                for (const char *c = parts[p]; *c && at + 1 < sizeof line; c++)
                    line[at++] = *c;
        }
    put_text(STDOUT_FILENO, line);
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

void stuck_on_crash(const char *who)
{
    snprintf(crash_who, sizeof crash_who, "%s", who);
    /* A stack overflow (endless recursion) leaves no stack for the
     * handler: it runs on a stack of its own. */
    static char alt[64 * 1024];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        sigaction(crashes[i].sig, &sa, NULL);
}

void stuck_record_now(void)
{
    if (!record_path[0] || pthread_kill(main_thread, record_signal()) != 0)
        return;
    for (int i = 0; i < 100 && !atomic_load(&recorded); i++)
        usleep(1000);
}

/* The folder the student's files were built from, as the build folder of
 * exe records it (common/mk/lab.mk's BUILD/source), with a '/'; "" if none. */
static void student_folder(const char *exe, char *out, size_t cap)
{
    char path[PATH_MAX];
    out[0] = '\0';
    const char *slash = strrchr(exe, '/');
    snprintf(path, sizeof path, "%.*s/source", slash ? (int)(slash - exe) : 1, slash ? exe : ".");
    FILE *fp = fopen(path, "r");
    if (fp && fgets(out, (int)cap - 1, fp) && out[0] != '\n')
        strcpy(out + strcspn(out, "\n"), "/");
    else
        out[0] = '\0';
    if (fp)
        fclose(fp);
}

/* A source file as the messages show it: the student's objects name their
 * files /student/FILE (lab.mk's -fdebug-prefix-map), shown where the
 * student has them (folder); paths under the working folder (cwd, with a
 * '/') relative to it. */
static const char *shown_file(const char *file, const char *folder, const char *cwd, char *buf, size_t cap)
{
    if (folder[0] && !strncmp(file, "/student/", 9)) {
        snprintf(buf, cap, "%s%s", folder, file + 9);
        file = buf;
    }
    if (cwd[0] && !strncmp(file, cwd, strlen(cwd)))
        file += strlen(cwd);
    return file;
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
    int sig = 0;
    while (fgets(line, sizeof line, fp) && used + 20 < sizeof offsets)
        if (sscanf(line, "signal %d", &sig) != 1)
            used += (size_t)snprintf(offsets + used, sizeof offsets - used, " %.18s", strtok(line, "\n"));
    const char *crash = NULL;
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        if (sig && crashes[i].sig == sig)
            crash = crashes[i].name;
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
    char folder[PATH_MAX], shown[PATH_MAX + 64];
    student_folder(exe, folder, sizeof folder);
    char func[256], waiting[64] = "";
    int named = 0, frame = 0;
    size_t at = 0;
    for (; named < 3 && fgets(func, sizeof func, a2l) && fgets(line, sizeof line, a2l); frame++) {
        func[strcspn(func, "\n")] = line[strcspn(line, "\n")] = '\0';
        char *disc = strstr(line, " (discriminator");
        if (disc)
            *disc = '\0';
        const char *file = shown_file(line, folder, cwd, shown, sizeof shown);
        /* A rank waiting in MPI is inside the checker's wrapper of the call
         * (the one that the code called, not chaos's of PMPI_, mpi_chaos.c). */
        if (!named && !strncmp(func, "__wrap_", 7) && strncmp(func, "__wrap_PMPI_", 12))
            snprintf(waiting, sizeof waiting, "%.60s", func + 7);
        /* The innermost frame is named even without a line (code built
         * without -g); further out, only frames with one (not Check's). */
        if (func[0] == '?' || (file[0] == '?' && frame > 0) || !strncmp(file, "autograder/", 11) ||
            strstr(file, "/autograder/"))
            continue;
        char *omp = strstr(func, "._omp_fn."); /* GCC's name for a function's OpenMP region */
        if (omp && (size_t)(omp - func) + sizeof " (its OpenMP region)" <= sizeof func)
            strcpy(omp, " (its OpenMP region)");
        const char *lead = named ? (named == 1 ? ", called from " : ", ")
                           : waiting[0] ? ", called from "
                           : crash      ? " in "
                                        : "stuck in ";
        if (!named && crash)
            at += (size_t)snprintf(out, cap, waiting[0] ? "%s inside %s" : "%s", crash, waiting);
        else if (!named && waiting[0])
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

int stuck_name_address(const void *ret, char *out, size_t cap)
{
    Dl_info it, mine;
    char exe[PATH_MAX], cmd[PATH_MAX + 96], func[256], line[PATH_MAX + 64], cwd[PATH_MAX] = "";
    out[0] = '\0';
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0 || !dladdr(ret, &it) || !dladdr((void *)stuck_name_address, &mine) || it.dli_fbase != mine.dli_fbase)
        return 0; /* not the program's own code */
    exe[len] = '\0';
    /* a return address: the call is the byte before it */
    snprintf(cmd, sizeof cmd, "addr2line -f -e '%s' %#lx 2>/dev/null", exe,
             (unsigned long)((uintptr_t)ret - (uintptr_t)it.dli_fbase - 1));
    FILE *a2l = popen(cmd, "r");
    if (!a2l)
        return 0;
    int ok = fgets(func, sizeof func, a2l) && fgets(line, sizeof line, a2l);
    pclose(a2l);
    if (!ok || func[0] == '?')
        return 0;
    func[strcspn(func, "\n")] = line[strcspn(line, "\n")] = '\0';
    char *disc = strstr(line, " (discriminator"), folder[PATH_MAX], shown[PATH_MAX + 64];
    if (disc)
        *disc = '\0';
    if (getcwd(cwd, sizeof cwd))
        strcat(cwd, "/");
    student_folder(exe, folder, sizeof folder);
    const char *file = shown_file(line, folder, cwd, shown, sizeof shown);
    if (file[0] == '?')
        snprintf(out, cap, "in %s", func);
    else
        snprintf(out, cap, "in %s, %s", func, file);
    return 1;
}

int stuck_describe_all(const char *dir, const char *exe, char *out, size_t cap)
{
    char seen[8][400], who[8][120], path[PATH_MAX];
    int kinds = 0;
    out[0] = '\0';
    struct dirent **names = NULL;
    int count = scandir(dir, &names, NULL, versionsort); /* rank 2 before rank 10 */
    for (int i = 0; i < count; i++) {
        struct dirent *e = names[i];
        if (e->d_name[0] == '.') {
            free(e);
            continue;
        }
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
        free(e);
    }
    free(names);
    rmdir(dir);
    /* A crash first: the ranks that waited for the crashed one follow. */
    size_t at = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < kinds && at < cap; k++)
            if ((strncmp(seen[k], "SIG", 3) != 0) == pass)
                at += (size_t)snprintf(out + at, cap - at, "%s%s: %s", at ? "; " : "", who[k], seen[k]);
    return kinds > 0;
}
