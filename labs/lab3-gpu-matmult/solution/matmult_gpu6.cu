/* Lab 3, reference solution of the optional challenge (stage 7, its own
 * test gpu6_sizes): gpu6, toward cuBLAS. The stages every student does
 * are in matmult_gpu.cu; this file holds matmult_gpu6_dev alone. */
#include <stdint.h>

#include <cuda_runtime.h>

#include "cuda_check.h"
#include "matmult_gpu.h"

static unsigned int blocks_for(long long count, long long per_block)
{
    return (unsigned int)((count + per_block - 1) / per_block);
}

/* ---- gpu6 (challenge): register tiles ----------------------------------- */

/* Both gpu6 kernels stream tiles of A (BM x BK) and B (BK x BN) through a
 * ring of STAGES shared-memory buffers with cp.async, the copy from global
 * to shared memory that needs no registers and no waiting thread: while the
 * block computes on tile t, tile t+1 is already on its way. The copies are 8
 * bytes wide (a row of A or B may start anywhere when k or n is odd); a copy
 * with source size 0 writes zeros, which is how tiles that stick out of A or
 * B are padded, so the sums are right for any m, n, k.
 *
 * cp.async exists from sm_80 on. Below, the same calls copy through a
 * register before they return, and the waits have nothing left to wait for:
 * the ring stays correct, and what hides the copies' latency is the other
 * warps' arithmetic. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__device__ __forceinline__ void copy8_async(double *dst, const double *src, bool inside)
{
    unsigned to = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(to), "l"(src), "r"(inside ? 8 : 0));
}
/* The same for a copy known to lie inside its matrix (no source size). */
__device__ __forceinline__ void copy8_async_inside(double *dst, const double *src)
{
    unsigned to = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(to), "l"(src));
}
/* 16 bytes (both ends 16-byte aligned), past L1 (.cg): each element of a
 * block's B tile is read from global memory once. */
__device__ __forceinline__ void copy16_async_inside(double *dst, const double *src)
{
    unsigned to = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(to), "l"(src));
}
__device__ __forceinline__ void copies_commit(void) { asm volatile("cp.async.commit_group;\n" ::); }
/* Waits until at most PENDING of this thread's committed groups are still
 * in flight. */
template <int PENDING> __device__ __forceinline__ void copies_wait(void)
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}
#else
__device__ __forceinline__ void copy8_async(double *dst, const double *src, bool inside)
{
    *dst = inside ? *src : 0.0;
}
__device__ __forceinline__ void copy8_async_inside(double *dst, const double *src) { *dst = *src; }
__device__ __forceinline__ void copy16_async_inside(double *dst, const double *src)
{
    *reinterpret_cast<double2 *>(dst) = *reinterpret_cast<const double2 *>(src);
}
__device__ __forceinline__ void copies_commit(void) {}
template <int PENDING> __device__ __forceinline__ void copies_wait(void) {}
#endif

/* Rows [r0, r0+ROWS) x columns [c0, c0+COLS) of the rows x cols row-major
 * matrix G into S[r * ld + c], or S[c * ld + r] when TRANSPOSED. */
template <int ROWS, int COLS, int THREADS, bool TRANSPOSED>
__device__ __forceinline__ void tile_async(double *S, int ld, const double *G, long long rows, long long cols,
                                           long long r0, long long c0)
{
#pragma unroll
    for (int p = 0; p < ROWS * COLS / THREADS; p++) {
        const int e = threadIdx.x + THREADS * p, r = e / COLS, c = e % COLS;
        const bool inside = r0 + r < rows && c0 + c < cols;
        copy8_async(S + (TRANSPOSED ? c * ld + r : r * ld + c), inside ? G + (r0 + r) * cols + c0 + c : G, inside);
    }
}

/* The pipeline both kernels share: start the first STAGES-1 tiles, then for
 * every tile wait for it, start the one STAGES-1 ahead into the buffer that
 * the previous step has finished with (the barrier says so), and compute.
 * LOAD(t, buffer) starts tile t's copies; COMPUTE(buffer) uses them. */
template <int STAGES, typename Load, typename Compute>
__device__ __forceinline__ void tile_pipeline(int k, int BK, Load load, Compute compute)
{
    const int tiles = (k + BK - 1) / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < tiles)
            load(s, s);
        copies_commit(); /* an empty group keeps the count of groups right */
    }
    for (int t = 0; t < tiles; t++) {
        copies_wait<STAGES - 2>(); /* this thread's copies of tile t are in */
        __syncthreads();           /* everybody's are, and tile t-1 is done */
        if (t + STAGES - 1 < tiles)
            load(t + STAGES - 1, (t + STAGES - 1) % STAGES);
        copies_commit();
        compute(t % STAGES);
    }
}

