/* Lab 5's driver (given): the lecture's main, on np >= 3 ranks.
 *
 *   mpirun -np P ./build/lab5/wave DIMX DIMY DIMZ NREPS [options]
 *     --backend cpu|cuda        the device backend of the compute ranks (cpu)
 *     --mode sendrecv|nonblocking   the halo exchange (sendrecv)
 *     --init random|pulse       the hashed random start, or a bump at the centre
 *     --out FILE                the result as raw float32 (store_output)
 *     --png FILE                the mid-plane z = DIMZ/2 as a PNG (gnuplot)
 *
 * Ranks 0 .. P-2 compute, rank P-1 is the data server. The server prints
 * the time from the first send to the last receive and the rate in GLUP/s
 * (10^9 point updates per second). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cli.h"
#include "mpi_check.h"
#include "poisson_io.h"
#include "timer.h"
#include "wave_mpi.h"

typedef struct {
    int dimx, dimy, dimz, nreps;
    const dev_backend *dev;
    wave_exchange mode;
    int pulse;
    const char *out, *png;
} options;

static int usage(int rank)
{
    if (rank == 0)
        fprintf(stderr, "usage: mpirun -np P wave DIMX DIMY DIMZ NREPS [--backend cpu|cuda] "
                        "[--mode sendrecv|nonblocking] [--init random|pulse] [--out FILE] [--png FILE]\n");
    return 2;
}

static int parse(int argc, char **argv, options *o)
{
    if (argc < 5)
        return -1;
    if (cli_parse_int(argv[1], "DIMX", 1, 1 << 20, &o->dimx) || cli_parse_int(argv[2], "DIMY", 1, 1 << 20, &o->dimy) ||
        cli_parse_int(argv[3], "DIMZ", 1, 1 << 20, &o->dimz) || cli_parse_int(argv[4], "NREPS", 0, 1 << 30, &o->nreps))
        return -1;
    o->dev = &dev_cpu;
    o->mode = WAVE_SENDRECV;
    for (int a = 5; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!v)
            return -1;
        if (!strcmp(argv[a], "--backend") && (!strcmp(v, "cpu") || !strcmp(v, "cuda")))
            o->dev = !strcmp(v, "cpu") ? &dev_cpu : dev_cuda();
        else if (!strcmp(argv[a], "--mode") && (!strcmp(v, "sendrecv") || !strcmp(v, "nonblocking")))
            o->mode = !strcmp(v, "sendrecv") ? WAVE_SENDRECV : WAVE_NONBLOCKING;
        else if (!strcmp(argv[a], "--init") && (!strcmp(v, "random") || !strcmp(v, "pulse")))
            o->pulse = !strcmp(v, "pulse");
        else if (!strcmp(argv[a], "--out"))
            o->out = v;
        else if (!strcmp(argv[a], "--png"))
            o->png = v;
        else {
            fprintf(stderr, "unknown option or value: %s %s\n", argv[a], v);
            return -1;
        }
        a++;
    }
    return 0;
}

static int write_mid_plane(const options *o, const float *u)
{
    size_t plane = (size_t)o->dimx * o->dimy;
    double *v = kit_alloc_doubles(plane), top = 1e-30;
    for (size_t c = 0; c < plane; c++) {
        v[c] = u[(size_t)(o->dimz / 2) * plane + c];
        top = fabs(v[c]) > top ? fabs(v[c]) : top;
    }
    /* white at 0: a colour range symmetric about it (the palette argument
     * is where io_write_heatmap_png lets a caller add a gnuplot line) */
    char palette[160];
    snprintf(palette, sizeof palette, "defined (-1 'blue', 0 'white', 1 'red')\nset cbrange [%g:%g]", -top, top);
    char title[128];
    snprintf(title, sizeof title, "wave u, plane z = %d, after %d steps", o->dimz / 2, o->nreps);
    io_heatmap spec = {.path = o->png, .title = title, .xlabel = "x", .ylabel = "y", .cblabel = "u",
                       .palette = palette, .nx = o->dimx, .ny = o->dimy,
                       .dx = 1, .dy = 1};
    int rc = io_write_heatmap_png(&spec, v);
    kit_free(v);
    return rc;
}

static int server(const options *o)
{
    size_t points = (size_t)o->dimx * o->dimy * o->dimz;
    float *input = kit_alloc(points, sizeof(float)), *vel = kit_alloc(points, sizeof(float));
    float *output = kit_alloc(points, sizeof(float));
    if (o->pulse)
        wave_fill_pulse(o->dimx, o->dimy, o->dimz, input, vel);
    else
        wave_fill(o->dimx, o->dimy, o->dimz, input, vel);
    double t0 = wall_time();
    data_server(o->dimx, o->dimy, o->dimz, input, vel, output);
    double t = wall_time() - t0;
    printf("%d x %d x %d, %d steps: %.3f s, %.3f GLUP/s (distribution and collection included)\n", o->dimx, o->dimy,
           o->dimz, o->nreps, t, t > 0 ? (double)points * o->nreps / t * 1e-9 : 0.0);
    int rc = 0;
    if (o->out && wave_store_output(o->out, output, o->dimx, o->dimy, o->dimz))
        rc = 1;
    if (o->png && write_mid_plane(o, output))
        rc = 1;
    kit_free(input);
    kit_free(vel);
    kit_free(output);
    return rc;
}

int main(int argc, char **argv)
{
    int rank, np;
    MPI_CHECK(MPI_Init(&argc, &argv));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &np));
    options o = {0};
    if (parse(argc, argv, &o)) {
        usage(rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *bad = wave_check_sizes(np, o.dimx, o.dimy, o.dimz, o.nreps);
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "%s\n", bad);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int rc = 0;
    if (rank < np - 1)
        compute_process(o.dimx, o.dimy, o.dimz, o.nreps, o.dev, o.mode);
    else
        rc = server(&o);
    MPI_CHECK(MPI_Finalize());
    return rc;
}
