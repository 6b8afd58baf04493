/* What the device cases of the performance harness share (perf_harness.h):
 * the child's first CUDA call, and the end of a timed call. C, against the
 * CUDA runtime's C API; linked only into the GPU labs' harnesses. */
#ifndef KIT_PERF_DEVICE_H
#define KIT_PERF_DEVICE_H

#include <stddef.h>

/* In the child, first: 0 when a GPU is there (its context made now, so
 * that no timed call pays for it), PERF_NO_DEVICE when there is none. */
int perf_device_init(void);

/* The end of every timed call: waits until the device is idle, so that
 * work a call left running in any stream counts in its time. A failed
 * launch or a fault inside a kernel ends the child: the call did not
 * complete. */
void perf_device_finish(void);

/* cudaMalloc, or the child ends with a message. */
void *perf_device_alloc(size_t bytes);

/* Host to device and back (the child's copies, never timed). */
void perf_device_put(void *device, const void *host, size_t bytes);
void perf_device_get(void *host, const void *device, size_t bytes);

#endif
