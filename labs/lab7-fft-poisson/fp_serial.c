/* Lab 7, stage 2: the serial solver. FFTW's r2r transforms along x and y,
 * a batch of tridiagonal solves along z (OpenMP over the batch), the
 * inverse transforms, one normalisation. */
#include <stddef.h>

#include <fftw3.h>

#include "alloc.h"
#include "fft_poisson.h"

void fp_transform(const fp_grid *g, const fp_box *box, int axis, int inverse, double *a)
{
    /* TODO: one FFTW plan over every line of the box along axis
     * (fftw_plan_many_r2r, or fftw_plan_guru_r2r for the two-level batch of
     * y lines), the kind from the axis's boundary type (fft_poisson.h),
     * executed in place. */
    (void)g, (void)box, (void)axis, (void)inverse, (void)a;
}

int fp_solve_z(const fp_grid *g, const fp_box *box, double *a)
{
    /* TODO: for every (kx, ky) of the box (global index = box->lo + local),
     * the z system: off-diagonal 1/hz^2, diagonal -2/hz^2 + lambda_x/hx^2 +
     * lambda_y/hy^2, corners +1/hz^2 (Neumann) or -1/hz^2 (Dirichlet);
     * solve it with fp_thomas_toeplitz, in parallel over the systems
     * (OpenMP: each thread its own buffers). Normalise once. The singular
     * (0,0) system and a periodic z: see the README. */
    (void)g, (void)box, (void)a;
    return -1;
}

int fp_solve_serial(const fp_grid *g, double *f)
{
    /* TODO: check the grid; for a singular operator remove f's mean;
     * forward x, forward y, fp_solve_z, inverse y, inverse x; for a singular
     * operator remove u's mean. */
    (void)g, (void)f;
    return -1;
}