/* On the CUDA cores. Each thread computes a TM x TN tile of C in registers
 * (8 x 8 by default: 64 accumulators), a block of (BM/TM) x (BN/TN) threads
 * a BM x BN tile (128 x 128, 256 threads). Per step of k a thread reads TM
 * values of A and TN of B from shared memory and does TM*TN multiply-adds
 * with them: (TM+TN)/(TM*TN) loads per multiply-add, 1/4 for 8 x 8, where
 * gpu5 needs 2.
 *
 * The lanes of a warp form a WR x WC grid (4 x 8: WC lanes along n) and a
 * thread's rows and columns come in pairs, read as one double2: rows r +
 * 2*WR*p + {0,1} (p < TM/2), columns c + 2*WC*q + {0,1} (q < TN/2), so each
 * load is one instruction for two values, without bank conflicts. A is
 * stored transposed, As[k][row], so that a thread's rows are consecutive
 * doubles. The SM serves a 16-byte load a quarter of a warp at a time: the
 * 8 loads of a step are about 28 wavefronts for the warp's 64 FMAs (Nsight
 * Compute: 0.43 wavefronts per FMA instruction), so shared
 * memory is busy about 60% of the time, the FP64 units 70%.
 *
 * With 64 accumulators a thread needs 228 registers, so an SM holds one
 * block of 256 threads: two warps per scheduler, and a warp that has issued
 * an FMA waits a clock before its next instruction. That, more than any
 * memory, is what the profile shows: per issued instruction a warp spends
 * about one clock in that fixed wait and one in waiting for the FP64 pipe
 * the other warp holds, and in 55% of the clocks neither warp can issue.
 *
 * And under a sustained load the board's power limit sets the clock, not
 * the FMAs: on a 700 W board, FMAs alone on registers draw 561 W at the
 * full 1980 MHz, this kernel 700 W at about 1900. So every instruction and
 * every byte moved that is not an FMA costs clock, and the kernel keeps
 * them few:
 *  - the copies of the next tile are spread over the 16 steps of this one,
 *    one or two per step, instead of all after the barrier where they held
 *    up every warp of the block at once;
 *  - a tile that lies wholly inside A and B (nearly all of them) is copied
 *    without bounds tests, with 32-bit offsets, and B 16 bytes at a time
 *    past L1 (cp.async.cg), half the copies of 8 bytes;
 *  - blocks start in groups of 8 block-rows (G6_GROUP), so that those
 *    running at once share rows of A and columns of B in L2.
 * Together these gained 4-5% over the same kernel without them (the lab
 * README has the figures). Two buffers of 16 x (128+2) and 16 x 128 doubles
 * are 66 KB of dynamic shared memory.
 *
 * The shape is chosen at compile time (-DG6_BM=... and so on). Measured
 * and not kept: BK 8 (more barriers) or 32 (twice
 * the shared memory, within 3%), three stages, lanes 2 x 16, two blocks
 * of 128 x 64 per SM, 8 x 4 tiles per thread, operands double-buffered in
 * registers, the FMAs in another order, mbarriers per buffer instead of __syncthreads (barrier
 * stalls are under 3% of the warps' time); 12 x 8 tiles per thread do
 * fewer loads per FMA, but 4096 is no multiple of their 96 or 192 rows. */
#ifndef G6_BM
#define G6_BM 128
#endif
#ifndef G6_BN
#define G6_BN 128
#endif
#ifndef G6_BK
#define G6_BK 16
#endif
#ifndef G6_TM
#define G6_TM 8
#endif
#ifndef G6_TN
#define G6_TN 8
#endif
#ifndef G6_STAGES
#define G6_STAGES 2
#endif
#ifndef G6_WARP_COLS /* WC: the lanes of a warp along n */
#define G6_WARP_COLS 8
#endif
#ifndef G6_MIN_BLOCKS /* blocks per SM that __launch_bounds__ asks registers for */
#define G6_MIN_BLOCKS 1
#endif
#ifndef G6_GROUP /* blocks start in groups of G6_GROUP block-rows */
#define G6_GROUP 8
#endif
#ifndef G6_PAD_A /* As rows of BM + 2: the transposing copies of a warp spread over all banks */
#define G6_PAD_A 2
#endif
#define G6_THREADS ((G6_BM / G6_TM) * (G6_BN / G6_TN))
#define G6_SHARED_BYTES(pad) ((size_t)G6_STAGES * G6_BK * (G6_BM + (pad) + G6_BN) * sizeof(double))

