/* Lab 2 (openmp): the visible Mandelbrot tests.
 *
 * mandel.h prescribes the iteration's expressions and their order, so the
 * escape counts are exact integers that any correct version reproduces,
 * whatever the schedule and the number of threads. Here they are checked
 * against values worked out by hand, on images that are not square (so that
 * swapped scales or a swapped layout show), and every schedule and thread
 * count against the same code on one thread. The instructors' tests compare
 * whole images with an independent computation. */
#include <stdlib.h>

#include <omp.h>

#include "autograder.h"
#include "lab2_checks.h"
#include "mandel.h"

/* 14 x 28: x = px/4 - 2.25 and y = py/8 - 1.75 exactly, so row py = 14 is
 * the real axis, and the counts there are worked out by hand from
 * z <- z^2 + c (in binary every value below is exact):
 *   px = 0:  c = -2.25: z1 = -2.25, |z1|^2 = 5.06 >= 4      -> 1
 *   px = 5:  c = -1: 0, -1, 0, -1, ... never escapes       -> 0 (in the set)
 *   px = 9:  c = 0: z stays 0                              -> 0
 *   px = 12: c = 0.75: 0.75, 1.3125, 2.47265625 (^2 > 4)    -> 3
 *   px = 13: c = 1: 1, 2 (|z|^2 = 4, not < 4)              -> 2
 * and off the axis:
 *   (px, py) = (0, 0): c = -2.25 - 1.75i, |c|^2 = 8.125    -> 1
 *   (9, 22):  c = i: i, -1 + i, -i, -1 + i, ... (a cycle) -> 0
 *   (9, 26):  c = 1.5i: 1.5i, -2.25 + 1.5i (|z|^2 = 7.31)   -> 2 */
START_TEST(mandel_known_values)
{
    enum { W = 14, H = 28 };
    static const struct {
        int px, py, want;
        const char *why;
    } pts[] = {
        {0, 14, 1, "c = -2.25 escapes after 1 iteration"},
        {5, 14, 0, "c = -1 cycles between 0 and -1: in the set"},
        {9, 14, 0, "c = 0: in the set"},
        {12, 14, 3, "c = 0.75: 0.75, 1.3125, 2.47265625, escapes after 3"},
        {13, 14, 2, "c = 1: 1, 2, escapes after 2 (|z|^2 = 4 is not < 4)"},
        {0, 0, 1, "c = -2.25 - 1.75i escapes after 1"},
        {9, 22, 0, "c = i: i, -1 + i, -i, -1 + i, ... in the set"},
        {9, 26, 2, "c = 1.5i: 1.5i, -2.25 + 1.5i, escapes after 2"},
    };
    int *img = malloc(W * H * sizeof *img);
    ck_assert_msg(img != NULL, "test: out of memory");
    for (int quiet = 1; quiet <= 3; quiet += 2) {
        int threads = ag_omp_threads(quiet, 0); /* under chaos, drawn (chaos.h) */
        for (int c = 0; c < W * H; c++)
            img[c] = -1;
        omp_set_num_threads(threads);
        mandel(W, H, 100, img);
        for (size_t p = 0; p < sizeof pts / sizeof pts[0]; p++) {
            int got = img[pts[p].px * H + pts[p].py];
            ck_assert_msg(got == pts[p].want,
                          "mandel(14, 28, 100), %d thread(s): pixel (px=%d, py=%d) = img[px * 28 + py] should be %d "
                          "(%s), got %d%s",
                          threads, pts[p].px, pts[p].py, pts[p].want, pts[p].why, got,
                          got == -1 ? " (never written)" : "");
        }
    }
    free(img);
}
END_TEST

/* Every schedule and thread count must give the image that one thread
 * gives: the pixels are independent, and each is stored at its own index. */
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
    enum { W = 97, H = 61, MAX_ITER = 300 };
    int *one = malloc(W * H * sizeof *one);
    ck_assert_msg(one != NULL, "test: out of memory");
    for (int c = 0; c < W * H; c++)
        one[c] = -1;
    omp_set_dynamic(0);
    omp_set_num_threads(1);
    omp_set_schedule(omp_sched_static, 0);
    mandel(W, H, MAX_ITER, one);
    for (int c = 0; c < W * H; c++)
        ck_assert_msg(one[c] >= 0 && one[c] < MAX_ITER,
                      "mandel(97, 61, 300), one thread: img[%d] = %d; every count is 0 (in the set) or 1 .. 299", c,
                      one[c]);
    for (int t = 2; t <= 4; t++)
        for (int s = 0; s < 5; s++)
            l2_mandel_check(one, "the same call on one thread", W, H, MAX_ITER, t, sched[s].name, sched[s].kind,
                            sched[s].chunk);
    free(one);
}
END_TEST

/* Width or height < 1 writes nothing; a one-column image writes exactly
 * its pixels: x = -2.25, and every c = -2.25 + yi has |c| > 2, so each
 * escapes after 1 iteration. */
START_TEST(mandel_thin_and_empty_images)
{
    int img[10];
    for (int c = 0; c < 10; c++)
        img[c] = -7;
    omp_set_num_threads(2);
    mandel(1, 8, 100, img + 1);
    for (int c = 1; c <= 8; c++)
        ck_assert_msg(img[c] == 1, "mandel(1, 8, 100): img[%d] = %d, expected 1 (x = -2.25: |c| > 2 escapes after "
                      "1 iteration)", c - 1, img[c]);
    ck_assert_msg(img[0] == -7 && img[9] == -7, "mandel(1, 8, 100) wrote outside its 8 pixels");
    mandel(0, 8, 100, img);
    mandel(8, 0, 100, img);
    mandel(-3, 2, 100, img);
    for (int c = 1; c <= 8; c++)
        ck_assert_msg(img[c] == 1 && img[0] == -7 && img[9] == -7,
                      "mandel with width or height < 1 wrote to the image: it must write nothing");
}
END_TEST

/* The assignment's loop schedule is schedule(runtime), so that OMP_SCHEDULE
 * picks it in each run of the driver. A run cannot tell which schedule
 * a loop used, so the call rule of labs/lab2-openmp/tests/calls.conf decides
 * (mandel must make the runtime-schedule loop's calls) and fails this test
 * without; here only the image is checked, under a runtime schedule. */
START_TEST(mandel_schedule_runtime)
{
    enum { W = 64, H = 48, MAX_ITER = 200 };
    int *one = malloc(W * H * sizeof *one);
    ck_assert_msg(one != NULL, "test: out of memory");
    omp_set_dynamic(0);
    omp_set_num_threads(1);
    omp_set_schedule(omp_sched_static, 0);
    for (int c = 0; c < W * H; c++)
        one[c] = -1;
    mandel(W, H, MAX_ITER, one);
    for (int c = 0; c < W * H; c++)
        ck_assert_msg(one[c] >= 0 && one[c] < MAX_ITER,
                      "mandel(64, 48, 200), one thread: img[%d] = %d; every count is 0 (in the set) or 1 .. 199", c,
                      one[c]);
    l2_mandel_check(one, "the same call on one thread", W, H, MAX_ITER, 3, "dynamic,3", omp_sched_dynamic, 3);
    free(one);
}
END_TEST

void lab2_mandel_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = mandel_known_values, .points = 2});
    ag_add(s, (ag_spec){.test = mandel_schedules_identical, .points = 2});
    ag_add(s, (ag_spec){.test = mandel_thin_and_empty_images, .points = 1});
    ag_add(s, (ag_spec){.test = mandel_schedule_runtime, .points = 1});
}
