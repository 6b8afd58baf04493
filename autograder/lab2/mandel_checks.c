#include "mandel_checks.h"

#include <stdlib.h>

#include "grader.h"
#include "mandel.h"

void mandel_sequential(int width, int height, int max_iter, int *img)
{
    double scale_x = 3.5 / width, scale_y = 3.5 / height;
    for (int px = 0; px < width; px++)
        for (int py = 0; py < height; py++) {
            double x = px * scale_x - 2.25, y = py * scale_y - 1.75;
            double u = 0.0, v = 0.0, u2 = 0.0, v2 = 0.0;
            int iter = 0;
            while (u2 + v2 < 4.0 && iter < max_iter) {
                v = 2.0 * v * u + y;
                u = u2 - v2 + x;
                u2 = u * u;
                v2 = v * v;
                iter++;
            }
            img[(size_t)px * height + py] = iter == max_iter ? 0 : iter;
        }
}

void mandel_check(int width, int height, int max_iter, int threads, const char *sched_name, omp_sched_t kind,
                  int chunk)
{
    size_t n = (size_t)width * height;
    int *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
    ck_assert_msg(want && got, "test: out of memory");
    mandel_sequential(width, height, max_iter, want);
    for (size_t c = 0; c < n; c++)
        got[c] = -1;
    omp_set_dynamic(0);
    omp_set_num_threads(threads);
    omp_set_schedule(kind, chunk);
    mandel(width, height, max_iter, got);
    size_t wrong = 0, first = 0;
    for (size_t c = 0; c < n; c++)
        if (got[c] != want[c] && wrong++ == 0)
            first = c;
    if (wrong) {
        int px = (int)(first / (size_t)height), py = (int)(first % (size_t)height);
        ck_abort_msg("mandel(%d, %d, %d), %d thread(s), schedule %s: pixel (px=%d, py=%d) = img[%zu] should be "
                     "%d, got %d%s; %zu of %zu pixels wrong (img[px * height + py]; x = px * 3.5/width - 2.25, "
                     "y = py * 3.5/height - 1.75)",
                     width, height, max_iter, threads, sched_name, px, py, first, want[first], got[first],
                     got[first] == -1 ? " (never written)" : "", wrong, n);
    }
    free(want);
    free(got);
}
