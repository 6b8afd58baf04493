/* The sandbox's record of what a submission tried and was refused,
 * preloaded (LD_PRELOAD) into the commands instructor/sandbox/confine starts
 * with --refusals: a file opened outside the sandbox's view (/etc/shadow,
 * the instructor's checkout), a write denied, a connection or a signal or
 * a ptrace refused. One line "KIND WHAT" per event, appended to
 * /.sandbox-refusals/PID; grading/review.py reads them into the review
 * column.
 *
 * Only calls made by the program the submission was linked into (the
 * tests under /sub) are recorded, and of those only the ones its own code
 * makes (the call's return address in the program's own segments): the
 * libraries it loads (MPI, hwloc, CUDA) probe /etc and /sys for reasons
 * of their own. A record, not a wall: the sandbox contains these calls
 * whether or not they are recorded, and code that makes raw system calls
 * goes unrecorded.
 *
 * One kind is recorded in every process, whoever calls: a new thread or
 * process refused for want of resources (EAGAIN: the sandbox's process
 * limit). That is a limit of the grader's, not a refusal of the student's
 * code, and the grader must tell the two apart: the line names the test
 * the runner was running (AG_TEST_NAME), since the thread may be
 * libgomp's or Open MPI's, in a rank that mpirun started. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define REFUSALS_DIR "/.sandbox-refusals"
#define MAX_LINES 200

static int active;
static uintptr_t lo[16], hi[16];
static int segments;

static int in_program(const void *at)
{
    uintptr_t a = (uintptr_t)at;
    for (int i = 0; i < segments; i++)
        if (a >= lo[i] && a < hi[i])
            return 1;
    return 0;
}

static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size, (void)data;
    for (int i = 0; i < info->dlpi_phnum && segments < 16; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD) {
            lo[segments] = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            hi[segments] = lo[segments] + info->dlpi_phdr[i].p_memsz;
            segments++;
        }
    return 1; /* the main program is the first object */
}

__attribute__((constructor)) static void start(void)
{
    char exe[256];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return;
    exe[n] = 0;
    if (strncmp(exe, "/sub/", 5) != 0)
        return;
    dl_iterate_phdr(first_object, NULL);
    active = segments > 0;
}

static void note(const char *kind, const char *fmt, ...)
{
    static int lines;
    char line[600], path[64];
    int k = snprintf(line, sizeof line, "%s ", kind);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + k, sizeof line - (size_t)k - 1, fmt, ap);
    va_end(ap);
    for (char *c = line; *c; c++)
        if (*c == '\n')
            *c = ' ';
    strcat(line, "\n");
    if (lines++ >= MAX_LINES)
        return;
    int saved = errno;
    snprintf(path, sizeof path, REFUSALS_DIR "/%d", (int)getpid());
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ssize_t w = syscall(SYS_write, fd, line, strlen(line));
        (void)w;
        syscall(SYS_close, fd);
    }
    errno = saved;
}

/* path made absolute and normal (".." and "." resolved by name) */
static void absolute(const char *path, char *out, size_t size)
{
    char buf[4096];
    if (path[0] == '/')
        snprintf(buf, sizeof buf, "%s", path);
    else {
        char cwd[2048];
        if (!getcwd(cwd, sizeof cwd))
            strcpy(cwd, "?");
        snprintf(buf, sizeof buf, "%s/%s", cwd, path);
    }
    size_t len = 0;
    out[0] = 0;
    for (char *save, *part = strtok_r(buf, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
        if (strcmp(part, ".") == 0)
            continue;
        if (strcmp(part, "..") == 0) {
            char *slash = strrchr(out, '/');
            len = slash ? (size_t)(slash - out) : 0;
            out[len] = 0;
            continue;
        }
        int n = snprintf(out + len, size - len, "/%s", part);
        if (n < 0 || (size_t)n >= size - len)
            break;
        len += (size_t)n;
    }
    if (!out[0])
        strcpy(out, "/");
}

static int under(const char *path, const char *const *prefixes)
{
    for (int i = 0; prefixes[i]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(path, prefixes[i], n) == 0 && (path[n] == 0 || path[n] == '/'))
            return 1;
    }
    return 0;
}

/* /proc/N of another process */
static int other_process(const char *path)
{
    int pid;
    char rest;
    if (sscanf(path, "/proc/%d%c", &pid, &rest) < 1)
        return 0;
    return pid != (int)getpid();
}

/* What the sandbox shows a program (instructor/sandbox/confine): reads
 * anywhere else, or writes outside its own folders, are recorded. */
static const char *const VIEW[] = {"/sub", "/kit", "/tmp", "/dev", "/usr", "/bin", "/lib", "/lib64", "/sbin",
                                   "/proc", "/sys", "/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf",
                                   "/etc/ld.so.conf.d", "/etc/localtime", "/etc/passwd", "/etc/group",
                                   "/etc/hosts", "/etc/nsswitch.conf", "/etc/openmpi", NULL};
static const char *const WRITABLE[] = {"/sub/build", "/sub/results", "/tmp", "/dev/null", "/dev/shm", NULL};

static void opening(const char *path, int writing, int failed, int err, const void *caller)
{
    if (!active || !path || !in_program(caller))
        return;
    char where[4096];
    absolute(path, where, sizeof where);
    int outside = !under(where, VIEW) || other_process(where);
    if (writing && (failed ? err == EROFS || err == EACCES || err == EPERM || outside : !under(where, WRITABLE)))
        note("denied", "%s (%s)", where, failed ? strerror(err) : "written");
    else if (outside)
        note("opened", "%s%s", where, failed ? "" : " (read)");
}

