/* Lab 5's wave kernel against its bound, one GPU, variant by variant: which
 * kernel the reference should use (MEASURED.md has the figures).
 *
 *   kernel_variants [ROUNDS]        (default 25)
 *
 * Built from the kit's root (nvcc compiles it on a machine without a GPU):
 *   nvcc -O3 -fmad=false -arch=sm_90 -std=c++17 -Icommon -Ilabs/lab5-cuda-mpi-stencil \
 *        labs/lab5-cuda-mpi-stencil/measured/kernel_variants.cu -o build/kernel_variants
 *
 * It includes the reference's stencil_gpu.cu, so the kernels timed are the
 * reference's own: launch_kernel (the tiled kernel; this file builds it
 * without WAVE_RING) and launch_ring's wave_ring (what -DWAVE_RING=1 makes
 * launch_kernel use) in several shapes. At the bench's two slabs (one
 * rank's local array at np 3 and np 5: 480 x 480 x (S + 8), S = 200 and
 * 100) it times, interleaved round by round so that a drift of the GPU's
 * clock or of its memory falls on every kernel alike, one launch each of:
 * the bench's bound (cudaMemcpy device to device of the slab, counted read
 * + write), a kernel that moves the stencil's 16 B a point with no stencil,
 * the reference, and the variants; then prints the medians, each kernel at
 * 16 B a written point and as a share of the copy, as lab5_bench does.
 *
 * Every variant's output is compared bit for bit with the reference
 * kernel's (itself equal to the CPU's: the tests) on the same input: at both
 * slabs with next == prev (as the bench and the pipeline call it), and on
 * odd regions with next apart, where the shapes leave partial tiles, dimx
 * not a multiple of 4, and pointers off 16-byte alignment (the variants' copy
 * of one float a time). A mismatch prints INVALID and the program exits 1;
 * so does a CUDA error. */
#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "../solution/stencil_gpu.cu"

typedef void (*launcher)(float *, const float *, const float *, const float *, int, int, int, cudaStream_t);

/* The variants: chunk 0 is ring_chunk's choice (launch_ring's default) */
template <int BX, int BY, int L, int MB, int CHUNK>
static void ring(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy, int nz,
                 cudaStream_t s)
{
    launch_ring<BX, BY, L, MB>(next, in, prev, vel, dimx, dimy, nz, CHUNK, s);
}
struct variant {
    const char *name;
    launcher launch;
    const void *kernel; /* wave_ring's VEC instance, for registers and occupancy */
    size_t smem;
    int bx, by, chunk;
};
#define RING(BX, BY, L, MB, CHUNK)                                                                          \
    {"ring " #BX "x" #BY " L=" #L, ring<BX, BY, L, MB, CHUNK>, (const void *)wave_ring<BX, BY, L, MB, true>, \
     ring_shape<BX, BY, L>::bytes, BX, BY, CHUNK}
static const variant variants[] = {
    {"reference (tiled, 1 plane ahead)", launch_kernel, (const void *)wave_propagation, 0, BLOCK_X, BLOCK_Y, CHUNK_Z},
    RING(32, 16, 1, 3, 0),
    RING(32, 16, 2, 3, 50),
    RING(32, 16, 2, 3, 0), /* WAVE_RING=1's */
    RING(32, 16, 3, 3, 0),
    RING(32, 16, 4, 3, 0),
    RING(64, 8, 2, 3, 0),
    RING(32, 8, 3, 6, 0),
};
enum { NV = sizeof variants / sizeof variants[0] };

/* 16 B a point with no stencil: in, prev, vel read, next written (float4) */
__global__ void stream4(float4 *next, const float4 *in, const float4 *prev, const float4 *vel, size_t n4)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
        float4 a = __ldg(in + i), b = prev[i], c = __ldg(vel + i);
        next[i] = make_float4(a.x + b.x + c.x, a.y + b.y + c.y, a.z + b.z + c.z, a.w + b.w + c.w);
    }
}

static unsigned long long lcg = 12345;
static float uniform(float scale) /* [0, scale), 24 random bits */
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)(lcg >> 40) * (scale / 16777216.0f);
}

/* A region's three inputs on the device, offset floats past an aligned
 * allocation; next gets prev's values (the bench's next == prev, or a
 * separate array filled the same) */
