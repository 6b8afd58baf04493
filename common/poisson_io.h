/* Writing a 3-D Poisson solution (common/poisson.h's layout) for people and
 * for programs, and heat-map PNGs of 2-D data through gnuplot.
 *
 * Every writer returns 0 on success; on failure it prints what went wrong
 * (with the file name) to stderr and returns nonzero. None of them needs
 * OpenMP, MPI or CUDA. */
#ifndef KIT_POISSON_IO_H
#define KIT_POISSON_IO_H

#ifdef __cplusplus
extern "C" {
#endif

/* The whole (N+2)^3 array, boundary included, as raw native-endian doubles
 * in memory order (k fastest), like DTU's print_binary. */
int poisson_write_binary(const char *path, int N, const double *u);

/* Legacy VTK 3.0 for ParaView: STRUCTURED_POINTS, DIMENSIONS N+2 in each
 * direction, ORIGIN -1 -1 -1, SPACING h, one SCALARS field "temperature",
 * BINARY (big-endian, as the format demands). VTK's x runs fastest, which is
 * the kit's k, so the data go out in memory order. */
int poisson_write_vtk(const char *path, int N, const double *u);

/* The plane i (z = const) that the PNG shows: the one nearest z = -1/3, the
 * middle of the radiator's z range [-2/3, 0]. */
int poisson_slice_index(int N);

/* A heat map of u on that plane, x across and y up (so the cold wall
 * y = -1 is at the bottom and the radiator in the lower left), through
 * gnuplot. title may be NULL. */
int poisson_write_png(const char *path, int N, const double *u, const char *title);

/* A heat map of any nx x ny row-major array v (v[y * nx + x]) as a PNG via
 * gnuplot: cell (x, y) is drawn at (x0 + x dx, y0 + y dy). palette is a
 * gnuplot "set palette" argument (NULL: a heat palette). */
typedef struct {
    const char *path;
    const char *title, *xlabel, *ylabel, *cblabel; /* any may be NULL */
    const char *palette;
    int nx, ny;
    double x0, dx, y0, dy;
    int width, height; /* pixels; 0 for 800 x 700 */
} io_heatmap;

int io_write_heatmap_png(const io_heatmap *spec, const double *v);

#ifdef __cplusplus
}
#endif
#endif
