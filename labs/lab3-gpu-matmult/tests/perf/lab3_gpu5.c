/* Lab 3's performance score: matmult_gpu5_dev (shared-memory tiles) on one
 * large product, on device arrays: the kernel's speed, not the copies'.
 *   lab3_gpu5 [--bound] [--ref-seconds T] m n k
 * A device case (perf_harness.h): every call gets new inputs, small integers
 * in [-4, 4], so that every partial sum is exact and the product is checked
 * exactly, in O(mn + nk + mk) here: C x = A (B x) for two random integer
 * vectors x in [-1000, 1000] drawn after the call (Freivalds' check: a
 * wrong element survives one with probability at most 1/2001, both with
 * less than 1e-6; a NaN left by a skipped tile never does).
 * With --bound it times cuBLAS's DGEMM on the same product. */
#include <cublas_v2.h>
#include <stdlib.h>

#include "cuda_check.h"
#include "matmult_gpu.h"
#include "perf_device.h"
#include "perf_harness.h"
#include "random.h"

typedef struct {
    int m, n, k;
    double *A, *B, *C;                   /* shared: inputs drawn here, C from the device */
    double *dA, *dB, *dC;                /* the child's */
    cublasHandle_t blas;                 /* the child's, for the bound */
} gpu5_state;

static int setup(perf_case *c, int argc, char **argv)
{
    static gpu5_state s;
    if (argc != 3)
        return 1;
    s.m = atoi(argv[0]), s.n = atoi(argv[1]), s.k = atoi(argv[2]);
    if (s.m <= 0 || s.n <= 0 || s.k <= 0)
        return 1;
    s.A = perf_shared_alloc((size_t)s.m * s.k * sizeof(double));
    s.B = perf_shared_alloc((size_t)s.k * s.n * sizeof(double));
    s.C = perf_shared_alloc((size_t)s.m * s.n * sizeof(double));
    c->state = &s;
    return 0;
}

static int device_setup(perf_case *c)
{
    gpu5_state *s = c->state;
    if (perf_device_init() != 0)
        return PERF_NO_DEVICE;
    s->dA = perf_device_alloc((size_t)s->m * s->k * sizeof(double));
    s->dB = perf_device_alloc((size_t)s->k * s->n * sizeof(double));
    s->dC = perf_device_alloc((size_t)s->m * s->n * sizeof(double));
    CUBLAS_CHECK(cublasCreate(&s->blas));
    return 0;
}

/* New contents in the same arrays, from seeds drawn now: no function of
 * the call's number, so that nothing remembered from an earlier call (by
 * address, shape or a sample of the contents) can be the answer. */
static void prepare(perf_case *c)
{
    gpu5_state *s = c->state;
    kit_fill_int(s->A, (size_t)s->m * s->k, -4, 4, perf_unpredictable_seed());
    kit_fill_int(s->B, (size_t)s->k * s->n, -4, 4, perf_unpredictable_seed());
}

static void device_load(perf_case *c)
{
    gpu5_state *s = c->state;
    perf_device_put(s->dA, s->A, (size_t)s->m * s->k * sizeof(double));
    perf_device_put(s->dB, s->B, (size_t)s->k * s->n * sizeof(double));
    CUDA_CHECK(cudaMemset(s->dC, 0xff, (size_t)s->m * s->n * sizeof(double))); /* all NaN */
    perf_device_finish();
}

static void run(perf_case *c)
{
    gpu5_state *s = c->state;
    matmult_gpu5_dev(s->m, s->n, s->k, s->dA, s->dB, s->dC);
    perf_device_finish();
}

/* Row-major C = A B is column-major C^T = B^T A^T. */
static void dgemm(perf_case *c)
{
    gpu5_state *s = c->state;
    const double one = 1.0, zero = 0.0;
    CUBLAS_CHECK(cublasDgemm(s->blas, CUBLAS_OP_N, CUBLAS_OP_N, s->n, s->m, s->k, &one, s->dB, s->n, s->dA, s->k,
                             &zero, s->dC, s->n));
    perf_device_finish();
}

static void device_fetch(perf_case *c)
{
    gpu5_state *s = c->state;
    perf_device_get(s->C, s->dC, (size_t)s->m * s->n * sizeof(double));
}

static int verify(perf_case *c)
{
    gpu5_state *s = c->state;
    return perf_matmult_exact(s->m, s->n, s->k, s->A, s->B, s->C);
}

int main(int argc, char **argv)
{
    perf_case c = {.setup = setup, .prepare = prepare, .run = run, .verify = verify, .usage = "m n k",
                   .bound = dgemm, .bound_name = "cuBLAS_DGEMM", .device_setup = device_setup,
                   .device_load = device_load, .device_fetch = device_fetch};
    return perf_main(argc, argv, &c);
}
