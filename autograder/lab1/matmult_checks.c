#include "matmult_checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "grader.h"
#include "random.h"

const mm_variant mm_variants[] = {
    {"matmult_lib", matmult_lib}, {"matmult_nat", matmult_nat}, {"matmult_mnk", matmult_mnk},
    {"matmult_mkn", matmult_mkn}, {"matmult_nmk", matmult_nmk}, {"matmult_nkm", matmult_nkm},
    {"matmult_kmn", matmult_kmn}, {"matmult_knm", matmult_knm},
};
const int mm_variant_count = (int)(sizeof mm_variants / sizeof mm_variants[0]);

/* The plain product, summed over l in increasing order. */
static void plain_product(int m, int n, int k, const double *A, const double *B, double *C)
{
    for (size_t i = 0; i < (size_t)m; i++)
        for (size_t j = 0; j < (size_t)n; j++) {
            double s = 0.0;
            for (size_t l = 0; l < (size_t)k; l++)
                s += A[i * k + l] * B[l * n + j];
            C[i * n + j] = s;
        }
}

static double max_abs(const double *a, size_t n)
{
    double mx = 0;
    for (size_t i = 0; i < n; i++)
        mx = fmax(mx, fabs(a[i]));
    return mx;
}

void mm_check(const char *name, mm_fn fn, int bs, mm_size sz, mm_inputs inputs, uint64_t seed)
{
    size_t sa = (size_t)sz.m * sz.k, sb = (size_t)sz.k * sz.n, sc = (size_t)sz.m * sz.n;
    double *A = kit_alloc_doubles(sa), *B = kit_alloc_doubles(sb);
    double *A0 = kit_alloc_doubles(sa), *B0 = kit_alloc_doubles(sb);
    double *C = kit_alloc_doubles(sc), *R = kit_alloc_doubles(sc);
    if (inputs == MM_INTEGER) {
        kit_fill_int(A, sa, -4, 4, seed);
        kit_fill_int(B, sb, -4, 4, seed + 1);
    } else {
        kit_fill_real(A, sa, -1.0, 1.0, seed);
        kit_fill_real(B, sb, -1.0, 1.0, seed + 1);
    }
    memcpy(A0, A, sa * sizeof *A);
    memcpy(B0, B, sb * sizeof *B);
    plain_product(sz.m, sz.n, sz.k, A, B, R);
    ag_poison(C, sc);

    char what[96];
    if (fn) {
        fn(sz.m, sz.n, sz.k, A, B, C);
        snprintf(what, sizeof what, "%s, m=%d n=%d k=%d", name, sz.m, sz.n, sz.k);
    } else {
        matmult_blk(sz.m, sz.n, sz.k, A, B, C, bs);
        snprintf(what, sizeof what, "%s, m=%d n=%d k=%d bs=%d", name, sz.m, sz.n, sz.k, bs);
    }
    double tol = inputs == MM_INTEGER ? -1.0 : 1e-12 * sz.k * max_abs(A, sa) * max_abs(B, sb);
    ag_assert_matrix_eq(R, C, (size_t)sz.m, (size_t)sz.n, tol, "%s, %s inputs, C", what,
                        inputs == MM_INTEGER ? "integer" : "real");
    ag_assert_matrix_eq(A0, A, (size_t)sz.m, (size_t)sz.k, -1.0, "%s changed its input A", what);
    ag_assert_matrix_eq(B0, B, (size_t)sz.k, (size_t)sz.n, -1.0, "%s changed its input B", what);
    kit_free(A), kit_free(B), kit_free(A0), kit_free(B0), kit_free(C), kit_free(R);
}
