/* Lab 7's benchmark program (bench.sh runs it): times the solver and its
 * parts beside the bound measured in the same run, after checking the
 * result. One CSV line per run on stdout:
 *
 *   lab7_bench cpu N REPEATS     fp_solve_serial; its transforms and its z stage;
 *                                FFTW alone (the same four r2r transforms, planned
 *                                by this program with FFTW_MEASURE)
 *   lab7_bench gpu N REPEATS     the device part of the GPU solver (fp_gpu_*: data on
 *                                the GPU), its transforms and z stage; cuFFT alone
 *                                (the same D2Z/Z2D batches); the device copy rate;
 *                                fp_solve_cuda with its copies; and the fused
 *                                device solve (fp_gpu_solve_fused) where there is one
 *   lab7_bench nccl N REPEATS    (under mpirun, one rank per GPU, 1 x P) fp_solve_nccl
 *                                with its copies, and its four transposes on the GPU as
 *                                it reports them (fp_record_seconds; "-" if it does not);
 *                                an NCCL all-to-all (grouped send/recv) of one pencil's
 *                                bytes, four times: the transposes' bound
 *
 * The problem: N^3 cells, x Dirichlet, y Neumann, z Dirichlet, random f.
 * Before any figure, the result's residual max|L u - f|/max|f| must be
 * below 1e-10; otherwise the line says INVALID (why) in its last column,
 * status, where a right one says ok, and the program exits 1 (common/bench's
 * rule). Every line has the same ten columns (bench.sh's CSV header):
 *   mode,N,solve_s,transforms_s,z_s,bound_s,solve_over_bound,copy_GBs,with_copies_s,status
 * the nccl lines with their own figures in columns 3-6 (above) and none
 * in 7-9. Times are medians of REPEATS runs after a warm-up (the checked
 * run). */
#include <cufft.h>
#include <nccl.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

#include "alloc.h"
#include "bench/bench_check.h"
#include "cli.h"
#include "cuda_check.h"
#include "fp_gpu.h"
#include "mpi_check.h"
#include "nccl_check.h"
#include "nccl/nccl_world.h"
#include "random.h"
#include "timer.h"

static fp_grid bench_grid(int N) { return (fp_grid){{N, N, N}, {1.0, 1.0, 1.0}, {FP_D, FP_N, FP_D}}; }

/* The line of a run that did not give a result to check. */
static int failed(const char *mode, int N, const char *why)
{
    printf("%s,%d,-,-,-,-,-,-,-,-,INVALID (failed: %s)\n", mode, N, why);
    return 1;
}

/* Residual check of a whole-grid solution; prints INVALID and returns 1 if wrong. */
static int invalid(const char *mode, int N, const fp_grid *g, const double *u, const double *f)
{
    double r = fp_residual(g, u, f);
    if (r < 1e-10)
        return 0;
    printf("%s,%d,-,-,-,-,-,-,-,-,INVALID (residual %.3g >= 1e-10)\n", mode, N, r);
    return 1;
}

