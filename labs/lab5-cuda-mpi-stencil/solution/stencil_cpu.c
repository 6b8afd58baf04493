/* Lab 5, stage 1: the wave stencil on the CPU, on a region of planes
 * (wave.h has the contract and the evaluation order). */
#include "wave.h"

/* in at (x + dx, y + dy) of the plane `in` points into, 0 outside the
 * grid in x and y. */
static inline float at(const float *in, int x, int y, int dimx, int dimy)
{
    return x >= 0 && x < dimx && y >= 0 && y < dimy ? in[x + (size_t)dimx * y] : 0.0f;
}

void stencil_region_cpu(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy, int nz)
{
    const size_t plane = (size_t)dimx * dimy;
    /* No reduction and each point written once: any number of threads gives
     * the same bits. */
#pragma omp parallel for collapse(2) schedule(static)
    for (int z = WAVE_RADIUS; z < nz - WAVE_RADIUS; z++)
        for (int y = 0; y < dimy; y++) {
            const float *pz = in + (size_t)z * plane; /* plane z of the region */
            for (int x = 0; x < dimx; x++) {
                size_t n = (size_t)z * plane + (size_t)y * dimx + x;
                float lap = wave_coeff[0] * in[n];
                for (int i = 1; i <= WAVE_RADIUS; i++) {
                    float left = at(pz, x - i, y, dimx, dimy), right = at(pz, x + i, y, dimx, dimy);
                    float top = at(pz, x, y - i, dimx, dimy), bottom = at(pz, x, y + i, dimx, dimy);
                    float behind = in[n - i * plane], front = in[n + i * plane];
                    lap += wave_coeff[i] * (((((left + right) + top) + bottom) + behind) + front);
                }
                next[n] = (vel[n] * lap + 2.0f * in[n]) - prev[n];
            }
        }
}
