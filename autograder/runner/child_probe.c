/* The runner's questions to the CUDA driver and the offload runtime, each
 * in a child process: see child_probe.h. */
#define _GNU_SOURCE
#include "child_probe.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu.h"

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
        char buf[200] = "";
        int n = ask(buf, (int)sizeof buf);
        dprintf(fds[1], "%d %s", n, buf);
        _exit(0);
    }
    close(fds[1]);
    char buf[256] = {0};
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

int ag_probe_gpus(char *reason, int len) { return ag_ask_child(gpu_count_reason, "the GPU probe", reason, len); }
