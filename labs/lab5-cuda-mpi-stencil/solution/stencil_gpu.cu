/* Lab 5, stage 2: the wave kernel and its launcher, with stencil_region_cpu's
 * region contract (wave_gpu.h).
 *
 * Fixed against the lecture: the index is x + dimx * (y + dimy * z) (the
 * lecture had y * dim.z); the Laplacian starts at coeff[0] * in[n] (it had
 * +); neighbours outside the grid in x and y count as 0 (it read past the
 * row); only planes [4, nz-4) are written; sizes and indices are size_t.
 *
 * Faster than the lecture's one thread per point (Micikevicius, "3D finite
 * difference computation on GPUs using CUDA", 2009): a 2-D block of threads
 * covers a BLOCK_X x BLOCK_Y tile of x-y and marches along z. The current
 * plane's tile, with 4 points of halo in x and y, sits in shared memory, so
 * the 16 x-y neighbours of a point come from there; the 8 z neighbours of a
 * thread's column ride in registers (a queue shifted by one each plane). Each
 * value of in is read from global memory about once (plus the halo, mostly
 * from L2), prev and vel once, next written once: 16 B a point, the copy's
 * traffic. Where the values come from changes, the arithmetic does not: the
 * sums are the scheme's, in its order (wave.h).
 *
 * Built with -DWAVE_RING=1 (make lab5 NVCC_OPT="-O3 -fmad=false
 * -DWAVE_RING=1"), launch_kernel runs wave_ring instead, on trial for GPUs
 * with the fastest memory: the same tile and sums, its loads copied into shared
 * memory two planes ahead by cp.async (below). */
#include <stdint.h>

#include "cuda_check.h"
#include "wave_gpu.h"

__constant__ float coeff[WAVE_RADIUS + 1];

#ifndef BLOCK_X
#define BLOCK_X 32
#endif
#ifndef BLOCK_Y
#define BLOCK_Y 16
#endif
/* planes a block walks: enough blocks to fill the GPU, few enough that the
 * 8 planes each block reads to start its queue cost little */
#ifndef CHUNK_Z
#define CHUNK_Z 50
#endif

#define R WAVE_RADIUS
/* the halo rows are loaded by the first R rows of threads, the halo columns
 * by the first R columns */
static_assert(BLOCK_X >= R && BLOCK_Y >= R, "a block must be at least WAVE_RADIUS threads each way");

/* in at (x, y) of the plane `p` points to, 0 outside the grid */
__device__ __forceinline__ float at(const float *p, int x, int y, int dimx, int dimy)
{
    return x >= 0 && x < dimx && y >= 0 && y < dimy ? __ldg(p + x + (size_t)dimx * y) : 0.0f;
}

/* Planes [z_begin, z_end) of the region, CHUNK_Z planes a block (z_begin
 * >= 4, z_end + 4 <= the region's planes). Every thread of a block takes
 * part in the loads and barriers, those outside the grid too (their values
 * are 0); only those inside write. The next plane's values are loaded before
 * the current plane is computed, so the loads' latency overlaps the
 * arithmetic. */
