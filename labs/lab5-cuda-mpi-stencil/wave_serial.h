/* Lab 5: the kit's serial reference, what every result is compared with
 * bit for bit (given code: the tests and the benchmark use it). Written apart from any stage: the whole grid in one array
 * padded with 4 zero planes at each end in z, three time levels, no
 * regions, no halos, no in-place trick. */
#ifndef LAB5_WAVE_SERIAL_H
#define LAB5_WAVE_SERIAL_H

/* nreps steps of wave.h's scheme on the whole dimx x dimy x dimz grid,
 * starting at rest (prev = u0); the result in out (may be u0). */
void wave_serial(int dimx, int dimy, int dimz, int nreps, const float *u0, const float *vel, float *out);

/* One step from (prev, cur) into next over the whole grid, no padding
 * needed from the caller: zero outside. */
void wave_serial_step(int dimx, int dimy, int dimz, const float *prev, const float *cur, const float *vel,
                      float *next);

#endif
