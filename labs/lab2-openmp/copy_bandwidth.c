/* copy_bandwidth: the memory limit the lab 2 benchmark holds Jacobi against
 * (kit code).
 *
 *   ./build/lab2/copy_bandwidth MiB repeats
 *
 * STREAM's copy, b[i] = a[i], over two arrays of MiB mebibytes each, with
 * OpenMP threads and the same static distribution (and first touch) as the
 * solvers; prints the median and the best of `repeats` timed runs after one
 * warm-up, in GB/s counting 16 bytes per element (one read, one write: the
 * write-allocate read is not counted, as in STREAM and as the poisson
 * driver counts), then the number of elements of b that differ from a
 * after the last copy (0 unless the copy went wrong: a benchmark checks
 * what it times). A rate that could not be measured prints as "-". */
#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

#include "alloc.h"
#include "bench/bench_check.h"
#include "cli.h"
#include "timer.h"

/* An explicit loop that GCC must not turn into a call of memcpy, whose
 * non-temporal stores would measure something the solvers cannot do. */
__attribute__((optimize("no-tree-loop-distribute-patterns"))) static void copy(size_t n, const double *restrict a,
                                                                                 double *restrict b)
{
#pragma omp parallel for simd schedule(static)
    for (size_t i = 0; i < n; i++)
        b[i] = a[i];
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    int mib, repeats;
    if (argc != 3 || cli_parse_int(argv[1], "MiB (size of each array)", 1, 1 << 20, &mib) ||
        cli_parse_int(argv[2], "repeats", 1, 1000, &repeats)) {
        fprintf(stderr, "usage: %s MiB repeats\n", argv[0]);
        return 2;
    }
    size_t n = (size_t)mib * 1024 * 1024 / sizeof(double);
    double *a = kit_alloc_doubles(n), *b = kit_alloc_doubles(n);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        a[i] = (double)i, b[i] = 0.0;
    copy(n, a, b); /* warm-up */
    double *gbs = malloc((size_t)repeats * sizeof *gbs);
    if (!gbs)
        return 1;
    for (int r = 0; r < repeats; r++) {
        double t0 = wall_time();
        copy(n, a, b);
        gbs[r] = bench_rate(16.0 * (double)n / 1e9, wall_time() - t0);
    }
    qsort(gbs, (size_t)repeats, sizeof *gbs, by_value);
    char f1[32], f2[32];
    printf("%s %s %ld # copy GB/s median, best, wrong elements; %d MiB per array, %d threads, %d runs\n",
           bench_fig(f1, "%.3f", gbs[repeats / 2]), bench_fig(f2, "%.3f", gbs[repeats - 1]),
           bench_count_bit_differences(b, a, n), mib, omp_get_max_threads(), repeats);
    free(gbs);
    kit_free(a);
    kit_free(b);
    return 0;
}