__global__ void __launch_bounds__(BLOCK_X *BLOCK_Y)
    wave_propagation(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy,
                     int z_begin, int z_end)
{
    __shared__ float tile[BLOCK_Y + 2 * R][BLOCK_X + 2 * R];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = tx + blockIdx.x * BLOCK_X, y = ty + blockIdx.y * BLOCK_Y;
    const int z0 = z_begin + blockIdx.z * CHUNK_Z, z1 = min(z0 + CHUNK_Z, z_end);
    const bool inside = x < dimx && y < dimy;
    const size_t plane = (size_t)dimx * dimy;
    /* halo points this thread loads: a column on each side (tx < R), a row
     * above and below (ty < R) */
    const int hx_lo = blockIdx.x * BLOCK_X + tx - R, hx_hi = blockIdx.x * BLOCK_X + BLOCK_X + tx;
    const int hy_lo = blockIdx.y * BLOCK_Y + ty - R, hy_hi = blockIdx.y * BLOCK_Y + BLOCK_Y + ty;

    const float *pz = in + (size_t)z0 * plane; /* plane z of in */
    size_t n = (size_t)x + (size_t)dimx * ((size_t)y + (size_t)dimy * z0);
    /* q[R + k]: in at (x, y, z + k), k = -R .. R */
    float q[2 * R + 1];
#pragma unroll
    for (int k = 0; k < 2 * R + 1; k++)
        q[k] = inside ? __ldg(in + n + ((ptrdiff_t)k - R) * (ptrdiff_t)plane) : 0.0f;
    /* this thread's halo points of the plane p points to */
    float h_lo_x = 0, h_hi_x = 0, h_lo_y = 0, h_hi_y = 0;
    auto load_halo = [&](const float *p) {
        if (tx < R) {
            h_lo_x = at(p, hx_lo, y, dimx, dimy);
            h_hi_x = at(p, hx_hi, y, dimx, dimy);
        }
        if (ty < R) {
            h_lo_y = at(p, x, hy_lo, dimx, dimy);
            h_hi_y = at(p, x, hy_hi, dimx, dimy);
        }
    };
    load_halo(pz);
    float v = inside ? __ldg(vel + n) : 0.0f;
    float p = inside ? prev[n] : 0.0f;

    for (int z = z0; z < z1; z++, n += plane, pz += plane) {
        tile[ty + R][tx + R] = q[R];
        if (tx < R) {
            tile[ty + R][tx] = h_lo_x;
            tile[ty + R][tx + BLOCK_X + R] = h_hi_x;
        }
        if (ty < R) {
            tile[ty][tx + R] = h_lo_y;
            tile[ty + BLOCK_Y + R][tx + R] = h_hi_y;
        }
        __syncthreads();

        /* the next plane's loads, issued before this plane's arithmetic;
         * prev[n] of this plane is already in p, read before next[n] is
         * written (they may be one array) */
        float q_next = 0, v_next = 0, p_next = 0;
        if (z + 1 < z1) {
            if (inside) {
                q_next = __ldg(in + n + (R + 1) * plane);
                v_next = __ldg(vel + n + plane);
                p_next = prev[n + plane];
            }
            load_halo(pz + plane);
        }

        float lap = coeff[0] * q[R];
#pragma unroll
        for (int i = 1; i <= R; i++) {
            float left = tile[ty + R][tx + R - i], right = tile[ty + R][tx + R + i];
            float top = tile[ty + R - i][tx + R], bottom = tile[ty + R + i][tx + R];
            lap += coeff[i] * (((((left + right) + top) + bottom) + q[R - i]) + q[R + i]);
        }
        if (inside)
            next[n] = (v * lap + 2.0f * q[R]) - p;
        __syncthreads(); /* the tile is rewritten for the next plane */

#pragma unroll
        for (int k = 0; k < 2 * R; k++)
            q[k] = q[k + 1];
        q[2 * R] = q_next, v = v_next, p = p_next;
    }
}

/* ---------------------------------------------------------------------------
 * The ring kernel, built with -DWAVE_RING=1: the same tile, the
 * same z queue in registers and the same sums, but every value a plane needs
 * (in's tile with its halo, vel, prev) is copied into shared memory by
 * cp.async (sm_80 and later) L planes ahead of its use. On HBM3e the tiled
 * kernel above stays well short of the copy: with one plane of loads ahead,
 * in registers, an SM has too few bytes in flight for HBM3e's bandwidth at
 * its latency (Little's law: about 23 KB an SM), and loading more planes
 * ahead in registers cost more occupancy than it added (MEASURED.md). A
 * cp.async waits in shared memory, not in a register, so the loads of L
 * planes (about 7.7 KB a plane for a 32 x 16 block) are in flight at once.
 *
 * Shared memory, per block: a ring of R + 1 + L tiles of in (planes z ..
 * z + R + L: the current plane's tile, with its halo, for the x-y
 * neighbours; the centres of planes z + 1 .. z + R, which feed the z queue;
 * L planes in flight) and a ring of L + 1 planes of vel and of prev. One
 * barrier a plane: after it, every copy of the plane's group has landed and
 * every thread is done with the previous plane, whose slots the next group
 * then fills. Where in, vel and prev are 16-byte aligned and dimx is a
 * multiple of 4, each copy moves 4 floats (VEC); elsewhere one. Values
 * outside the grid are copied as 0 (cp.async's zero fill).
 * ------------------------------------------------------------------------- */
