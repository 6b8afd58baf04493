/* Lab 1's performance score: matmult_blk on one large product.
 *   lab1_blk [--ref-seconds T] m n k bs
 * Every call gets new inputs in the same arrays, small integers in [-4, 4]
 * drawn from seeds no one knows (perf_unpredictable_seed), so that every
 * summation order gives the same exact product and no answer of an earlier
 * call, or of a run before, can be the answer; each is checked exactly by
 * Freivalds' test (perf_matmult_exact). With --bound it times DGEMM too
 * (perf_harness.h). */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>

#include "matmult.h"
#include "perf_harness.h"
#include "random.h"

typedef struct {
    int m, n, k, bs;
    double *A, *B, *C;
} blk_state;

static int setup(perf_case *c, int argc, char **argv)
{
    static blk_state s;
    if (argc != 4)
        return 1;
    s.m = atoi(argv[0]), s.n = atoi(argv[1]), s.k = atoi(argv[2]), s.bs = atoi(argv[3]);
    if (s.m <= 0 || s.n <= 0 || s.k <= 0 || s.bs <= 0)
        return 1;
    s.A = perf_shared_alloc((size_t)s.m * s.k * sizeof(double));
    s.B = perf_shared_alloc((size_t)s.k * s.n * sizeof(double));
    s.C = perf_shared_alloc((size_t)s.m * s.n * sizeof(double));
    c->state = &s;
    return 0;
}

static void prepare(perf_case *c)
{
    blk_state *s = c->state;
    kit_fill_int(s->A, (size_t)s->m * s->k, -4, 4, perf_unpredictable_seed());
    kit_fill_int(s->B, (size_t)s->k * s->n, -4, 4, perf_unpredictable_seed());
    for (size_t i = 0; i < (size_t)s->m * s->n; i++)
        s->C[i] = NAN;
}

static void run(perf_case *c)
{
    blk_state *s = c->state;
    matmult_blk(s->m, s->n, s->k, s->A, s->B, s->C, s->bs);
}

/* The bound beside it in the student's feedback: OpenBLAS's DGEMM on the
 * same product (one thread, as the grader sets OPENBLAS_NUM_THREADS). */
static void dgemm(perf_case *c)
{
    blk_state *s = c->state;
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s->m, s->n, s->k, 1.0, s->A, s->k, s->B, s->n, 0.0, s->C,
                s->n);
}

static int verify(perf_case *c)
{
    blk_state *s = c->state;
    return perf_matmult_exact(s->m, s->n, s->k, s->A, s->B, s->C);
}

int main(int argc, char **argv)
{
    perf_case c = {.setup = setup, .prepare = prepare, .run = run, .verify = verify, .usage = "m n k bs",
                   .bound = dgemm, .bound_name = "OpenBLAS"};
    return perf_main(argc, argv, &c);
}
