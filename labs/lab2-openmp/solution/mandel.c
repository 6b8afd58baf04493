/* Lab 2 reference: the Mandelbrot set with OpenMP (mandel.h states the
 * contract). */
#include "mandel.h"

#include <stddef.h>

void mandel(int width, int height, int max_iter, int *img)
{
    if (width < 1 || height < 1)
        return;
    double scale_x = 3.5 / width, scale_y = 3.5 / height;
    /* Columns cost very different amounts of work (those through the set
     * take max_iter steps per pixel), so the schedule is left to run time:
     * dynamic balances it, static shows the imbalance. */
#pragma omp parallel for schedule(runtime)
    for (int px = 0; px < width; px++) {
        double x = px * scale_x - 2.25;
        for (int py = 0; py < height; py++) {
            double y = py * scale_y - 1.75;
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
}
