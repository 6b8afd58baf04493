/* Lab 8's benchmark program: axpy_bench N REPEATS prints
 *   N WRONG SECONDS
 * the wrong elements of the first call's result (against the sum written
 * here) and the median time of REPEATS calls (common/bench/bench_check.h). */
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "axpy.h"
#include "bench/bench_check.h"
#include "cli.h"
#include "random.h"
#include "timer.h"

int main(int argc, char **argv)
{
    int n, repeats;
    if (argc != 3 || cli_parse_int(argv[1], "N", 1, 1 << 28, &n) || cli_parse_int(argv[2], "REPEATS", 1, 1000, &repeats)) {
        fprintf(stderr, "usage: axpy_bench N REPEATS\n");
        return 2;
    }
    double *x = kit_alloc_doubles((size_t)n), *y = kit_alloc_doubles((size_t)n), *want = kit_alloc_doubles((size_t)n);
    double *t = kit_alloc_doubles((size_t)repeats);
    kit_fill_real(x, (size_t)n, -1.0, 1.0, 1);
    kit_fill_real(y, (size_t)n, -1.0, 1.0, 2);
    for (int i = 0; i < n; i++)
        want[i] = y[i] + 0.5 * x[i];
    axpy((size_t)n, 0.5, x, y);
    long wrong = bench_count_wrong(y, want, (size_t)n, 0.0);
    for (int r = 0; r < repeats; r++) {
        double t0 = wall_time();
        axpy((size_t)n, 0.5, x, y);
        t[r] = wall_time() - t0;
    }
    printf("%d %ld %.9f\n", n, wrong, bench_median(t, repeats));
    kit_free(x), kit_free(y), kit_free(want), kit_free(t);
    return 0;
}
