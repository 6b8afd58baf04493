// Maintainers' tuning harness (not built by the kit, not in the student
// copy): candidate gpu5/gpu6 kernels timed against cuBLAS at one size in one
// process, each checked against cuBLAS's result first. How the reference's
// gpu6 was chosen; the figures are in labs/lab3-gpu-matmult/results/tuning_h200.txt.
//   nvcc -O3 -arch=sm_90 -std=c++17 mm_explore.cu -lcublas -o mm_explore
//   ./mm_explore N [name ...]     (no names: all; ODD=1 takes N-3 x N-5 x N-7)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
#include <string>
#include <cmath>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1);} } while (0)

static unsigned blocks_for(long long c, long long p) { return (unsigned)((c + p - 1) / p); }

// ---------------- gpu5 family ----------------
template <int TILE, int TK>
__global__ void gpu5_k(int m, int n, int k, const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ C)
{
    __shared__ __align__(16) double As[TILE][TK + 2];
    __shared__ double Bs[TK][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const long long row = (long long)blockIdx.y * TILE + ty, col = (long long)blockIdx.x * TILE + tx;
    double s = 0.0;
    for (int l0 = 0; l0 < k; l0 += TK) {
#pragma unroll
        for (int q = tx; q < TK; q += TILE)
            As[ty][q] = (row < m && l0 + q < k) ? A[(size_t)row * k + l0 + q] : 0.0;
#pragma unroll
        for (int q = ty; q < TK; q += TILE)
            Bs[q][tx] = (l0 + q < k && col < n) ? B[(size_t)(l0 + q) * n + col] : 0.0;
        __syncthreads();
#pragma unroll
        for (int q = 0; q < TK; q++)
            s += As[ty][q] * Bs[q][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        C[(size_t)row * n + col] = s;
}

template <int TILE, int TK>
static void run_gpu5(int m, int n, int k, const double *A, const double *B, double *C)
{
    dim3 g(blocks_for(n, TILE), blocks_for(m, TILE)), b(TILE, TILE);
    gpu5_k<TILE, TK><<<g, b>>>(m, n, k, A, B, C);
}


// gpu5 with B's tile stored transposed, so that both operands come out of
// shared memory two k-values per 16-byte load.
template <int TILE, int TK>
__global__ void gpu5t_k(int m, int n, int k, const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ C)
{
    __shared__ __align__(16) double As[TILE][TK + 2];
    __shared__ __align__(16) double Bt[TILE][TK + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const long long row = (long long)blockIdx.y * TILE + ty, col = (long long)blockIdx.x * TILE + tx;
    double s = 0.0;
    for (int l0 = 0; l0 < k; l0 += TK) {
#pragma unroll
        for (int q = tx; q < TK; q += TILE)
            As[ty][q] = (row < m && l0 + q < k) ? A[(size_t)row * k + l0 + q] : 0.0;
#pragma unroll
        for (int q = ty; q < TK; q += TILE)
            Bt[tx][q] = (l0 + q < k && col < n) ? B[(size_t)(l0 + q) * n + col] : 0.0;
        __syncthreads();
#pragma unroll
        for (int q = 0; q < TK; q += 2) {
            double2 a = *reinterpret_cast<const double2 *>(&As[ty][q]);
            double2 b = *reinterpret_cast<const double2 *>(&Bt[tx][q]);
            s += a.x * b.x;
            s += a.y * b.y;
        }
        __syncthreads();
    }
    if (row < m && col < n)
        C[(size_t)row * n + col] = s;
}

template <int TILE, int TK>
static void run_gpu5t(int m, int n, int k, const double *A, const double *B, double *C)
{
    dim3 g(blocks_for(n, TILE), blocks_for(m, TILE)), b(TILE, TILE);
    gpu5t_k<TILE, TK><<<g, b>>>(m, n, k, A, B, C);
}

// ---------------- cp.async helpers ----------------
__device__ __forceinline__ void cp_async8(double *dst, const double *src, bool ok)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    int bytes = ok ? 8 : 0;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(s), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

// Copies rows [r0, r0+ROWS) x cols [c0, c0+COLS) of G (g_rows x g_cols,
// row-major) into S[r*ld + c] (or S[c*ld + r] when TRANS), zeros outside.
template <int ROWS, int COLS, int THREADS, bool TRANS>
__device__ __forceinline__ void async_tile(double *S, int ld, const double *G, long long g_rows, long long g_cols,
                                           long long r0, long long c0)
{
#pragma unroll
    for (int p = 0; p < ROWS * COLS / THREADS; p++) {
        const int e = threadIdx.x + THREADS * p;
        const int r = e / COLS, c = e % COLS;
        const long long gr = r0 + r, gc = c0 + c;
        const bool ok = gr < g_rows && gc < g_cols;
        cp_async8(S + (TRANS ? c * ld + r : r * ld + c), ok ? G + gr * g_cols + gc : G, ok);
    }
}

// ---------------- gpu6 CUDA cores, pipelined ----------------
// 256 threads as 16 x 16; thread (tx, ty) owns rows ty*TM + i, cols tx + 16 j.
template <int BM, int BN, int BK, int STAGES>
__global__ void __launch_bounds__(256, 1)
    g6cc_k(int m, int n, int k, const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ C)
{
    constexpr int TM = BM / 16, TN = BN / 16, LDA = BM + 4, LDB = BN;
    extern __shared__ __align__(16) double smem[];
    double *As = smem, *Bs = smem + STAGES * BK * LDA;
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const long long row0 = (long long)blockIdx.y * BM, col0 = (long long)blockIdx.x * BN;
    const int tiles = (k + BK - 1) / BK;
    double acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) acc[i][j] = 0.0;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < tiles) {
            async_tile<BM, BK, 256, true>(As + s * BK * LDA, LDA, A, m, k, row0, (long long)s * BK);
            async_tile<BK, BN, 256, false>(Bs + s * BK * LDB, LDB, B, k, n, (long long)s * BK, col0);
        }
        cp_async_commit();
    }
    for (int t = 0; t < tiles; t++) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        {
            const int tn = t + STAGES - 1, sb = tn % STAGES;
            if (tn < tiles) {
                async_tile<BM, BK, 256, true>(As + sb * BK * LDA, LDA, A, m, k, row0, (long long)tn * BK);
                async_tile<BK, BN, 256, false>(Bs + sb * BK * LDB, LDB, B, k, n, (long long)tn * BK, col0);
            }
            cp_async_commit();
        }
        const double *as = As + (t % STAGES) * BK * LDA, *bs = Bs + (t % STAGES) * BK * LDB;
#pragma unroll
        for (int q = 0; q < BK; q++) {
            double a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; i += 2) {
                double2 v = *reinterpret_cast<const double2 *>(as + q * LDA + ty * TM + i);
                a[i] = v.x; a[i + 1] = v.y;
            }
#pragma unroll
            for (int j = 0; j < TN; j++) b[j] = bs[q * LDB + tx + 16 * j];
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const long long r = row0 + ty * TM + i;
#pragma unroll
        for (int j = 0; j < TN; j++) {
            const long long c = col0 + tx + 16 * j;
            if (r < m && c < n) C[(size_t)r * n + c] = acc[i][j];
        }
    }
}

