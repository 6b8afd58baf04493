/* Lab 2 (openmp): the visible Mandelbrot tests.
 *
 * mandel.h prescribes the iteration's expressions and their order, so the
 * escape counts are exact integers that any correct version reproduces,
 * whatever the schedule and the number of threads. The comparison is with
 * a plain sequential loop written here, in the test, compiled with the same
 * flags (no fused multiply-add), and with facts worked out by hand. Sizes
 * are not square, so that swapped scales or a swapped layout show. */
#include <stdint.h>
#include <stdlib.h>

#include <omp.h>

#include "grader.h"
#include "mandel.h"
#include "mandel_checks.h"

START_TEST(mandel_known_values)
{
    /* 14 x 14: the scale is exactly 0.25, pixel (9, 7) is c = 0. */
    int img[14 * 14];
    for (int c = 0; c < 14 * 14; c++)
        img[c] = -1;
    omp_set_num_threads(2);
    mandel(14, 14, 100, img);
    ck_assert_msg(img[0] == 1, "mandel(14, 14, 100): pixel (0, 0) is c = -2.25 - 1.75i, which escapes after 1 "
                  "iteration: expected img[0] = 1, got %d", img[0]);
    ck_assert_msg(img[9 * 14 + 7] == 0, "mandel(14, 14, 100): pixel (9, 7) is c = 0, in the set: expected "
                  "img[9 * 14 + 7] = 0, got %d", img[9 * 14 + 7]);
    long sum = 0;
    int zeros = 0;
    for (int c = 0; c < 14 * 14; c++) {
        sum += img[c];
        zeros += img[c] == 0;
    }
    ck_assert_msg(sum == 539 && zeros == 29,
                  "mandel(14, 14, 100): the counts sum to %ld with %d pixels in the set; expected 539 and 29", sum,
                  zeros);
    static const int sizes[][3] = {{1, 1, 10}, {37, 23, 50}, {23, 37, 50}, {100, 60, 200}, {5, 300, 80}};
    for (int s = 0; s < 5; s++)
        mandel_check(sizes[s][0], sizes[s][1], sizes[s][2], 2, "static", omp_sched_static, 0);
}
END_TEST

START_TEST(mandel_schedules_identical)
{
    static const struct {
        const char *name;
        omp_sched_t kind;
        int chunk;
    } sched[] = {
        {"static", omp_sched_static, 0}, {"static,1", omp_sched_static, 1}, {"dynamic,1", omp_sched_dynamic, 1},
        {"dynamic,7", omp_sched_dynamic, 7}, {"guided", omp_sched_guided, 0},
    };
    for (int t = 1; t <= 4; t++)
        for (int s = 0; s < 5; s++)
            mandel_check(97, 61, 300, t, sched[s].name, sched[s].kind, sched[s].chunk);
}
END_TEST

START_TEST(mandel_empty_image_writes_nothing)
{
    int img[8];
    for (int c = 0; c < 8; c++)
        img[c] = -7;
    mandel(0, 8, 100, img);
    mandel(8, 0, 100, img);
    mandel(-3, 2, 100, img);
    for (int c = 0; c < 8; c++)
        ck_assert_msg(img[c] == -7, "mandel with width or height < 1 wrote img[%d] = %d: it must write nothing", c,
                      img[c]);
}
END_TEST

void lab2_mandel_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = mandel_known_values, .points = 2});
    ag_add(s, (ag_spec){.test = mandel_schedules_identical, .points = 2});
    ag_add(s, (ag_spec){.test = mandel_empty_image_writes_nothing, .points = 1});
}