static int run_cpu(int N, int reps)
{
    fp_grid g = bench_grid(N);
    fp_box all = fp_whole(&g);
    size_t n = fp_cells(&g);
    double *f = kit_alloc_doubles(n), *a = kit_alloc_doubles(n);
    kit_fill_real(f, n, -1.0, 1.0, 7);
    memcpy(a, f, n * sizeof *a);
    if (fp_solve_serial(&g, a) != 0)
        return failed("cpu", N, "fp_solve_serial returned an error");
    if (invalid("cpu", N, &g, a, f))
        return 1;
    double *ts = malloc(reps * sizeof *ts), *tt = malloc(reps * sizeof *tt), *tz = malloc(reps * sizeof *tz),
           *tf = malloc(reps * sizeof *tf);
    /* FFTW alone: the same transforms, planned here once */
    fftw_r2r_kind kinds[2][2] = {{FFTW_RODFT10, FFTW_RODFT01}, {FFTW_REDFT10, FFTW_REDFT01}};
    fftw_plan plans[2][2];
    for (int ax = 0; ax < 2; ax++)
        for (int inv = 0; inv < 2; inv++) {
            int stride = ax ? N : 1;
            fftw_iodim line = {N, stride, stride};
            fftw_iodim batch[2] = {{N, ax ? 1 : N, ax ? 1 : N}, {N, N * N, N * N}};
            plans[ax][inv] = fftw_plan_guru_r2r(1, &line, 2, batch, a, a, &kinds[ax][inv], FFTW_MEASURE);
        }
    for (int r = 0; r < reps; r++) {
        memcpy(a, f, n * sizeof *a);
        double t0 = wall_time();
        fp_solve_serial(&g, a);
        ts[r] = wall_time() - t0;
        memcpy(a, f, n * sizeof *a);
        t0 = wall_time();
        fp_transform(&g, &all, 0, 0, a);
        fp_transform(&g, &all, 1, 0, a);
        double t1 = wall_time();
        fp_solve_z(&g, &all, a);
        double t2 = wall_time();
        fp_transform(&g, &all, 1, 1, a);
        fp_transform(&g, &all, 0, 1, a);
        double t3 = wall_time();
        tt[r] = (t1 - t0) + (t3 - t2), tz[r] = t2 - t1;
        t0 = wall_time();
        fftw_execute(plans[0][0]), fftw_execute(plans[1][0]), fftw_execute(plans[1][1]), fftw_execute(plans[0][1]);
        tf[r] = wall_time() - t0;
    }
    double s = bench_median(ts, reps), t = bench_median(tt, reps), z = bench_median(tz, reps), w = bench_median(tf, reps);
    /* mode,N,solve_s,transforms_s,z_s,bound_s,solve/bound */
    printf("cpu,%d,%.6f,%.6f,%.6f,%.6f,%.3f,-,-,-,ok\n", N, s, t, z, w, s / w);
    for (int ax = 0; ax < 2; ax++)
        for (int inv = 0; inv < 2; inv++)
            fftw_destroy_plan(plans[ax][inv]);
    kit_free(f), kit_free(a);
    free(ts), free(tt), free(tz), free(tf);
    return 0;
}

static double event_ms(cudaEvent_t a, cudaEvent_t b)
{
    float ms;
    CUDA_CHECK(cudaEventSynchronize(b));
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms / 1e3;
}