#ifndef WAVE_RING
#define WAVE_RING 0
#endif

/* cp.async of BYTES (4 or 16) from global src to shared dst; not valid: dst
 * gets zeros (a source size of 0) and src is never read. cp.async exists
 * from sm_80 on; below, the copy goes through a register before the call
 * returns and the waits have nothing left to wait for: the ring is the same,
 * only its loads are no longer in flight while the block computes. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
template <int BYTES> __device__ __forceinline__ void copy_async(float *dst, const float *src, bool valid)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    if (BYTES == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src), "r"(valid ? 16 : 0)
                     : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(src), "r"(valid ? 4 : 0)
                     : "memory");
}
__device__ __forceinline__ void copy_commit(void) { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
/* wait until at most N of this thread's groups are still in flight */
template <int N> __device__ __forceinline__ void copy_wait(void)
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}
#else
template <int BYTES> __device__ __forceinline__ void copy_async(float *dst, const float *src, bool valid)
{
    if (BYTES == 16)
        *reinterpret_cast<float4 *>(dst) = valid ? *reinterpret_cast<const float4 *>(src) : make_float4(0, 0, 0, 0);
    else
        *dst = valid ? *src : 0.0f;
}
__device__ __forceinline__ void copy_commit(void) {}
template <int N> __device__ __forceinline__ void copy_wait(void) {}
#endif

/* The ring's shape for a BX x BY block, L planes ahead. */
template <int BX, int BY, int L> struct ring_shape {
    static constexpr int W = BX + 2 * R, H = BY + 2 * R; /* in's tile, with halo */
    static constexpr int NIN = R + 1 + L, NVP = L + 1;  /* slots of in; of vel, prev */
    static constexpr int V = 4;                          /* floats a VEC copy moves */
    static constexpr size_t bytes = sizeof(float) * ((size_t)NIN * H * W + 2 * (size_t)NVP * BX * BY);
};

