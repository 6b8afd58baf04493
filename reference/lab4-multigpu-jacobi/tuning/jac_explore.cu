// Maintainers' tuning harness (not built by the kit, not in the student
// copy): shapes of lab 4's gpu3 sweep timed beside a device-to-device copy,
// each checked bit for bit against the kernel the reference had before.
// How GPU3_BX/BY/ZCHUNK/UNROLL were chosen; the figures are in
// labs/lab4-multigpu-jacobi/results/gpu3_shapes_h200.txt.
//   nvcc -O3 -fmad=false -arch=sm_90 -std=c++17 -I../../../common jac_explore.cu -o jac_explore
//   ./jac_explore N [name ...]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include "poisson.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1);} } while (0)

__device__ static inline double pt(int N, int i, int j, int k, double h2f_in, double below, double above, double ym,
                                   double yp, double xm, double xp)
{
    double h2f = poisson_in_radiator(N, i, j, k) ? h2f_in : 0.0;
    return (below + above + ym + yp + xm + xp + h2f) / 6.0;
}

// x / 6 correctly rounded without the division routine: q = x * RN(1/6) is
// within an ulp of x/6, and Markstein's correction q + (x - 6q) * RN(1/6),
// the remainder exact through an fma, rounds to RN(x/6) exactly. Three
// floating-point instructions and no branch, against ~15 and a branch for
// the compiler's division (which re-derives 1/6 at every point).
__device__ static inline double div6(double x)
{
    const double r6 = 1.0 / 6.0;
    double q = x * r6;
    return fma(fma(-q, 6.0, x), r6, q);
}
__device__ static inline double pt_md(int N, int i, int j, int k, double h2f_in, double below, double above, double ym,
                                      double yp, double xm, double xp)
{
    double h2f = poisson_in_radiator(N, i, j, k) ? h2f_in : 0.0;
    return div6(below + above + ym + yp + xm + xp + h2f);
}

// The reference's kernel (no norm), parametrised; MD: the division above.
template <int BX, int BY, int ZC, int U, int MINB = 1, bool MD = false>
__global__ void __launch_bounds__(BX *BY, MINB) cur_k(int N, const double *__restrict__ u_old, double *__restrict__ u_new)
{
    int k = blockIdx.x * BX + threadIdx.x + 1, j = blockIdx.y * BY + threadIdx.y + 1;
    int l0 = 1 + blockIdx.z * ZC, l1 = min(l0 + ZC, N + 1);
    if (j > N || k > N) return;
    size_t sj = poisson_side(N), si = sj * sj, c = (size_t)l0 * si + (size_t)j * sj + k;
    double h = poisson_h(N), h2f_in = h * h * POISSON_RADIATOR;
    double z[U + 2];
    z[0] = u_old[c - si];
    z[1] = u_old[c];
    int l = l0;
    for (; l + U <= l1; l += U, c += U * si) {
        double ym[U], yp[U], xm[U], xp[U];
#pragma unroll
        for (int q = 0; q < U; q++) {
            size_t cq = c + q * si;
            z[q + 2] = u_old[cq + si]; ym[q] = u_old[cq - sj]; yp[q] = u_old[cq + sj];
            xm[q] = u_old[cq - 1]; xp[q] = u_old[cq + 1];
        }
#pragma unroll
        for (int q = 0; q < U; q++)
            u_new[c + q * si] = (MD ? pt_md : pt)(N, l + q, j, k, h2f_in, z[q], z[q + 2], ym[q], yp[q], xm[q], xp[q]);
        z[0] = z[U]; z[1] = z[U + 1];
    }
    for (; l < l1; l++, c += si) {
        double above = u_old[c + si];
        u_new[c] = (MD ? pt_md : pt)(N, l, j, k, h2f_in, z[0], above, u_old[c - sj], u_old[c + sj], u_old[c - 1], u_old[c + 1]);
        z[0] = z[1]; z[1] = above;
    }
}