#define REAL(name) static __typeof__(name) *real_##name; \
    if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

FILE *fopen(const char *path, const char *mode)
{
    REAL(fopen);
    FILE *f = real_fopen(path, mode);
    opening(path, mode && strpbrk(mode, "wa+") != NULL, f == NULL, errno, __builtin_return_address(0));
    return f;
}

FILE *fopen64(const char *path, const char *mode)
{
    REAL(fopen64);
    FILE *f = real_fopen64(path, mode);
    opening(path, mode && strpbrk(mode, "wa+") != NULL, f == NULL, errno, __builtin_return_address(0));
    return f;
}

/* (not inline in openat, whose path the C library declares non-null) */
static int absolute_path(const char *path)
{
    return path && path[0] == '/';
}

static int writes(int flags)
{
    return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) != 0;
}

int open(const char *path, int flags, ...)
{
    REAL(open);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
    va_end(ap);
    int fd = real_open(path, flags, mode);
    opening(path, writes(flags), fd < 0, errno, __builtin_return_address(0));
    return fd;
}

int open64(const char *path, int flags, ...)
{
    REAL(open64);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
    va_end(ap);
    int fd = real_open64(path, flags, mode);
    opening(path, writes(flags), fd < 0, errno, __builtin_return_address(0));
    return fd;
}

int openat(int dir, const char *path, int flags, ...)
{
    REAL(openat);
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
    va_end(ap);
    int fd = real_openat(dir, path, flags, mode);
    if (dir == AT_FDCWD || absolute_path(path))
        opening(path, writes(flags), fd < 0, errno, __builtin_return_address(0));
    return fd;
}

int creat(const char *path, mode_t mode)
{
    REAL(creat);
    int fd = real_creat(path, mode);
    opening(path, 1, fd < 0, errno, __builtin_return_address(0));
    return fd;
}

int mkdir(const char *path, mode_t mode)
{
    REAL(mkdir);
    int rc = real_mkdir(path, mode);
    opening(path, 1, rc != 0 && errno != EEXIST, errno, __builtin_return_address(0));
    return rc;
}

int unlink(const char *path)
{
    REAL(unlink);
    int rc = real_unlink(path);
    opening(path, 1, rc != 0 && errno != ENOENT, errno, __builtin_return_address(0));
    return rc;
}

int remove(const char *path)
{
    REAL(remove);
    int rc = real_remove(path);
    opening(path, 1, rc != 0 && errno != ENOENT, errno, __builtin_return_address(0));
    return rc;
}

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
    REAL(connect);
    int rc = real_connect(fd, addr, len);
    if (rc != 0 && active && in_program(__builtin_return_address(0)) && addr && addr->sa_family != AF_UNIX)
        note("network", "connect (%s)", strerror(errno));
    return rc;
}

/* A signal to a process that is not the caller nor one it started. */
int kill(pid_t pid, int sig)
{
    REAL(kill);
    int rc = real_kill(pid, sig);
    if (active && in_program(__builtin_return_address(0)) && pid != getpid() && pid != 0) {
        char stat[64], text[512];
        int parent = -1;
        snprintf(stat, sizeof stat, "/proc/%d/stat", (int)pid);
        int fd = (int)syscall(SYS_openat, AT_FDCWD, stat, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ssize_t n = syscall(SYS_read, fd, text, sizeof text - 1);
            syscall(SYS_close, fd);
            char *end = n > 0 ? (text[n] = 0, strrchr(text, ')')) : NULL;
            if (end)
                sscanf(end + 1, " %*c %d", &parent);
        }
        if (pid <= 0 || parent != (int)getpid())
            note("signal", "%s to %s %d%s", sigabbrev_np(sig) ? sigabbrev_np(sig) : "?",
                 pid == getppid() ? "its parent" : "process", (int)pid, rc != 0 ? " (refused)" : "");
    }
    return rc;
}

long ptrace(enum __ptrace_request request, ...)
{
    REAL(ptrace);
    va_list ap;
    va_start(ap, request);
    pid_t pid = va_arg(ap, pid_t);
    void *addr = va_arg(ap, void *), *data = va_arg(ap, void *);
    va_end(ap);
    long rc = real_ptrace(request, pid, addr, data);
    if (active && in_program(__builtin_return_address(0)))
        note("ptrace", "request %d on process %d%s", (int)request, (int)pid, rc == -1 ? " (refused)" : "");
    return rc;
}

/* A thread or process that could not be made for want of resources:
 * "limit TEST CALL in COMMAND". */
static void limit_reached(const char *call, int err)
{
    if (err != EAGAIN)
        return;
    char comm[32] = "?";
    int fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/comm", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = syscall(SYS_read, fd, comm, sizeof comm - 1);
        syscall(SYS_close, fd);
        comm[n > 0 ? n : 0] = '\0';
        comm[strcspn(comm, "\n")] = '\0';
    }
    const char *test = getenv("AG_TEST_NAME");
    note("limit", "%s %s in %s", test && *test ? test : "-", call, comm);
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
    REAL(pthread_create);
    int rc = real_pthread_create(thread, attr, start, arg);
    limit_reached("pthread_create", rc);
    return rc;
}

pid_t fork(void)
{
    REAL(fork);
    pid_t pid = real_fork();
    if (pid < 0) {
        int err = errno;
        limit_reached("fork", err);
        errno = err;
    }
    return pid;
}
