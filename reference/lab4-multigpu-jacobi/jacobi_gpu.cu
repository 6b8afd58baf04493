/* Lab 4, stage 2: Jacobi on one GPU (reference solution).
 *
 * gpu1 is the seed's one-thread baseline, gpu2 one thread per point reading
 * f, gpu3 the kernel meant to run at the memory bandwidth: a block spans 32
 * consecutive x (k) points so that a warp reads whole 256-byte lines, each
 * thread walks a column of GPU3_ZCHUNK planes keeping the plane below, its
 * own and the one above in registers, f is never read (the radiator is an
 * integer test), and indices are size_t. All three compute each point with
 * the kit's expression order, so with nvcc -fmad=false their results equal
 * the CPU reference bit for bit. */
#include <math.h>

#include "cuda_check.h"
#include "jacobi4.h"
#include "poisson.h"
#include "timer.h"

#define GPU2_BLOCK 8
/* Measured on an H200 against other shapes (results/gpu3_shapes_h200.txt):
 * narrow blocks of 32 x 4 threads, each walking 64 planes, 8 at a time. The
 * 8 loads of the planes above are the only ones that go to memory (the
 * others hit the caches), so they set how many bytes are in flight. */
#define GPU3_BX 32
#define GPU3_BY 4
#define GPU3_ZCHUNK 64
#define GPU3_UNROLL 8

/* Adds v, summed over the block, to *norm2: a warp sums by shuffles, warp
 * 0 sums the warps, one atomicAdd per block. Every thread of the block must
 * call it (threads without a point pass 0). */
__device__ static void block_add(double v, double *norm2)
{
    __shared__ double warp_sums[32];
    int lane = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int nthreads = blockDim.x * blockDim.y * blockDim.z;
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane % 32 == 0)
        warp_sums[lane / 32] = v;
    __syncthreads();
    if (lane < 32) {
        v = lane < nthreads / 32 ? warp_sums[lane] : 0.0;
        for (int off = 16; off > 0; off /= 2)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (lane == 0)
            atomicAdd(norm2, v);
    }
}

__global__ static void gpu1_sweep(int N, const double *f, const double *u_old, double *u_new, double *norm2)
{
    size_t sj = poisson_side(N), si = sj * sj;
    double h = poisson_h(N), h2 = h * h, sum = 0.0;
    for (int i = 1; i <= N; i++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++) {
                size_t c = poisson_index(N, i, j, k);
                double v = poisson_jacobi_point(u_old, c, sj, si, h2 * f[c]);
                double d = v - u_old[c];
                sum += d * d;
                u_new[c] = v;
            }
    if (norm2)
        *norm2 += sum;
}

__global__ static void gpu2_sweep(int N, const double *f, const double *u_old, double *u_new, double *norm2)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
    int i = blockIdx.z * blockDim.z + threadIdx.z + 1;
    double d = 0.0;
    if (i <= N && j <= N && k <= N) {
        size_t sj = poisson_side(N), si = sj * sj, c = poisson_index(N, i, j, k);
        double h = poisson_h(N);
        double v = poisson_jacobi_point(u_old, c, sj, si, h * h * f[c]);
        d = v - u_old[c];
        u_new[c] = v;
    }
    if (norm2)
        block_add(d * d, norm2);
}

/* One thread: the column (i, j, k) for i = i0 .. i0+GPU3_ZCHUNK-1 within
 * local planes [l_begin, l_end). The sum is written out, not through
 * poisson_jacobi_point, only to reuse the z neighbours from registers; its
 * order is the kit's: z-1, z+1, y-1, y+1, x-1, x+1, then h^2 f.
 *
 * Planes go GPU3_UNROLL at a time, all their loads issued before the first
 * division: a double division is a branchy instruction sequence that the
 * compiler will not move loads across, and a thread that waits for one load
 * at a time keeps too few bytes in flight to fill the memory pipe (Little's
 * law: ~3 TB/s x ~0.8 us is ~2.4 MB in flight across the GPU). */
__device__ static inline double gpu3_point(int N, int i, int j, int k, double h2f_in, double below, double above,
                                           double ym, double yp, double xm, double xp)
{
    double h2f = poisson_in_radiator(N, i, j, k) ? h2f_in : 0.0;
    return (below + above + ym + yp + xm + xp + h2f) / 6.0;
}

