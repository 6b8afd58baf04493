/* Lab 7, stage 6: the solver on GPUs. cuFFT has no real-to-real
 * transforms, so every r2r transform of the CPU solver becomes a real-to-
 * complex FFT (cufftPlanMany, D2Z forward, Z2D back) between two kernels:
 * a "pre" kernel that gathers each line (strided for y and z) into a
 * contiguous batch, reordered as Makhoul says, and a "post" kernel that
 * turns the spectra into exactly FFTW's coefficients (REDFT10, RODFT10,
 * R2HC and their inverses, unnormalised) back in the line's place. The z
 * systems are then the CPU's, solved by one thread each with the system
 * index fastest in memory (coalesced). Results equal the CPU solver's to
 * roundoff. */
#ifndef LAB7_FP_GPU_H
#define LAB7_FP_GPU_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>
#include <nccl.h>

#include "fft_poisson.h"
#include "nccl_check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Stage 6a, fp_cuda.cu: one GPU ---------------------------------------- */

/* Everything the transforms and the z solve of one grid need on the
 * current device: cuFFT plans per axis and direction, gather and spectrum
 * buffers, a zero-pivot flag. box[a] is the box in which axis a is
 * transformed (box[2]: where z is solved); all three hold the same number
 * of cells. All work goes to stream. */
typedef struct fp_gpu fp_gpu;
fp_gpu *fp_gpu_create(const fp_grid *g, const fp_box box[3], cudaStream_t stream);
void fp_gpu_destroy(fp_gpu *p);

/* fp_transform on the device: every line of box[axis] of d_a (device
 * memory, laid out as that box), in place, asynchronous on the stream. */
void fp_gpu_transform(fp_gpu *p, int axis, int inverse, double *d_a);

/* fp_solve_z on the device, on box[2] of d_a. Waits for the stream;
 * returns 0, or -1 on a zero pivot. */
int fp_gpu_solve_z(fp_gpu *p, double *d_a);

/* Adds c to every one of the n doubles of d_a, and the sum of d_a into
 * *d_sum (one double of device memory): the mean removal of the singular
 * problems. Asynchronous on the stream. */
void fp_gpu_add(fp_gpu *p, double *d_a, size_t n, double c);
void fp_gpu_sum(fp_gpu *p, const double *d_a, size_t n, double *d_sum);

/* Optional, not part of the stage (README, "Beyond the pass bound"): the
 * device part of fp_solve_cuda as one call, the transforms with their pre
 * and post steps inside cuFFT's callbacks. d_a: the whole grid (device
 * memory, box[] all the whole grid), f on entry, u on return, the mean
 * removal left to the caller. Returns 0, -1 on a zero pivot, or 1 where
 * it does not apply (nothing done). Weak: a solver without it links, and
 * make bench then times the stages alone. */
int fp_gpu_solve_fused(fp_gpu *p, double *d_a) __attribute__((weak));

/* fp_solve_serial on the current GPU: f (host memory, the whole grid) on
 * entry, u on return. Returns 0, or -1 (bad grid, zero pivot, no GPU). */
int fp_solve_cuda(const fp_grid *g, double *f);

/* ---- Stage 6b, fp_nccl.cu: pencils over GPUs, one rank per GPU --------------- */

/* fp_solve_nccl reports its transposes' time with fp_record_seconds
 * (fft_poisson.h). */

/* fp_solve_mpi with the device doing all the work: the transposes pack and
 * unpack on the device and exchange through NCCL grouped ncclSend/ncclRecv
 * (NCCL has no all-to-all) on comm, whose rank r*pc + c is the process-grid
 * place (r, c) of fft_poisson.h. a: this rank's x pencil of f (host
 * memory) on entry, of u on return. The caller set the device and made
 * comm and stream (common/nccl/nccl_world.h). Every rank returns the same
 * value: 0, or -1 on a bad grid or a zero pivot. */
int fp_solve_nccl(const fp_grid *g, int pr, int pc, ncclComm_t comm, cudaStream_t stream, double *a);

#ifdef __cplusplus
}
#endif
#endif
