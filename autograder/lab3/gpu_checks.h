/* Shared by lab 3's visible and hidden tests: the variants, seeded problems
 * with their answer computed here on the CPU, and the check of one call. */
#ifndef LAB3_GPU_CHECKS_H
#define LAB3_GPU_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#include "matmult_gpu.h"

typedef void (*mmg_fn)(int m, int n, int k, const double *A, const double *B, double *C);

typedef struct {
    const char *name; /* "matmult_gpu2" */
    mmg_fn host;      /* takes host arrays */
    mmg_fn dev;       /* takes device arrays */
} mmg_variant;

/* gpu1 ... gpu6, gpulib, in that order. */
extern const mmg_variant mmg_variants[];
extern const int mmg_variant_count;
const mmg_variant *mmg_variant_named(const char *name);

typedef struct {
    int m, n, k;
} mmg_size;

/* Small integers in [-4, 4] (every partial sum exact, so any summation
 * order gives the same bits and C is compared exactly), or reals in
 * [-1, 1) (compared within 1e-12 k max|A| max|B|). */
typedef enum { MMG_INTEGER, MMG_REAL } mmg_inputs;

typedef struct {
    mmg_size size;
    mmg_inputs inputs;
    size_t sa, sb, sc;
    double *A, *B; /* the inputs */
    double *R;     /* their product, computed on the CPU */
    double tol;    /* < 0: exact */
} mmg_problem;

void mmg_problem_make(mmg_problem *p, mmg_size size, mmg_inputs inputs, uint64_t seed);
void mmg_problem_free(mmg_problem *p);

/* Number of elements of C that differ from p->R by more than p->tol (NaN
 * counts), without failing the test. */
size_t mmg_count_wrong(const mmg_problem *p, const double *C);

/* Calls v->host on p with C poisoned with NaN and fails the test if C is
 * wrong anywhere or if A or B changed. */
void mmg_check_problem(const mmg_variant *v, const mmg_problem *p);

/* The same on a fresh problem. */
void mmg_check(const mmg_variant *v, mmg_size size, mmg_inputs inputs, uint64_t seed);

#endif