template <bool WITH_NORM>
__global__ static void __launch_bounds__(GPU3_BX *GPU3_BY)
    gpu3_sweep(int N, int i_offset, int l_begin, int l_end, const double *__restrict__ u_old,
               double *__restrict__ u_new, double *norm2)
{
    int k = blockIdx.x * GPU3_BX + threadIdx.x + 1;
    int j = blockIdx.y * GPU3_BY + threadIdx.y + 1;
    int l0 = l_begin + blockIdx.z * GPU3_ZCHUNK;
    int l1 = min(l0 + GPU3_ZCHUNK, l_end);
    double sum = 0.0;
    if (j <= N && k <= N) {
        size_t sj = poisson_side(N), si = sj * sj;
        size_t c = (size_t)l0 * si + (size_t)j * sj + (size_t)k;
        double h = poisson_h(N), h2f_in = h * h * POISSON_RADIATOR;
        double z[GPU3_UNROLL + 2]; /* planes l-1 .. l+GPU3_UNROLL of this column */
        z[0] = u_old[c - si];
        z[1] = u_old[c];
        int l = l0;
        for (; l + GPU3_UNROLL <= l1; l += GPU3_UNROLL, c += GPU3_UNROLL * si) {
            double ym[GPU3_UNROLL], yp[GPU3_UNROLL], xm[GPU3_UNROLL], xp[GPU3_UNROLL];
#pragma unroll
            for (int q = 0; q < GPU3_UNROLL; q++) {
                size_t cq = c + q * si;
                z[q + 2] = u_old[cq + si];
                ym[q] = u_old[cq - sj];
                yp[q] = u_old[cq + sj];
                xm[q] = u_old[cq - 1];
                xp[q] = u_old[cq + 1];
            }
#pragma unroll
            for (int q = 0; q < GPU3_UNROLL; q++) {
                double v = gpu3_point(N, i_offset + l + q, j, k, h2f_in, z[q], z[q + 2], ym[q], yp[q], xm[q], xp[q]);
                u_new[c + q * si] = v;
                if (WITH_NORM) {
                    double d = v - z[q + 1];
                    sum += d * d;
                }
            }
            z[0] = z[GPU3_UNROLL];
            z[1] = z[GPU3_UNROLL + 1];
        }
        for (; l < l1; l++, c += si) { /* the planes left over */
            double above = u_old[c + si];
            double v = gpu3_point(N, i_offset + l, j, k, h2f_in, z[0], above, u_old[c - sj], u_old[c + sj],
                                  u_old[c - 1], u_old[c + 1]);
            u_new[c] = v;
            if (WITH_NORM) {
                double d = v - z[1];
                sum += d * d;
            }
            z[0] = z[1];
            z[1] = above;
        }
    }
    if (WITH_NORM)
        block_add(sum, norm2);
}

extern "C" void jacobi_gpu3_slab(int N, int i_offset, int l_begin, int l_end, const double *u_old, double *u_new,
                                 double *norm2, cudaStream_t stream)
{
    if (l_end <= l_begin)
        return;
    dim3 block(GPU3_BX, GPU3_BY);
    dim3 grid((N + GPU3_BX - 1) / GPU3_BX, (N + GPU3_BY - 1) / GPU3_BY,
              (l_end - l_begin + GPU3_ZCHUNK - 1) / GPU3_ZCHUNK);
    if (norm2)
        gpu3_sweep<true><<<grid, block, 0, stream>>>(N, i_offset, l_begin, l_end, u_old, u_new, norm2);
    else
        gpu3_sweep<false><<<grid, block, 0, stream>>>(N, i_offset, l_begin, l_end, u_old, u_new, NULL);
    CUDA_CHECK(cudaGetLastError());
}

static int have_gpu(const char *who)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        cudaGetLastError(); /* clear the sticky "no device" error */
        fprintf(stderr, "error: %s needs a CUDA GPU and this machine has none\n", who);
        return 0;
    }
    return 1;
}

typedef void (*sweep_launcher)(int N, const double *d_f, const double *src, double *dst, double *norm2,
                               cudaStream_t s);

static void launch_gpu1(int N, const double *d_f, const double *src, double *dst, double *norm2, cudaStream_t s)
{
    gpu1_sweep<<<1, 1, 0, s>>>(N, d_f, src, dst, norm2);
    CUDA_CHECK(cudaGetLastError());
}

static void launch_gpu2(int N, const double *d_f, const double *src, double *dst, double *norm2, cudaStream_t s)
{
    dim3 block(GPU2_BLOCK, GPU2_BLOCK, GPU2_BLOCK);
    dim3 grid((N + GPU2_BLOCK - 1) / GPU2_BLOCK, (N + GPU2_BLOCK - 1) / GPU2_BLOCK, (N + GPU2_BLOCK - 1) / GPU2_BLOCK);
    gpu2_sweep<<<grid, block, 0, s>>>(N, d_f, src, dst, norm2);
    CUDA_CHECK(cudaGetLastError());
}