struct region {
    int dimx, dimy, nz, offset;
    size_t points;
    float *in, *prev, *vel, *buf[3];
};
static region make_region(int dimx, int dimy, int nz, int offset)
{
    region g = {dimx, dimy, nz, offset, (size_t)dimx * dimy * nz, 0, 0, 0, {0, 0, 0}};
    std::vector<float> h(g.points);
    for (int a = 0; a < 3; a++) {
        CUDA_CHECK(cudaMalloc(&g.buf[a], (g.points + offset) * sizeof(float)));
        for (size_t i = 0; i < g.points; i++)
            h[i] = a == 2 ? uniform(0.1f) : uniform(1.0f); /* vel in [0, 0.1): MEASURED.md's probe */
        CUDA_CHECK(cudaMemcpy(g.buf[a] + offset, h.data(), g.points * sizeof(float), cudaMemcpyHostToDevice));
    }
    g.in = g.buf[0] + offset, g.prev = g.buf[1] + offset, g.vel = g.buf[2] + offset;
    return g;
}
static void free_region(region *g)
{
    for (int a = 0; a < 3; a++)
        CUDA_CHECK(cudaFree(g->buf[a]));
}

/* One step of `launch` on g into host memory: next == prev when alias,
 * else into a separate array that starts as a copy of prev. */
static std::vector<float> result(const region &g, launcher launch, bool alias)
{
    float *out, *prev;
    CUDA_CHECK(cudaMalloc(&out, (g.points + g.offset) * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&prev, (g.points + g.offset) * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(out + g.offset, g.prev, g.points * sizeof(float), cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaMemcpy(prev + g.offset, g.prev, g.points * sizeof(float), cudaMemcpyDeviceToDevice));
    launch(out + g.offset, g.in, alias ? out + g.offset : prev + g.offset, g.vel, g.dimx, g.dimy, g.nz, 0);
    CUDA_CHECK_LAUNCH();
    std::vector<float> h(g.points);
    CUDA_CHECK(cudaMemcpy(h.data(), out + g.offset, g.points * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(out));
    CUDA_CHECK(cudaFree(prev));
    return h;
}

/* elements of variant v's output unequal (bitwise) to the reference's on g */
static size_t mismatches(const region &g, int v, bool alias, const std::vector<float> &want)
{
    std::vector<float> got = result(g, variants[v].launch, alias);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < g.points; i++)
        if (memcmp(&got[i], &want[i], sizeof(float)) != 0 && bad++ == 0)
            first = i;
    if (bad)
        printf("  INVALID: %s on %d x %d x %d (offset %d floats, next %s prev): %zu elements differ, the first at "
               "%zu: %.9g, reference %.9g\n",
               variants[v].name, g.dimx, g.dimy, g.nz, g.offset, alias ? "==" : "!=", bad, first, got[first],
               want[first]);
    return bad;
}

static double median(std::vector<double> t)
{
    std::sort(t.begin(), t.end());
    size_t n = t.size();
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* The slab of one rank at S own planes: checks, then times; returns the
 * number of variants found wrong */
static int slab(int S, int rounds, int sms)
{
    const int dimx = 480, dimy = 480, nz = S + 2 * WAVE_RADIUS;
    region g = make_region(dimx, dimy, nz, 0);
    size_t bytes = g.points * sizeof(float), plane = (size_t)dimx * dimy;
    printf("\n== one rank's slab at np %d: %d x %d x %d (S = %d), %.0f MB an array; medians of %d launches\n",
           400 / S + 1, dimx, dimy, nz, S, bytes * 1e-6, rounds);

    std::vector<float> want = result(g, launch_kernel, true);
    int wrong = 0;
    std::vector<size_t> bad(NV, 0);
    for (int v = 1; v < NV; v++)
        wrong += (bad[v] = mismatches(g, v, true, want)) != 0;

    float *out;
    CUDA_CHECK(cudaMalloc(&out, bytes));
    CUDA_CHECK(cudaMemcpy(out, g.prev, bytes, cudaMemcpyDeviceToDevice));
    cudaStream_t s;
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaStreamCreate(&s));
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    /* row 0 the copy, 1 the stream kernel, 2 + v the variants */
    std::vector<std::vector<double>> t(NV + 2);
    for (int r = -3; r < rounds; r++) /* three rounds of warm-up */
        for (int k = 0; k < NV + 2; k++) {
            CUDA_CHECK(cudaEventRecord(e0, s));
            if (k == 0)
                CUDA_CHECK(cudaMemcpyAsync(out, g.in, bytes, cudaMemcpyDeviceToDevice, s));
            else if (k == 1)
                stream4<<<sms * 8, 256, 0, s>>>((float4 *)(out + R * plane), (const float4 *)(g.in + R * plane),
                                                (const float4 *)(out + R * plane), (const float4 *)(g.vel + R * plane),
                                                S * plane / 4);
            else
                variants[k - 2].launch(out, g.in, out, g.vel, dimx, dimy, nz, s); /* next == prev: the bench's */
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaEventRecord(e1, s));
            CUDA_CHECK(cudaEventSynchronize(e1));
            float ms;
            CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0)
                t[k].push_back(ms * 1e-3);
        }
    double copy = 2.0 * bytes / median(t[0]) * 1e-9, point_bytes = 16.0 * plane * S;
    printf("%-34s %5s %9s %6s %8s %8s %8s  %s\n", "kernel", "regs", "blocks/SM", "chunk", "ms", "GB/s", "of copy",
           "check");
    printf("%-34s %5s %9s %6s %8.3f %8.0f %7.1f%%  %s\n", "cudaMemcpy D2D (the bench's bound)", "-", "-", "-",
           median(t[0]) * 1e3, copy, 100.0, "-");
    double st = point_bytes / median(t[1]) * 1e-9;
    printf("%-34s %5s %9s %6s %8.3f %8.0f %7.1f%%  %s\n", "16 B a point, no stencil", "-", "-", "-",
           median(t[1]) * 1e3, st, 100 * st / copy, "-");
    for (int v = 0; v < NV; v++) {
        const variant &x = variants[v];
        cudaFuncAttributes a;
        int per_sm;
        CUDA_CHECK(cudaFuncGetAttributes(&a, x.kernel));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, x.kernel, x.bx * x.by, x.smem));
        int xy = ((dimx + x.bx - 1) / x.bx) * ((dimy + x.by - 1) / x.by); /* launch_ring's choice, again */
        int chunk = x.chunk ? x.chunk : ring_chunk(xy, S, sms * per_sm);
        double gbs = point_bytes / median(t[v + 2]) * 1e-9;
        char check[64];
        snprintf(check, sizeof check, bad[v] ? "INVALID (%zu differ)" : v ? "equal bits" : "the reference", bad[v]);
        printf("%-34s %5d %9d %6d %8.3f %8.0f %7.1f%%  %s\n", x.name, a.numRegs, per_sm, chunk, median(t[v + 2]) * 1e3,
               bad[v] ? 0.0 : gbs, bad[v] ? 0.0 : 100 * gbs / copy, check);
    }
    CUDA_CHECK(cudaFree(out));
    CUDA_CHECK(cudaStreamDestroy(s));
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    free_region(&g);
    return wrong;
}