/* MIN_BLOCKS blocks of THREADS threads an SM, as many as fit: an sm_75 SM
 * holds 1024 threads, and ptxas drops a bound it cannot meet with a warning. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define RING_MIN_BLOCKS(THREADS, MIN_BLOCKS) ((THREADS) * (MIN_BLOCKS) <= 1024 ? (MIN_BLOCKS) : 1024 / (THREADS))
#else
#define RING_MIN_BLOCKS(THREADS, MIN_BLOCKS) (MIN_BLOCKS)
#endif

/* Planes [z_begin, z_end), `chunk` planes a block, as wave_propagation. */
template <int BX, int BY, int L, int MIN_BLOCKS, bool VEC>
__global__ void __launch_bounds__(BX *BY, RING_MIN_BLOCKS(BX *BY, MIN_BLOCKS))
    wave_ring(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy, int z_begin,
              int z_end, int chunk)
{
    using S = ring_shape<BX, BY, L>;
    constexpr int W = S::W, H = S::H, NIN = S::NIN, NVP = S::NVP, V = VEC ? S::V : 1;
    /* the copies of one plane: in's tile (its corners are no neighbour of
     * any point, so they are left out), then vel's and prev's */
    constexpr int IN = BY * (W / V) + 2 * R * (BX / V), VP = BY * BX / V, NT = BX * BY;
    constexpr int ITEMS = (IN + 2 * VP + NT - 1) / NT; /* copies a thread makes a plane */
    static_assert(BX % S::V == 0 && R % S::V == 0, "a VEC copy must not straddle the tile's halo");
    extern __shared__ float4 ring_smem[];
    float *const s_in = reinterpret_cast<float *>(ring_smem), *const s_vel = s_in + NIN * H * W,
                 *const s_prev = s_vel + NVP * BX * BY;

    const int tx = threadIdx.x, ty = threadIdx.y, tid = tx + BX * ty;
    const int x = tx + blockIdx.x * BX, y = ty + blockIdx.y * BY;
    const int z0 = z_begin + blockIdx.z * chunk, z1 = min(z0 + chunk, z_end);
    const bool inside = x < dimx && y < dimy;
    const size_t plane = (size_t)dimx * dimy;

    /* This thread's copies, the same in every plane: which array (0 in,
     * 1 vel, 2 prev), where in a slot, where in a plane, inside the grid? */
    int what[ITEMS], s_off[ITEMS];
    size_t g_off[ITEMS];
    bool ok[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        int i = tid + k * NT, r, c, gx, gy; /* r, c: row and column (in floats) in the slot */
        what[k] = i < IN ? 0 : i < IN + VP ? 1 : i < IN + 2 * VP ? 2 : -1;
        if (what[k] == 0) {
            if (i < BY * (W / V)) {
                r = R + i / (W / V), c = i % (W / V) * V;
            } else {
                int j = i - BY * (W / V), rr = j / (BX / V);
                r = rr < R ? rr : rr + BY, c = R + j % (BX / V) * V;
            }
            gx = blockIdx.x * BX - R + c, gy = blockIdx.y * BY - R + r;
            s_off[k] = r * W + c;
        } else {
            int j = what[k] == 1 ? i - IN : i - IN - VP;
            r = j / (BX / V), c = j % (BX / V) * V;
            gx = blockIdx.x * BX + c, gy = blockIdx.y * BY + r;
            s_off[k] = r * BX + c;
        }
        /* VEC: dimx is a multiple of 4 and so is gx, so a copy is all in
         * the grid or all outside */
        ok[k] = what[k] >= 0 && gx >= 0 && gx < dimx && gy >= 0 && gy < dimy;
        g_off[k] = ok[k] ? (size_t)gx + (size_t)dimx * gy : 0;
    }
    /* in's tile of plane z0 + j into its slot; vel's and prev's likewise;
     * none past the planes this block reads (prev may be next: its planes
     * past z1 are another block's output) */
    auto copy_in = [&](int j) {
        if (z0 + j >= z1 + R)
            return;
        const float *src = in + (size_t)(z0 + j) * plane;
        float *dst = s_in + (j % NIN) * H * W;
#pragma unroll
        for (int k = 0; k < ITEMS; k++)
            if (what[k] == 0)
                copy_async<V * 4>(dst + s_off[k], src + g_off[k], ok[k]);
    };
    auto copy_vp = [&](int j) {
        if (z0 + j >= z1)
            return;
        size_t p0 = (size_t)(z0 + j) * plane;
        int slot = (j % NVP) * BX * BY;
#pragma unroll
        for (int k = 0; k < ITEMS; k++)
            if (what[k] > 0)
                copy_async<V * 4>((what[k] == 1 ? s_vel : s_prev) + slot + s_off[k],
                                  (what[k] == 1 ? vel : prev) + p0 + g_off[k], ok[k]);
    };

    /* The ring's start: tiles of planes z0 .. z0 + R + L - 1 and vel, prev
     * of z0 .. z0 + L - 1, in L groups (group g holds what step g - L would
     * have copied), so that step j waits for group j. */
    for (int j = 0; j < R; j++)
        copy_in(j);
    for (int g = 0; g < L; g++) {
        copy_in(g + R), copy_vp(g);
        copy_commit();
    }
    /* q[R + k]: in at (x, y, z + k); planes z0 - R .. z0 + R - 1 here */
    size_t n = (size_t)z0 * plane + (size_t)dimx * y + x;
    float q[2 * R + 1];
#pragma unroll
    for (int k = 0; k < 2 * R; k++)
        q[k] = inside ? __ldg(in + n + ((ptrdiff_t)k - R) * (ptrdiff_t)plane) : 0.0f;

    const int centre = (ty + R) * W + tx + R;
    for (int j = 0, z = z0; z < z1; j++, z++, n += plane) {
        copy_wait<L - 1>(); /* this thread's copies of plane j's group */
        __syncthreads();    /* everyone's; and everyone is done with plane j - 1 */
        copy_in(j + R + L), copy_vp(j + L); /* into plane j - 1's slots */
        copy_commit();

        const float *t = s_in + (j % NIN) * H * W;
        q[2 * R] = s_in[((j + R) % NIN) * H * W + centre];
        float v = s_vel[(j % NVP) * BX * BY + tid], p = s_prev[(j % NVP) * BX * BY + tid];
        float lap = coeff[0] * q[R];
#pragma unroll
        for (int i = 1; i <= R; i++) {
            float left = t[centre - i], right = t[centre + i];
            float top = t[centre - i * W], bottom = t[centre + i * W];
            lap += coeff[i] * (((((left + right) + top) + bottom) + q[R - i]) + q[R + i]);
        }
        if (inside)
            next[n] = (v * lap + 2.0f * q[R]) - p;
#pragma unroll
        for (int k = 0; k < 2 * R; k++)
            q[k] = q[k + 1];
    }
    copy_wait<0>();
}

