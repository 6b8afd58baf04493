/* The matrix-product problems of labs 1 and 3: seeded inputs and a product
 * computed without any solution's code, and the check of a call on them. */
#ifndef KIT_GRADER_MATMULT_H
#define KIT_GRADER_MATMULT_H

#include <stddef.h>
#include <stdint.h>

/* Matrix products (labs 1 and 3): C = A B, A m x k, B k x n, row-major. */
typedef struct {
    int m, n, k;
} ag_mm_size;

/* Small integers in [-4, 4]: every partial sum is an integer far below
 * 2^53, so every summation order gives the same bits and C is compared
 * exactly. Or reals in [-1, 1): compared within 1e-12 k max|A| max|B|. */
typedef enum { AG_MM_INTEGER, AG_MM_REAL } ag_mm_inputs;

typedef struct {
    ag_mm_size size;
    ag_mm_inputs inputs;
    size_t sa, sb, sc;
    double *A, *B; /* seeded inputs */
    double *R;     /* their product, computed without the lab's code */
    double tol;    /* < 0: exact */
} ag_mm_problem;

/* Seeded A and B, and R computed independently of any solution: for
 * integer inputs in 64-bit integer arithmetic (exact), for real ones with
 * long double sums (more precise than any double order). */
void ag_mm_problem_make(ag_mm_problem *p, ag_mm_size size, ag_mm_inputs inputs, uint64_t seed);
void ag_mm_problem_free(ag_mm_problem *p);

/* New seeded contents (and their product) in p's own arrays: the same
 * addresses and shape, so that a function that remembers an answer, or a
 * copy it made, by address and shape gives the old one. */
void ag_mm_problem_refill(ag_mm_problem *p, uint64_t seed);

/* Elements of C farther from R than tol (NaN counts), without failing. */
size_t ag_mm_count_wrong(const ag_mm_problem *p, const double *C);

/* Runs call(m, n, k, A, B, C, arg) on p with C filled with NaN (or, when C
 * is not NULL, on that C as it is: a second call on the same C), and fails
 * the test, naming `what`, if C is not R or if A or B changed. */
typedef void (*ag_mm_call)(int m, int n, int k, const double *A, const double *B, double *C, const void *arg);
void ag_mm_check(const ag_mm_problem *p, ag_mm_call call, const void *arg, double *C, const char *what);


/* ag_mm_check three times on the same A, B and C, same shape: on the
 * problem of `seed`, on new contents (ag_mm_problem_refill, seed + 1000)
 * in those arrays, and on those with one element of A changed (a cache
 * keyed by a sample of the contents misses it); each must give its own
 * product. */
void ag_mm_check_fresh(ag_mm_size size, ag_mm_inputs inputs, uint64_t seed, ag_mm_call call, const void *arg,
                       const char *what);

#endif
