#include "matmult_driver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "alloc.h"
#include "bench/bench_check.h"
#include "cli.h"
#include "random.h"
#include "timer.h"

static void usage(const char *prog, const matmult_variant *v, int count)
{
    fprintf(stderr, "usage: %s TYPE m n k [bs]\n  TYPE:", prog);
    for (int i = 0; i < count; i++)
        fprintf(stderr, " %s", v[i].name);
    fprintf(stderr, "\n  A is m x k, B is k x n, C = A B is m x n; bs (block size) only for blocked types\n"
                    "  environment: MATMULT_COMPARE=0|1|2 MFLOPS_MIN_T=seconds MFLOPS_MAX_IT=n MATMULT_RESULTS=0|1\n");
}

static void print_matlab(const char *name, const double *M, int rows, int cols)
{
    printf("%s = [\n", name);
    for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++)
            printf(" %.17g", M[(size_t)i * cols + j]);
        printf(";\n");
    }
    printf("];\n");
}

/* The command line's TYPE and sizes, each fault said with the usage; 0 when
 * they are right (v, m, n, k and bs set), else the exit status 2. */
static int parse_args(int argc, char **argv, const matmult_variant *variants, int count, const matmult_variant **vp,
                      int *mp, int *np, int *kp, int *bsp)
{
    const matmult_variant *v = NULL;
    for (int i = 0; argc > 1 && i < count; i++)
        if (!strcmp(argv[1], variants[i].name))
            v = &variants[i];
    if (argc < 5 || argc > 6 || !v) {
        if (argc > 1 && !v)
            fprintf(stderr, "error: unknown TYPE '%s'\n", argv[1]);
        usage(argv[0], variants, count);
        return 2;
    }
    int m, n, k, bs = 0;
    /* 46340^2 still fits an int; beyond it a careless int product overflows,
     * but the kit's own code uses size_t and allows more. */
    if (cli_parse_int(argv[2], "m (rows of A and C)", 1, 1 << 20, &m) ||
        cli_parse_int(argv[3], "n (columns of B and C)", 1, 1 << 20, &n) ||
        cli_parse_int(argv[4], "k (columns of A, rows of B)", 1, 1 << 20, &k)) {
        usage(argv[0], variants, count);
        return 2;
    }
    if (v->blk_fn) {
        if (argc != 6 || cli_parse_int(argv[5], "bs (block size)", 1, 1 << 20, &bs)) {
            if (argc != 6)
                fprintf(stderr, "error: matmult_%s needs a block size bs\n", v->name);
            usage(argv[0], variants, count);
            return 2;
        }
    } else if (argc == 6) {
        fprintf(stderr, "error: matmult_%s takes no block size\n", v->name);
        usage(argv[0], variants, count);
        return 2;
    }
    *vp = v, *mp = m, *np = n, *kp = k, *bsp = bs;
    return 0;
}

int matmult_driver_check_args(int argc, char **argv, const matmult_variant *variants, int count)
{
    const matmult_variant *v;
    int m, n, k, bs;
    return parse_args(argc, argv, variants, count, &v, &m, &n, &k, &bs);
}

int matmult_driver_main(int argc, char **argv, const matmult_variant *variants, int count)
{
    const matmult_variant *v;
    int m, n, k, bs, bad = parse_args(argc, argv, variants, count, &v, &m, &n, &k, &bs);
    if (bad)
        return bad;
    int compare, max_it, results, warmup;
    double min_t;
    if (cli_env_int("MATMULT_COMPARE", 1, 0, 2, &compare) || cli_env_int("MFLOPS_MAX_IT", 1 << 30, 1, 1 << 30, &max_it) ||
        cli_env_double("MFLOPS_MIN_T", 3.0, 0.0, 1e6, &min_t) || cli_env_int("MATMULT_RESULTS", 0, 0, 1, &results) ||
        cli_env_int("MATMULT_WARMUP", 0, 0, 1000, &warmup))
        return 2;

    size_t sa = (size_t)m * k, sb = (size_t)k * n, sc = (size_t)m * n;
    double *A = kit_alloc_doubles(sa), *B = kit_alloc_doubles(sb), *C = kit_alloc_doubles(sc);
    kit_fill_real(A, sa, -1.0, 1.0, 1);
    kit_fill_real(B, sb, -1.0, 1.0, 2);

    for (int w = 0; w < warmup; w++) {
        if (v->blk_fn)
            v->blk_fn(m, n, k, A, B, C, bs);
        else
            v->fn(m, n, k, A, B, C);
    }
    /* Repeat until both the time and one call are done: a single call of a
     * small product is too short to time. */
    int it = 0;
    double t0 = wall_time(), elapsed;
    do {
        if (v->blk_fn)
            v->blk_fn(m, n, k, A, B, C, bs);
        else
            v->fn(m, n, k, A, B, C);
        it++;
        elapsed = wall_time() - t0;
    } while (elapsed < min_t && it < max_it);

    /* The last call's C, which every call overwrote: a variant that adds to
     * C instead of writing it is wrong here after repeated calls. */
    long errors = 0;
    if (compare == 1) {
        double *R = kit_alloc_doubles(sc);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A, k, B, n, 0.0, R, n);
        double tol = 1e-12 * k * bench_max_abs(A, sa) * bench_max_abs(B, sb);
        errors = bench_count_wrong(C, R, sc, tol);
        kit_free(R);
    } else if (compare == 2) {
        errors = bench_matmult_freivalds(m, n, k, A, B, C);
    }
    if (results) {
        print_matlab("A", A, m, k);
        print_matlab("B", B, k, n);
        print_matlab("C", C, m, n);
    }
    double kbytes = 8.0 * (double)(sa + sb + sc) / 1024.0;
    char fig[32];
    printf("%.3f %s %ld # matmult_%s", kbytes, bench_fig(fig, "%.3f", bench_rate(2.0 * m * (double)n * k * it / 1e6, elapsed)),
           errors, v->name);
    if (v->blk_fn)
        printf(" %d", bs);
    printf("\n");
    kit_free(A);
    kit_free(B);
    kit_free(C);
    return 0;
}
