#include "time_split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bench/bench_check.h"
#include "cuda_check.h"
#include "random.h"
#include "timer.h"

#define MAX_RUNS 5

/* Fewer runs for slow products (gpu1): at least one, about 2 s in all. */
static int runs_for(double first)
{
    int runs = first > 0 ? (int)(2.0 / first) : MAX_RUNS;
    return runs < 1 ? 1 : runs > MAX_RUNS ? MAX_RUNS : runs;
}

/* Median seconds of copying in_bytes to d_in and out_bytes from d_out
 * through page-locked host buffers. */
static void time_pinned(size_t in_bytes, size_t out_bytes, void *d_in, void *d_out, double *t_in, double *t_out)
{
    void *h_in, *h_out;
    CUDA_CHECK(cudaMallocHost(&h_in, in_bytes));
    CUDA_CHECK(cudaMallocHost(&h_out, out_bytes));
    memset(h_in, 0, in_bytes);
    double tin[MAX_RUNS], tout[MAX_RUNS];
    for (int r = -1; r < MAX_RUNS; r++) { /* r = -1: warm-up */
        double t0 = wall_time();
        CUDA_CHECK(cudaMemcpy(d_in, h_in, in_bytes, cudaMemcpyHostToDevice));
        double t1 = wall_time();
        CUDA_CHECK(cudaMemcpy(h_out, d_out, out_bytes, cudaMemcpyDeviceToHost));
        double t2 = wall_time();
        if (r >= 0)
            tin[r] = t1 - t0, tout[r] = t2 - t1;
    }
    *t_in = bench_median(tin, MAX_RUNS);
    *t_out = bench_median(tout, MAX_RUNS);
    CUDA_CHECK(cudaFreeHost(h_in));
    CUDA_CHECK(cudaFreeHost(h_out));
}

void time_split_report(const char *name, matmult_fn dev, int m, int n, int k, int pinned)
{
    size_t sa = (size_t)m * k, sb = (size_t)k * n, sc = (size_t)m * n;
    double *A = kit_alloc_doubles(sa), *B = kit_alloc_doubles(sb), *C = kit_alloc_doubles(sc);
    kit_fill_real(A, sa, -1.0, 1.0, 1);
    kit_fill_real(B, sb, -1.0, 1.0, 2);
    double *dA, *dB, *dC;
    CUDA_CHECK(cudaMalloc((void **)&dA, sa * sizeof(double)));
    CUDA_CHECK(cudaMalloc((void **)&dB, sb * sizeof(double)));
    CUDA_CHECK(cudaMalloc((void **)&dC, sc * sizeof(double)));

    double h2d[MAX_RUNS], kernel[MAX_RUNS], d2h[MAX_RUNS];
    /* Warm-up: the first copy and the first call pay for page mapping and
     * module loading, which a steady state does not. */
    CUDA_CHECK(cudaMemcpy(dA, A, sa * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B, sb * sizeof(double), cudaMemcpyHostToDevice));
    double t0 = wall_time();
    dev(m, n, k, dA, dB, dC);
    int runs = runs_for(wall_time() - t0);
    CUDA_CHECK(cudaMemcpy(C, dC, sc * sizeof(double), cudaMemcpyDeviceToHost));
    for (int r = 0; r < runs; r++) {
        CUDA_CHECK(cudaDeviceSynchronize());
        t0 = wall_time();
        CUDA_CHECK(cudaMemcpy(dA, A, sa * sizeof(double), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(dB, B, sb * sizeof(double), cudaMemcpyHostToDevice));
        double t1 = wall_time();
        dev(m, n, k, dA, dB, dC); /* returns when C is ready */
        double t2 = wall_time();
        CUDA_CHECK(cudaMemcpy(C, dC, sc * sizeof(double), cudaMemcpyDeviceToHost));
        double t3 = wall_time();
        h2d[r] = t1 - t0, kernel[r] = t2 - t1, d2h[r] = t3 - t2;
    }
    int sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    double th = bench_median(h2d, runs), tk = bench_median(kernel, runs), td = bench_median(d2h, runs);
    /* The C of the last timed run, checked like the driver's (a random-vector
     * product): a kernel that returns at once has nothing right to show. */
    long errors = bench_matmult_freivalds(m, n, k, A, B, C);
    char extra[96] = "", f1[32], f2[32], f3[32], f4[32], f5[32];
    if (pinned) {
        /* A's and B's bytes in one copy, into a buffer of their joint size. */
        double *d_in, t_in, t_out;
        CUDA_CHECK(cudaMalloc((void **)&d_in, (sa + sb) * sizeof(double)));
        time_pinned((sa + sb) * sizeof(double), sc * sizeof(double), d_in, dC, &t_in, &t_out);
        CUDA_CHECK(cudaFree(d_in));
        snprintf(extra, sizeof extra, ", pinned_h2d=%s pinned_d2h=%s",
                 bench_fig(f1, "%.2f", bench_rate(8.0 * (double)(sa + sb) / 1e9, t_in)),
                 bench_fig(f2, "%.2f", bench_rate(8.0 * (double)sc / 1e9, t_out)));
    }
    printf("# split matmult_%s m=%d n=%d k=%d (median of %d): h2d %.4f ms %s GB/s, kernel %.4f ms %s GFLOP/s, "
           "d2h %.4f ms %s GB/s, sms=%d, errors=%ld%s\n",
           name, m, n, k, runs, 1e3 * th, bench_fig(f3, "%.2f", bench_rate(8.0 * (double)(sa + sb) / 1e9, th)),
           1e3 * tk, bench_fig(f4, "%.1f", bench_rate(2.0 * m * (double)n * k / 1e9, tk)), 1e3 * td,
           bench_fig(f5, "%.2f", bench_rate(8.0 * (double)sc / 1e9, td)), sms, errors, extra);
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    kit_free(A), kit_free(B), kit_free(C);
}