// z-walk, U planes per group, the next group's planes above loaded while
// this group is computed (the only loads that miss the caches).
template <int BX, int BY, int ZC, int U, int MINB>
__global__ void __launch_bounds__(BX *BY, MINB) pipe_k(int N, const double *__restrict__ u_old, double *__restrict__ u_new)
{
    int k = blockIdx.x * BX + threadIdx.x + 1, j = blockIdx.y * BY + threadIdx.y + 1;
    int l0 = 1 + blockIdx.z * ZC, l1 = min(l0 + ZC, N + 1);
    if (j > N || k > N) return;
    size_t sj = poisson_side(N), si = sj * sj;
    const double *p = u_old + (size_t)l0 * si + (size_t)j * sj + k;
    double *o = u_new + (size_t)l0 * si + (size_t)j * sj + k;
    double h = poisson_h(N), h2f_in = h * h * POISSON_RADIATOR;
    double w[U + 2];
    w[0] = p[-(long long)si];
    w[1] = p[0];
#pragma unroll
    for (int q = 0; q < U; q++) w[q + 2] = l0 + q < l1 ? p[(q + 1) * si] : 0.0;
    for (int l = l0; l < l1; l += U, p += U * si, o += U * si) {
        double zn[U];
#pragma unroll
        for (int q = 0; q < U; q++) zn[q] = l + U + q < l1 ? p[(U + q + 1) * si] : 0.0;
#pragma unroll
        for (int q = 0; q < U; q++) {
            if (l + q < l1) {
                const double *pq = p + q * si;
                o[q * si] = pt(N, l + q, j, k, h2f_in, w[q], w[q + 2], pq[-(long long)sj], pq[sj], pq[-1], pq[1]);
            }
        }
        w[0] = w[U]; w[1] = w[U + 1];
#pragma unroll
        for (int q = 0; q < U; q++) w[q + 2] = zn[q];
    }
}

// One point per thread.
template <int BX, int BY>
__global__ void __launch_bounds__(BX *BY) point_k(int N, const double *__restrict__ u_old, double *__restrict__ u_new)
{
    int k = blockIdx.x * BX + threadIdx.x + 1, j = blockIdx.y * BY + threadIdx.y + 1, i = blockIdx.z + 1;
    if (j > N || k > N) return;
    size_t sj = poisson_side(N), si = sj * sj, c = (size_t)i * si + (size_t)j * sj + k;
    double h = poisson_h(N);
    u_new[c] = pt(N, i, j, k, h * h * POISSON_RADIATOR, u_old[c - si], u_old[c + si], u_old[c - sj], u_old[c + sj],
                  u_old[c - 1], u_old[c + 1]);
}

