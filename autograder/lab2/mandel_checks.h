/* Shared by lab 2's Mandelbrot tests: the sequential loop of mandel.h,
 * written here, and a comparison with the student's mandel. */
#ifndef LAB2_MANDEL_CHECKS_H
#define LAB2_MANDEL_CHECKS_H

#include <omp.h>

/* img[px * height + py], exactly as mandel.h describes it, one thread. */
void mandel_sequential(int width, int height, int max_iter, int *img);

/* Runs mandel with this many threads and schedule (omp_set_schedule: the
 * student's schedule(runtime) loop takes it) on an image filled with -1,
 * and fails, naming the first wrong pixel, unless it equals
 * mandel_sequential's. */
void mandel_check(int width, int height, int max_iter, int threads, const char *sched_name, omp_sched_t kind,
                  int chunk);

#endif