int main(int argc, char **argv)
{
    /* line by line: a run ended by a time limit leaves nothing of a
     * block-buffered stdout */
    setvbuf(stdout, NULL, _IOLBF, 0);
    int rounds = 25;
    if (argc > 2 || (argc == 2 && (rounds = atoi(argv[1])) < 1)) {
        fprintf(stderr, "usage: %s [ROUNDS >= 1]\n", argv[0]);
        return 2;
    }
    int dev, sms, count;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        fprintf(stderr, "kernel_variants: no CUDA device\n");
        return 2;
    }
    cudaDeviceProp p;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    sms = p.multiProcessorCount;
    printf("kernel_variants: %s, %d SMs, L2 %.0f MB, %.0f GB of memory\n", p.name, sms, p.l2CacheSize * 1e-6,
           p.totalGlobalMem * 1e-9);
    upload_coefficients();

    /* odd regions, next apart from prev: partial tiles, dimx not a multiple
     * of 4, pointers off 16-byte alignment (offset 1: one float a copy) */
    static const int odd[][4] = {{67, 21, 11, 0}, {13, 11, 8, 0}, {1, 1, 9, 0},   {70, 37, 40, 0},
                                 {3, 2, 10, 0},   {36, 20, 20, 0}, {64, 40, 30, 0}, {480, 48, 24, 1},
                                 {96, 33, 70, 0}, {96, 33, 70, 3}};
    int wrong = 0;
    for (const auto &o : odd) {
        printf("odd region %d x %d x %d, offset %d ...\n", o[0], o[1], o[2], o[3]);
        region g = make_region(o[0], o[1], o[2], o[3]);
        std::vector<float> want = result(g, launch_kernel, false);
        for (int v = 1; v < NV; v++)
            wrong += mismatches(g, v, false, want) != 0;
        free_region(&g);
    }
    printf("odd regions (%zu, next apart from prev): %s\n", sizeof odd / sizeof odd[0],
           wrong ? "INVALID (above)" : "every variant equal to the reference bit for bit");

    for (int S : {200, 100})
        wrong += slab(S, rounds, sms);
    printf("\n%s\n", wrong ? "INVALID: a variant's result differs from the reference's (above)"
                           : "every variant's result equal to the reference kernel's, bit for bit");
    return wrong ? 1 : 0;
}