template <int BM, int BN, int BK, int STAGES>
static void run_g6cc(int m, int n, int k, const double *A, const double *B, double *C)
{
    size_t sh = (size_t)STAGES * BK * ((BM + 4) + BN) * sizeof(double);
    static bool set;
    if (!set) { CK(cudaFuncSetAttribute(g6cc_k<BM, BN, BK, STAGES>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh)); set = true; }
    dim3 g(blocks_for(n, BN), blocks_for(m, BM));
    g6cc_k<BM, BN, BK, STAGES><<<g, 256, sh>>>(m, n, k, A, B, C);
}

// ---------------- gpu6 DMMA, pipelined ----------------
__device__ __forceinline__ void dmma(double &c0, double &c1, double a, double b)
{
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
                 : "+d"(c0), "+d"(c1) : "d"(a), "d"(b));
}

template <int BM, int BN, int BK, int WM, int WN, int STAGES>
__global__ void __launch_bounds__(32 * (BM / WM) * (BN / WN), 1)
    g6tc_k(int m, int n, int k, const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ C)
{
    constexpr int THREADS = 32 * (BM / WM) * (BN / WN), MI = WM / 8, NJ = WN / 8, LDA = BK + 4, LDB = BN + 8;
    extern __shared__ __align__(16) double smem[];
    double *As = smem, *Bs = smem + STAGES * BM * LDA;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int wm = warp / (BN / WN), wn = warp % (BN / WN);
    const int gr = lane / 4, gc = lane % 4;
    const long long row0 = (long long)blockIdx.y * BM, col0 = (long long)blockIdx.x * BN;
    const int tiles = (k + BK - 1) / BK;
    double acc[MI][NJ][2];
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++) acc[i][j][0] = acc[i][j][1] = 0.0;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < tiles) {
            async_tile<BM, BK, THREADS, false>(As + s * BM * LDA, LDA, A, m, k, row0, (long long)s * BK);
            async_tile<BK, BN, THREADS, false>(Bs + s * BK * LDB, LDB, B, k, n, (long long)s * BK, col0);
        }
        cp_async_commit();
    }
    for (int t = 0; t < tiles; t++) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        {
            const int tn = t + STAGES - 1, sb = tn % STAGES;
            if (tn < tiles) {
                async_tile<BM, BK, THREADS, false>(As + sb * BM * LDA, LDA, A, m, k, row0, (long long)tn * BK);
                async_tile<BK, BN, THREADS, false>(Bs + sb * BK * LDB, LDB, B, k, n, (long long)tn * BK, col0);
            }
            cp_async_commit();
        }
        const double *as = As + (t % STAGES) * BM * LDA, *bs = Bs + (t % STAGES) * BK * LDB;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 4) {
            double a[MI], b[NJ];
#pragma unroll
            for (int i = 0; i < MI; i++) a[i] = as[(wm * WM + i * 8 + gr) * LDA + kk + gc];
#pragma unroll
            for (int j = 0; j < NJ; j++) b[j] = bs[(kk + gc) * LDB + wn * WN + j * 8 + gr];
#pragma unroll
            for (int i = 0; i < MI; i++)
#pragma unroll
                for (int j = 0; j < NJ; j++) dmma(acc[i][j][0], acc[i][j][1], a[i], b[j]);
        }
    }
