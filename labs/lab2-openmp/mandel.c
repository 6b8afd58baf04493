/* Lab 2: the Mandelbrot set. This is your file: implement mandel() as
 * mandel.h describes it (the window, the layout img[px * height + py] and
 * the exact iteration), then parallelise it with OpenMP.
 *
 *   make lab2 && make check
 *   OMP_SCHEDULE=dynamic OMP_NUM_THREADS=2 ./build/lab2/mandelbrot 1024 1024 1000 mandel.png */
#include "mandel.h"

#include <stddef.h>

/* TODO(lab2.mandel): for every pixel, iterate as mandel.h shows and store
 * the count (0 for points in the set). Then one `#pragma omp parallel for
 * schedule(runtime)` on the outer loop: which variables must be private? */
void mandel(int width, int height, int max_iter, int *img)
{
    (void)width, (void)height, (void)max_iter, (void)img;
}
