/* Lab 1's performance score: matmult_blk on one large product.
 *   lab1_blk [--ref-seconds T] m n k bs
 * Inputs are reals in [-1, 1); the result must match OpenBLAS DGEMM within
 * 1e-12 k (the lab's own tolerance, as max|A| and max|B| are below 1).
 * With --bound it times DGEMM too (perf_harness.h). */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>

#include "matmult.h"
#include "perf_harness.h"
#include "random.h"

typedef struct {
    int m, n, k, bs;
    double *A, *B, *C, *expected;
} blk_state;

static int setup(perf_case *c, int argc, char **argv)
{
    static blk_state s;
    if (argc != 4)
        return 1;
    s.m = atoi(argv[0]), s.n = atoi(argv[1]), s.k = atoi(argv[2]), s.bs = atoi(argv[3]);
    if (s.m <= 0 || s.n <= 0 || s.k <= 0 || s.bs <= 0)
        return 1;
    size_t sa = (size_t)s.m * s.k, sb = (size_t)s.k * s.n, sc = (size_t)s.m * s.n;
    s.A = perf_shared_alloc(sa * sizeof(double));
    s.B = perf_shared_alloc(sb * sizeof(double));
    s.C = perf_shared_alloc(sc * sizeof(double));
    s.expected = perf_shared_alloc(sc * sizeof(double));
    kit_fill_real(s.A, sa, -1.0, 1.0, 1001);
    kit_fill_real(s.B, sb, -1.0, 1.0, 1002);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0, s.A, s.k, s.B, s.n, 0.0,
                s.expected, s.n);
    c->state = &s;
    return 0;
}

static void prepare(perf_case *c)
{
    blk_state *s = c->state;
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
    double tol = 1e-12 * s->k;
    for (size_t i = 0; i < (size_t)s->m * s->n; i++)
        if (!(fabs(s->C[i] - s->expected[i]) <= tol))
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    perf_case c = {.setup = setup, .prepare = prepare, .run = run, .verify = verify, .usage = "m n k bs",
                   .bound = dgemm, .bound_name = "OpenBLAS"};
    return perf_main(argc, argv, &c);
}
