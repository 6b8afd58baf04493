/* The offload stage as the tests call it: loaded at run time, in the forked
 * test, from libjacobi_offload.so beside the test binary (lab 4's lab.mk
 * says why: LLVM's offload runtime starts CUDA when the code that holds
 * target regions is loaded, and CUDA does not survive a fork). The test
 * binary's jacobi_offload and offload_runs_on_device pass each call on. */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "autograder.h"
#include "jacobi.h"
#include "offload_where.h"

static char load_error[600];

/* The stage's symbol NAME, or NULL with the reason in load_error. */
static void *offload_symbol(const char *name)
{
    static void *lib;
    if (!lib) {
        char path[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 32);
        if (n <= 0) {
            snprintf(load_error, sizeof load_error, "the test cannot find its own program (/proc/self/exe)");
            return NULL;
        }
        path[n] = '\0';
        char *slash = strrchr(path, '/');
        strcpy(slash ? slash + 1 : path, "libjacobi_offload.so");
        lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            snprintf(load_error, sizeof load_error, "could not load the offload stage (make lab4 builds it): %s",
                     dlerror());
            return NULL;
        }
    }
    void *sym = dlsym(lib, name);
    if (!sym)
        snprintf(load_error, sizeof load_error, "libjacobi_offload.so has no %s", name);
    return sym;
}

int jacobi_offload(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    int (*stage)(int, double, int, const double *, double *, double *);
    *(void **)&stage = offload_symbol("jacobi_offload");
    ck_assert_msg(stage != NULL, "%s", load_error);
    return stage(N, tol, max_iter, f, u, u_old);
}

int offload_runs_on_device(void)
{
    int (*probe)(void);
    *(void **)&probe = offload_symbol("offload_runs_on_device");
    if (!probe) { /* the test itself then fails, saying why */
        fprintf(stderr, "%s\n", load_error);
        return -1;
    }
    return probe();
}
