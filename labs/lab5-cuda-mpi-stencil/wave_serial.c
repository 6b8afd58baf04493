/* Lab 5: the serial reference (wave_serial.h). */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "wave.h"
#include "wave_serial.h"

typedef struct {
    int dimx, dimy, dimz;
    const float *u; /* padded: plane p of the array is global plane p - 4 */
} padded;

/* u at global (x, y, z), 0 outside in x and y; z may be -4 .. dimz+3 */
static float val(const padded *g, int x, int y, int z)
{
    if (x < 0 || x >= g->dimx || y < 0 || y >= g->dimy)
        return 0.0f;
    return g->u[((size_t)(z + WAVE_RADIUS) * g->dimy + (size_t)y) * g->dimx + (size_t)x];
}

static void step_padded(int dimx, int dimy, int dimz, const float *prev, const float *cur_padded, const float *vel,
                        float *next)
{
    padded g = {dimx, dimy, dimz, cur_padded};
#pragma omp parallel for schedule(static)
    for (int z = 0; z < dimz; z++)
        for (int y = 0; y < dimy; y++)
            for (int x = 0; x < dimx; x++) {
                size_t n = ((size_t)z * dimy + (size_t)y) * dimx + (size_t)x;
                float c = val(&g, x, y, z);
                float lap = wave_coeff[0] * c;
                for (int i = 1; i <= WAVE_RADIUS; i++) {
                    float s = val(&g, x - i, y, z) + val(&g, x + i, y, z);
                    s = s + val(&g, x, y - i, z);
                    s = s + val(&g, x, y + i, z);
                    s = s + val(&g, x, y, z - i);
                    s = s + val(&g, x, y, z + i);
                    lap = lap + wave_coeff[i] * s;
                }
                float v = vel[n] * lap;
                float two_c = 2.0f * c;
                next[n] = (v + two_c) - prev[n];
            }
}

void wave_serial_step(int dimx, int dimy, int dimz, const float *prev, const float *cur, const float *vel,
                      float *next)
{
    size_t plane = (size_t)dimx * dimy, points = plane * dimz;
    float *pad = kit_alloc(points + 2 * WAVE_RADIUS * plane, sizeof(float));
    memset(pad, 0, (points + 2 * WAVE_RADIUS * plane) * sizeof(float));
    memcpy(pad + WAVE_RADIUS * plane, cur, points * sizeof(float));
    step_padded(dimx, dimy, dimz, prev, pad, vel, next);
    kit_free(pad);
}

void wave_serial(int dimx, int dimy, int dimz, int nreps, const float *u0, const float *vel, float *out)
{
    size_t plane = (size_t)dimx * dimy, points = plane * dimz, padded_points = points + 2 * WAVE_RADIUS * plane;
    /* three time levels, each padded with zero planes; they rotate */
    float *level[3];
    for (int l = 0; l < 3; l++) {
        level[l] = kit_alloc(padded_points, sizeof(float));
        memset(level[l], 0, padded_points * sizeof(float));
    }
    memcpy(level[0] + WAVE_RADIUS * plane, u0, points * sizeof(float)); /* prev */
    memcpy(level[1] + WAVE_RADIUS * plane, u0, points * sizeof(float)); /* cur */
    int prev = 0, cur = 1, next = 2;
    for (int s = 0; s < nreps; s++) {
        step_padded(dimx, dimy, dimz, level[prev] + WAVE_RADIUS * plane, level[cur], vel,
                    level[next] + WAVE_RADIUS * plane);
        int t = prev;
        prev = cur;
        cur = next;
        next = t;
    }
    memcpy(out, level[cur] + WAVE_RADIUS * plane, points * sizeof(float));
    for (int l = 0; l < 3; l++)
        kit_free(level[l]);
}
