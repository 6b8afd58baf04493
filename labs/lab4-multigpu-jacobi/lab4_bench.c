/* Lab 4's benchmark program (bench.sh runs it): one method, one size,
 * timed repeatedly in one process, so that the host arrays are set up once.
 *
 *   lab4_bench METHOD N sweeps repeats        METHOD: offload gpu1 gpu2 gpu3 peer
 *   mpirun -np P lab4_bench nccl N sweeps repeats
 *   lab4_bench copy N repeats                 device-to-device copy of (N+2)^3 doubles
 *   lab4_bench peerbw MiB repeats             GPU 0 -> d and d -> 0 copies, every d
 *
 * A solve prints
 *   solve METHOD P N sweeps median min max median_total GLUP/s GB/s@16 GB/s@24
 * with the sweep-only seconds the solver reports (median, min and max over
 * the repeats, after one untimed warm-up run) and the median of the whole
 * call. copy prints "copy N bytes median_s GB/s" counting the bytes read and
 * written (2 x the buffer), the way a Jacobi sweep's 16 bytes per point
 * count them; peerbw prints "peer a b MiB median_s GB/s" one way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cli.h"
#include "cuda_check.h"
#include "decomp.h"
#include "gpu.h"
#include "jacobi4.h"
#include "poisson.h"
#include "timer.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

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

static int solve(const char *method, int N, int sweeps, int repeats)
{
    int nccl = !strcmp(method, "nccl"), P = nccl ? world.size : !strcmp(method, "peer") ? 2 : 1;
    size_t n = poisson_points(N);
    double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n), *u_old = kit_alloc_doubles(n);
    /* Touch only what the method reads: first touches of a 1024^3 grid
     * cost seconds per array (and per rank). gpu3, peer and nccl never read
     * f; an NCCL rank other than 0 reads only its own planes of u, and its
     * values do not change a fixed number of sweeps' time. */
    int reads_f = !strcmp(method, "offload") || !strcmp(method, "gpu1") || !strcmp(method, "gpu2");
    if (nccl && world.rank != 0) {
        decomp_part part = decomp_split(N, world.size, world.rank);
        memset(u + decomp_plane_offset(N, part.first - 1), 0, decomp_local_size(N, part) * sizeof *u);
    } else {
        poisson_init(N, 0.0, reads_f ? f : NULL, u);
        if (!strcmp(method, "offload")) /* the only one that reads u_old */
            memcpy(u_old, u, n * sizeof *u);
    }
    double *t = kit_alloc_doubles((size_t)repeats), *total = kit_alloc_doubles((size_t)repeats);
    /* With tol = 0 the start does not change the time, so every run goes on
     * from where the last one stopped: no re-initialisation between runs. */
    for (int r = -1; r < repeats; r++) {
        lab4_forget_sweep_seconds();
        double t0 = wall_time();
        int got = run(method, N, sweeps, f, u, u_old);
        double call = wall_time() - t0;
        if (got != sweeps) {
            fprintf(stderr, "error: %s returned %d sweeps, expected %d\n", method, got, sweeps);
            return 1;
        }
        if (r >= 0) {
            t[r] = lab4_sweep_seconds() >= 0 ? lab4_sweep_seconds() : call;
            total[r] = call;
        }
    }
    double tmin = t[0], tmax = t[0];
    for (int r = 1; r < repeats; r++) {
        tmin = t[r] < tmin ? t[r] : tmin;
        tmax = t[r] > tmax ? t[r] : tmax;
    }
    double tm = median(t, repeats), points = (double)N * N * N * sweeps;
    if (!nccl || world.rank == 0)
        printf("solve %s %d %d %d %.6f %.6f %.6f %.6f %.3f %.1f %.1f\n", method, P, N, sweeps, tm, tmin, tmax,
               median(total, repeats), points / tm / 1e9, 16 * points / tm / 1e9, 24 * points / tm / 1e9);
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
    double m = median(t, repeats);
    kit_free(t);
    return m;
}

static int copy(int N, int repeats)
{
    size_t bytes = poisson_points(N) * sizeof(double);
    double *a, *b;
    CUDA_CHECK(cudaMalloc((void **)&a, bytes));
    CUDA_CHECK(cudaMalloc((void **)&b, bytes));
    CUDA_CHECK(cudaMemset(a, 0, bytes));
    double t = time_copy(b, 0, a, 0, bytes, repeats);
    printf("copy %d %zu %.6f %.1f\n", N, bytes, t, 2.0 * (double)bytes / t / 1e9);
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
        printf("peer 0 %d %d %.6f %.1f\n", d, mib, t, (double)bytes / t / 1e9);
        t = time_copy(buf[0], 0, buf[d], d, bytes, repeats);
        printf("peer %d 0 %d %.6f %.1f\n", d, mib, t, (double)bytes / t / 1e9);
    }
    for (int d = 0; d < ndev && d < 16; d++)
        CUDA_CHECK(cudaFree(buf[d]));
    return 0;
}

int main(int argc, char **argv)
{
    static const char usage[] = "usage: lab4_bench offload|gpu1|gpu2|gpu3|peer|nccl N sweeps repeats\n"
                                "       lab4_bench copy N repeats | lab4_bench peerbw MiB repeats\n";
    if (argc < 4) {
        fputs(usage, stderr);
        return 2;
    }
    const char *m = argv[1];
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
    if (!strcmp(m, "offload") || !strcmp(m, "gpu1") || !strcmp(m, "gpu2") || !strcmp(m, "gpu3") ||
        !strcmp(m, "peer"))
        return solve(m, a, b, c);
    fprintf(stderr, "error: unknown method '%s'\n", m);
    fputs(usage, stderr);
    return 2;
}
