/* Lab 4, stage 2: Jacobi on one GPU (reference solution).
 *
 * gpu1 is the seed's one-thread baseline, gpu2 one thread per point reading
 * f, gpu3 the kernel meant to run at the memory bandwidth. gpu3 has two
 * kernels, both walking columns of planes along z so that each plane is
 * read from memory once, f is never read (the radiator is an integer test)
 * and indices are size_t:
 *   - for N >= GPU3_RING_MIN_N, a block streams its tile of each plane,
 *     with its halo, into a ring of shared-memory buffers with cp.async
 *     (copy_async.h), several planes ahead of the plane it computes;
 *   - below that, where a 128-wide tile would be mostly idle, a block of
 *     32 x 4 threads keeps each column's planes in registers.
 * All kernels compute each point with the kit's expression order, so with
 * nvcc -fmad=false their results equal the CPU reference bit for bit. */
#include <math.h>

#include "copy_async.h"
#include "cuda_check.h"
#include "jacobi.h"
#include "poisson.h"
#include "timer.h"

#define GPU2_BLOCK 8
/* The column kernel: narrow blocks of 32 x 4 threads, each walking 64
 * planes, 8 at a time: the fastest of the shapes measured against it
 * (MEASURED.md). */
#define GPU3_BX 32
#define GPU3_BY 4
#define GPU3_ZCHUNK 64
#define GPU3_UNROLL 8
/* The ring kernel: 128 x 4 threads, 2 rows each, so a tile of 128 x 8
 * points; a ring of 4 plane tiles (2 in flight while one is computed);
 * chunks of 64 planes. Chosen from ~40 shapes timed against one another
 * (MEASURED.md). */
#define RING_BX 128
#define RING_THREADS_Y 4
#define RING_ROWS 2
#define RING_BY (RING_THREADS_Y * RING_ROWS)
#define RING_DEPTH 4
#define RING_ZCHUNK 64
#define GPU3_RING_MIN_N 256

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

/* x / 6, correctly rounded, in three floating-point instructions: q =
 * x * RN(1/6) is within an ulp of x/6, and Markstein's correction q + (x -
 * 6q) RN(1/6), with the remainder exact through an fma, rounds to exactly
 * RN(x/6), the result of the division. The division routine would compute
 * 1/6 afresh at every point and branch around a slow path. */
__device__ static inline double divide_by_6(double x)
{
    const double r6 = 1.0 / 6.0;
    double q = x * r6;
    return fma(fma(-q, 6.0, x), r6, q);
}

/* The ring kernel. A block owns a tile of RING_BX x RING_BY points of a
 * plane and walks it through local planes [l0, l1). Plane l's tile, with a
 * one-point halo, lives in ring slot (l - l0) % RING_DEPTH; while plane l is
 * computed, the copies of the next RING_DEPTH - 2 planes are in flight, so a
 * block keeps ~20 KB on its way from memory without spending registers on
 * it. Each thread computes RING_ROWS consecutive rows of one column: its
 * rows' y neighbours are its own registers (col[]), the plane above becomes
 * the next step's column, and only the x neighbours, the two end rows and
 * the plane above come from shared memory. The tile's parts beyond row or
 * column N+1 are never copied; only threads without a point read them. */