// z-walk with the current plane in shared memory (double-buffered, one
// barrier per plane); each thread loads only the plane above its point, D
// planes ahead; the block's edge threads load the halo ring.
template <int BX, int BY, int ZC, int D, int MINB>
__global__ void __launch_bounds__(BX *BY, MINB) smem_k(int N, const double *__restrict__ u_old, double *__restrict__ u_new)
{
    __shared__ double t[2][BY + 2][BX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int k = blockIdx.x * BX + tx + 1, j = blockIdx.y * BY + ty + 1;
    const int l0 = 1 + blockIdx.z * ZC, l1 = min(l0 + ZC, N + 1);
    const bool active = j <= N && k <= N;
    const int kc = min(k, N + 1), jc = min(j, N + 1);
    const size_t sj = poisson_side(N), si = sj * sj;
    // halo offsets, clamped into the array
    const long long off_ym = -(long long)sj, off_yp = jc + 1 <= N + 1 ? (long long)sj : 0;
    const long long off_xp = kc + 1 <= N + 1 ? 1 : 0;
    size_t c = (size_t)l0 * si + (size_t)jc * sj + kc;
    const double h = poisson_h(N), h2f_in = h * h * POISSON_RADIATOR;
    double below = u_old[c - si], center = u_old[c];
    double pre[D];
#pragma unroll
    for (int q = 0; q < D; q++)
        pre[q] = l0 + q < l1 ? u_old[c + (q + 1) * si] : 0.0;
    for (int l = l0; l < l1; l++, c += si) {
        double(*s)[BX + 2] = t[l & 1];
        s[ty + 1][tx + 1] = center;
        if (ty == 0) s[0][tx + 1] = u_old[c + off_ym];
        if (ty == BY - 1) s[BY + 1][tx + 1] = u_old[c + off_yp];
        if (tx == 0) s[ty + 1][0] = u_old[c - 1];
        if (tx == BX - 1) s[ty + 1][BX + 1] = u_old[c + off_xp];
        __syncthreads();
        double above = pre[0];
#pragma unroll
        for (int q = 0; q < D - 1; q++) pre[q] = pre[q + 1];
        if (l + D < l1) pre[D - 1] = u_old[c + (size_t)(D + 1) * si];
        double v = pt(N, l, j, k, h2f_in, below, above, s[ty][tx + 1], s[ty + 2][tx + 1], s[ty + 1][tx], s[ty + 1][tx + 2]);
        if (active) u_new[c] = v;
        below = center;
        center = above;
    }
}

// z-walk over a ring of D plane tiles in shared memory, filled by cp.async
// D-2 planes ahead: the copies hold no registers, so the bytes in flight
// are set by D and the tile, not by occupancy. A tile is the block's BX x BY
// points and their one-point halo; one barrier per plane.
__device__ static inline void copy8_async(double *dst, const double *src)
{
    unsigned to = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(to), "l"(src));
}
__device__ static inline void copies_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int P> __device__ static inline void copies_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(P)); }

template <int BX, int BYT, int RPT, int ZC, int D, int MINB, bool MD>
__global__ void __launch_bounds__(BX *BYT, MINB) ring_k(int N, const double *__restrict__ u_old, double *__restrict__ u_new)
{
    // BX x BYT threads, RPT rows each: a tile of BX x BY points
    constexpr int BY = BYT * RPT, W = BX + 2, H = BY + 2, T = BX * BYT, PLANE = H * W;
    extern __shared__ __align__(16) double ring[]; /* [D][H][W] */
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const int k0 = blockIdx.x * BX + 1, j0 = blockIdx.y * BY + 1;
    const int l0 = 1 + blockIdx.z * ZC, l1 = min(l0 + ZC, N + 1);
    const int k = k0 + tx;
    const size_t sj = poisson_side(N), si = sj * sj;
    auto load = [&](int l, int slot) {
#pragma unroll
        for (int p = 0; p < (PLANE + T - 1) / T; p++) {
            const int e = tid + p * T, r = e / W, c = e % W, jj = j0 - 1 + r, kk = k0 - 1 + c;
            if (e < PLANE && jj <= N + 1 && kk <= N + 1)
                copy8_async(ring + slot * PLANE + e, u_old + (size_t)l * si + (size_t)jj * sj + kk);
        }
    };
#pragma unroll
    for (int p = 0; p < D - 1; p++) {
        if (l0 + p <= l1) load(l0 + p, p);
        copies_commit();
    }
    const double h = poisson_h(N), h2f_in = h * h * POISSON_RADIATOR;
    double below[RPT];
#pragma unroll
    for (int r = 0; r < RPT; r++) {
        const int j = j0 + ty + r * BYT;
        below[r] = j <= N && k <= N ? u_old[(size_t)(l0 - 1) * si + (size_t)j * sj + k] : 0.0;
    }
    int slot = 0;
    for (int l = l0; l < l1; l++) {
        copies_wait<D - 3>();
        __syncthreads();
        const int fill = slot == 0 ? D - 1 : slot - 1;
        if (l + D - 1 <= l1) load(l + D - 1, fill);
        copies_commit();
        const int up = slot + 1 == D ? 0 : slot + 1;
        const double *cur = ring + slot * PLANE, *nxt = ring + up * PLANE;
#pragma unroll
        for (int r = 0; r < RPT; r++) {
            const int y = ty + r * BYT + 1, j = j0 + y - 1; /* y: the tile row */
            const double center = cur[y * W + tx + 1];
            const double v = (MD ? pt_md : pt)(N, l, j, k, h2f_in, below[r], nxt[y * W + tx + 1], cur[(y - 1) * W + tx + 1],
                                               cur[(y + 1) * W + tx + 1], cur[y * W + tx], cur[y * W + tx + 2]);
            if (j <= N && k <= N) u_new[(size_t)l * si + (size_t)j * sj + k] = v;
            below[r] = center;
        }
        slot = up;
    }
    copies_wait<0>();
}