/* The number of planes a block walks: the grid's blocks fill whole waves of
 * what the GPU holds at once, where that costs few extra planes (each block
 * reads 2R planes of in beyond its own: the model counts them as 4 planes
 * of its time). */
[[maybe_unused]] static int ring_chunk(int xy_blocks, int planes, int resident)
{
    int best = planes;
    long best_cost = -1;
    for (int c = 1; c <= planes; c++) {
        int chunk = (planes + c - 1) / c;
        if (c > 1 && chunk == (planes + c - 2) / (c - 1))
            continue; /* the same chunk as c - 1 */
        long blocks = (long)xy_blocks * ((planes + chunk - 1) / chunk);
        long waves = (blocks + resident - 1) / resident, cost = waves * (chunk + 4);
        if (best_cost < 0 || cost < best_cost)
            best_cost = cost, best = chunk;
    }
    return best;
}

/* Launches wave_ring on planes [R, nz - R) of the region (planes > 0);
 * chunk <= 0: ring_chunk's. Does not check the launch. */
template <int BX, int BY, int L, int MIN_BLOCKS>
static void launch_ring(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy,
                        int nz, int chunk, cudaStream_t stream)
{
    const size_t smem = ring_shape<BX, BY, L>::bytes;
    const bool vec =
        dimx % 4 == 0 && ((uintptr_t)in | (uintptr_t)prev | (uintptr_t)vel) % (4 * sizeof(float)) == 0;
    void (*kernel)(float *, const float *, const float *, const float *, int, int, int, int, int) =
        vec ? wave_ring<BX, BY, L, MIN_BLOCKS, true> : wave_ring<BX, BY, L, MIN_BLOCKS, false>;
    if (smem > 48 * 1024) /* above the default limit of dynamic shared memory */
        CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    dim3 block(BX, BY);
    int gx = (dimx + BX - 1) / BX, gy = (dimy + BY - 1) / BY, planes = nz - 2 * R;
    if (planes <= 0) /* no plane to write (and ring_chunk's chunk would be 0) */
        return;
    if (chunk <= 0) {
        int dev, sms, per_sm;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BX * BY, smem));
        chunk = ring_chunk(gx * gy, planes, sms * (per_sm > 0 ? per_sm : 1));
    }
    dim3 grid(gx, gy, (planes + chunk - 1) / chunk);
    kernel<<<grid, block, smem, stream>>>(next, in, prev, vel, dimx, dimy, R, nz - R, chunk);
}

/* The coefficients go to constant memory once per process (the lecture's
 * upload_coefficients). */
static void upload_coefficients(void)
{
    static int done = 0;
    if (!done) {
        CUDA_CHECK(cudaMemcpyToSymbol(coeff, wave_coeff, sizeof wave_coeff));
        done = 1;
    }
}

extern "C" void launch_kernel(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy,
                              int nz, cudaStream_t stream)
{
    int planes = nz - 2 * R;
    if (planes <= 0 || dimx <= 0 || dimy <= 0)
        return;
#if WAVE_RING /* 32 x 16 threads, 2 planes ahead, 3 blocks an SM (40 registers), ring_chunk's planes a block */
    upload_coefficients();
    launch_ring<32, 16, 2, 3>(next, in, prev, vel, dimx, dimy, nz, 0, stream);
    CUDA_CHECK(cudaGetLastError());
    return;
#endif
    upload_coefficients();
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((dimx + BLOCK_X - 1) / BLOCK_X, (dimy + BLOCK_Y - 1) / BLOCK_Y, (planes + CHUNK_Z - 1) / CHUNK_Z);
    wave_propagation<<<grid, block, 0, stream>>>(next, in, prev, vel, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS);
    CUDA_CHECK(cudaGetLastError());
}
