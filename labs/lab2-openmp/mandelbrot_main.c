/* mandelbrot: the lab 2 Mandelbrot driver (given code, do not edit).
 *
 *   ./build/lab2/mandelbrot W H max_iter [out.png]
 *
 * Computes a W x H image with your mandel() and prints
 *   W H max_iter seconds Mpixel/s pixels_in_set # mandel threads=T schedule=S
 * The schedule is the run-time one: OMP_SCHEDULE=dynamic,4 ./build/lab2/...
 * With out.png it also draws the image (through gnuplot). MANDEL_CHECK=1
 * (the benchmark sets it) adds a line "# check mandel: wrong=W": the pixels
 * whose count differs from a sequential computation of mandel.h's
 * iteration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

#include "alloc.h"
#include "bench/bench_check.h"
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

/* The iteration of mandel.h, one pixel at a time, for the check. */
static long count_wrong_pixels(int width, int height, int max_iter, const int *img)
{
    long wrong = 0;
    for (int px = 0; px < width; px++)
        for (int py = 0; py < height; py++) {
            double x = px * (3.5 / width) - 2.25, y = py * (3.5 / height) - 1.75;
            double u = 0, v = 0, u2 = 0, v2 = 0;
            int iter = 0;
            while (u2 + v2 < 4.0 && iter < max_iter) {
                v = 2.0 * v * u + y;
                u = u2 - v2 + x;
                u2 = u * u;
                v2 = v * v;
                iter++;
            }
            wrong += img[(size_t)px * height + py] != (iter == max_iter ? 0 : iter);
        }
    return wrong;
}

int main(int argc, char **argv)
{
    int width, height, max_iter, check;
    if (cli_env_int("MANDEL_CHECK", 0, 0, 1, &check))
        return 2;
    if (argc < 4 || argc > 5 || cli_parse_int(argv[1], "W (image width)", 1, 1 << 16, &width) ||
        cli_parse_int(argv[2], "H (image height)", 1, 1 << 16, &height) ||
        cli_parse_int(argv[3], "max_iter", 1, 1 << 30, &max_iter)) {
        fprintf(stderr, "usage: %s W H max_iter [out.png]\n"
                        "  threads and schedule from OMP_NUM_THREADS and OMP_SCHEDULE\n", argv[0]);
        return 2;
    }
    size_t n = (size_t)width * height;
    int *img = kit_alloc(n, sizeof *img);
    for (size_t c = 0; c < n; c++) /* no count is -1: a pixel never written shows in the check */
        img[c] = -1;
    double t0 = wall_time();
    mandel(width, height, max_iter, img);
    double t = wall_time() - t0;
    size_t in_set = 0;
    for (size_t c = 0; c < n; c++)
        in_set += img[c] == 0;
    char sched[64];
    char fig[32];
    printf("%d %d %d %.6f %s %zu # mandel threads=%d schedule=%s\n", width, height, max_iter, t,
           bench_fig(fig, "%.3f", bench_rate((double)n / 1e6, t)), in_set, omp_get_max_threads(),
           schedule_name(sched, sizeof sched));
    if (check)
        printf("# check mandel: wrong=%ld\n", count_wrong_pixels(width, height, max_iter, img));
    int rc = 0;
    if (argc == 5 && (rc = write_png(argv[4], width, height, max_iter, img)) == 0)
        fprintf(stderr, "wrote %s\n", argv[4]);
    kit_free(img);
    return rc;
}
