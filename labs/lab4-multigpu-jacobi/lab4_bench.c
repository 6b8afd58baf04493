/* Lab 4's benchmark program (bench.sh runs it): one method, one size,
 * timed repeatedly in one process, so that the host arrays are set up once.
 *
 *   lab4_bench METHOD N sweeps repeats        METHOD: offload gpu1 gpu2 gpu3 peer
 *   mpirun -np P lab4_bench nccl N sweeps repeats
 *   lab4_bench copy N repeats                 device-to-device copy of (N+2)^3 doubles
 *   lab4_bench bound N sweeps repeats         the stencil-shaped copy (stencil_bound.h)
 *   lab4_bench peerbw MiB repeats             GPU 0 -> d and d -> 0 copies, every d
 *
 * A solve first checks the method: from the problem's start it runs
 * K = min(sweeps, 3) sweeps (the untimed warm-up; 3 reach past the first
 * halo exchange) and compares u bit for bit with the kit's sequential
 * Jacobi (common/poisson.h) after as many sweeps, printing
 *   check METHOD P N K wrong
 * (wrong: the elements that differ, or -1 if the solver failed). Only then
 * is it timed, and prints
 *   solve METHOD P N sweeps median min max median_total GLUP/s GB/s@16 GB/s@24
 * with the sweep-only seconds the solver reports (median, min and max over
 * the repeats) and the median of the whole call; a rate that could not be
 * measured prints as "-". bound prints the same two lines for the
 * stencil-shaped copy (METHOD "bound"; its check: K sweeps against the
 * same sum on the host, bit for bit). copy prints "copy N bytes median_s GB/s SMs
 * L2" counting the bytes read and written (2 x the buffer), the way a Jacobi
 * sweep's 16 bytes per point count them, the GPU's multiprocessors (for
 * its peak) and its L2 cache in bytes (a grid whose two arrays fit in it is
 * not bound by the copy); peerbw prints "peer a b MiB median_s GB/s" one way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bench/bench_check.h"
#include "cli.h"
#include "cuda_check.h"
#include "decomp.h"
#include "gpu.h"
#include "jacobi.h"
#include "stencil_bound.h"
#include "offload_where.h"
#include "poisson.h"
#include "timer.h"

static nccl_world world;
static int peer_devices[2] = {0, 1};

static int run(const char *method, int N, int sweeps, const double *f, double *u, double *u_old)
{
    if (!strcmp(method, "offload"))
        return jacobi_offload(N, 0.0, sweeps, f, u, u_old);
    if (!strcmp(method, "gpu1"))
        return jacobi_gpu1(N, 0.0, sweeps, f, u, u_old);
    if (!strcmp(method, "gpu2"))
        return jacobi_gpu2(N, 0.0, sweeps, f, u, u_old);
    if (!strcmp(method, "gpu3"))
        return jacobi_gpu3(N, 0.0, sweeps, f, u, u_old);
    if (!strcmp(method, "peer"))
        return jacobi_peer(N, 0.0, sweeps, f, u, u_old, peer_devices);
    return jacobi_nccl(N, 0.0, sweeps, f, u, u_old, &world);
}

/* The check: K sweeps of the method from the problem's start (every rank
 * holds the full start, as jacobi.h promises), then on rank 0 the kit's
 * sequential Jacobi from the same start, compared bit for bit. Leaves the
 * method's state in u for the timed runs to go on from. Returns the wrong
 * elements (on rank 0; 0 elsewhere), or -1 if the solver failed. */
static long check(const char *method, int N, int K, double *f, double *u, double *u_old)
{
    size_t n = poisson_points(N);
    poisson_init(N, 0.0, f, u);
    memcpy(u_old, u, n * sizeof *u);
    lab4_forget_sweep_seconds();
    int got = run(method, N, K, f, u, u_old);
    if (got != K) {
        fprintf(stderr, "error: %s returned %d sweeps, expected %d\n", method, got, K);
        return -1;
    }
    if (!strcmp(method, "nccl") && world.rank != 0)
        return 0;
    double *r = kit_alloc_doubles(n), *r_old = kit_alloc_doubles(n);
    poisson_init(N, 0.0, NULL, r);
    memcpy(r_old, r, n * sizeof *r);
    poisson_jacobi_reference(N, 0.0, K, f, r, r_old);
    long wrong = bench_count_bit_differences(u, r, n);
    kit_free(r);
    kit_free(r_old);
    return wrong;
}

/* The solve line of a method's timed runs: t[] the sweeps' seconds, total[]
 * the whole calls' (both sorted in place). */
static void print_solve(const char *method, int P, int N, int sweeps, double *t, double *total, int repeats)
{
    double tmin = t[0], tmax = t[0];
    for (int r = 1; r < repeats; r++) {
        tmin = t[r] < tmin ? t[r] : tmin;
        tmax = t[r] > tmax ? t[r] : tmax;
    }
    double tm = bench_median(t, repeats), points = (double)N * N * N * sweeps;
    char f1[32], f2[32], f3[32];
    printf("solve %s %d %d %d %.6f %.6f %.6f %.6f %s %s %s\n", method, P, N, sweeps, tm, tmin, tmax,
           bench_median(total, repeats), bench_fig(f1, "%.3f", bench_rate(points / 1e9, tm)),
           bench_fig(f2, "%.1f", bench_rate(16 * points / 1e9, tm)), bench_fig(f3, "%.1f", bench_rate(24 * points / 1e9, tm)));
}

