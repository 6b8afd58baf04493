/* Lab 5, stage 1: the wave stencil on the CPU, on a region of planes
 * (wave.h has the contract and the evaluation order). */
#include <stdio.h>

#include "wave.h"

void stencil_region_cpu(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy, int nz)
{
    /* TODO 1: for every plane z in [WAVE_RADIUS, nz - WAVE_RADIUS), every y
     *         and x, with n = x + dimx * (y + dimy * z) in size_t:
     *           lap = wave_coeff[0] * in[n]
     *           for i = 1..4: lap += wave_coeff[i] * (((((L + R) + T) + B) + Behind) + Front)
     *           next[n] = (vel[n] * lap + 2.0f * in[n]) - prev[n]
     *         in exactly this order; L/R, T/B, Behind/Front are in at
     *         x -/+ i, y -/+ i, z -/+ i, and 0 where x or y leaves the grid.
     * TODO 2: #pragma omp parallel for collapse(2) over z and y. */
    (void)next, (void)in, (void)prev, (void)vel, (void)dimx, (void)dimy, (void)nz;
    fprintf(stderr, "stencil_region_cpu: not implemented yet\n");
}
