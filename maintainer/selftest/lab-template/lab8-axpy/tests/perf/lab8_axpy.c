/* Lab 8's performance score: axpy on one core.
 *   lab8_axpy [--ref-seconds T] N
 * y starts at 1 before every call (a call that does nothing leaves it
 * there) and must end at 1 + a x exactly: one product and one sum a
 * element, the same in any order of the elements. */
#include <stdlib.h>

#include "axpy.h"
#include "perf_harness.h"

#define A 0.5

typedef struct {
    size_t n;
    double *x, *y;
} axpy_state;

static int setup(perf_case *c, int argc, char **argv)
{
    static axpy_state s;
    if (argc != 1 || atol(argv[0]) < 1)
        return 1;
    s.n = (size_t)atol(argv[0]);
    s.x = perf_shared_alloc(s.n * sizeof(double));
    s.y = perf_shared_alloc(s.n * sizeof(double));
    for (size_t i = 0; i < s.n; i++)
        s.x[i] = (double)(i % 1000);
    c->state = &s;
    return 0;
}

static void prepare(perf_case *c)
{
    axpy_state *s = c->state;
    for (size_t i = 0; i < s->n; i++)
        s->y[i] = 1.0;
}

static void run(perf_case *c)
{
    axpy_state *s = c->state;
    axpy(s->n, A, s->x, s->y);
}

static int verify(perf_case *c)
{
    axpy_state *s = c->state;
    for (size_t i = 0; i < s->n; i++)
        if (s->y[i] != 1.0 + A * s->x[i])
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    perf_case c = {.setup = setup, .prepare = prepare, .run = run, .verify = verify, .usage = "N"};
    return perf_main(argc, argv, &c);
}