static void launch_gpu3(int N, const double *d_f, const double *src, double *dst, double *norm2, cudaStream_t s)
{
    (void)d_f;
    jacobi_gpu3_slab(N, 0, 1, N + 1, src, dst, norm2, s);
}

/* The host side all three share: allocate, copy in, sweep, copy out.
 *
 * The norm of sweep s is read one sweep late: sweep s+1 is queued before
 * the host waits for sweep s's norm, so the GPU never idles while the host
 * looks. A run can therefore stop one sweep after the CPU reference would;
 * the answer is always that of the sweeps counted. */
static int run_sweeps(const char *who, sweep_launcher launch, int needs_f, int N, double tol, int max_iter,
                      const double *f, double *u, double *u_old)
{
    (void)u_old; /* the answer is copied out of whichever device buffer holds it */
    if (poisson_check_size(N) || !have_gpu(who))
        return -1;
    size_t bytes = poisson_points(N) * sizeof(double);
    double *d_f = NULL, *src, *dst, *d_norm2, *h_norm2;
    cudaStream_t s;
    cudaEvent_t done[2];
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_CHECK(cudaMalloc(&src, bytes));
    CUDA_CHECK(cudaMalloc(&dst, bytes));
    if (needs_f) {
        CUDA_CHECK(cudaMalloc(&d_f, bytes));
        CUDA_CHECK(cudaMemcpy(d_f, f, bytes, cudaMemcpyHostToDevice));
    }
    /* both buffers need the boundary: a sweep writes the interior only */
    CUDA_CHECK(cudaMemcpy(src, u, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dst, u, bytes, cudaMemcpyHostToDevice));
    /* cudaMemcpy from pageable memory may return before its data has landed
     * on the device, and the non-blocking streams below do not wait for the
     * default stream: without this wait the first sweeps can race with the
     * copies (seen on 4 H200s under load: a halo plane that the neighbour
     * had just sent was overwritten by its initial value). */
    CUDA_CHECK(cudaDeviceSynchronize()); /* the set-up copies have landed */
    CUDA_CHECK(cudaMalloc(&d_norm2, 2 * sizeof(double)));
    CUDA_CHECK(cudaMallocHost(&h_norm2, 2 * sizeof(double)));
    for (int e = 0; e < 2; e++)
        CUDA_CHECK(cudaEventCreateWithFlags(&done[e], cudaEventDisableTiming));

    double t0 = wall_time();
    int it = 0;
    while (it < max_iter) {
        int slot = it & 1;
        double *norm2 = tol > 0 ? d_norm2 + slot : NULL;
        if (norm2)
            CUDA_CHECK(cudaMemsetAsync(norm2, 0, sizeof(double), s));
        launch(N, d_f, src, dst, norm2, s);
        if (norm2) {
            CUDA_CHECK(cudaMemcpyAsync(h_norm2 + slot, norm2, sizeof(double), cudaMemcpyDeviceToHost, s));
            CUDA_CHECK(cudaEventRecord(done[slot], s));
        }
        double *t = src;
        src = dst;
        dst = t;
        it++;
        if (norm2 && it >= 2) { /* the previous sweep's norm */
            CUDA_CHECK(cudaEventSynchronize(done[slot ^ 1]));
            if (sqrt(h_norm2[slot ^ 1]) <= tol)
                break;
        }
    }
    CUDA_CHECK(cudaStreamSynchronize(s));
    lab4_record_sweep_seconds(wall_time() - t0);

    CUDA_CHECK(cudaMemcpy(u, src, bytes, cudaMemcpyDeviceToHost));
    for (int e = 0; e < 2; e++)
        CUDA_CHECK(cudaEventDestroy(done[e]));
    CUDA_CHECK(cudaFreeHost(h_norm2));
    CUDA_CHECK(cudaFree(d_norm2));
    CUDA_CHECK(cudaFree(d_f));
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    CUDA_CHECK(cudaStreamDestroy(s));
    return it;
}

extern "C" int jacobi_gpu1(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    return run_sweeps("jacobi_gpu1", launch_gpu1, 1, N, tol, max_iter, f, u, u_old);
}

extern "C" int jacobi_gpu2(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    return run_sweeps("jacobi_gpu2", launch_gpu2, 1, N, tol, max_iter, f, u, u_old);
}

extern "C" int jacobi_gpu3(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    return run_sweeps("jacobi_gpu3", launch_gpu3, 0, N, tol, max_iter, f, u, u_old);
}
