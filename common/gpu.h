/* How many CUDA GPUs this machine has, without linking CUDA.
 *
 * gpu_count() loads the driver library (libcuda.so.1) at run time and asks
 * it; on a machine without the driver or without a device it returns 0
 * instead of failing, so a driver can print "no GPU" and a test suite can
 * skip its GPU tests. KIT_GPU_COUNT=0 in the environment forces 0, to try
 * the no-GPU path on a GPU host.
 *
 * Calling it initialises the CUDA driver in the calling process, and a CUDA
 * context does not survive fork(): a test runner that forks must call it in
 * a child of its own (autograder/runner/plan.c does). */
#ifndef KIT_GPU_H
#define KIT_GPU_H

#ifdef __cplusplus
extern "C" {
#endif

int gpu_count(void);

/* Writes a one-line reason for the count (e.g. "libcuda.so.1 not found") to
 * buf, for skip messages. */
int gpu_count_reason(char *buf, int len);

#ifdef __cplusplus
}
#endif
#endif