static int run_gpu(int N, int reps)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) {
        fprintf(stderr, "lab7_bench gpu: no GPU\n");
        return 2;
    }
    fp_grid g = bench_grid(N);
    fp_box all[3] = {fp_whole(&g), fp_whole(&g), fp_whole(&g)};
    size_t n = fp_cells(&g), bytes = n * sizeof(double);
    double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n);
    kit_fill_real(f, n, -1.0, 1.0, 7);
    double *tw = malloc(reps * sizeof *tw), *ts = malloc(reps * sizeof *ts), *tt = malloc(reps * sizeof *tt),
           *tz = malloc(reps * sizeof *tz), *tc = malloc(reps * sizeof *tc), *tb = malloc(reps * sizeof *tb);
    /* 1. fp_solve_cuda with its copies; the first run is the checked warm-up */
    memcpy(u, f, bytes);
    if (fp_solve_cuda(&g, u) != 0)
        return failed("gpu", N, "fp_solve_cuda returned an error");
    if (invalid("gpu", N, &g, u, f))
        return 1;
    for (int r = 0; r < reps; r++) {
        memcpy(u, f, bytes);
        double t0 = wall_time();
        fp_solve_cuda(&g, u);
        tw[r] = wall_time() - t0;
    }
    /* 2. the device part alone: data already on the GPU, plans made */
    cudaStream_t st;
    CUDA_CHECK(cudaStreamCreate(&st));
    double *d_u, *d_src;
    CUDA_CHECK(cudaMalloc((void **)&d_u, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_src, bytes));
    CUDA_CHECK(cudaMemcpy(d_src, f, bytes, cudaMemcpyHostToDevice));
    fp_gpu *gpu = fp_gpu_create(&g, all, st);
    if (!gpu)
        return failed("gpu", N, "fp_gpu_create returned NULL");
    cudaEvent_t e[4];
    for (int i = 0; i < 4; i++)
        CUDA_CHECK(cudaEventCreate(&e[i]));
    for (int r = 0; r < reps; r++) {
        CUDA_CHECK(cudaMemcpyAsync(d_u, d_src, bytes, cudaMemcpyDeviceToDevice, st));
        CUDA_CHECK(cudaEventRecord(e[0], st));
        fp_gpu_transform(gpu, 0, 0, d_u);
        fp_gpu_transform(gpu, 1, 0, d_u);
        CUDA_CHECK(cudaEventRecord(e[1], st));
        fp_gpu_solve_z(gpu, d_u);
        CUDA_CHECK(cudaEventRecord(e[2], st));
        fp_gpu_transform(gpu, 1, 1, d_u);
        fp_gpu_transform(gpu, 0, 1, d_u);
        CUDA_CHECK(cudaEventRecord(e[3], st));
        ts[r] = event_ms(e[0], e[3]);
        tt[r] = event_ms(e[0], e[1]) + event_ms(e[2], e[3]);
        tz[r] = event_ms(e[1], e[2]);
    }
    CUDA_CHECK(cudaMemcpy(u, d_u, bytes, cudaMemcpyDeviceToHost));
    if (invalid("gpu", N, &g, u, f)) /* the timed runs' own result */
        return 1;
    /* 2b. the fused device solve, where the solver has one (fp_gpu.h:
     * optional); its first run (plans, callbacks linked) is the checked
     * warm-up, and the timed runs' result is checked too */
    double *tx = malloc(reps * sizeof *tx), fused = -1.0;
    if (fp_gpu_solve_fused) {
        int r;
        for (r = -1; r < reps; r++) {
            CUDA_CHECK(cudaMemcpyAsync(d_u, d_src, bytes, cudaMemcpyDeviceToDevice, st));
            CUDA_CHECK(cudaEventRecord(e[0], st));
            int rc = fp_gpu_solve_fused(gpu, d_u);
            CUDA_CHECK(cudaEventRecord(e[1], st));
            if (rc == 1) /* not applicable here: said on stderr, no figure */
                break;
            if (r >= 0)
                tx[r] = event_ms(e[0], e[1]);
            if (r == -1 || r == reps - 1) {
                CUDA_CHECK(cudaMemcpy(u, d_u, bytes, cudaMemcpyDeviceToHost));
                if (rc != 0 || invalid("gpu", N, &g, u, f))
                    return 1;
            }
        }
        if (r == reps) /* every timed run made */
            fused = bench_median(tx, reps);
    }
    fp_gpu_destroy(gpu);
    /* 3. the bounds: cuFFT alone (N^2 lines of N, D2Z and Z2D, x and y
     * forward and back) and the device copy rate */
    cufftDoubleComplex *d_c;
    CUDA_CHECK(cudaMalloc((void **)&d_c, (size_t)N * N * (N / 2 + 1) * sizeof *d_c));
    cufftHandle fw, bw;
    int len = N, lines = N * N;
    CUFFT_CHECK(cufftPlanMany(&fw, 1, &len, NULL, 1, N, NULL, 1, N / 2 + 1, CUFFT_D2Z, lines));
    CUFFT_CHECK(cufftPlanMany(&bw, 1, &len, NULL, 1, N / 2 + 1, NULL, 1, N, CUFFT_Z2D, lines));
    CUFFT_CHECK(cufftSetStream(fw, st));
    CUFFT_CHECK(cufftSetStream(bw, st));
    for (int r = 0; r < reps; r++) {
        CUDA_CHECK(cudaEventRecord(e[0], st));
        for (int k = 0; k < 2; k++) {
            CUFFT_CHECK(cufftExecD2Z(fw, d_u, d_c));
            CUFFT_CHECK(cufftExecZ2D(bw, d_c, d_u));
        }
        CUDA_CHECK(cudaEventRecord(e[1], st));
        tc[r] = event_ms(e[0], e[1]);
        CUDA_CHECK(cudaEventRecord(e[0], st));
        CUDA_CHECK(cudaMemcpyAsync(d_u, d_src, bytes, cudaMemcpyDeviceToDevice, st));
        CUDA_CHECK(cudaEventRecord(e[1], st));
        tb[r] = event_ms(e[0], e[1]);
    }
    double s = bench_median(ts, reps), t = bench_median(tt, reps), z = bench_median(tz, reps), c = bench_median(tc, reps);
    double copy_gbs = 2.0 * bytes / bench_median(tb, reps) / 1e9;
    /* mode,N,solve_s,transforms_s,z_s,bound_s,solve/bound,copy_GB/s,with_copies_s,fused_s ("-": none),status */
    char fs[32] = "-";
    if (fused >= 0.0)
        snprintf(fs, sizeof fs, "%.6f", fused);
    printf("gpu,%d,%.6f,%.6f,%.6f,%.6f,%.3f,%.1f,%.6f,%s,ok\n", N, s, t, z, c, s / c, copy_gbs,
           bench_median(tw, reps), fs);
    CUFFT_CHECK(cufftDestroy(fw));
    CUFFT_CHECK(cufftDestroy(bw));
    void *buffers[3] = {d_u, d_src, d_c};
    for (int i = 0; i < 3; i++)
        CUDA_CHECK(cudaFree(buffers[i]));
    kit_free(f), kit_free(u);
    free(ts), free(tt), free(tz), free(tc), free(tb), free(tw), free(tx);
    return 0;
}

