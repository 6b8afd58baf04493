/* Shared by lab 1's visible and hidden tests: run one variant on one size
 * and compare it with a plain triple loop computed here, in the test. */
#ifndef LAB1_MATMULT_CHECKS_H
#define LAB1_MATMULT_CHECKS_H

#include <stdint.h>

#include "matmult.h"

typedef void (*mm_fn)(int m, int n, int k, const double *A, const double *B, double *C);

typedef struct {
    const char *name;
    mm_fn fn;
} mm_variant;

/* Every unblocked variant of matmult.h, for the tests that loop over them. */
extern const mm_variant mm_variants[];
extern const int mm_variant_count;

typedef struct {
    int m, n, k;
} mm_size;

/* Inputs: small integers (every partial sum exact in double, so any loop
 * order must match the plain product exactly) or reals in [-1, 1) (compared
 * with a tolerance of 1e-12 k max|A| max|B|). */
typedef enum { MM_INTEGER, MM_REAL } mm_inputs;

/* Runs fn (or matmult_blk with bs when fn is NULL) on fresh seeded inputs of
 * the given size, with C poisoned with NaN before the call, and fails the
 * test if C is wrong anywhere or if A or B changed. */
void mm_check(const char *name, mm_fn fn, int bs, mm_size size, mm_inputs inputs, uint64_t seed);

#endif