// ring_k with its per-plane work cut down: each thread copies the same
// (row, column) of the tile in every plane, so the offsets are worked out
// once and only a plane pointer moves; the radiator's j, k half is tested
// once; the output pointer moves one plane per step.
template <int BX, int BYT, int RPT, int ZC, int D, int MINB>
__global__ void __launch_bounds__(BX *BYT, MINB) ring2_k(int N, const double *__restrict__ u_old, double *__restrict__ u_new)
{
    constexpr int BY = BYT * RPT, W = BX + 2, H = BY + 2, T = BX * BYT, PLANE = H * W, NP = (PLANE + T - 1) / T;
    extern __shared__ __align__(16) double ring[];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const int k0 = blockIdx.x * BX + 1, j0 = blockIdx.y * BY + 1;
    const int l0 = 1 + blockIdx.z * ZC, l1 = min(l0 + ZC, N + 1);
    const int k = k0 + tx;
    const size_t sj = poisson_side(N), si = sj * sj;
    long long off[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int e = tid + p * T, r = e / W, c = e % W, jj = j0 - 1 + r, kk = k0 - 1 + c;
        off[p] = e < PLANE && jj <= N + 1 && kk <= N + 1 ? (long long)jj * (long long)sj + kk : -1;
    }
    const double *next = u_old + (size_t)l0 * si;
    int l_next = l0;
    auto load = [&](int slot) {
        if (l_next <= l1) {
#pragma unroll
            for (int p = 0; p < NP; p++)
                if (off[p] >= 0) copy8_async(ring + slot * PLANE + tid + p * T, next + off[p]);
            next += si;
            l_next++;
        }
        copies_commit();
    };
#pragma unroll
    for (int p = 0; p < D - 1; p++) load(p);
    const double h = poisson_h(N), h2f_in = h * h * POISSON_RADIATOR;
    double below[RPT];
    bool jk_radiator[RPT], inside[RPT];
#pragma unroll
    for (int r = 0; r < RPT; r++) {
        const int j = j0 + ty + r * BYT;
        inside[r] = j <= N && k <= N;
        jk_radiator[r] = poisson_radiator_in_plane(N, j, k);
        below[r] = inside[r] ? u_old[(size_t)(l0 - 1) * si + (size_t)j * sj + k] : 0.0;
    }
    double *out = u_new + (size_t)l0 * si + (size_t)(j0 + ty) * sj + k;
    int slot = 0;
    for (int l = l0; l < l1; l++, out += si) {
        copies_wait<D - 3>();
        __syncthreads();
        load(slot == 0 ? D - 1 : slot - 1);
        const int up = slot + 1 == D ? 0 : slot + 1;
        const double *cur = ring + slot * PLANE, *nxt = ring + up * PLANE;
        const bool i_radiator = poisson_radiator_plane(N, l);
#pragma unroll
        for (int r = 0; r < RPT; r++) {
            const int y = ty + r * BYT + 1;
            const double center = cur[y * W + tx + 1];
            const double h2f = i_radiator && jk_radiator[r] ? h2f_in : 0.0;
            const double v = div6(below[r] + nxt[y * W + tx + 1] + cur[(y - 1) * W + tx + 1] + cur[(y + 1) * W + tx + 1] +
                                  cur[y * W + tx] + cur[y * W + tx + 2] + h2f);
            if (inside[r]) out[(size_t)r * BYT * sj] = v;
            below[r] = center;
        }
        slot = up;
    }
    copies_wait<0>();
}
template <int BX, int BYT, int RPT, int ZC, int D, int MINB = 1> static void L_ring2(int N, const double *a, double *b)
{
    constexpr int BY = BYT * RPT;
    const int bytes = D * (BY + 2) * (BX + 2) * 8;
    static bool raised;
    if (!raised) {
        CK(cudaFuncSetAttribute(ring2_k<BX, BYT, RPT, ZC, D, MINB>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
        raised = true;
    }
    dim3 g((N + BX - 1) / BX, (N + BY - 1) / BY, (N + ZC - 1) / ZC);
    ring2_k<BX, BYT, RPT, ZC, D, MINB><<<g, dim3(BX, BYT), bytes>>>(N, a, b);
}

// ring2_k with RPT consecutive rows per thread: a point's y neighbours are
// the thread's own registers (but for the two rows at the ends), and the
// plane above becomes the next step's column: 3 + 2/RPT shared loads per
// point instead of 6.
template <int BX, int BYT, int RPT, int ZC, int D, int MINB>
__global__ void __launch_bounds__(BX *BYT, MINB) ring3_k(int N, const double *__restrict__ u_old, double *__restrict__ u_new)
{
    constexpr int BY = BYT * RPT, W = BX + 2, H = BY + 2, T = BX * BYT, PLANE = H * W, NP = (PLANE + T - 1) / T;
    extern __shared__ __align__(16) double ring[];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
    const int k0 = blockIdx.x * BX + 1, j0 = blockIdx.y * BY + 1;
    const int l0 = 1 + blockIdx.z * ZC, l1 = min(l0 + ZC, N + 1);
    const int k = k0 + tx, y0 = ty * RPT + 1; /* the thread's first tile row */
    const size_t sj = poisson_side(N), si = sj * sj;
    long long off[NP];
#pragma unroll
    for (int p = 0; p < NP; p++) {
        const int e = tid + p * T, r = e / W, c = e % W, jj = j0 - 1 + r, kk = k0 - 1 + c;
        off[p] = e < PLANE && jj <= N + 1 && kk <= N + 1 ? (long long)jj * (long long)sj + kk : -1;
    }
    const double *next = u_old + (size_t)l0 * si;
    int l_next = l0;
    auto load = [&](int slot) {
        if (l_next <= l1) {
#pragma unroll
            for (int p = 0; p < NP; p++)
                if (off[p] >= 0) copy8_async(ring + slot * PLANE + tid + p * T, next + off[p]);
            next += si;
            l_next++;
        }
        copies_commit();
    };
#pragma unroll
    for (int p = 0; p < D - 1; p++) load(p);
    const double h = poisson_h(N), h2f_in = h * h * POISSON_RADIATOR;
    double below[RPT], col[RPT + 2];
    bool jk_radiator[RPT], inside[RPT];
#pragma unroll
    for (int r = 0; r < RPT; r++) {
        const int j = j0 + y0 - 1 + r;
        inside[r] = j <= N && k <= N;
        jk_radiator[r] = poisson_radiator_in_plane(N, j, k);
        below[r] = inside[r] ? u_old[(size_t)(l0 - 1) * si + (size_t)j * sj + k] : 0.0;
        /* row N+1 is the boundary: a neighbour of row N, so it must be read */
        col[r + 1] = j <= N + 1 && k <= N + 1 ? u_old[(size_t)l0 * si + (size_t)j * sj + k] : 0.0;
    }
    double *out = u_new + (size_t)l0 * si + (size_t)(j0 + y0 - 1) * sj + k;
    int slot = 0;
    for (int l = l0; l < l1; l++, out += si) {
        copies_wait<D - 3>();
        __syncthreads();
        load(slot == 0 ? D - 1 : slot - 1);
        const int up = slot + 1 == D ? 0 : slot + 1;
        const double *cur = ring + slot * PLANE + tx + 1, *nxt = ring + up * PLANE + tx + 1;
        const bool i_radiator = poisson_radiator_plane(N, l);
        col[0] = cur[(y0 - 1) * W];
        col[RPT + 1] = cur[(y0 + RPT) * W];
        double above[RPT];
#pragma unroll
        for (int r = 0; r < RPT; r++) {
            const int y = y0 + r;
            above[r] = nxt[y * W];
            const double h2f = i_radiator && jk_radiator[r] ? h2f_in : 0.0;
            const double v = div6(below[r] + above[r] + col[r] + col[r + 2] + cur[y * W - 1] + cur[y * W + 1] + h2f);
            if (inside[r]) out[(size_t)r * sj] = v;
        }
#pragma unroll
        for (int r = 0; r < RPT; r++) {
            below[r] = col[r + 1];
            col[r + 1] = above[r];
        }
        slot = up;
    }
    copies_wait<0>();
}
template <int BX, int BYT, int RPT, int ZC, int D, int MINB = 1> static void L_ring3(int N, const double *a, double *b)
{
    constexpr int BY = BYT * RPT;
    const int bytes = D * (BY + 2) * (BX + 2) * 8;
    static bool raised;
    if (!raised) {
        CK(cudaFuncSetAttribute(ring3_k<BX, BYT, RPT, ZC, D, MINB>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
        raised = true;
    }
    dim3 g((N + BX - 1) / BX, (N + BY - 1) / BY, (N + ZC - 1) / ZC);
    ring3_k<BX, BYT, RPT, ZC, D, MINB><<<g, dim3(BX, BYT), bytes>>>(N, a, b);
}

typedef void (*launcher)(int N, const double *a, double *b);
template <int BX, int BY, int ZC, int U, int MINB = 1, bool MD = false> static void L_cur(int N, const double *a, double *b)
{
    dim3 g((N + BX - 1) / BX, (N + BY - 1) / BY, (N + ZC - 1) / ZC);
    cur_k<BX, BY, ZC, U, MINB, MD><<<g, dim3(BX, BY)>>>(N, a, b);
}
template <int BX, int BY, int ZC, int U, int MINB> static void L_pipe(int N, const double *a, double *b)
{
    dim3 g((N + BX - 1) / BX, (N + BY - 1) / BY, (N + ZC - 1) / ZC);
    pipe_k<BX, BY, ZC, U, MINB><<<g, dim3(BX, BY)>>>(N, a, b);
}
template <int BX, int BY> static void L_point(int N, const double *a, double *b)
{
    dim3 g((N + BX - 1) / BX, (N + BY - 1) / BY, N);
    point_k<BX, BY><<<g, dim3(BX, BY)>>>(N, a, b);
}
template <int BX, int BY, int ZC, int D, int MINB> static void L_smem(int N, const double *a, double *b)
{
    dim3 g((N + BX - 1) / BX, (N + BY - 1) / BY, (N + ZC - 1) / ZC);
    smem_k<BX, BY, ZC, D, MINB><<<g, dim3(BX, BY)>>>(N, a, b);
}
template <int BX, int BYT, int RPT, int ZC, int D, int MINB, bool MD = true> static void L_ring(int N, const double *a, double *b)
{
    constexpr int BY = BYT * RPT;
    const int bytes = D * (BY + 2) * (BX + 2) * 8;
    static bool raised;
    if (!raised) {
        CK(cudaFuncSetAttribute(ring_k<BX, BYT, RPT, ZC, D, MINB, MD>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
        raised = true;
    }
    dim3 g((N + BX - 1) / BX, (N + BY - 1) / BY, (N + ZC - 1) / ZC);
    ring_k<BX, BYT, RPT, ZC, D, MINB, MD><<<g, dim3(BX, BYT), bytes>>>(N, a, b);
}
struct variant { const char *name; launcher fn; };
static const variant variants[] = {
    {"cur32x4z64u8", L_cur<32, 4, 64, 8>},
    {"ring3_128x4r4z64d4", L_ring3<128, 4, 4, 64, 4>},
    {"ring3_128x4r4z64d4m2", L_ring3<128, 4, 4, 64, 4, 2>},
    {"ring3_128x4r2z64d4m2", L_ring3<128, 4, 2, 64, 4, 2>},
    {"ring3_128x4r2z64d4m3", L_ring3<128, 4, 2, 64, 4, 3>},
    {"ring3_128x4r2z64d5m2", L_ring3<128, 4, 2, 64, 5, 2>},
    {"ring3_128x2r4z64d4m4", L_ring3<128, 2, 4, 64, 4, 4>},
    {"ring3_128x2r4z64d5m3", L_ring3<128, 2, 4, 64, 5, 3>},
    {"ring3_64x4r4z64d4m4", L_ring3<64, 4, 4, 64, 4, 4>},
    {"ring3_64x8r2z64d4m2", L_ring3<64, 8, 2, 64, 4, 2>},
    {"ring3_256x2r2z64d4m2", L_ring3<256, 2, 2, 64, 4, 2>},
    {"ring3_128x4r4z32d4m2", L_ring3<128, 4, 4, 32, 4, 2>},
    {"cur32x4z64u8", L_cur<32, 4, 64, 8>},
};

int main(int argc, char **argv)
{
    int N = argc > 1 ? atoi(argv[1]) : 1024, sweeps = 10, reps = 5;
    size_t n = poisson_points(N), bytes = n * 8;
    std::vector<double> h(n);
    unsigned long long x = 99;
    for (auto &v : h) { x = x * 6364136223846793005ULL + 1442695040888963407ULL; v = (double)(x >> 11) / 9007199254740992.0; }
    double *a, *b, *ref, *cp;
    CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes)); CK(cudaMalloc(&ref, bytes));
    cp = ref;
    CK(cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ref, h.data(), bytes, cudaMemcpyHostToDevice));
    L_cur<32, 8, 16, 4>(N, a, ref);
    CK(cudaDeviceSynchronize());
    std::vector<double> hr(n), hb(n);
    CK(cudaMemcpy(hr.data(), ref, bytes, cudaMemcpyDeviceToHost));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    // copy bandwidth, same buffers
    {
        std::vector<float> t;
        for (int r = 0; r < reps + 1; r++) {
            cudaEventRecord(e0);
            for (int s = 0; s < sweeps; s++) CK(cudaMemcpyAsync(s & 1 ? a : cp, s & 1 ? cp : a, bytes, cudaMemcpyDeviceToDevice));
            cudaEventRecord(e1); CK(cudaEventSynchronize(e1));
            float ms; cudaEventElapsedTime(&ms, e0, e1); if (r) t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        printf("N=%d copy %.0f GB/s\n", N, 2.0 * bytes * sweeps / (t[t.size() / 2] * 1e-3) / 1e9);
    }
    double pts = (double)N * N * N;
    for (const variant &v : variants) {
        bool want = argc <= 2;
        for (int q = 2; q < argc; q++) want |= !strcmp(argv[q], v.name);
        if (!want) continue;
        CK(cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(b, h.data(), bytes, cudaMemcpyHostToDevice));
        v.fn(N, a, b);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
        long long bad = 0;
        for (size_t i = 0; i < n; i++) bad += memcmp(&hb[i], &hr[i], 8) != 0;
        std::vector<float> t;
        for (int r = 0; r < reps + 1; r++) {
            cudaEventRecord(e0);
            for (int s = 0; s < sweeps; s++) v.fn(N, s & 1 ? b : a, s & 1 ? a : b);
            cudaEventRecord(e1); CK(cudaEventSynchronize(e1));
            float ms; cudaEventElapsedTime(&ms, e0, e1); if (r) t.push_back(ms);
        }
        CK(cudaGetLastError());
        std::sort(t.begin(), t.end());
        double s = t[t.size() / 2] * 1e-3 / sweeps;
        printf("N=%d %-18s %6.0f GB/s@16  %.1f GLUPS  bitwise-mismatches %lld\n", N, v.name, 16 * pts / s / 1e9, pts / s / 1e9, bad);
        fflush(stdout);
    }
    return 0;
}
