/* Whether this build holds code for the GPUs the tests will use.
 *
 * nvcc builds for the architectures make chose (common/mk/cuda_arch.mk); a
 * GPU of another architecture fails every launch with "no kernel image is
 * available", which a test would report as the student's crash. This asks
 * the CUDA runtime, for each GPU, whether a kernel built with the same
 * flags has code it can run, before any test or benchmark starts.
 *
 * Like gpu_count(), it initialises CUDA in the calling process: a runner
 * that forks calls it in a child (autograder/runner/plan.c). */
#ifndef KIT_GPU_IMAGE_H
#define KIT_GPU_IMAGE_H

#ifdef __cplusplus
extern "C" {
#endif

/* How its reason starts when a GPU has no code in this build (the runner
 * tells that skip from "no GPU" by it). */
#define GPU_IMAGE_MISSING "this build is for "

/* The GPUs the tests may use: gpu_count_reason()'s count, cut at the first
 * GPU this build has no code for; then buf holds one line saying so, with
 * the way out, e.g. "this build is for sm_90 + PTX compute_90; GPU 0 is an
 * NVIDIA ... (compute capability 8.0): run make lab3 again on this host,
 * or give CUDA_ARCH=sm_80". Otherwise buf holds gpu_count_reason()'s. */
int gpu_image_reason(char *buf, int len);

/* The line itself, for GPU number dev of the given name and compute
 * capability, of a build for `built` (make's CUDA_BUILT) of lab `lab`. */
void gpu_image_message(char *buf, int len, const char *built, int lab, int dev, const char *name, int major,
                       int minor);

#ifdef __cplusplus
}
#endif
#endif
