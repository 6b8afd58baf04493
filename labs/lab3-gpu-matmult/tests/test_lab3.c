/* Lab 3 (gpu-matmult): the visible tests. Run them with `make lab3 && make check`.
 *
 * Without a GPU only the launch-geometry tests run (on the CPU); the others
 * are reported as skipped, never as passed. On a GPU every variant is
 * compared with a product computed here on the CPU: exactly for small
 * integer inputs, within a stated tolerance for real ones, with C filled
 * with NaN before each call and A and B checked unchanged after it. Sizes
 * are not multiples of any block size, with m, n and k all different. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime.h>

#include "alloc.h"
#include "lab3_checks.h"
#include "autograder.h"
#include "cuda/compute_sanitizer.h"

/* ---- on the CPU: launch geometry ------------------------------------------ */

/* One test per variant, all one body: the row says which variant, and how
 * many elements one thread of it may compute. */
typedef struct {
    const char *variant;
    l3_launch_fn launch;
    l3_elements_fn elements;
    int min_count, max_count;
} geometry_row;

static const geometry_row gpu2_geometry_covers_c = {"matmult_gpu2", matmult_gpu2_launch, matmult_gpu2_elements, 1, 1};
static const geometry_row gpu3_geometry_covers_c = {"matmult_gpu3", matmult_gpu3_launch, matmult_gpu3_elements, 2, 2};
static const geometry_row gpu4_geometry_covers_c = {"matmult_gpu4", matmult_gpu4_launch, matmult_gpu4_elements, 3, 64};
static const geometry_row gpu5_geometry_covers_c = {"matmult_gpu5", matmult_gpu5_launch, matmult_gpu5_elements, 1, 1};

START_TEST(geometry_covers_c)
{
    const geometry_row *g = ag_test_arg();
    l3_check_geometry(g->variant, g->launch, g->elements, g->min_count, g->max_count);
}
END_TEST

/* ---- on the GPU: results ---------------------------------------------------- */

/* 1 x 1 x 1, shapes smaller than a block, one exact block, shapes that
 * leave partial blocks and tiles in every direction, a long k, and one
 * above 1000 (gpu1, one thread for all of C, stops before the last two). */
static const ag_mm_size sizes[] = {
    {1, 1, 1},      {2, 3, 4},       {17, 13, 11}, {16, 16, 16},    {33, 17, 200},
    {100, 50, 75},  {129, 257, 65},  {257, 300, 1000}, {1031, 1029, 67},
};
enum { nsizes = (int)(sizeof sizes / sizeof sizes[0]) };

/* One test per variant, all one body; the row is the variant and how many
 * of the sizes it gets. */
typedef struct {
    const char *variant;
    int count;
} sizes_row;

static const sizes_row gpu1_sizes = {"matmult_gpu1", nsizes - 2};
static const sizes_row gpu2_sizes = {"matmult_gpu2", nsizes};
static const sizes_row gpu3_sizes = {"matmult_gpu3", nsizes};
static const sizes_row gpu4_sizes = {"matmult_gpu4", nsizes};
static const sizes_row gpu5_sizes = {"matmult_gpu5", nsizes};
static const sizes_row gpu6_sizes = {"matmult_gpu6", nsizes};
static const sizes_row gpulib_sizes = {"matmult_gpulib", nsizes};

START_TEST(variant_sizes)
{
    const sizes_row *row = ag_test_arg();
    const l3_variant *v = l3_variant_named(row->variant);
    for (int s = 0; s < row->count; s++)
        l3_check(v, sizes[s], AG_MM_INTEGER, 100 + (uint64_t)s);
    l3_check_fresh(v, sizes[5], AG_MM_INTEGER, 150);
}
END_TEST

/* Real inputs: every variant within 1e-12 k max|A| max|B|. */
START_TEST(all_real_inputs)
{
    static const ag_mm_size s[] = {{67, 53, 64}, {129, 257, 65}, {1031, 1029, 67}};
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < l3_variant_count; v++)
            if (c < 2 || v > 0)
                l3_check(&l3_variants[v], s[c], AG_MM_REAL, 500 + (uint64_t)c);
}
END_TEST

/* The _dev entry points on device arrays: what the driver times alone.
 * Every variant runs twice on the same device arrays, the second time on
 * new contents: a product remembered by address and shape is wrong. */
/* The answer is ready for what the default stream does next, as a library
 * call's is: C copied back at once (cudaMemcpy, on the legacy default
 * stream) must equal C once the whole device is idle. A call that launched
 * on a non-blocking stream of its own and returned leaves C unwritten
 * when that copy (pinned, asynchronous on stream 0) reads it: the legacy stream does not wait for such
 * streams. The copy is of C's last rows, the last the kernel writes: a copy
 * of all of C would trail behind the kernel and find every row done. The
 * product takes a few ms, the copy µs; the contents do not matter; gpu1
 * (one thread) is left out. */
