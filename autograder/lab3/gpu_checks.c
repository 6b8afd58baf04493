#include "gpu_checks.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "grader.h"
#include "random.h"

const mmg_variant mmg_variants[] = {
    {"matmult_gpu1", matmult_gpu1, matmult_gpu1_dev},       {"matmult_gpu2", matmult_gpu2, matmult_gpu2_dev},
    {"matmult_gpu3", matmult_gpu3, matmult_gpu3_dev},       {"matmult_gpu4", matmult_gpu4, matmult_gpu4_dev},
    {"matmult_gpu5", matmult_gpu5, matmult_gpu5_dev},       {"matmult_gpu6", matmult_gpu6, matmult_gpu6_dev},
    {"matmult_gpulib", matmult_gpulib, matmult_gpulib_dev},
};
const int mmg_variant_count = (int)(sizeof mmg_variants / sizeof mmg_variants[0]);

const mmg_variant *mmg_variant_named(const char *name)
{
    for (int v = 0; v < mmg_variant_count; v++)
        if (!strcmp(mmg_variants[v].name, name))
            return &mmg_variants[v];
    ck_abort_msg("test bug: no variant %s", name);
    return NULL;
}

static double max_abs(const double *a, size_t n)
{
    double mx = 0;
    for (size_t i = 0; i < n; i++)
        mx = fmax(mx, fabs(a[i]));
    return mx;
}

void mmg_problem_make(mmg_problem *p, mmg_size s, mmg_inputs inputs, uint64_t seed)
{
    p->size = s;
    p->inputs = inputs;
    p->sa = (size_t)s.m * s.k;
    p->sb = (size_t)s.k * s.n;
    p->sc = (size_t)s.m * s.n;
    p->A = kit_alloc_doubles(p->sa);
    p->B = kit_alloc_doubles(p->sb);
    p->R = kit_alloc_doubles(p->sc);
    if (inputs == MMG_INTEGER) {
        kit_fill_int(p->A, p->sa, -4, 4, seed);
        kit_fill_int(p->B, p->sb, -4, 4, seed + 1);
    } else {
        kit_fill_real(p->A, p->sa, -1.0, 1.0, seed);
        kit_fill_real(p->B, p->sb, -1.0, 1.0, seed + 1);
    }
    /* Row by row, l outside j: contiguous inner loop, fast enough for the
     * largest test (2^28 elements of C). */
    const size_t n = (size_t)s.n, k = (size_t)s.k;
    for (size_t i = 0; i < (size_t)s.m; i++) {
        double *r = &p->R[i * n];
        for (size_t j = 0; j < n; j++)
            r[j] = 0.0;
        for (size_t l = 0; l < k; l++) {
            const double a = p->A[i * k + l];
            const double *b = &p->B[l * n];
            for (size_t j = 0; j < n; j++)
                r[j] += a * b[j];
        }
    }
    p->tol = inputs == MMG_INTEGER ? -1.0 : 1e-12 * s.k * max_abs(p->A, p->sa) * max_abs(p->B, p->sb);
}

void mmg_problem_free(mmg_problem *p)
{
    kit_free(p->A), kit_free(p->B), kit_free(p->R);
}

size_t mmg_count_wrong(const mmg_problem *p, const double *C)
{
    size_t wrong = 0;
    for (size_t i = 0; i < p->sc; i++)
        wrong += p->tol < 0 ? !(C[i] == p->R[i]) : !(fabs(C[i] - p->R[i]) <= p->tol);
    return wrong;
}

void mmg_check_problem(const mmg_variant *v, const mmg_problem *p)
{
    const mmg_size s = p->size;
    double *C = kit_alloc_doubles(p->sc);
    double *A0 = kit_alloc_doubles(p->sa), *B0 = kit_alloc_doubles(p->sb);
    memcpy(A0, p->A, p->sa * sizeof *A0);
    memcpy(B0, p->B, p->sb * sizeof *B0);
    ag_poison(C, p->sc);
    v->host(s.m, s.n, s.k, p->A, p->B, C);
    const char *kind = p->inputs == MMG_INTEGER ? "integer" : "real";
    ag_assert_matrix_eq(p->R, C, (size_t)s.m, (size_t)s.n, p->tol, "%s, m=%d n=%d k=%d, %s inputs, C", v->name, s.m,
                        s.n, s.k, kind);
    ag_assert_matrix_eq(A0, p->A, (size_t)s.m, (size_t)s.k, -1.0, "%s, m=%d n=%d k=%d changed its input A", v->name,
                        s.m, s.n, s.k);
    ag_assert_matrix_eq(B0, p->B, (size_t)s.k, (size_t)s.n, -1.0, "%s, m=%d n=%d k=%d changed its input B", v->name,
                        s.m, s.n, s.k);
    kit_free(C), kit_free(A0), kit_free(B0);
}

void mmg_check(const mmg_variant *v, mmg_size size, mmg_inputs inputs, uint64_t seed)
{
    mmg_problem p;
    mmg_problem_make(&p, size, inputs, seed);
    mmg_check_problem(v, &p);
    mmg_problem_free(&p);
}