static int solve(const char *method, int N, int sweeps, int repeats)
{
    int nccl = !strcmp(method, "nccl"), P = nccl ? world.size : !strcmp(method, "peer") ? 2 : 1;
    int print = !nccl || world.rank == 0;
    size_t n = poisson_points(N);
    double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n), *u_old = kit_alloc_doubles(n);
    /* The check is also the warm-up. */
    int K = sweeps < 3 ? sweeps : 3;
    long wrong = check(method, N, K, f, u, u_old);
    if (print)
        printf("check %s %d %d %d %ld\n", method, P, N, K, wrong);
    fflush(stdout);
    if (wrong < 0)
        return 1;
    double *t = kit_alloc_doubles((size_t)repeats), *total = kit_alloc_doubles((size_t)repeats);
    /* With tol = 0 the start does not change the time, so every run goes on
     * from where the last one stopped: no re-initialisation between runs. */
    for (int r = 0; r < repeats; r++) {
        lab4_forget_sweep_seconds();
        double t0 = wall_time();
        int got = run(method, N, sweeps, f, u, u_old);
        double call = wall_time() - t0;
        if (got != sweeps) {
            fprintf(stderr, "error: %s returned %d sweeps, expected %d\n", method, got, sweeps);
            return 1;
        }
        t[r] = lab4_sweep_seconds() >= 0 ? lab4_sweep_seconds() : call;
        total[r] = call;
    }
    if (print)
        print_solve(method, P, N, sweeps, t, total, repeats);
    kit_free(t);
    kit_free(total);
    kit_free(f);
    kit_free(u);
    kit_free(u_old);
    return 0;
}

static double time_copy(double *dst, int ddev, const double *src, int sdev, size_t bytes, int repeats)
{
    double *t = kit_alloc_doubles((size_t)repeats);
    for (int r = -1; r < repeats; r++) {
        double t0 = wall_time();
        CUDA_CHECK(cudaMemcpyPeer(dst, ddev, src, sdev, bytes));
        CUDA_CHECK(cudaDeviceSynchronize());
        if (r >= 0)
            t[r] = wall_time() - t0;
    }
    double m = bench_median(t, repeats);
    kit_free(t);
    return m;
}

/* The stencil-shaped copy's sweep on the host, as stencil_bound.cu computes
 * it: the six neighbours in the kit's order, times 1/6. */
static void stencil_copy_host(int N, const double *u_old, double *u_new)
{
    size_t sj = poisson_side(N), si = sj * sj;
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++) {
                size_t c = poisson_index(N, i, j, k);
                u_new[c] = (u_old[c - si] + u_old[c + si] + u_old[c - sj] + u_old[c + sj] + u_old[c - 1] +
                            u_old[c + 1]) *
                           (1.0 / 6.0);
            }
}

/* The bound: K = min(sweeps, 2) sweeps from the problem's start checked
 * against the host, then repeats timed runs of sweeps sweeps going on from
 * there, printed as a solve line (seconds of the sweeps alone). */
static int bound(int N, int sweeps, int repeats)
{
    size_t n = poisson_points(N), bytes = n * sizeof(double);
    double *u = kit_alloc_doubles(n), *r = kit_alloc_doubles(n), *r_new = kit_alloc_doubles(n);
    double *d_old, *d_new;
    poisson_init(N, 0.0, NULL, u);
    CUDA_CHECK(cudaMalloc((void **)&d_old, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_new, bytes));
    CUDA_CHECK(cudaMemcpy(d_old, u, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_new, u, bytes, cudaMemcpyHostToDevice));
    memcpy(r, u, bytes);
    memcpy(r_new, u, bytes);
    int K = sweeps < 2 ? sweeps : 2;
    for (int s = 0; s < K; s++) {
        lab4_stencil_copy_sweep(N, d_old, d_new, 0);
        stencil_copy_host(N, r, r_new);
        double *t = d_old;
        d_old = d_new;
        d_new = t;
        t = r;
        r = r_new;
        r_new = t;
    }
    CUDA_CHECK(cudaMemcpy(u, d_old, bytes, cudaMemcpyDeviceToHost));
    long wrong = bench_count_bit_differences(u, r, n);
    printf("check bound 1 %d %d %ld\n", N, K, wrong);
    fflush(stdout);
    double *t = kit_alloc_doubles((size_t)repeats), *total = kit_alloc_doubles((size_t)repeats);
    for (int rep = 0; rep < repeats; rep++) {
        double t0 = wall_time();
        for (int s = 0; s < sweeps; s++) {
            lab4_stencil_copy_sweep(N, d_old, d_new, 0);
            double *x = d_old;
            d_old = d_new;
            d_new = x;
        }
        CUDA_CHECK(cudaDeviceSynchronize());
        t[rep] = wall_time() - t0;
    }
    memcpy(total, t, (size_t)repeats * sizeof *t); /* no set-up inside the timed runs */
    print_solve("bound", 1, N, sweeps, t, total, repeats);
    CUDA_CHECK(cudaFree(d_old));
    CUDA_CHECK(cudaFree(d_new));
    kit_free(t);
    kit_free(total);
    kit_free(u);
    kit_free(r);
    kit_free(r_new);
    return wrong == 0 ? 0 : 1;
}