static void l3_check_result_ready(void)
{
    const int m = 2048, n = 2048, k = 1024;
    const size_t sa = (size_t)m * k, sb = (size_t)k * n, sc = (size_t)m * n;
    double *A = kit_alloc_doubles(sa), *B = kit_alloc_doubles(sb);
    double *at_once, *idle; /* pinned: a copy to pageable memory may wait for the whole device */
    ck_assert_int_eq(cudaMallocHost((void **)&at_once, 4 * (size_t)n * sizeof(double)), cudaSuccess);
    ck_assert_int_eq(cudaMallocHost((void **)&idle, 4 * (size_t)n * sizeof(double)), cudaSuccess);
    for (size_t i = 0; i < sa; i++)
        A[i] = (double)(i % 7) - 3.0;
    for (size_t i = 0; i < sb; i++)
        B[i] = (double)(i % 5) - 2.0;
    double *dA, *dB, *dC;
    ck_assert_int_eq(cudaMalloc((void **)&dA, sa * sizeof(double)), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&dB, sb * sizeof(double)), cudaSuccess);
    ck_assert_int_eq(cudaMalloc((void **)&dC, sc * sizeof(double)), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(dA, A, sa * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
    ck_assert_int_eq(cudaMemcpy(dB, B, sb * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
    for (int v = 0; v < l3_variant_count; v++) {
        if (!strcmp(l3_variants[v].name, "matmult_gpu1"))
            continue;
        ck_assert_int_eq(cudaMemset(dC, 0xFF, sc * sizeof(double)), cudaSuccess); /* NaN */
        ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
        l3_variants[v].dev(m, n, k, dA, dB, dC);
        const size_t tail = 4 * (size_t)n, from = sc - tail; /* the last 4 rows */
        ck_assert_int_eq(cudaMemcpyAsync(at_once, dC + from, tail * sizeof(double), cudaMemcpyDeviceToHost, 0),
                         cudaSuccess);
        ck_assert_int_eq(cudaStreamSynchronize(0), cudaSuccess);
        ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
        ck_assert_int_eq(cudaMemcpy(idle, dC + from, tail * sizeof(double), cudaMemcpyDeviceToHost), cudaSuccess);
        if (memcmp(at_once, idle, tail * sizeof(double)) != 0)
            ck_abort_msg("%s_dev, m=%d n=%d k=%d: C's last rows copied back on the default stream right after the "
                         "call differ from the same rows once the device was idle: the call returned while its work still ran where the "
                         "default stream does not wait (a non-blocking stream of its own, never waited for?)",
                         l3_variants[v].name, m, n, k);
    }
    cudaFree(dA), cudaFree(dB), cudaFree(dC);
    kit_free(A), kit_free(B), cudaFreeHost(at_once), cudaFreeHost(idle);
}

START_TEST(dev_entry_points)
{
    static const ag_mm_size s[] = {{17, 13, 11}, {100, 50, 75}};
    for (int c = 0; c < 2; c++) {
        ag_mm_problem p;
        ag_mm_problem_make(&p, s[c], AG_MM_INTEGER, 600 + (uint64_t)c);
        double *C = kit_alloc_doubles(p.sc);
        double *dA, *dB, *dC;
        ck_assert_int_eq(cudaMalloc((void **)&dA, p.sa * sizeof(double)), cudaSuccess);
        ck_assert_int_eq(cudaMalloc((void **)&dB, p.sb * sizeof(double)), cudaSuccess);
        ck_assert_int_eq(cudaMalloc((void **)&dC, p.sc * sizeof(double)), cudaSuccess);
        for (int round = 0; round < 2; round++) {
            if (round == 1)
                ag_mm_problem_refill(&p, 650 + (uint64_t)c);
            ck_assert_int_eq(cudaMemcpy(dA, p.A, p.sa * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
            ck_assert_int_eq(cudaMemcpy(dB, p.B, p.sb * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
            for (int v = 0; v < l3_variant_count; v++) {
                ag_poison(C, p.sc);
                ck_assert_int_eq(cudaMemcpy(dC, C, p.sc * sizeof(double), cudaMemcpyHostToDevice), cudaSuccess);
                l3_variants[v].dev(p.size.m, p.size.n, p.size.k, dA, dB, dC);
                ck_assert_int_eq(cudaMemcpy(C, dC, p.sc * sizeof(double), cudaMemcpyDeviceToHost), cudaSuccess);
                ag_assert_matrix_eq(p.R, C, (size_t)p.size.m, (size_t)p.size.n, -1.0,
                                    "%s_dev on device arrays, m=%d n=%d k=%d%s", l3_variants[v].name, p.size.m,
                                    p.size.n, p.size.k, round ? ", called again with new A and B in the same arrays" : "");
            }
        }
        cudaFree(dA), cudaFree(dB), cudaFree(dC);
        kit_free(C);
        ag_mm_problem_free(&p);
    }
    l3_check_result_ready();
}
END_TEST

/* m = 2^20 rows: a grid of 16-row blocks needs 65536 blocks in y, one more
 * than CUDA allows, so such a launch fails. A variant must then either
 * compute C anyway (another geometry) or stop with an error; returning a C
 * that was never computed is the one wrong answer. Each call runs in a
 * process of its own, so that stopping is an outcome we can observe. */
enum { SILENTLY_WRONG = 77 };

START_TEST(failed_launch_is_reported)
{
    const ag_mm_size s = {1 << 20, 2, 3};
    ag_mm_problem p;
    ag_mm_problem_make(&p, s, AG_MM_INTEGER, 700);
    for (int v = 0; v < l3_variant_count; v++) {
        fflush(NULL);
        pid_t pid = fork();
        ck_assert_msg(pid >= 0, "fork failed");
        if (pid == 0) {
            alarm(60);
            double *C = kit_alloc_doubles(p.sc);
            ag_poison(C, p.sc);
            l3_variants[v].host(s.m, s.n, s.k, p.A, p.B, C);
            _exit(ag_mm_count_wrong(&p, C) ? SILENTLY_WRONG : 0);
        }
        int status;
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        if (WIFSIGNALED(status))
            ck_abort_msg("%s, m=%d n=%d k=%d: the process died of signal %d (%s)", l3_variants[v].name, s.m, s.n, s.k,
                         WTERMSIG(status), strsignal(WTERMSIG(status)));
        if (WIFEXITED(status) && WEXITSTATUS(status) == SILENTLY_WRONG)
            ck_abort_msg("%s, m=%d n=%d k=%d: returned a wrong C and reported nothing. With 16-row blocks this grid "
                         "needs 65536 blocks in y (the limit is 65535): a launch that fails must stop the program "
                         "(CUDA_CHECK_LAUNCH() after every launch), never pass unnoticed",
                         l3_variants[v].name, s.m, s.n, s.k);
    }
    ag_mm_problem_free(&p);
}
END_TEST

/* The CUDA toolkit's checkers (autograder/cuda/compute_sanitizer.h): one
 * small shape with partial blocks and tiles in every direction, under
 * memcheck for every variant, and under racecheck and synccheck for gpu5's
 * shared-memory tiles. */
static const ag_mm_size sanitized_size = {65, 43, 37};

static void kernels_small_case(void)
{
    static const char *const names[] = {"matmult_gpu1", "matmult_gpu2", "matmult_gpu3", "matmult_gpu4",
                                        "matmult_gpu5"};
    for (int v = 0; v < 5; v++)
        l3_check(l3_variant_named(names[v]), sanitized_size, AG_MM_INTEGER, 900 + (uint64_t)v);
}

static void gpu5_small_case(void) { l3_check(l3_variant_named("matmult_gpu5"), sanitized_size, AG_MM_INTEGER, 905); }

static const ag_sanitized_case gpu_memcheck = {"gpu_memcheck", "memcheck", kernels_small_case};
static const ag_sanitized_case gpu5_racecheck = {"gpu5_racecheck", "racecheck synccheck", gpu5_small_case};

static void register_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){AG_ROW(geometry_covers_c, gpu2_geometry_covers_c), .points = 1});
    ag_add(s, (ag_spec){AG_ROW(geometry_covers_c, gpu3_geometry_covers_c), .points = 1});
    ag_add(s, (ag_spec){AG_ROW(geometry_covers_c, gpu4_geometry_covers_c), .points = 1});
    ag_add(s, (ag_spec){AG_ROW(geometry_covers_c, gpu5_geometry_covers_c), .points = 1});
    ag_add(s, (ag_spec){AG_ROW(variant_sizes, gpu1_sizes), .points = 2, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){AG_ROW(variant_sizes, gpu2_sizes), .points = 2, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){AG_ROW(variant_sizes, gpu3_sizes), .points = 2, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){AG_ROW(variant_sizes, gpu4_sizes), .points = 2, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){AG_ROW(variant_sizes, gpu5_sizes), .points = 3, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){AG_ROW(variant_sizes, gpu6_sizes), .points = 2, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){AG_ROW(variant_sizes, gpulib_sizes), .points = 2, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){.test = all_real_inputs, .points = 3, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){.test = dev_entry_points, .points = 1, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){.test = failed_launch_is_reported, .points = 2, .gpus = 1, .timeout = 120});
    ag_add(s, (ag_spec){AG_SANITIZED(gpu_memcheck), .points = 1});
    ag_add(s, (ag_spec){AG_SANITIZED(gpu5_racecheck), .points = 1});
}

int main(int argc, char **argv)
{
    return ag_main(argc, argv, register_tests);
}