#pragma unroll
    for (int i = 0; i < MI; i++) {
        const long long r = row0 + wm * WM + i * 8 + gr;
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            const long long c = col0 + wn * WN + j * 8 + 2 * gc;
            if (r < m && c < n) C[(size_t)r * n + c] = acc[i][j][0];
            if (r < m && c + 1 < n) C[(size_t)r * n + c + 1] = acc[i][j][1];
        }
    }
}

template <int BM, int BN, int BK, int WM, int WN, int STAGES>
static void run_g6tc(int m, int n, int k, const double *A, const double *B, double *C)
{
    constexpr int THREADS = 32 * (BM / WM) * (BN / WN);
    size_t sh = (size_t)STAGES * (BM * (BK + 4) + BK * (BN + 8)) * sizeof(double);
    static bool set;
    if (!set) { CK(cudaFuncSetAttribute(g6tc_k<BM, BN, BK, WM, WN, STAGES>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh)); set = true; }
    dim3 g(blocks_for(n, BN), blocks_for(m, BM));
    g6tc_k<BM, BN, BK, WM, WN, STAGES><<<g, THREADS, sh>>>(m, n, k, A, B, C);
}


// DMMA with Hopper's m16n8k4 / m16n8k8 shapes (KS = 4 or 8).
__device__ __forceinline__ void mma16k4(double *c, const double *a, double b)
{
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3]) : "d"(a[0]), "d"(a[1]), "d"(b));
}
__device__ __forceinline__ void mma16k8(double *c, const double *a, const double *b)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3]) : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}

