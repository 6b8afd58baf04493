/* Lab 5: the kit's given helpers (wave.h, wave_mpi.h): the deterministic
 * initial state, the output file, the size checks and wave_fail. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "random.h"
#include "wave.h"
#include "wave_mpi.h"

/* One SplitMix64 output per global index and field: the same value on every
 * rank, whatever the split. */
static uint32_t hash24(size_t n, uint64_t field)
{
    kit_rng r = kit_rng_seed((uint64_t)n * 2 + field);
    return (uint32_t)(kit_rng_next(&r) >> 40);
}

float wave_u0(size_t n)
{
    return (float)hash24(n, 0) * 0x1.0p-24f; /* exact: 24 bits */
}

float wave_vel(size_t n)
{
    /* in double, then one rounding to float: at most 0.09999999 */
    return (float)((double)hash24(n, 1) * 0x1.0p-24 * 0.1);
}

void wave_fill(int dimx, int dimy, int dimz, float *u0, float *vel)
{
    size_t points = (size_t)dimx * dimy * dimz;
    /* each value a hash of its index alone: any split gives the same bits
     * (the benchmark's server fills the lecture's 92 M points twice over) */
#pragma omp parallel for schedule(static)
    for (size_t n = 0; n < points; n++) {
        if (u0)
            u0[n] = wave_u0(n);
        if (vel)
            vel[n] = wave_vel(n);
    }
}

void wave_fill_pulse(int dimx, int dimy, int dimz, float *u0, float *vel)
{
    double cx = 0.5 * (dimx - 1), cy = 0.5 * (dimy - 1), cz = 0.5 * (dimz - 1);
    for (int z = 0; z < dimz; z++)
        for (int y = 0; y < dimy; y++)
            for (int x = 0; x < dimx; x++) {
                size_t n = (size_t)x + (size_t)dimx * ((size_t)y + (size_t)dimy * z);
                double r2 = (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz);
                if (u0)
                    u0[n] = (float)exp(-r2 / 8.0); /* width 2 points */
                if (vel)
                    vel[n] = 0.1f;
            }
}

int wave_store_output(const char *path, const float *u, int dimx, int dimy, int dimz)
{
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        perror(path);
        return -1;
    }
    size_t points = (size_t)dimx * dimy * dimz;
    /* x86 and the GPU hosts are little-endian: memory order is the format */
    size_t wrote = fwrite(u, sizeof *u, points, fp);
    if (fclose(fp) != 0 || wrote != points) {
        fprintf(stderr, "%s: write failed\n", path);
        return -1;
    }
    return 0;
}

const char *wave_check_sizes(int np, int dimx, int dimy, int dimz, int nreps)
{
    static char msg[160];
    if (np < 3)
        return "Needed 3 or more processes."; /* the lecture's words */
    if (dimx < 1 || dimy < 1 || dimz < 1 || nreps < 0) {
        snprintf(msg, sizeof msg, "bad sizes %d x %d x %d, %d steps: sizes must be >= 1 and steps >= 0", dimx, dimy,
                 dimz, nreps);
        return msg;
    }
    return NULL;
}

void wave_fail(const char *fmt, ...)
{
    va_list ap;
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "rank %d: ", rank);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1); /* MPI_Abort does not return; this tells the compiler so */
}
