/* Lab 5: the serial reference (wave_serial.h).
 *
 * Written apart from every stage: the whole grid in arrays padded with 4
 * zero points on every side (x, y and z), so that "0 outside the grid" is
 * a read of a zero and the loop over x has no tests: it vectorises, each
 * lane one point doing the scheme's additions in the scheme's order, so
 * the bits are those of the plain loop. The benchmark checks the lecture's
 * grid (480 x 480 x 400, 100 steps) against it on the server rank: it has
 * to use every core and the caches, or the check costs more than the run it
 * checks (42 s on a 16-core host with the former loop, which tested the
 * grid's edges at every neighbour read). So the grid is walked in tiles
 * of TILE_Y rows by TILE_Z planes, OpenMP over the tiles: within a tile
 * the 9 planes of rows that a plane of points reads stay in the core's L2
 * as it walks along z. */
#include <stddef.h>
#include <string.h>

#include "alloc.h"
#include "wave.h"
#include "wave_serial.h"

enum {
    PAD = WAVE_RADIUS,
    TILE_Y = 16, /* rows: (16 + 8) rows x 9 planes x 488 floats = 422 KB in L2 */
    TILE_Z = 50, /* planes: a tile reads 8 planes more than it writes */
};

/* The padded shape: point (x, y, z) of the grid at (x+4, y+4, z+4). */
typedef struct {
    size_t row, plane; /* the padded row and plane lengths: the strides in y and z */
    int dimx, dimy, dimz;
} shape;

static shape shape_of(int dimx, int dimy, int dimz)
{
    size_t row = (size_t)dimx + 2 * PAD, rows = (size_t)dimy + 2 * PAD;
    return (shape){row, row * rows, dimx, dimy, dimz};
}

static size_t padded_points(const shape *s) { return s->plane * ((size_t)s->dimz + 2 * PAD); }

/* Index of grid point (0, y, z) in a padded array. */
static size_t row_start(const shape *s, int y, int z)
{
    return ((size_t)z + PAD) * s->plane + ((size_t)y + PAD) * s->row + PAD;
}

/* One row of points, x = 0 .. dimx-1: in, prev and next at the row's first
 * point in their padded arrays, vel at it in the unpadded one. The order
 * of the additions is wave.h's: ((((L + R) + T) + B) + Behind) + Front.
 * Compiled for the wider vectors too, picked at run time by the CPU (the
 * kit's own code is built for any x86-64: -O2, no -march): twice the
 * points an instruction with AVX2. No contraction into FMA (the lab's
 * -ffp-contract=off), so every width gives the same bits. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
static void step_row(float *restrict next, const float *restrict in, const float *restrict prev,
                     const float *restrict vel, int dimx, ptrdiff_t row, ptrdiff_t plane)
{
#pragma omp simd
    for (int x = 0; x < dimx; x++) {
        float c = in[x];
        float lap = wave_coeff[0] * c;
        /* straight-line code, so that the loop over x is the one vectorised */
#pragma GCC unroll 4
        for (int i = 1; i <= WAVE_RADIUS; i++) {
            float s = in[x - i] + in[x + i];
            s = s + in[x - i * row];
            s = s + in[x + i * row];
            s = s + in[x - i * plane];
            s = s + in[x + i * plane];
            lap = lap + wave_coeff[i] * s;
        }
        float v = vel[x] * lap;
        float two_c = 2.0f * c;
        next[x] = (v + two_c) - prev[x];
    }
}

/* One step over the grid: every array padded but vel. next must differ
 * from in and prev (three time levels). */
static void step_padded(const shape *s, const float *in, const float *prev, const float *vel, float *next)
{
    const int ty = (s->dimy + TILE_Y - 1) / TILE_Y, tz = (s->dimz + TILE_Z - 1) / TILE_Z;
#pragma omp parallel for collapse(2) schedule(dynamic)
    for (int bz = 0; bz < tz; bz++)
        for (int by = 0; by < ty; by++) {
            int z1 = (bz + 1) * TILE_Z < s->dimz ? (bz + 1) * TILE_Z : s->dimz;
            int y1 = (by + 1) * TILE_Y < s->dimy ? (by + 1) * TILE_Y : s->dimy;
            for (int z = bz * TILE_Z; z < z1; z++)
                for (int y = by * TILE_Y; y < y1; y++) {
                    size_t p = row_start(s, y, z), v = ((size_t)z * s->dimy + (size_t)y) * s->dimx;
                    step_row(next + p, in + p, prev + p, vel + v, s->dimx, (ptrdiff_t)s->row, (ptrdiff_t)s->plane);
                }
        }
}

/* A zeroed padded array, its pages first touched by the threads that will
 * work on them (a host with several memory nodes reads them locally). */
static float *padded_zeros(const shape *s)
{
    size_t planes = (size_t)s->dimz + 2 * PAD;
    float *a = kit_alloc(padded_points(s), sizeof(float));
#pragma omp parallel for schedule(static)
    for (size_t z = 0; z < planes; z++)
        memset(a + z * s->plane, 0, s->plane * sizeof(float));
    return a;
}

/* The grid u (unpadded) into the padded array's interior, or back. */
static void copy_grid(const shape *s, float *padded, const float *u, int into_padded, float *out)
{
#pragma omp parallel for collapse(2) schedule(static)
    for (int z = 0; z < s->dimz; z++)
        for (int y = 0; y < s->dimy; y++) {
            size_t p = row_start(s, y, z), v = ((size_t)z * s->dimy + (size_t)y) * s->dimx;
            if (into_padded)
                memcpy(padded + p, u + v, (size_t)s->dimx * sizeof(float));
            else
                memcpy(out + v, padded + p, (size_t)s->dimx * sizeof(float));
        }
}

void wave_serial_step(int dimx, int dimy, int dimz, const float *prev, const float *cur, const float *vel,
                      float *next)
{
    shape s = shape_of(dimx, dimy, dimz);
    float *p_cur = padded_zeros(&s), *p_prev = padded_zeros(&s), *p_next = padded_zeros(&s);
    copy_grid(&s, p_cur, cur, 1, NULL);
    copy_grid(&s, p_prev, prev, 1, NULL);
    step_padded(&s, p_cur, p_prev, vel, p_next);
    copy_grid(&s, p_next, NULL, 0, next);
    kit_free(p_cur), kit_free(p_prev), kit_free(p_next);
}

void wave_serial(int dimx, int dimy, int dimz, int nreps, const float *u0, const float *vel, float *out)
{
    shape s = shape_of(dimx, dimy, dimz);
    /* three time levels; they rotate */
    float *level[3] = {padded_zeros(&s), padded_zeros(&s), padded_zeros(&s)};
    copy_grid(&s, level[0], u0, 1, NULL); /* prev: the wave starts at rest */
    copy_grid(&s, level[1], u0, 1, NULL); /* cur */
    int prev = 0, cur = 1, next = 2;
    for (int r = 0; r < nreps; r++) {
        step_padded(&s, level[cur], level[prev], vel, level[next]);
        int t = prev;
        prev = cur;
        cur = next;
        next = t;
    }
    copy_grid(&s, level[cur], NULL, 0, out);
    for (int l = 0; l < 3; l++)
        kit_free(level[l]);
}