template <int BM, int BN, int BK, int WM, int WN, int STAGES, int KS>
__global__ void __launch_bounds__(32 * (BM / WM) * (BN / WN), 1)
    tc16_k(int m, int n, int k, const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ C)
{
    constexpr int THREADS = 32 * (BM / WM) * (BN / WN), MI = WM / 16, NJ = WN / 8, LDA = BK + 4, LDB = BN + 8;
    extern __shared__ __align__(16) double smem[];
    double *As = smem, *Bs = smem + STAGES * BM * LDA;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int wm = warp / (BN / WN), wn = warp % (BN / WN);
    const int g = lane / 4, t = lane % 4;
    const long long row0 = (long long)blockIdx.y * BM, col0 = (long long)blockIdx.x * BN;
    const int tiles = (k + BK - 1) / BK;
    double acc[MI][NJ][4];
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int j = 0; j < NJ; j++)
#pragma unroll
            for (int r = 0; r < 4; r++) acc[i][j][r] = 0.0;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < tiles) {
            async_tile<BM, BK, THREADS, false>(As + s * BM * LDA, LDA, A, m, k, row0, (long long)s * BK);
            async_tile<BK, BN, THREADS, false>(Bs + s * BK * LDB, LDB, B, k, n, (long long)s * BK, col0);
        }
        cp_async_commit();
    }
    for (int tt = 0; tt < tiles; tt++) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        {
            const int tn = tt + STAGES - 1, sb = tn % STAGES;
            if (tn < tiles) {
                async_tile<BM, BK, THREADS, false>(As + sb * BM * LDA, LDA, A, m, k, row0, (long long)tn * BK);
                async_tile<BK, BN, THREADS, false>(Bs + sb * BK * LDB, LDB, B, k, n, (long long)tn * BK, col0);
            }
            cp_async_commit();
        }
        const double *as = As + (tt % STAGES) * BM * LDA, *bs = Bs + (tt % STAGES) * BK * LDB;
#pragma unroll
        for (int kk = 0; kk < BK; kk += KS) {
            double a[MI][KS / 2], b[NJ][KS / 4];
#pragma unroll
            for (int i = 0; i < MI; i++)
#pragma unroll
                for (int h = 0; h < KS / 4; h++) {
                    a[i][2 * h] = as[(wm * WM + i * 16 + g) * LDA + kk + 4 * h + t];
                    a[i][2 * h + 1] = as[(wm * WM + i * 16 + g + 8) * LDA + kk + 4 * h + t];
                }
#pragma unroll
            for (int j = 0; j < NJ; j++)
#pragma unroll
                for (int h = 0; h < KS / 4; h++) b[j][h] = bs[(kk + 4 * h + t) * LDB + wn * WN + j * 8 + g];
#pragma unroll
            for (int i = 0; i < MI; i++)
#pragma unroll
                for (int j = 0; j < NJ; j++) {
                    if (KS == 4) mma16k4(acc[i][j], a[i], b[j][0]);
                    else mma16k8(acc[i][j], a[i], b[j]);
                }
        }
    }
#pragma unroll
    for (int i = 0; i < MI; i++)
#pragma unroll
        for (int hh = 0; hh < 2; hh++) {
            const long long r = row0 + wm * WM + i * 16 + g + 8 * hh;
#pragma unroll
            for (int j = 0; j < NJ; j++) {
                const long long c = col0 + wn * WN + j * 8 + 2 * t;
                if (r < m && c < n) C[(size_t)r * n + c] = acc[i][j][2 * hh];
                if (r < m && c + 1 < n) C[(size_t)r * n + c + 1] = acc[i][j][2 * hh + 1];
            }
        }
}