static_assert(G6_BM % G6_TM == 0 && G6_BN % G6_TN == 0, "a block tile is a whole number of thread tiles");
static_assert(G6_TM % 2 == 0 && G6_TN % 2 == 0 && G6_PAD_A % 2 == 0, "thread tiles are read as double2");
static_assert(32 % G6_WARP_COLS == 0 && (G6_BN / G6_TN) % G6_WARP_COLS == 0 &&
                  (G6_BM / G6_TM) % (32 / G6_WARP_COLS) == 0,
              "warps tile the block");
static_assert((G6_BM * G6_BK) % G6_THREADS == 0 && (G6_BK * G6_BN) % G6_THREADS == 0,
              "every thread copies as many elements of a tile");
static_assert(G6_THREADS % G6_BK == 0 && G6_THREADS % G6_BN == 0, "a thread copies one column of each tile");
static_assert(G6_STAGES >= 2, "at least two buffers, or nothing overlaps");

/* PAD: the padding of As's rows, G6_PAD_A where the GPU's shared memory
 * has room for it (a block may have 64 KB on sm_75, 512 bytes too few). */
template <int PAD>
__global__ void __launch_bounds__(G6_THREADS, G6_MIN_BLOCKS)
    gpu6_kernel(int m, int n, int k, const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ C)
{
    constexpr int LDA = G6_BM + PAD;
    extern __shared__ __align__(16) double g6_tiles[];
    double *As = g6_tiles, *Bs = g6_tiles + G6_STAGES * G6_BK * LDA;
    constexpr int WC = G6_WARP_COLS, WR = 32 / WC, WARPS_N = G6_BN / G6_TN / WC;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    /* the first of this thread's rows and columns inside the block's tile */
    const int r1 = (warp / WARPS_N) * (WR * G6_TM) + (lane / WC) * 2;
    const int c1 = (warp % WARPS_N) * (WC * G6_TN) + (lane % WC) * 2;
    /* This block's tile of C. Blocks start in the order of their linear
     * index; taken in groups of G6_GROUP block-rows, column by column inside
     * a group, the blocks running at once share rows of A and columns of B,
     * so fewer of them come from DRAM. */
    const long long id = (long long)blockIdx.y * gridDim.x + blockIdx.x, per_group = (long long)G6_GROUP * gridDim.x;
    const long long first = id / per_group * G6_GROUP, in = id % per_group;
    const long long group_rows = min((long long)G6_GROUP, (long long)gridDim.y - first);
    const long long row0 = (first + in % group_rows) * G6_BM, col0 = in / group_rows * G6_BN;
    double acc[G6_TM][G6_TN] = {};

    /* The copies of a tile, lean in registers (the accumulators take most
     * of them). Copy c < NA of a thread is column x % BK of row x / BK + c *
     * AR of the A tile, copy NA + c column x % BN of row x / BN + c * BR of
     * the B tile (x = threadIdx.x), 8 bytes each, each tested against the
     * edges of A and B: that is how the tiles on the edges are copied. */
    constexpr int AR = G6_THREADS / G6_BK, BR = G6_THREADS / G6_BN;
    constexpr int NA = G6_BM * G6_BK / G6_THREADS, NB = G6_BK * G6_BN / G6_THREADS;
    const int ar = threadIdx.x / G6_BK, ac = threadIdx.x % G6_BK;
    const int br = threadIdx.x / G6_BN, bc = threadIdx.x % G6_BN;
    const double *ga = A + (size_t)(row0 + ar < m ? row0 + ar : 0) * k + ac;
    const double *gb = B + (size_t)br * n + (col0 + bc < n ? col0 + bc : 0);
    const size_t a_step = (size_t)AR * k, b_step = (size_t)BR * n;
    const bool b_column_inside = col0 + bc < n;
    /* Most tiles lie wholly inside A and B: they are copied without tests,
     * with 32-bit offsets (one instruction per address), and B 16 bytes at
     * a time where n is even and B 16-byte aligned: copy NA + c is then the
     * pair of columns 2 * (x % (BN/2)) of row x / (BN/2) + c * BR2, and the
     * copies from NA + NB/2 on have nothing left to do. */
    static_assert((2 * G6_THREADS) % G6_BN == 0 && (G6_BK * G6_BN / 2) % G6_THREADS == 0, "B in pairs");
    constexpr int BR2 = 2 * G6_THREADS / G6_BN;
    const bool block_inside = row0 + G6_BM <= m && col0 + G6_BN <= n && (long long)G6_BM * k <= INT32_MAX &&
                              (long long)G6_BK * n <= INT32_MAX && reinterpret_cast<uintptr_t>(B) % 16 == 0 &&
                              n % 2 == 0;
    const int a_step32 = block_inside ? (int)a_step : 0, b2_step32 = block_inside ? BR2 * n : 0;
    const int b2r = threadIdx.x / (G6_BN / 2), b2c = 2 * (threadIdx.x % (G6_BN / 2));
    const double *gb2 = B + (size_t)b2r * n + (block_inside ? col0 + b2c : 0);
    auto tile_inside = [&](int t) { return block_inside && (t + 1) * G6_BK <= k; };
    /* copy c of tile t into buffer buf */
    auto copy = [&](int c, int t, int buf, bool inside_tile) {
        const int kt = t * G6_BK;
        double *as = As + buf * G6_BK * LDA + ac * LDA + ar, *bs = Bs + buf * G6_BK * G6_BN;
        if (inside_tile) {
            if (c < NA)
                copy8_async_inside(as + AR * c, ga + kt + c * a_step32);
            else if (c < NA + NB / 2)
                copy16_async_inside(bs + (b2r + BR2 * (c - NA)) * G6_BN + b2c,
                                    gb2 + (size_t)kt * n + (c - NA) * b2_step32);
        } else if (c < NA) {
            const bool inside = row0 + ar + AR * c < m && kt + ac < k;
            copy8_async(as + AR * c, inside ? ga + kt + c * a_step : A, inside);
        } else {
            const bool inside = kt + br + BR * (c - NA) < k && b_column_inside;
            copy8_async(bs + (br + BR * (c - NA)) * G6_BN + bc, inside ? gb + (size_t)kt * n + (c - NA) * b_step : B,
                        inside);
        }
    };
    /* step q of the tile in buffer buf: this thread's rows of A, columns of B */
    auto fragments = [&](int buf, int q, double (&a)[G6_TM], double (&b)[G6_TN]) {
        const double *as = As + buf * G6_BK * LDA + q * LDA + r1, *bs = Bs + buf * G6_BK * G6_BN + q * G6_BN + c1;
#pragma unroll
        for (int p = 0; p < G6_TM / 2; p++) {
            const double2 v = *reinterpret_cast<const double2 *>(as + 2 * WR * p);
            a[2 * p] = v.x;
            a[2 * p + 1] = v.y;
        }
#pragma unroll
        for (int p = 0; p < G6_TN / 2; p++) {
            const double2 v = *reinterpret_cast<const double2 *>(bs + 2 * WC * p);
            b[2 * p] = v.x;
            b[2 * p + 1] = v.y;
        }
    };
    auto fmas = [&](const double (&a)[G6_TM], const double (&b)[G6_TN]) {
#pragma unroll
        for (int i = 0; i < G6_TM; i++)
#pragma unroll
            for (int j = 0; j < G6_TN; j++)
                acc[i][j] = fma(a[i], b[j], acc[i][j]);
    };
    /* The tile in buffer buf, and the copies of tile next into buffer
     * next_buf spread over its steps, one or two per step (copies: 0 none,
     * 1 tested, 2 inside), so that they never hold up all warps at once. */
    auto compute = [&](int buf, int copies, int next, int next_buf) {
#pragma unroll
        for (int q = 0; q < G6_BK; q++) {
            double a[G6_TM], b[G6_TN];
            fragments(buf, q, a, b);
            if (copies) {
#pragma unroll
                for (int c = q * (NA + NB) / G6_BK; c < (q + 1) * (NA + NB) / G6_BK; c++)
                    copy(c, next, next_buf, copies == 2);
            }
            fmas(a, b);
        }
    };

    /* tile_pipeline's order, the copies of the next tile inside compute */
    const int tiles = (k + G6_BK - 1) / G6_BK;
#pragma unroll
    for (int s = 0; s < G6_STAGES - 1; s++) {
        if (s < tiles)
            for (int c = 0; c < NA + NB; c++)
                copy(c, s, s, false);
        copies_commit();
    }
    for (int t = 0; t < tiles; t++) {
        copies_wait<G6_STAGES - 2>(); /* this thread's copies of tile t are in */
        __syncthreads();              /* everybody's are, and tile t-1 is done */
        const int next = t + G6_STAGES - 1, buf = t % G6_STAGES, next_buf = next % G6_STAGES;
        if (next >= tiles)
            compute(buf, 0, next, next_buf);
        else if (tile_inside(next))
            compute(buf, 2, next, next_buf);
        else
            compute(buf, 1, next, next_buf);
        copies_commit();
    }

    /* C, a row pointer at a time and the columns as 32-bit offsets: the
     * accumulators leave few registers */
    const int cols_left = (int)min((long long)n - col0 - c1, (long long)G6_BN);
#pragma unroll
    for (int i = 0; i < G6_TM; i++) {
        const long long r = row0 + r1 + 2 * WR * (i / 2) + i % 2;
        if (r < m) {
            double *c_row = C + (size_t)r * n + col0 + c1;
#pragma unroll
            for (int j = 0; j < G6_TN; j++) {
                const int c = 2 * WC * (j / 2) + j % 2;
                if (c < cols_left)
                    c_row[c] = acc[i][j];
            }
        }
    }
}

