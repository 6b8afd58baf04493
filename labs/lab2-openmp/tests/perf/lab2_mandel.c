/* Lab 2's performance score for the Mandelbrot set: mandel on all the
 * host's cores (OMP_NUM_THREADS, set by the grader; OMP_SCHEDULE left to
 * the runtime's default, as the lab's contract leaves it to run time).
 *   lab2_mandel [--ref-seconds T] WIDTH HEIGHT MAX_ITER
 * The image must equal, pixel for pixel, the one the contract in mandel.h
 * defines (the iteration written out there, evaluated here in setup). */
#include <stdlib.h>
#include <string.h>

#include "mandel.h"
#include "perf_harness.h"

typedef struct {
    int width, height, max_iter;
    size_t n;
    int *img, *expected;
} mandel_state;

/* mandel.h's definition of one pixel, word for word. */
static int pixel(const mandel_state *s, int px, int py)
{
    double x = px * (3.5 / s->width) - 2.25, y = py * (3.5 / s->height) - 1.75;
    double u = 0.0, v = 0.0, u2 = 0.0, v2 = 0.0;
    int iter = 0;
    while (u2 + v2 < 4.0 && iter < s->max_iter) {
        v = 2.0 * v * u + y;
        u = u2 - v2 + x;
        u2 = u * u;
        v2 = v * v;
        iter++;
    }
    return iter == s->max_iter ? 0 : iter;
}

static int setup(perf_case *c, int argc, char **argv)
{
    static mandel_state s;
    if (argc != 3)
        return 1;
    s.width = atoi(argv[0]), s.height = atoi(argv[1]), s.max_iter = atoi(argv[2]);
    if (s.width < 1 || s.height < 1 || s.max_iter < 1)
        return 1;
    s.n = (size_t)s.width * (size_t)s.height;
    s.img = perf_shared_alloc(s.n * sizeof(int));
    s.expected = perf_shared_alloc(s.n * sizeof(int));
    for (int px = 0; px < s.width; px++)
        for (int py = 0; py < s.height; py++)
            s.expected[(size_t)px * s.height + py] = pixel(&s, px, py);
    c->state = &s;
    return 0;
}

static void prepare(perf_case *c)
{
    mandel_state *s = c->state;
    memset(s->img, 0xff, s->n * sizeof(int)); /* -1 everywhere: never a count */
}

static void run(perf_case *c)
{
    mandel_state *s = c->state;
    mandel(s->width, s->height, s->max_iter, s->img);
}

static int verify(perf_case *c)
{
    mandel_state *s = c->state;
    return memcmp(s->img, s->expected, s->n * sizeof(int)) == 0;
}

int main(int argc, char **argv)
{
    perf_case c = {.setup = setup, .prepare = prepare, .run = run, .verify = verify,
                   .usage = "WIDTH HEIGHT MAX_ITER"};
    return perf_main(argc, argv, &c);
}
