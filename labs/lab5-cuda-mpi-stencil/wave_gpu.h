/* Lab 5, stage 2 (stencil_gpu.cu): the lecture's kernel and its launcher,
 * with the index and coefficient bugs fixed and stencil_region_cpu's region
 * contract (wave.h): on device arrays, planes [4, nz-4) of an nz-plane
 * region written, the same bits as the CPU (the lab builds with nvcc
 * -fmad=false: no fused multiply-add). Asynchronous on stream; checks the
 * launch (cudaGetLastError) but does not wait for it. */
#ifndef LAB5_WAVE_GPU_H
#define LAB5_WAVE_GPU_H

#include <cuda_runtime_api.h>

#include "wave.h"

#ifdef __cplusplus
extern "C" {
#endif

void launch_kernel(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy, int nz,
                   cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
