#define _POSIX_C_SOURCE 200809L
#include "poisson_io.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "poisson.h"

static int close_checked(FILE *fp, const char *path, int failed)
{
    if (fclose(fp) != 0 || failed) {
        fprintf(stderr, "error: could not write %s: %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

static FILE *open_for_writing(const char *path)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        fprintf(stderr, "error: cannot create %s: %s\n", path, strerror(errno));
    return fp;
}

int poisson_write_binary(const char *path, int N, const double *u)
{
    FILE *fp = open_for_writing(path);
    if (!fp)
        return 1;
    size_t n = poisson_points(N);
    return close_checked(fp, path, fwrite(u, sizeof *u, n, fp) != n);
}

/* VTK's legacy binary format is big-endian whatever the machine. */
static void to_big_endian(double v, unsigned char out[8])
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    for (int b = 0; b < 8; b++)
        out[b] = (unsigned char)(bits >> (56 - 8 * b));
}

int poisson_write_vtk(const char *path, int N, const double *u)
{
    FILE *fp = open_for_writing(path);
    if (!fp)
        return 1;
    size_t side = poisson_side(N), n = poisson_points(N);
    double h = poisson_h(N);
    int failed = fprintf(fp,
                         "# vtk DataFile Version 3.0\n"
                         "3-D Poisson problem, N = %d interior points per direction\n"
                         "BINARY\n"
                         "DATASET STRUCTURED_POINTS\n"
                         "DIMENSIONS %zu %zu %zu\n"
                         "ORIGIN -1 -1 -1\n"
                         "SPACING %.17g %.17g %.17g\n"
                         "POINT_DATA %zu\n"
                         "SCALARS temperature double 1\n"
                         "LOOKUP_TABLE default\n",
                         N, side, side, side, h, h, h, n) < 0;
    /* A block at a time: a whole swapped copy could be gigabytes. */
    enum { BLOCK = 4096 };
    unsigned char buf[8 * BLOCK];
    for (size_t b = 0; b < n && !failed; b += BLOCK) {
        size_t len = n - b < BLOCK ? n - b : BLOCK;
        for (size_t c = 0; c < len; c++)
            to_big_endian(u[b + c], buf + 8 * c);
        failed = fwrite(buf, 8, len, fp) != len;
    }
    failed |= fputc('\n', fp) == EOF;
    return close_checked(fp, path, failed);
}

int poisson_slice_index(int N)
{
    /* z_i = -1 + i h = -1/3  <=>  i = (N+1)/3, rounded to the nearest. */
    int i = (int)(((long)N + 1 + 1) / 3);
    return i < 1 ? 1 : i > N ? N : i;
}

int poisson_write_png(const char *path, int N, const double *u, const char *title)
{
    int i = poisson_slice_index(N);
    double h = poisson_h(N);
    char t[256];
    snprintf(t, sizeof t, "%s%sz = %.3f (plane i = %d of N = %d), radiator lower left, 0-wall at y = -1",
             title ? title : "", title ? ": " : "", -1.0 + i * h, i, N);
    io_heatmap spec = {
        .path = path, .title = t, .xlabel = "x", .ylabel = "y", .cblabel = "u",
        .nx = (int)poisson_side(N), .ny = (int)poisson_side(N),
        .x0 = -1.0, .dx = h, .y0 = -1.0, .dy = h,
    };
    return io_write_heatmap_png(&spec, u + poisson_index(N, i, 0, 0));
}

int io_write_heatmap_png(const io_heatmap *s, const double *v)
{
    /* gnuplot reads the cells inline ("x y value" lines, a blank line after
     * each row), so no temporary file is left behind. */
    if (strpbrk(s->path, "'\"\n")) {
        fprintf(stderr, "error: cannot plot to %s: quotes and newlines are not allowed in the file name\n", s->path);
        return 1;
    }
    /* Where gnuplot is missing or dies, the writes below must fail with
     * EPIPE and the error below be said, not SIGPIPE end the program. */
    void (*was)(int) = signal(SIGPIPE, SIG_IGN);
    FILE *gp = popen("gnuplot", "w");
    if (!gp) {
        signal(SIGPIPE, was);
        fprintf(stderr, "error: cannot start gnuplot for %s: %s\n", s->path, strerror(errno));
        return 1;
    }
    fprintf(gp, "set terminal png size %d,%d\n", s->width > 0 ? s->width : 800, s->height > 0 ? s->height : 700);
    fprintf(gp, "set output '%s'\n", s->path);
    fprintf(gp, "set title \"%s\" noenhanced\n", s->title ? s->title : "");
    fprintf(gp, "set xlabel '%s'\nset ylabel '%s'\nset cblabel '%s'\n", s->xlabel ? s->xlabel : "",
            s->ylabel ? s->ylabel : "", s->cblabel ? s->cblabel : "");
    fprintf(gp, "set palette %s\n", s->palette ? s->palette : "defined (0 'black', 1 'blue', 2 'red', 3 'yellow', 4 'white')");
    fprintf(gp, "set size ratio -1\nset autoscale fix\nunset key\n");
    fprintf(gp, "plot '-' using 1:2:3 with image\n");
    for (int y = 0; y < s->ny; y++) {
        for (int x = 0; x < s->nx; x++)
            fprintf(gp, "%.9g %.9g %.9g\n", s->x0 + x * s->dx, s->y0 + y * s->dy, v[(size_t)y * s->nx + x]);
        fputc('\n', gp);
    }
    fprintf(gp, "e\n");
    int rc = pclose(gp);
    signal(SIGPIPE, was);
    if (rc != 0) {
        fprintf(stderr, "error: gnuplot failed to write %s (is gnuplot installed? make deps installs it)\n", s->path);
        return 1;
    }
    return 0;
}