static int run_nccl(int N, int reps, int *argc, char ***argv)
{
    nccl_world w;
    if (nccl_world_init(argc, argv, &w) != 0)
        return 2;
    fp_grid g = bench_grid(N);
    int pr = 1, pc = w.size;
    if (fp_pencils_check(&g, pr, pc) != 0) {
        nccl_world_finalize(&w);
        return 2;
    }
    fp_box b = fp_pencil_box(&g, pr, pc, 0, w.rank, FP_XPENCIL);
    size_t n = fp_cells(&g), cells = fp_box_cells(&b);
    double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n), *a = kit_alloc_doubles(cells);
    kit_fill_real(f, n, -1.0, 1.0, 7);
    /* whole-grid arrays to and from the x pencils: rank 0 checks the gathered result */
    for (int k = 0; k < b.n[2]; k++)
        for (int j = 0; j < b.n[1]; j++)
            memcpy(a + (size_t)b.n[0] * ((size_t)j + (size_t)b.n[1] * k), f + fp_index(&g, 0, b.lo[1] + j, k),
                   (size_t)N * sizeof *a);
    double *a0 = kit_alloc_doubles(cells);
    memcpy(a0, a, cells * sizeof *a);
    int bad = fp_solve_nccl(&g, pr, pc, w.comm, w.stream, a) != 0, solved = !bad;
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &solved, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    /* gather u on rank 0 (pencils are y slabs of equal size: plain Gather, then reorder) */
    double *all = w.rank == 0 ? kit_alloc_doubles(n) : NULL;
    MPI_CHECK(MPI_Gather(a, (int)cells, MPI_DOUBLE, all, (int)cells, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    if (w.rank == 0) {
        for (int q = 0; q < pc; q++) {
            fp_box bq = fp_pencil_box(&g, pr, pc, 0, q, FP_XPENCIL);
            for (int k = 0; k < N; k++)
                for (int j = 0; j < bq.n[1]; j++)
                    memcpy(u + fp_index(&g, 0, bq.lo[1] + j, k),
                           all + (size_t)q * cells + (size_t)N * ((size_t)j + (size_t)bq.n[1] * k), (size_t)N * sizeof *u);
        }
        if (!solved)
            bad = failed("nccl", N, "fp_solve_nccl returned an error");
        else
            bad |= invalid("nccl", N, &g, u, f);
        kit_free(all);
    }
    MPI_CHECK(MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (bad) {
        nccl_world_finalize(&w);
        return 1;
    }
    double *ts = malloc(reps * sizeof *ts), *tx = malloc(reps * sizeof *tx), *tp = malloc(reps * sizeof *tp), *d_s,
           *d_r;
    size_t block = cells / (size_t)w.size;
    CUDA_CHECK(cudaMalloc((void **)&d_s, cells * sizeof *d_s));
    CUDA_CHECK(cudaMalloc((void **)&d_r, cells * sizeof *d_r));
    for (int r = 0; r < reps; r++) {
        memcpy(a, a0, cells * sizeof *a);
        nccl_world_barrier(&w);
        fp_reset_recorded();
        double t0 = wall_time();
        fp_solve_nccl(&g, pr, pc, w.comm, w.stream, a);
        nccl_world_barrier(&w);
        ts[r] = wall_time() - t0;
        tp[r] = fp_recorded_seconds(FP_PART_TRANSPOSES); /* this rank's; -1 if unreported */
        t0 = wall_time();
        for (int x = 0; x < 4; x++) { /* the four transposes' worth */
            NCCL_CHECK(ncclGroupStart());
            for (int q = 0; q < w.size; q++) {
                NCCL_CHECK(ncclSend(d_s + (size_t)q * block, block, ncclDouble, q, w.comm, w.stream));
                NCCL_CHECK(ncclRecv(d_r + (size_t)q * block, block, ncclDouble, q, w.comm, w.stream));
            }
            NCCL_CHECK(ncclGroupEnd());
        }
        CUDA_CHECK(cudaStreamSynchronize(w.stream));
        nccl_world_barrier(&w);
        tx[r] = wall_time() - t0;
    }
    /* mode,N,solve_with_copies_s,transposes_s,alltoall_x4_s,gpus (rank 0's) */
    double x4 = bench_median(tx, reps), tr = bench_median(tp, reps);
    char trs[32] = "-";
    if (tr >= 0.0)
        snprintf(trs, sizeof trs, "%.6f", tr);
    if (w.rank == 0)
        printf("nccl,%d,%.6f,%s,%.6f,%d,-,-,-,-,ok\n", N, bench_median(ts, reps), trs, x4, w.size);
    void *buffers[2] = {d_s, d_r};
    for (int i = 0; i < 2; i++)
        CUDA_CHECK(cudaFree(buffers[i]));
    kit_free(f), kit_free(u), kit_free(a), kit_free(a0);
    free(ts), free(tx), free(tp);
    nccl_world_finalize(&w);
    return 0;
}

int main(int argc, char **argv)
{
    int N, reps;
    if (argc != 4 || cli_parse_int(argv[2], "N", 2, FP_MAX_N, &N) || cli_parse_int(argv[3], "REPEATS", 1, 1000, &reps)) {
        fprintf(stderr, "usage: lab7_bench cpu|gpu|nccl N REPEATS\n");
        return 2;
    }
    if (!strcmp(argv[1], "cpu"))
        return run_cpu(N, reps);
    if (!strcmp(argv[1], "gpu"))
        return run_gpu(N, reps);
    if (!strcmp(argv[1], "nccl"))
        return run_nccl(N, reps, &argc, &argv);
    fprintf(stderr, "lab7_bench: mode '%s': cpu, gpu or nccl\n", argv[1]);
    return 2;
}
