/* Shared by all of lab 3's tests: the variants, the check of
 * one call against the grader's product (ag_mm_problem: computed on the
 * CPU, in exact integer arithmetic for integer inputs), and the CPU-side
 * check of launch geometry. */
#ifndef LAB3_CHECKS_H
#define LAB3_CHECKS_H

#include <stdint.h>

#include "autograder.h"
#include "matmult_gpu.h"

typedef void (*l3_fn)(int m, int n, int k, const double *A, const double *B, double *C);

typedef struct {
    const char *name; /* "matmult_gpu2" */
    l3_fn host;       /* takes host arrays */
    l3_fn dev;        /* takes device arrays */
} l3_variant;

/* gpu1 ... gpu6, gpulib, in that order. */
extern const l3_variant l3_variants[];
extern const int l3_variant_count;
#define l3_variant_named(name) \
    ((const l3_variant *)ag_find_named(l3_variants, l3_variant_count, sizeof *l3_variants, (name)))

/* Calls v->host on p with C filled with NaN and fails the test if C is
 * wrong anywhere or if A or B changed. */
void l3_check_problem(const l3_variant *v, const ag_mm_problem *p);

/* The same on a fresh seeded problem. */
void l3_check(const l3_variant *v, ag_mm_size size, ag_mm_inputs inputs, uint64_t seed);

/* Twice in the same host arrays, same shape, with new contents the second
 * time (ag_mm_check_fresh): a copy to the device, or an answer, remembered
 * by address and shape gives the old product. */
void l3_check_fresh(const l3_variant *v, ag_mm_size size, ag_mm_inputs inputs, uint64_t seed);

/* Launch geometry: run a variant's index arithmetic (matmult_gpuX_launch
 * and matmult_gpuX_elements) for every thread of its grid, on the CPU, so
 * that CI checks it without a GPU. */
typedef mm_launch (*l3_launch_fn)(int m, int n);
typedef mm_elements (*l3_elements_fn)(mm_dim3 block_idx, mm_dim3 thread_idx, mm_dim3 block_dim);

/* Fails the test at the first shape of C (m x n, awkward sizes from 1 x 1
 * to 67 x 1025) where the grid is empty or beyond CUDA's limits, a block
 * has more than 1024 threads, a thread computes a count of elements outside
 * [min_count, max_count], an element is computed twice, or none computes
 * it. name ("matmult_gpu3") goes into the messages. */
void l3_check_geometry(const char *name, l3_launch_fn launch, l3_elements_fn elements, int min_count,
                       int max_count);

#endif
