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

// The reference's kernel (no norm), parametrised.
template <int BX, int BY, int ZC, int U, int MINB = 1>
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
            u_new[c + q * si] = pt(N, l + q, j, k, h2f_in, z[q], z[q + 2], ym[q], yp[q], xm[q], xp[q]);
        z[0] = z[U]; z[1] = z[U + 1];
    }
    for (; l < l1; l++, c += si) {
        double above = u_old[c + si];
        u_new[c] = pt(N, l, j, k, h2f_in, z[0], above, u_old[c - sj], u_old[c + sj], u_old[c - 1], u_old[c + 1]);
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

typedef void (*launcher)(int N, const double *a, double *b);
template <int BX, int BY, int ZC, int U, int MINB = 1> static void L_cur(int N, const double *a, double *b)
{
    dim3 g((N + BX - 1) / BX, (N + BY - 1) / BY, (N + ZC - 1) / ZC);
    cur_k<BX, BY, ZC, U, MINB><<<g, dim3(BX, BY)>>>(N, a, b);
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
struct variant { const char *name; launcher fn; };
static const variant variants[] = {
    {"cur32x8z16u4", L_cur<32, 8, 16, 4>},
    {"cur32x4z32u8", L_cur<32, 4, 32, 8>},
    {"cur32x4z64u8", L_cur<32, 4, 64, 8>},
    {"cur32x4z16u8", L_cur<32, 4, 16, 8>},
    {"cur32x2z32u8", L_cur<32, 2, 32, 8>},
    {"cur32x4z32u4", L_cur<32, 4, 32, 4>},
    {"cur32x4z32u6", L_cur<32, 4, 30, 6>},
    {"cur64x2z32u8", L_cur<64, 2, 32, 8>},
    {"cur32x8z32u4", L_cur<32, 8, 32, 4>},
    {"pipe32x4z32u4", L_pipe<32, 4, 32, 4, 1>},
    {"pipe32x4z32u2", L_pipe<32, 4, 32, 2, 1>},
    {"cur32x4z32u8", L_cur<32, 4, 32, 8>},
    {"cur32x8z16u4", L_cur<32, 8, 16, 4>},
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
