/* Lab 4's copies from global to shared memory that overlap the arithmetic
 * (given; the ring kernels of the reference and of stencil_bound.cu use
 * them, and so may yours).
 *
 * cp.async holds no register and does not stall the thread that issues it;
 * copies_commit closes a group of them and copies_wait<P> waits until at
 * most P of the thread's groups are still in flight. It exists from sm_80
 * on. Below, a copy goes through a register before the call returns and the
 * waits have nothing left to wait for: a ring written with these calls is
 * correct on every GPU, and there only the other warps hide its loads. */
#ifndef LAB4_COPY_ASYNC_H
#define LAB4_COPY_ASYNC_H

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__device__ static inline void copy8_async(double *dst, const double *src)
{
    unsigned to = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(to), "l"(src));
}
__device__ static inline void copies_commit(void) { asm volatile("cp.async.commit_group;\n" ::); }
template <int PENDING> __device__ static inline void copies_wait(void)
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}
#else
__device__ static inline void copy8_async(double *dst, const double *src) { *dst = *src; }
__device__ static inline void copies_commit(void) {}
template <int PENDING> __device__ static inline void copies_wait(void) {}
#endif

#endif
