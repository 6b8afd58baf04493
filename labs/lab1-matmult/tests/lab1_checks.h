/* Shared by all of lab 1's tests: run one variant on one seeded
 * problem and compare it with the product that the grader computes in
 * exact integer arithmetic (or long double for real inputs): never with a
 * copy of a solution. */
#ifndef LAB1_CHECKS_H
#define LAB1_CHECKS_H

#include <stdint.h>

#include "autograder.h"
#include "matmult.h"

typedef void (*l1_fn)(int m, int n, int k, const double *A, const double *B, double *C);

typedef struct {
    const char *name;
    l1_fn fn;
} l1_variant;

/* Every unblocked variant of matmult.h, for the tests that loop over them. */
extern const l1_variant l1_variants[];
extern const int l1_variant_count;

/* Runs fn (or matmult_blk with bs when fn is NULL) on a fresh seeded
 * problem of the given size (ag_mm_problem_make), with C filled with NaN
 * before the call, and fails the test if C is wrong anywhere or if A or B
 * changed. */
void l1_check(const char *name, l1_fn fn, int bs, ag_mm_size size, ag_mm_inputs inputs, uint64_t seed);

/* The same on a given problem and C (NULL: a fresh NaN-filled one). */
void l1_check_problem(const char *name, l1_fn fn, int bs, const ag_mm_problem *p, double *C);

/* Twice in the same A, B and C, same shape: first on the problem of
 * `seed`, then on new contents (seed + 1000) written into those arrays.
 * The second answer must be the new product: a function that remembers its
 * answer by address and shape gives the first one. */
void l1_check_fresh(const char *name, l1_fn fn, int bs, ag_mm_size size, ag_mm_inputs inputs, uint64_t seed);

#endif