static int copy(int N, int repeats)
{
    size_t bytes = poisson_points(N) * sizeof(double);
    double *a, *b;
    CUDA_CHECK(cudaMalloc((void **)&a, bytes));
    CUDA_CHECK(cudaMalloc((void **)&b, bytes));
    CUDA_CHECK(cudaMemset(a, 0, bytes));
    double t = time_copy(b, 0, a, 0, bytes, repeats);
    int sms = 0, l2 = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    char fig[32];
    printf("copy %d %zu %.6f %s %d %d\n", N, bytes, t, bench_fig(fig, "%.1f", bench_rate(2.0 * (double)bytes / 1e9, t)),
           sms, l2);
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    return 0;
}

static int peerbw(int mib, int repeats)
{
    int ndev = gpu_count();
    size_t bytes = (size_t)mib << 20;
    double *buf[16];
    for (int d = 0; d < ndev && d < 16; d++) {
        CUDA_CHECK(cudaSetDevice(d));
        CUDA_CHECK(cudaMalloc((void **)&buf[d], bytes));
        CUDA_CHECK(cudaMemset(buf[d], 0, bytes));
        for (int e = 0; e < ndev; e++) {
            int can = 0;
            if (e == d)
                continue;
            CUDA_CHECK(cudaDeviceCanAccessPeer(&can, d, e));
            if (can && cudaDeviceEnablePeerAccess(e, 0) != cudaSuccess)
                cudaGetLastError();
        }
    }
    for (int d = 1; d < ndev && d < 16; d++) {
        double t = time_copy(buf[d], d, buf[0], 0, bytes, repeats);
        char fig[32];
        printf("peer 0 %d %d %.6f %s\n", d, mib, t, bench_fig(fig, "%.1f", bench_rate((double)bytes / 1e9, t)));
        t = time_copy(buf[0], 0, buf[d], d, bytes, repeats);
        printf("peer %d 0 %d %.6f %s\n", d, mib, t, bench_fig(fig, "%.1f", bench_rate((double)bytes / 1e9, t)));
    }
    for (int d = 0; d < ndev && d < 16; d++)
        CUDA_CHECK(cudaFree(buf[d]));
    return 0;
}

int main(int argc, char **argv)
{
    static const char usage[] = "usage: lab4_bench offload|gpu1|gpu2|gpu3|peer|nccl N sweeps repeats\n"
                                "       lab4_bench bound N sweeps repeats\n"
                                "       lab4_bench copy N repeats | lab4_bench peerbw MiB repeats\n"
                                "       lab4_bench where      (does the offload stage run on the GPU?)\n";
    if (argc < 4 && !(argc == 2 && !strcmp(argv[1], "where"))) {
        fputs(usage, stderr);
        return 2;
    }
    const char *m = argv[1];
    if (argc == 2 && !strcmp(m, "where")) { /* where the offload stage runs: offload_where.h */
        printf("offload runs on the %s\n", offload_runs_on_device() ? "device" : "host");
        return 0;
    }
    int a, b, c = 1;
    if (cli_parse_int(argv[2], "N (or MiB)", 1, POISSON_MAX_N, &a) ||
        cli_parse_int(argv[3], "sweeps (or repeats)", 1, 1 << 30, &b) ||
        (argc > 4 && cli_parse_int(argv[4], "repeats", 1, 1000, &c))) {
        fputs(usage, stderr);
        return 2;
    }
    if (!strcmp(m, "nccl")) {
        int rc = nccl_world_init(&argc, &argv, &world);
        if (rc)
            return rc;
        rc = solve(m, a, b, c);
        nccl_world_finalize(&world);
        return rc;
    }
    int need = !strcmp(m, "offload") ? 0 : !strcmp(m, "peer") ? 2 : 1;
    if (gpu_count() < need) {
        fprintf(stderr, "error: %s needs %d GPU(s); this machine has %d\n", m, need, gpu_count());
        return 2;
    }
    if (!strcmp(m, "copy"))
        return copy(a, b);
    if (!strcmp(m, "peerbw"))
        return peerbw(a, b);
    if (!strcmp(m, "bound"))
        return bound(a, b, c);
    if (!strcmp(m, "offload") || !strcmp(m, "gpu1") || !strcmp(m, "gpu2") || !strcmp(m, "gpu3") ||
        !strcmp(m, "peer"))
        return solve(m, a, b, c);
    fprintf(stderr, "error: unknown method '%s'\n", m);
    fputs(usage, stderr);
    return 2;
}