/* On the FP64 tensor cores: the same pipeline, but the multiply-adds are
 * mma.sync m16n8k4 instructions (DMMA), each a 16x8 block of C += a 16x4
 * block of A times a 4x8 block of B. On Hopper this shape gets much more
 * of the FP64 tensor rate (twice the CUDA cores') than the older m8n8k4:
 * 24 TFLOP/s with m8n8k4 and 37 with m16n8k4 (MEASURED.md), the kernel
 * otherwise the same. A block of 8 warps computes a 128 x 128
 * tile of C, each warp a 64 x 32 part of it: 4 x 4 DMMA tiles, 64
 * accumulators per thread. Fragments (PTX ISA, mma.m16n8k4 .f64), with
 * g = lane/4 and t = lane%4: A[g][t] and A[g+8][t]; B[t][g]; C[g][2t],
 * C[g][2t+1], C[g+8][2t], C[g+8][2t+1]. The row paddings (+4, +8) let a
 * warp's 32 fragment loads go in the fewest wavefronts (two).
 *
 * Only some GPUs have FP64 tensor cores: compute capability 8.0, 9.0 and
 * 10.0 (CC below, major * 10 + minor). The others run FP64 mma.sync, where
 * it exists, no faster than their few FP64 units, and gpu6 runs the kernel
 * on the CUDA cores there. m16n8k4 needs sm_90; on sm_80 each is two
 * m8n8k4, whose fragments are its upper and lower halves. */
