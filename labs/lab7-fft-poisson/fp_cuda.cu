/* Lab 7, stage 6a: the solver on one GPU. Read fp_gpu.h and the README's
 * stage 6. The plans and buffers (struct fp_gpu in fp_gpu_plan.h,
 * fp_gpu_create in fp_gpu_plan.cu) and the mean helpers (fp_gpu_add,
 * fp_gpu_sum) are given; the kernels and the solver are yours. */
#include <cufft.h>

#include <stdio.h>
#include <stdlib.h>

#include "cuda_check.h"
#include "fp_gpu_plan.h"

extern "C" void fp_gpu_transform(fp_gpu *P, int axis, int inverse, double *d_a)
{
    /* TODO: forward: a "pre" kernel gathers every line of P->box[axis] into
     * P->real (line after line; Makhoul's order for N and D, alternated
     * signs for D), cufftExecD2Z(P->fwd[axis]) into P->spec, a "post"
     * kernel writes FFTW's coefficients back into d_a (halfcomplex for P;
     * 2 Re(exp(-i pi k/2n) V_k) for N; the same, reversed, for D). Inverse:
     * the mirror image with cufftExecZ2D: each step of the forward undone,
     * in reverse order. */
    (void)P, (void)axis, (void)inverse, (void)d_a;
}

extern "C" int fp_gpu_solve_z(fp_gpu *P, double *d_a)
{
    /* TODO: one thread per (kx, ky) system of P->box[2], the system index
     * fastest (element k of system s at d_a[s + k*nsys]), gamma in
     * P->real; the CPU's coefficients, scale and singular pin; a zero pivot
     * sets *P->bad. A periodic z: transform, divide, transform back. */
    (void)P, (void)d_a;
    return -1;
}

extern "C" int fp_solve_cuda(const fp_grid *g, double *f)
{
    /* TODO: check the grid and that there is a GPU; a stream; fp_gpu_create
     * with the whole grid as every box; copy f to the device; the stages of
     * fp_solve_serial (means with fp_gpu_sum and fp_gpu_add); copy back. */
    (void)g, (void)f;
    return -1;
}
