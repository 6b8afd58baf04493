/* mandelbrot: the lab 2 Mandelbrot driver (given code, do not edit).
 *
 *   ./build/lab2/mandelbrot W H max_iter [out.png]
 *
 * Computes a W x H image with your mandel() and prints
 *   W H max_iter seconds Mpixel/s pixels_in_set # mandel threads=T schedule=S
 * The schedule is the run-time one: OMP_SCHEDULE=dynamic,4 ./build/lab2/...
 * With out.png it also draws the image (through gnuplot). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

#include "alloc.h"
#include "cli.h"
#include "mandel.h"
#include "poisson_io.h"
#include "timer.h"

static const char *schedule_name(char *buf, size_t len)
{
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    const char *k = (kind & ~omp_sched_monotonic) == omp_sched_static    ? "static"
                    : (kind & ~omp_sched_monotonic) == omp_sched_dynamic ? "dynamic"
                    : (kind & ~omp_sched_monotonic) == omp_sched_guided  ? "guided"
                                                                          : "auto";
    snprintf(buf, len, "%s,%d", k, chunk);
    return buf;
}

static int write_png(const char *path, int width, int height, int max_iter, const int *img)
{
    /* The image is stored column by column (img[px * height + py]); the
     * heat map wants rows of y. Colour by log(count): the counts span
     * max_iter orders of magnitude near the set's edge. */
    double *rows = kit_alloc_doubles((size_t)width * height);
    for (int px = 0; px < width; px++)
        for (int py = 0; py < height; py++)
            rows[(size_t)py * width + px] = log1p((double)img[(size_t)px * height + py]);
    char title[128];
    snprintf(title, sizeof title, "Mandelbrot set, %d x %d, max_iter %d (black: in the set)", width, height,
             max_iter);
    io_heatmap spec = {
        .path = path, .title = title, .xlabel = "Re c", .ylabel = "Im c", .cblabel = "log(1 + iterations)",
        .palette = "defined (0 'black', 1 'dark-blue', 3 'cyan', 5 'yellow', 7 'red', 9 'white')",
        .nx = width, .ny = height, .x0 = -2.25, .dx = 3.5 / width, .y0 = -1.75, .dy = 3.5 / height,
        .width = 900, .height = 800,
    };
    int rc = io_write_heatmap_png(&spec, rows);
    kit_free(rows);
    return rc;
}

int main(int argc, char **argv)
{
    int width, height, max_iter;
    if (argc < 4 || argc > 5 || cli_parse_int(argv[1], "W (image width)", 1, 1 << 16, &width) ||
        cli_parse_int(argv[2], "H (image height)", 1, 1 << 16, &height) ||
        cli_parse_int(argv[3], "max_iter", 1, 1 << 30, &max_iter)) {
        fprintf(stderr, "usage: %s W H max_iter [out.png]\n"
                        "  threads and schedule from OMP_NUM_THREADS and OMP_SCHEDULE\n", argv[0]);
        return 2;
    }
    size_t n = (size_t)width * height;
    int *img = kit_alloc(n, sizeof *img);
    double t0 = wall_time();
    mandel(width, height, max_iter, img);
    double t = wall_time() - t0;
    size_t in_set = 0;
    for (size_t c = 0; c < n; c++)
        in_set += img[c] == 0;
    char sched[64];
    printf("%d %d %d %.6f %.3f %zu # mandel threads=%d schedule=%s\n", width, height, max_iter, t,
           (double)n / t / 1e6, in_set, omp_get_max_threads(), schedule_name(sched, sizeof sched));
    int rc = 0;
    if (argc == 5 && (rc = write_png(argv[4], width, height, max_iter, img)) == 0)
        fprintf(stderr, "wrote %s\n", argv[4]);
    kit_free(img);
    return rc;
}
