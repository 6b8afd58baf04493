/* Lab 2: the Mandelbrot set with OpenMP. Given header: do not edit.
 *
 * The image covers the seed's window of the complex plane,
 * x in [-2.25, 1.25), y in [-1.75, 1.75): pixel (px, py) with
 * 0 <= px < width, 0 <= py < height is the point
 *     x = px * (3.5 / width) - 2.25,   y = py * (3.5 / height) - 1.75,
 * and its value is stored, as in the seed, column by column:
 *     img[px * height + py].
 * From u = v = u2 = v2 = 0 and iter = 0, the pixel iterates exactly
 *     while (u2 + v2 < 4.0 && iter < max_iter) {
 *         v = 2.0 * v * u + y;  u = u2 - v2 + x;
 *         u2 = u * u;           v2 = v * v;      iter++;
 *     }
 * (in this order, so that every correct version gives the same counts) and
 * gets iter, or 0 if it reached max_iter (the point is in the set).
 * Width or height < 1: nothing is written.
 *
 * Parallelise with OpenMP and schedule(runtime), so that the schedule can be
 * chosen without recompiling (OMP_SCHEDULE=dynamic,4 or omp_set_schedule). */
#ifndef LAB2_MANDEL_H
#define LAB2_MANDEL_H

void mandel(int width, int height, int max_iter, int *img);

#endif
