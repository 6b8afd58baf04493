/* Lab 5's test helpers (the generic ones are in autograder/autograder.h). */
#ifndef LAB5_CHECKS_H
#define LAB5_CHECKS_H

#include <stddef.h>

/* A stencil call under test: stencil_region_cpu, or launch_kernel through
 * device copies (the GPU tests). */
typedef void (*l5_region_fn)(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy,
                             int nz);

/* launch_kernel with the arrays copied to and from a GPU: an l5_region_fn. */
void l5_gpu_region(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy, int nz);

/* n floats of NaN: an output the call must overwrite. */
void l5_poison(float *a, size_t n);
/* A float array as doubles (exact), for the grader's comparators. */
double *l5_to_doubles(const float *a, size_t n);

/* got must equal expected bit for bit (as values: -0 == +0) over planes
 * [z0, z1) of an nz-plane dimx x dimy region; fails the test naming the
 * first wrong point (x, y, z) with the context. */
void l5_assert_planes(const float *expected, const float *got, int dimx, int dimy, int z0, int z1, const char *ctx);
/* Planes [z0, z1) of got must still be NaN (never written). */
void l5_assert_untouched(const float *got, int dimx, int dimy, int z0, int z1, const char *ctx);

/* The hashed start of wave.h (u0 and vel) on an nz-plane region. */
void l5_fill_random(int dimx, int dimy, int nz, float *u0, float *vel);

/* The delta test of one stencil call: u = 1 at (x, y, z) of an nz-plane
 * region, 0 elsewhere, prev = 0, vel = 1; expects c_i at distance i along
 * each axis (inside the grid), c0 + 2 at the point, 0 elsewhere, over the
 * written planes [4, nz-4), and the other planes untouched. */
void l5_check_delta(l5_region_fn fn, const char *name, int dimx, int dimy, int nz, int x, int y, int z);

/* The region contract: the lecture's three stage calls (left boundary,
 * right boundary, interior, in both orders, next == prev as the pipeline
 * uses them) equal one call over the whole local array, and that one call
 * equals the serial reference of one step. S own planes. */
void l5_check_composition(l5_region_fn fn, const char *name, int dimx, int dimy, int S);

/* launch_kernel on a region whose written plane lies past point 2^31 (32768
 * x 16384 x 9 floats, 2 x 19.3 GB of GPU memory): a thread index or an
 * offset in 32 bits breaks there. Needs a GPU with 40 GB free. */
void l5_check_gpu_index_past_2_31(void);


#endif
