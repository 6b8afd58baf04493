/* Lab 2's performance score for Jacobi: jacobi_omp_v2 on all the host's
 * cores (OMP_NUM_THREADS, set by the grader).
 *   lab2_jacobi [--ref-seconds T] N SWEEPS
 * From a start drawn for this run (the interior in [0, 20], from a seed
 * no one knows; a forked child per call keeps nothing between calls),
 * SWEEPS sweeps with tol = 0; the
 * result must equal the kit's sequential poisson_jacobi_reference bit for
 * bit, as the lab's contract says (the same iterates for any thread count),
 * and the call must report SWEEPS sweeps. */
#include <stdlib.h>
#include <string.h>

#include "perf_harness.h"
#include "poisson.h"
#include "poisson_omp.h"

typedef struct {
    int N, sweeps;
    size_t n;
    double *f, *start, *u, *u_old, *expected;
    int *returned;
} jacobi_state;

static int setup(perf_case *c, int argc, char **argv)
{
    static jacobi_state s;
    if (argc != 2)
        return 1;
    s.N = atoi(argv[0]), s.sweeps = atoi(argv[1]);
    if (s.N < 1 || poisson_check_size(s.N) || s.sweeps < 1)
        return 1;
    s.n = poisson_points(s.N);
    size_t bytes = s.n * sizeof(double);
    s.f = perf_shared_alloc(bytes);
    s.start = perf_shared_alloc(bytes);
    s.u = perf_shared_alloc(bytes);
    s.u_old = perf_shared_alloc(bytes);
    s.expected = perf_shared_alloc(bytes);
    s.returned = perf_shared_alloc(sizeof *s.returned);
    poisson_init(s.N, 0.0, s.f, s.start);
    perf_poisson_random_interior(s.N, s.start); /* a start no submission can know: no table of answers */
    double *scratch = malloc(bytes);
    if (!scratch)
        return 1;
    memcpy(s.expected, s.start, bytes);
    memcpy(scratch, s.start, bytes);
    if (poisson_jacobi_reference(s.N, 0.0, s.sweeps, s.f, s.expected, scratch) != s.sweeps)
        return 1;
    free(scratch);
    c->state = &s;
    return 0;
}

static void prepare(perf_case *c)
{
    jacobi_state *s = c->state;
    memcpy(s->u, s->start, s->n * sizeof(double));
    memcpy(s->u_old, s->start, s->n * sizeof(double));
    *s->returned = -1;
}

static void run(perf_case *c)
{
    jacobi_state *s = c->state;
    *s->returned = jacobi_omp_v2(s->N, 0.0, s->sweeps, s->f, s->u, s->u_old);
}

static int verify(perf_case *c)
{
    jacobi_state *s = c->state;
    return *s->returned == s->sweeps && memcmp(s->u, s->expected, s->n * sizeof(double)) == 0;
}

int main(int argc, char **argv)
{
    perf_case c = {.setup = setup, .prepare = prepare, .run = run, .verify = verify, .usage = "N SWEEPS"};
    return perf_main(argc, argv, &c);
}