#define GPU6_TENSOR_CORES(CC) ((CC) == 80 || (CC) == 90 || (CC) == 100)
#define TC_BM 128
#define TC_BN 128
#define TC_BK 16
#define TC_STAGES 2
#define TC_LDA (TC_BK + 4)
#define TC_LDB (TC_BN + 8)
#define TC_THREADS 256
#define TC_SHARED_BYTES (TC_STAGES * (TC_BM * TC_LDA + TC_BK * TC_LDB) * sizeof(double))

__device__ __forceinline__ void dmma_16x8x4(double c[4], double a0, double a1, double b)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                 : "d"(a0), "d"(a1), "d"(b));
#else
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
                 : "+d"(c[0]), "+d"(c[1])
                 : "d"(a0), "d"(b));
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
                 : "+d"(c[2]), "+d"(c[3])
                 : "d"(a1), "d"(b));
#endif
}

__global__ void __launch_bounds__(TC_THREADS, 1)
    gpu6_dmma_kernel(int m, int n, int k, const double *__restrict__ A, const double *__restrict__ B,
                     double *__restrict__ C)
{
    /* compiled only where the host launches it (matmult_gpu6_dev) */
#if !defined(__CUDA_ARCH__) || GPU6_TENSOR_CORES(__CUDA_ARCH__ / 10)
    extern __shared__ __align__(16) double tiles[]; /* 75 KB: more than a static array may have */
    double *As = tiles, *Bs = tiles + TC_STAGES * TC_BM * TC_LDA;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int wm = warp / 4, wn = warp % 4; /* the warp's 64 x 32 part */
    const int g = lane / 4, t = lane % 4;
    const long long row0 = (long long)blockIdx.y * TC_BM, col0 = (long long)blockIdx.x * TC_BN;
    double acc[4][4][4] = {};

    auto load = [&](int tile, int buf) {
        tile_async<TC_BM, TC_BK, TC_THREADS, false>(As + buf * TC_BM * TC_LDA, TC_LDA, A, m, k, row0,
                                                    (long long)tile * TC_BK);
        tile_async<TC_BK, TC_BN, TC_THREADS, false>(Bs + buf * TC_BK * TC_LDB, TC_LDB, B, k, n,
                                                    (long long)tile * TC_BK, col0);
    };
    auto compute = [&](int buf) {
        const double *as = As + buf * TC_BM * TC_LDA, *bs = Bs + buf * TC_BK * TC_LDB;
#pragma unroll
        for (int kk = 0; kk < TC_BK; kk += 4) {
            double a[4][2], b[4];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                a[i][0] = as[(wm * 64 + i * 16 + g) * TC_LDA + kk + t];
                a[i][1] = as[(wm * 64 + i * 16 + g + 8) * TC_LDA + kk + t];
            }
#pragma unroll
            for (int j = 0; j < 4; j++)
                b[j] = bs[(kk + t) * TC_LDB + wn * 32 + j * 8 + g];
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    dmma_16x8x4(acc[i][j], a[i][0], a[i][1], b[j]);
        }
    };
    tile_pipeline<TC_STAGES>(k, TC_BK, load, compute);

