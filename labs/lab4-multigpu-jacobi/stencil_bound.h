/* Lab 4's stencil-shaped copy (given; stencil_bound.cu): the bound that
 * lab4_bench puts beside the copy bandwidth.
 *
 * A Jacobi sweep cannot move its 16 bytes per point the way cudaMemcpy
 * does: every point is loaded with its six neighbours (rows that start 8
 * bytes past a cache-line boundary, planes a stride apart), and only the
 * interior is written. This kernel has exactly that shape and none of the
 * arithmetic: each interior point of u_new becomes the sum of u_old's six
 * neighbours times 1/6, in the kit's order (z-1, z+1, y-1, y+1, x-1, x+1),
 * with no radiator test, no division and no norm. What it reaches is what
 * the memory system gives a stencil of this layout; a Jacobi kernel can
 * approach it, not pass it by much. */
#ifndef LAB4_STENCIL_BOUND_H
#define LAB4_STENCIL_BOUND_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One sweep on the current device, on stream (asynchronous): u_old and
 * u_new are device arrays of (N+2)^3 doubles; the boundary of u_new is
 * left as it is. */
void lab4_stencil_copy_sweep(int N, const double *u_old, double *u_new, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