template <int BM, int BN, int BK, int WM, int WN, int STAGES, int KS>
static void run_tc16(int m, int n, int k, const double *A, const double *B, double *C)
{
    constexpr int THREADS = 32 * (BM / WM) * (BN / WN);
    size_t sh = (size_t)STAGES * (BM * (BK + 4) + BK * (BN + 8)) * sizeof(double);
    static bool set;
    if (!set) { CK(cudaFuncSetAttribute(tc16_k<BM, BN, BK, WM, WN, STAGES, KS>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sh)); set = true; }
    dim3 g(blocks_for(n, BN), blocks_for(m, BM));
    tc16_k<BM, BN, BK, WM, WN, STAGES, KS><<<g, THREADS, sh>>>(m, n, k, A, B, C);
}

// gpu5 as the Guide has it (16 x 16 threads, one element each, the same
// shared tiles), but a warp computes a WR x (32/WR) patch of C instead of
// two half-rows (WR = 2 is the Guide's layout). A warp-wide shared load of
// B then touches 32/WR distinct doubles and one of A touches WR (their rows
// padded onto distinct banks): fewer distinct B values per load, fewer
// wavefronts per multiply-add, if the shared-memory pipe is the limit.
template <int WR, int TK>
__global__ void gpu5w_k(int m, int n, int k, const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ C)
{
    constexpr int TILE = 16, WC = 32 / WR, WARPS_X = TILE / WC;
    __shared__ __align__(16) double As[TILE][TK + 2];
    __shared__ double Bs[TK][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y, id = ty * TILE + tx;
    const int lane = id % 32, warp = id / 32;
    const int r = (warp / WARPS_X) * WR + lane / WC, c = (warp % WARPS_X) * WC + lane % WC;
    const long long row0 = (long long)blockIdx.y * TILE, col0 = (long long)blockIdx.x * TILE;
    double s = 0.0;
    for (int l0 = 0; l0 < k; l0 += TK) {
#pragma unroll
        for (int q = tx; q < TK; q += TILE)
            As[ty][q] = (row0 + ty < m && l0 + q < k) ? A[(size_t)(row0 + ty) * k + l0 + q] : 0.0;
#pragma unroll
        for (int q = ty; q < TK; q += TILE)
            Bs[q][tx] = (l0 + q < k && col0 + tx < n) ? B[(size_t)(l0 + q) * n + col0 + tx] : 0.0;
        __syncthreads();
#pragma unroll
        for (int q = 0; q < TK; q++)
            s += As[r][q] * Bs[q][c];
        __syncthreads();
    }
    if (row0 + r < m && col0 + c < n)
        C[(size_t)(row0 + r) * n + col0 + c] = s;
}

template <int WR, int TK>
static void run_gpu5w(int m, int n, int k, const double *A, const double *B, double *C)
{
    dim3 g(blocks_for(n, 16), blocks_for(m, 16)), b(16, 16);
    gpu5w_k<WR, TK><<<g, b>>>(m, n, k, A, B, C);
}

// ---------------- harness ----------------
typedef void (*runner)(int, int, int, const double *, const double *, double *);
struct variant { const char *name; runner fn; };

static cublasHandle_t H;
static void run_cublas(int m, int n, int k, const double *A, const double *B, double *C)
{
    const double one = 1, zero = 0;
    cublasDgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n);
}