#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int half = 0; half < 2; half++) {
            const long long r = row0 + wm * 64 + i * 16 + g + 8 * half;
#pragma unroll
            for (int j = 0; j < 4; j++) {
                const long long c = col0 + wn * 32 + j * 8 + 2 * t;
                if (r < m && c < n)
                    C[(size_t)r * n + c] = acc[i][j][2 * half];
                if (r < m && c + 1 < n)
                    C[(size_t)r * n + c + 1] = acc[i][j][2 * half + 1];
            }
        }
#endif
}

typedef void (*gpu6_launchable)(int, int, int, const double *, const double *, double *);

/* Whether the tensor-core kernel runs: decided by the architecture the code
 * loaded for this GPU was compiled for, whose __CUDA_ARCH__ chose what the
 * kernels hold. ptxVersion is that architecture. The device's own compute
 * capability would be wrong where the driver compiled PTX of an older GPU:
 * that code holds the older GPU's path. */
static int gpu6_on_tensor_cores(void)
{
#ifdef GPU6_CUDA_CORES
    return 0;
#else
    cudaFuncAttributes loaded;
    CUDA_CHECK(cudaFuncGetAttributes(&loaded, gpu6_dmma_kernel));
    return GPU6_TENSOR_CORES(loaded.ptxVersion);
#endif
}

/* The kernel, with the dynamic shared memory it may have raised to what
 * it asks; the CUDA-core kernel with padded As rows where they fit. */
static gpu6_launchable gpu6_chosen(int tensor_cores, size_t *shared)
{
    gpu6_launchable kernel = gpu6_dmma_kernel;
    *shared = TC_SHARED_BYTES;
    if (!tensor_cores) {
        int device, room;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&room, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
        const bool padded = G6_SHARED_BYTES(G6_PAD_A) <= (size_t)room;
        kernel = padded ? gpu6_kernel<G6_PAD_A> : gpu6_kernel<0>;
        *shared = G6_SHARED_BYTES(padded ? G6_PAD_A : 0);
    }
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)*shared));
    return kernel;
}

/* The tensor-core kernel where the GPU has FP64 tensor cores, else the one
 * on the CUDA cores; -DGPU6_CUDA_CORES builds the latter everywhere (make
 * bench LAB=3 measures both). */
extern "C" void matmult_gpu6_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)
{
    static int tensor_cores;
    static gpu6_launchable kernel;
    static size_t shared;
    if (!kernel) {
        tensor_cores = gpu6_on_tensor_cores();
        kernel = gpu6_chosen(tensor_cores, &shared);
    }
    const int bm = tensor_cores ? TC_BM : G6_BM, bn = tensor_cores ? TC_BN : G6_BN;
    dim3 grid(blocks_for(n, bn), blocks_for(m, bm));
    kernel<<<grid, tensor_cores ? TC_THREADS : G6_THREADS, shared>>>(m, n, k, dA, dB, dC);
    CUDA_CHECK_LAUNCH();
}
