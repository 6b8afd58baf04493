#include "lab1_checks.h"

#include <stdio.h>

const l1_variant l1_variants[] = {
    {"matmult_lib", matmult_lib}, {"matmult_nat", matmult_nat}, {"matmult_mnk", matmult_mnk},
    {"matmult_mkn", matmult_mkn}, {"matmult_nmk", matmult_nmk}, {"matmult_nkm", matmult_nkm},
    {"matmult_kmn", matmult_kmn}, {"matmult_knm", matmult_knm},
};
const int l1_variant_count = (int)(sizeof l1_variants / sizeof l1_variants[0]);

/* ag_mm_check's calling convention: arg is an l1_call_arg, the variant, or NULL and the
 * block size for matmult_blk. */
typedef struct {
    l1_fn fn;
    int bs;
} l1_call_arg;

static void call_variant(int m, int n, int k, const double *A, const double *B, double *C, const void *arg)
{
    const l1_call_arg *a = arg;
    if (a->fn)
        a->fn(m, n, k, A, B, C);
    else
        matmult_blk(m, n, k, A, B, C, a->bs);
}

static void describe(char *what, size_t size, const char *name, l1_fn fn, int bs)
{
    if (fn)
        snprintf(what, size, "%s", name);
    else
        snprintf(what, size, "%s with bs=%d", name, bs);
}

void l1_check_problem(const char *name, l1_fn fn, int bs, const ag_mm_problem *p, double *C)
{
    const l1_call_arg arg = {fn, bs};
    char what[64];
    describe(what, sizeof what, name, fn, bs);
    ag_mm_check(p, call_variant, &arg, C, what);
}

void l1_check(const char *name, l1_fn fn, int bs, ag_mm_size size, ag_mm_inputs inputs, uint64_t seed)
{
    ag_mm_problem p;
    ag_mm_problem_make(&p, size, inputs, seed);
    l1_check_problem(name, fn, bs, &p, NULL);
    ag_mm_problem_free(&p);
}

void l1_check_fresh(const char *name, l1_fn fn, int bs, ag_mm_size size, ag_mm_inputs inputs, uint64_t seed)
{
    const l1_call_arg arg = {fn, bs};
    char what[64];
    describe(what, sizeof what, name, fn, bs);
    ag_mm_check_fresh(size, inputs, seed, call_variant, &arg, what);
}