template <bool WITH_NORM>
__global__ static void __launch_bounds__(RING_BX *RING_THREADS_Y, 2)
    gpu3_ring_sweep(int N, int i_offset, int l_begin, int l_end, const double *__restrict__ u_old,
                    double *__restrict__ u_new, double *norm2)
{
    enum { W = RING_BX + 2, H = RING_BY + 2, PLANE = H * W, THREADS = RING_BX * RING_THREADS_Y };
    enum { COPIES = (PLANE + THREADS - 1) / THREADS };
    __shared__ __align__(16) double ring[RING_DEPTH * PLANE];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * RING_BX + tx;
    const int k0 = blockIdx.x * RING_BX + 1, j0 = blockIdx.y * RING_BY + 1;
    const int l0 = l_begin + blockIdx.z * RING_ZCHUNK, l1 = min(l0 + RING_ZCHUNK, l_end);
    const int k = k0 + tx, y0 = ty * RING_ROWS + 1; /* y0: the thread's first row in the tile */
    const size_t sj = poisson_side(N), si = sj * sj;

    /* A thread copies the same tile elements of every plane: their offsets
     * in a plane are worked out once, -1 where the tile leaves the array. */
    long long offset[COPIES];
#pragma unroll
    for (int p = 0; p < COPIES; p++) {
        const int e = tid + p * THREADS, r = e / W, c = e % W, jj = j0 - 1 + r, kk = k0 - 1 + c;
        offset[p] = e < PLANE && jj <= N + 1 && kk <= N + 1 ? (long long)jj * (long long)sj + kk : -1;
    }
    const double *next_plane = u_old + (size_t)l0 * si;
    int l_next = l0; /* planes l0 .. l1 are needed: l1 is the last one's plane above */
    auto copy_next_plane = [&](int slot) {
        if (l_next <= l1) {
#pragma unroll
            for (int p = 0; p < COPIES; p++)
                if (offset[p] >= 0)
                    copy8_async(ring + slot * PLANE + tid + p * THREADS, next_plane + offset[p]);
            next_plane += si;
            l_next++;
        }
        copies_commit(); /* an empty group keeps the count of groups right */
    };
#pragma unroll
    for (int s = 0; s < RING_DEPTH - 1; s++)
        copy_next_plane(s);

    const double h = poisson_h(N), h2f_in = h * h * POISSON_RADIATOR;
    double below[RING_ROWS], col[RING_ROWS + 2], sum = 0.0;
    bool inside[RING_ROWS], jk_in_radiator[RING_ROWS];
#pragma unroll
    for (int r = 0; r < RING_ROWS; r++) {
        const int j = j0 + y0 - 1 + r;
        inside[r] = j <= N && k <= N;
        jk_in_radiator[r] = poisson_radiator_in_plane(N, j, k);
        below[r] = inside[r] ? u_old[(size_t)(l0 - 1) * si + (size_t)j * sj + k] : 0.0;
        /* row N+1 is the boundary, a neighbour of row N: it must be read too */
        col[r + 1] = j <= N + 1 && k <= N + 1 ? u_old[(size_t)l0 * si + (size_t)j * sj + k] : 0.0;
    }
    double *out = u_new + (size_t)l0 * si + (size_t)(j0 + y0 - 1) * sj + k;
    int slot = 0;
    for (int l = l0; l < l1; l++, out += si) {
        copies_wait<RING_DEPTH - 3>(); /* this thread's copies of planes l and l+1 are in */
        __syncthreads();               /* everybody's are, and nobody still reads plane l-1 */
        copy_next_plane(slot == 0 ? RING_DEPTH - 1 : slot - 1); /* into plane l-1's slot */
        const int up = slot + 1 == RING_DEPTH ? 0 : slot + 1;
        const double *here = ring + slot * PLANE + tx + 1, *above = ring + up * PLANE + tx + 1;
        const bool i_in_radiator = poisson_radiator_plane(N, i_offset + l);
        col[0] = here[(y0 - 1) * W];
        col[RING_ROWS + 1] = here[(y0 + RING_ROWS) * W];
        double up_value[RING_ROWS];
#pragma unroll
        for (int r = 0; r < RING_ROWS; r++) {
            const int y = y0 + r;
            up_value[r] = above[y * W];
            const double h2f = i_in_radiator && jk_in_radiator[r] ? h2f_in : 0.0;
            /* the kit's order: z-1, z+1, y-1, y+1, x-1, x+1, then h^2 f */
            const double v =
                divide_by_6(below[r] + up_value[r] + col[r] + col[r + 2] + here[y * W - 1] + here[y * W + 1] + h2f);
            if (inside[r]) {
                out[(size_t)r * sj] = v;
                if (WITH_NORM) {
                    const double d = v - col[r + 1];
                    sum += d * d;
                }
            }
        }
#pragma unroll
        for (int r = 0; r < RING_ROWS; r++) {
            below[r] = col[r + 1];
            col[r + 1] = up_value[r];
        }
        slot = up;
    }
    copies_wait<0>(); /* no copy may still be writing when the block exits */
    if (WITH_NORM)
        block_add(sum, norm2);
}

extern "C" void jacobi_gpu3_slab(int N, int i_offset, int l_begin, int l_end, const double *u_old, double *u_new,
                                 double *norm2, cudaStream_t stream)
{
    typedef void (*slab_kernel)(int, int, int, int, const double *, double *, double *);
    if (l_end <= l_begin)
        return;
    const bool ring = N >= GPU3_RING_MIN_N;
    slab_kernel sweep = ring ? (norm2 ? gpu3_ring_sweep<true> : gpu3_ring_sweep<false>)
                             : (norm2 ? gpu3_sweep<true> : gpu3_sweep<false>);
    const int bx = ring ? RING_BX : GPU3_BX, by = ring ? RING_BY : GPU3_BY;
    const int planes = ring ? RING_ZCHUNK : GPU3_ZCHUNK;
    dim3 block(bx, ring ? RING_THREADS_Y : GPU3_BY);
    dim3 grid((N + bx - 1) / bx, (N + by - 1) / by, (l_end - l_begin + planes - 1) / planes);
    sweep<<<grid, block, 0, stream>>>(N, i_offset, l_begin, l_end, u_old, u_new, norm2);
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
     * copies (seen on 4 GPUs under load: a halo plane that the neighbour
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
