/* Lab 7, stage 6a (given): what one GPU's solver keeps, shared by the
 * given plans and mean helpers (fp_gpu_plan.cu) and your kernels and
 * solver (fp_cuda.cu). */
#ifndef LAB7_FP_GPU_PLAN_H
#define LAB7_FP_GPU_PLAN_H

#include <cufft.h>

#include "fp_gpu.h"

struct fp_gpu {
    fp_grid g;
    fp_box box[3];
    cudaStream_t stream;
    size_t cells;
    cufftHandle fwd[3], inv[3];
    double *real;             /* gathered lines (cells), also Thomas's gamma */
    cufftDoubleComplex *spec; /* spectra: lines x (n/2 + 1) complex, the largest axis's */
    int *bad;                 /* a zero pivot was met */
};

#endif
