/* The matmult driver shared by lab 1 (CPU) and lab 3 (GPU), after DTU's
 * matmult_c.gcc:
 *
 *   PROG TYPE m n k [bs]
 *   -> <memory kB> <Mflop/s> <errors> # matmult_TYPE
 *
 * memory kB = 8(mk + kn + mn)/1024; Mflop/s counts 2mnk flops per call
 * ("-" if the time was not measurable); errors = elements of the last
 * call's C that differ from OpenBLAS DGEMM by more than 1e-12 k max|A| max|B|
 * (NaN included), or with MATMULT_COMPARE=2 the elements of C x that differ
 * from A (B x) for a random x (common/bench/bench_check.h: cheap enough for
 * any size, and 0 only for a right product).
 *
 * Environment, as in DTU's driver:
 *   MATMULT_COMPARE=0|[1]|2  no check | compare with DGEMM | random-vector check
 *   MFLOPS_MIN_T=[3.0]     repeat the call for at least this many seconds
 *   MFLOPS_MAX_IT=[inf]    ... but at most this many times
 *   MATMULT_RESULTS=[0]|1  print A, B and C in Matlab format
 *   MATMULT_WARMUP=[0]     untimed calls on the same arrays before timing (a
 *                          GPU variant's first call at a size pays for
 *                          device memory and host page faults)
 * An unknown TYPE or a bad size prints the usage and exits with status 2. */
#ifndef KIT_MATMULT_DRIVER_H
#define KIT_MATMULT_DRIVER_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*matmult_fn)(int m, int n, int k, const double *A, const double *B, double *C);
typedef void (*matmult_blk_fn)(int m, int n, int k, const double *A, const double *B, double *C, int bs);

typedef struct {
    const char *name;      /* TYPE on the command line: "mkn" runs matmult_mkn */
    matmult_fn fn;         /* set one of fn and blk_fn */
    matmult_blk_fn blk_fn; /* variants that take a block size */
} matmult_variant;

int matmult_driver_main(int argc, char **argv, const matmult_variant *variants, int count);
/* Only the command line's check of matmult_driver_main (its message and
 * status 2, or 0): a driver's own refusal (no GPU) comes after it, since a
 * wrong command line is wrong on every machine. */
int matmult_driver_check_args(int argc, char **argv, const matmult_variant *variants, int count);

#ifdef __cplusplus
}
#endif
#endif
