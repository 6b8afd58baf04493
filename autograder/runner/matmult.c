/* Matrix-product problems for labs 1 and 3: see matmult.h. */
#include "matmult.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "alloc.h"
#include "compare.h"
#include "random.h"

void ag_mm_problem_make(ag_mm_problem *p, ag_mm_size s, ag_mm_inputs inputs, uint64_t seed)
{
    p->size = s;
    p->inputs = inputs;
    p->sa = (size_t)s.m * s.k;
    p->sb = (size_t)s.k * s.n;
    p->sc = (size_t)s.m * s.n;
    p->A = kit_alloc_doubles(p->sa);
    p->B = kit_alloc_doubles(p->sb);
    p->R = kit_alloc_doubles(p->sc);
    const size_t n = (size_t)s.n, k = (size_t)s.k;
    if (inputs == AG_MM_INTEGER) {
        kit_fill_int(p->A, p->sa, -4, 4, seed);
        kit_fill_int(p->B, p->sb, -4, 4, seed + 1);
        /* In integers: |sum| <= 16 k, exact in int64_t and in double. Row
         * by row, l outside j, so that 2^28 elements of C stay cheap. */
        int64_t *row = malloc(n * sizeof *row);
        ck_assert_msg(row != NULL, "test: out of memory");
        for (size_t i = 0; i < (size_t)s.m; i++) {
            memset(row, 0, n * sizeof *row);
            for (size_t l = 0; l < k; l++) {
                const int64_t a = (int64_t)p->A[i * k + l];
                const double *b = &p->B[l * n];
                for (size_t j = 0; j < n; j++)
                    row[j] += a * (int64_t)b[j];
            }
            for (size_t j = 0; j < n; j++)
                p->R[i * n + j] = (double)row[j];
        }
        free(row);
        p->tol = -1.0;
    } else {
        kit_fill_real(p->A, p->sa, -1.0, 1.0, seed);
        kit_fill_real(p->B, p->sb, -1.0, 1.0, seed + 1);
        long double *row = malloc(n * sizeof *row);
        ck_assert_msg(row != NULL, "test: out of memory");
        for (size_t i = 0; i < (size_t)s.m; i++) {
            for (size_t j = 0; j < n; j++)
                row[j] = 0.0L;
            for (size_t l = 0; l < k; l++) {
                const long double a = p->A[i * k + l];
                const double *b = &p->B[l * n];
                for (size_t j = 0; j < n; j++)
                    row[j] += a * b[j];
            }
            for (size_t j = 0; j < n; j++)
                p->R[i * n + j] = (double)row[j];
        }
        free(row);
        p->tol = 1e-12 * s.k * ag_max_abs(p->A, p->sa) * ag_max_abs(p->B, p->sb);
    }
}

void ag_mm_problem_free(ag_mm_problem *p)
{
    kit_free(p->A), kit_free(p->B), kit_free(p->R);
    p->A = p->B = p->R = NULL;
}

void ag_mm_problem_refill(ag_mm_problem *p, uint64_t seed)
{
    ag_mm_problem fresh;
    ag_mm_problem_make(&fresh, p->size, p->inputs, seed);
    memcpy(p->A, fresh.A, p->sa * sizeof *p->A);
    memcpy(p->B, fresh.B, p->sb * sizeof *p->B);
    memcpy(p->R, fresh.R, p->sc * sizeof *p->R);
    p->tol = fresh.tol;
    ag_mm_problem_free(&fresh);
}

size_t ag_mm_count_wrong(const ag_mm_problem *p, const double *C)
{
    size_t wrong = 0;
    for (size_t i = 0; i < p->sc; i++)
        wrong += p->tol < 0 ? !(C[i] == p->R[i]) : !(fabs(C[i] - p->R[i]) <= p->tol);
    return wrong;
}

void ag_mm_check(const ag_mm_problem *p, ag_mm_call call, const void *arg, double *C, const char *what)
{
    const ag_mm_size s = p->size;
    double *own = NULL;
    if (!C) {
        C = own = kit_alloc_doubles(p->sc);
        ag_poison(C, p->sc);
    }
    double *A0 = kit_alloc_doubles(p->sa), *B0 = kit_alloc_doubles(p->sb);
    memcpy(A0, p->A, p->sa * sizeof *A0);
    memcpy(B0, p->B, p->sb * sizeof *B0);
    call(s.m, s.n, s.k, p->A, p->B, C, arg);
    const char *kind = p->inputs == AG_MM_INTEGER ? "integer" : "real";
    ag_assert_matrix_eq(p->R, C, (size_t)s.m, (size_t)s.n, p->tol, "%s, m=%d n=%d k=%d, %s inputs, C", what, s.m, s.n,
                        s.k, kind);
    ag_assert_matrix_eq(A0, p->A, (size_t)s.m, (size_t)s.k, -1.0, "%s, m=%d n=%d k=%d changed its input A", what, s.m,
                        s.n, s.k);
    ag_assert_matrix_eq(B0, p->B, (size_t)s.k, (size_t)s.n, -1.0, "%s, m=%d n=%d k=%d changed its input B", what, s.m,
                        s.n, s.k);
    kit_free(own), kit_free(A0), kit_free(B0);
}

void ag_mm_check_fresh(ag_mm_size size, ag_mm_inputs inputs, uint64_t seed, ag_mm_call call, const void *arg,
                       const char *what)
{
    ag_mm_problem p;
    ag_mm_problem_make(&p, size, inputs, seed);
    double *C = kit_alloc_doubles(p.sc);
    ag_poison(C, p.sc);
    ag_mm_check(&p, call, arg, C, what);
    ag_mm_problem_refill(&p, seed + 1000);
    ag_poison(C, p.sc);
    char again[160];
    snprintf(again, sizeof again, "%s, called again with new A and B in the same arrays", what);
    ag_mm_check(&p, call, arg, C, again);
    /* Then one element of A changed, the rest as it was: a key made of a
     * sample of the contents (the first elements, say) does not change. */
    const size_t i = (size_t)size.m / 2, l = (size_t)size.k / 2, n = (size_t)size.n;
    p.A[i * (size_t)size.k + l] += 1.0;
    for (size_t j = 0; j < n; j++)
        p.R[i * n + j] += p.B[l * n + j];
    ag_poison(C, p.sc);
    snprintf(again, sizeof again, "%s, called again with A[%zu][%zu] increased by 1, the rest as before", what, i, l);
    ag_mm_check(&p, call, arg, C, again);
    kit_free(C);
    ag_mm_problem_free(&p);
}