static const variant variants[] = {
    {"cublas", run_cublas},
    {"gpu5_16_64", run_gpu5<16, 64>},
    {"gpu5w2_64", run_gpu5w<2, 64>},
    {"gpu5w4_64", run_gpu5w<4, 64>},
    {"gpu5w8_64", run_gpu5w<8, 64>},
    {"gpu5w4_32", run_gpu5w<4, 32>},
    {"gpu5w8_32", run_gpu5w<8, 32>},
    {"gpu5w4_16", run_gpu5w<4, 16>},
    {"cc_128x128_k8_s2", run_g6cc<128, 128, 8, 2>},
    {"tc16k4_128x128_k16_w64x32_s3", run_tc16<128, 128, 16, 64, 32, 3, 4>},
    {"tc16k4_128x128_k16_w64x32_s2", run_tc16<128, 128, 16, 64, 32, 2, 4>},
    {"tc16k4_128x128_k16_w64x32_s4", run_tc16<128, 128, 16, 64, 32, 4, 4>},
    {"tc16k4_128x128_k8_w64x32_s4", run_tc16<128, 128, 8, 64, 32, 4, 4>},
    {"tc16k4_128x128_k8_w64x32_s6", run_tc16<128, 128, 8, 64, 32, 6, 4>},
    {"tc16k4_128x128_k16_w32x64_s3", run_tc16<128, 128, 16, 32, 64, 3, 4>},
    {"tc16k4_128x64_k16_w32x32_s4", run_tc16<128, 64, 16, 32, 32, 4, 4>},
    {"tc16k4_64x128_k16_w32x32_s4", run_tc16<64, 128, 16, 32, 32, 4, 4>},
    {"tc16k4_128x128_k16_w64x32_s3", run_tc16<128, 128, 16, 64, 32, 3, 4>},
    {"cublas", run_cublas},
};

int main(int argc, char **argv)
{
    int N = argc > 1 ? atoi(argv[1]) : 4096;
    int reps = getenv("REPS") ? atoi(getenv("REPS")) : 7;
    int m = N, n = N, k = N;
    if (getenv("ODD")) { m = N - 3; n = N - 5; k = N - 7; }
    size_t sa = (size_t)m * k, sb = (size_t)k * n, sc = (size_t)m * n;
    std::vector<double> hA(sa), hB(sb);
    uint64_t x = 12345;
    auto rnd = [&]() { x = x * 6364136223846793005ULL + 1442695040888963407ULL; return (double)(x >> 11) / 9007199254740992.0 - 0.5; };
    for (auto &v : hA) v = rnd();
    for (auto &v : hB) v = rnd();
    double *A, *B, *C, *R;
    CK(cudaMalloc(&A, sa * 8)); CK(cudaMalloc(&B, sb * 8)); CK(cudaMalloc(&C, sc * 8)); CK(cudaMalloc(&R, sc * 8));
    CK(cudaMemcpy(A, hA.data(), sa * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hB.data(), sb * 8, cudaMemcpyHostToDevice));
    cublasCreate(&H);
    run_cublas(m, n, k, A, B, R);
    CK(cudaDeviceSynchronize());
    std::vector<double> hR(sc), hC(sc);
    CK(cudaMemcpy(hR.data(), R, sc * 8, cudaMemcpyDeviceToHost));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    double flops = 2.0 * m * n * k, cublas_tf = 0;
    printf("m n k = %d %d %d\n", m, n, k);
    for (const variant &v : variants) {
        bool want = argc <= 2;
        for (int a = 2; a < argc; a++) want |= !strcmp(argv[a], v.name);
        if (!want) continue;
        CK(cudaMemset(C, 0xff, sc * 8));
        v.fn(m, n, k, A, B, C);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hC.data(), C, sc * 8, cudaMemcpyDeviceToHost));
        double err = 0;
        for (size_t i = 0; i < sc; i++) { double d = fabs(hC[i] - hR[i]); if (!(d <= err)) err = std::isnan(d) ? INFINITY : d; }
        std::vector<float> t;
        for (int r = 0; r < reps; r++) {
            cudaEventRecord(e0);
            v.fn(m, n, k, A, B, C);
            cudaEventRecord(e1);
            CK(cudaEventSynchronize(e1));
            float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        double tf = flops / (t[t.size() / 2] * 1e-3) / 1e12;
        if (!strcmp(v.name, "cublas")) cublas_tf = tf;
        printf("%-28s %8.2f TFLOP/s  %6.1f%% of cuBLAS  maxerr %.2e  (min %.3f max %.3f ms)\n", v.name, tf,
               cublas_tf > 0 ? 100 * tf / cublas_tf : 0, err, t.front(), t.back());
        fflush(stdout);
    }
    return 0;
}
