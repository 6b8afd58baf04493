/* Lab 7, optional challenge (reference): the device part of fp_solve_cuda
 * as one call, beyond the pass bound (README, "Optional challenge"; not
 * graded). fp_solve_cuda (fp_cuda.cu) calls it where it is defined and
 * applies; its z stage is fp_gpu_solve_z_checkpointed, in fp_cuda.cu
 * beside the kernels whose system set-up it shares. */
#include <cufft.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"
#include "fp_gpu_plan.h"

/* fp_cuda.cu's z stage without a gamma array */
extern "C" int fp_gpu_solve_z_checkpointed(fp_gpu *P, double *d_a);

enum { THREADS = 256 };
static unsigned blocks_for(size_t n) { return (unsigned)((n + THREADS - 1) / THREADS); }

/* ---- Beyond the pass bound ----------------------------------------------
 * The staged transforms (fp_cuda.cu) are three trips through memory each: the pre
 * kernel, the FFT, the post kernel. Here Makhoul's reordering and signs run
 * inside cuFFT's own reads (a load callback) and the half spectrum becomes
 * FFTW's coefficients inside its writes (a store callback), so each
 * transform is one trip, as cuFFT alone is. The callbacks are LTO
 * callbacks (cufftXtSetJITCallback, CUDA 12.6 and later): compiled here at
 * run time to LTO-IR by NVRTC, then linked into cuFFT's kernels when the
 * plan is made.
 *
 * The y lines are strided in the grid's own layout, so the x transform
 * writes its coefficients in a layout with y slowest (L1: x + nx (z + nz y),
 * in P->real): the y lines are then rows of a batch with stride nx nz and
 * neighbouring lines side by side (idist 1), which cuFFT reads whole cache
 * lines of. The y transform writes back into the grid's layout (L0: x + nx
 * (y + ny z)), where the z stage solves its systems as before; the inverse
 * is the mirror image. One place decodes a cuFFT offset into (line,
 * element); everything else is the staged kernels' arithmetic. */
#include <cufftXt.h>
#include <nvJitLink.h>
#include <nvrtc.h>

#define NVRTC_CHECK(call)                                                                          \
    do {                                                                                           \
        nvrtcResult kit_nr_ = (call);                                                              \
        if (kit_nr_ != NVRTC_SUCCESS) {                                                            \
            fprintf(stderr, "%s:%d: NVRTC error in %s: %s\n", __FILE__, __LINE__, #call,           \
                    nvrtcGetErrorString(kit_nr_));                                                 \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* What every callback reads (device memory, the plans' caller info). */
struct fused_par {
    double *a, *t;            /* the grid in L0 (d_a) and in L1 (P->real) */
    const double2 *twx, *twy; /* (sin, cos)(-pi k / 2n) of x and y, k < n */
    unsigned nx, ny, nz;
    int bcx, bcy;
};

/* The callbacks' source, compiled by NVRTC (FP_P, FP_N, FP_D defined on
 * its command line from fft_poisson.h). The callbacks keep C++ linkage:
 * cuFFT declares each by its name and its signature and links the
 * mangled symbol (with extern "C" cufftMakePlanMany returned
 * CUFFT_INTERNAL_ERROR). */
static const char *fused_src = R"(
struct fused_par { double *a, *t; const double2 *twx, *twy; unsigned nx, ny, nz; int bcx, bcy; };
/* The grid's sizes and x, y types: compile-time constants where the
 * plans were made for one grid (K_NX ...: divisions by constants become
 * multiplications, the branches on the types fold), else the parameters. */
#ifdef K_NX
#define NX ((unsigned)K_NX)
#define NY ((unsigned)K_NY)
#define NZ ((unsigned)K_NZ)
#define BCX K_BCX
#define BCY K_BCY
#else
#define NX (p->nx)
#define NY (p->ny)
#define NZ (p->nz)
#define BCX (p->bcx)
#define BCY (p->bcy)
#endif
typedef unsigned long long u64;

/* off = q d + r; 32-bit division where the offset allows (a 64-bit one is
 * a long instruction sequence, run for every element) */
__device__ static void divmod(u64 off, unsigned d, u64 &q, unsigned &r)
{
    if (off < 4294967296ull) { unsigned o = (unsigned)off; q = o / d; r = o % d; }
    else { q = off / d; r = (unsigned)(off % d); }
}
/* the element c of a line that Makhoul's order puts at position j */
__device__ static unsigned cell_at(unsigned j, unsigned n, int bc)
{
    if (bc == FP_P) return j;
    return j < (n + 1) / 2 ? 2 * j : 2 * (n - 1 - j) + 1;
}
__device__ static double sgn(int bc, unsigned c, double v) { return bc == FP_D && (c & 1) ? -v : v; }

/* Half-spectrum entry k of a line of n: the coefficients it gives, at
 * line[p stride] (post_forward_value of the staged kernels, entry-wise:
 * entry k makes coefficient k and, through V_{n-k} = conj(V_k), n - k) */
__device__ static void put(double *line, size_t stride, unsigned n, int bc, const double2 *tw, unsigned kk, double vx,
                           double vy)
{
    double s = tw[kk].x, co = tw[kk].y; /* the staged kernels' sincospi(-kk / 2n), from a table */
    unsigned p = bc == FP_D ? n - 1 - kk : kk;
    line[p * stride] = 2.0 * (co * vx - s * vy);
}
__device__ static void coefficients(double *line, size_t stride, unsigned n, int bc, const double2 *tw, unsigned k,
                                    double2 S)
{
    bool twin = k > 0 && 2 * k < n;
    if (bc == FP_P) { /* halfcomplex */
        line[k * stride] = S.x;
        if (twin) line[(n - k) * stride] = S.y;
        return;
    }
    put(line, stride, n, bc, tw, k, S.x, S.y);
    if (twin) put(line, stride, n, bc, tw, n - k, S.x, -S.y);
}
/* pre_inverse_value of the staged kernels, on a strided line */
__device__ static double2 spectrum(const double *line, size_t stride, unsigned n, int bc, const double2 *tw, unsigned k)
{
    double2 w;
    if (bc == FP_P) {
        w.x = line[k * stride];
        w.y = (k == 0 || 2 * k == n) ? 0.0 : line[(n - k) * stride];
        return w;
    }
    double yk, ynk;
    if (bc == FP_N) { yk = line[k * stride]; ynk = k == 0 ? 0.0 : line[(n - k) * stride]; }
    else { yk = line[(n - 1 - k) * stride]; ynk = k == 0 ? 0.0 : line[(k - 1) * stride]; }
    double sn = -tw[k].x, co = tw[k].y; /* sincospi(k / 2n): the sine odd, the cosine even */
    w.x = co * yk + sn * ynk;
    w.y = sn * yk - co * ynk;
    return w;
}

/* x forward: lines b = y + ny z of L0 (contiguous) -> coefficients in L1 */
#ifdef ONLY_x_fwd_load
__device__ double x_fwd_load(void *, u64 off, void *info, void *)
{
    const fused_par *p = (const fused_par *)info;
    u64 b; unsigned j;
    divmod(off, NX, b, j);
    unsigned c = cell_at(j, NX, BCX);
    return sgn(BCX, c, p->a[b * NX + c]);
}
#endif
#ifdef ONLY_x_fwd_store
__device__ void x_fwd_store(void *, u64 off, double2 S, void *info, void *)
{
    const fused_par *p = (const fused_par *)info;
    u64 b; unsigned k;
    divmod(off, NX / 2 + 1, b, k);
    size_t y = b % NY, z = b / NY;
    coefficients(p->t + NX * (z + NZ * y), 1, NX, BCX, p->twx, k, S);
}
#endif
/* y forward: lines b = x + nx z of L1 (stride nx nz) -> coefficients in L0 */
#ifdef ONLY_y_fwd_load
__device__ double y_fwd_load(void *, u64 off, void *info, void *)
{
    const fused_par *p = (const fused_par *)info;
    u64 j; unsigned b;
    divmod(off, NX * NZ, j, b);
    unsigned c = cell_at((unsigned)j, NY, BCY);
    return sgn(BCY, c, p->t[b + (size_t)NX * NZ * c]);
}
#endif
#ifdef ONLY_y_fwd_store
__device__ void y_fwd_store(void *, u64 off, double2 S, void *info, void *)
{
    const fused_par *p = (const fused_par *)info;
    u64 k; unsigned b;
    divmod(off, NX * NZ, k, b);
    size_t x = b % NX, z = b / NX;
    coefficients(p->a + x + (size_t)NX * NY * z, NX, NY, BCY, p->twy, (unsigned)k, S);
}
#endif
/* y inverse: coefficients in L0 -> lines of L1 */
#ifdef ONLY_y_inv_load
__device__ double2 y_inv_load(void *, u64 off, void *info, void *)
{
    const fused_par *p = (const fused_par *)info;
    u64 k; unsigned b;
    divmod(off, NX * NZ, k, b);
    size_t x = b % NX, z = b / NX;
    return spectrum(p->a + x + (size_t)NX * NY * z, NX, NY, BCY, p->twy, (unsigned)k);
}
#endif
#ifdef ONLY_y_inv_store
__device__ void y_inv_store(void *, u64 off, double v, void *info, void *)
{
    const fused_par *p = (const fused_par *)info;
    u64 j; unsigned b;
    divmod(off, NX * NZ, j, b);
    unsigned c = cell_at((unsigned)j, NY, BCY);
    p->t[b + (size_t)NX * NZ * c] = sgn(BCY, c, v);
}
#endif
/* x inverse: coefficients in L1 -> lines of L0 */
#ifdef ONLY_x_inv_load
__device__ double2 x_inv_load(void *, u64 off, void *info, void *)
{
    const fused_par *p = (const fused_par *)info;
    u64 b; unsigned k;
    divmod(off, NX / 2 + 1, b, k);
    size_t y = b % NY, z = b / NY;
    return spectrum(p->t + NX * (z + NZ * y), 1, NX, BCX, p->twx, k);
}
#endif
#ifdef ONLY_x_inv_store
__device__ void x_inv_store(void *, u64 off, double v, void *info, void *)
{
    const fused_par *p = (const fused_par *)info;
    u64 b; unsigned j;
    divmod(off, NX, b, j);
    unsigned c = cell_at(j, NX, BCX);
    p->a[b * NX + c] = sgn(BCX, c, v);
}
#endif
)";

/* One callback as LTO-IR for the current device (the source compiled with
 * only that function defined: cuFFT links the load and the store
 * callback's IR into one kernel, where a function defined in both would
 * be defined twice), compiled once a process. */
static const char *fused_ltoir(const char *name, const fp_grid *k, size_t *size)
{
    enum { NAMES = 8 };
    static const char *names[NAMES];
    static char *irs[NAMES];
    static size_t sizes[NAMES];
    int i = 0;
    while (i < NAMES && names[i] && strcmp(names[i], name))
        i++;
    if (i == NAMES) {
        fprintf(stderr, "fused_ltoir: more than %d callbacks\n", NAMES);
        exit(1);
    }
    if (names[i] && !k) {
        *size = sizes[i];
        return irs[i];
    }
    /* cuFFT links the callbacks with nvJitLink, which it opens at run
     * time by its name alone: a library that only this program's run
     * path finds is not found then (cufftMakePlanMany returned
     * CUFFT_INTERNAL_ERROR). Calling it here links
     * it into the program, so cuFFT finds it loaded. */
    unsigned jl_major, jl_minor;
    if (nvJitLinkVersion(&jl_major, &jl_minor) != NVJITLINK_SUCCESS) {
        fprintf(stderr, "nvJitLinkVersion: failed (the fused solver's callbacks need nvJitLink)\n");
        exit(1);
    }
    int dev;
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    char arch[64], defs[4][64];
    snprintf(arch, sizeof arch, "--gpu-architecture=compute_%d%d", prop.major, prop.minor);
    snprintf(defs[0], sizeof defs[0], "-DFP_P=%d", (int)FP_P);
    snprintf(defs[1], sizeof defs[1], "-DFP_N=%d", (int)FP_N);
    snprintf(defs[2], sizeof defs[2], "-DFP_D=%d", (int)FP_D);
    snprintf(defs[3], sizeof defs[3], "-DONLY_%s", name);
    char kdefs[5][32]; /* the grid's constants, where k is given */
    if (k) {
        snprintf(kdefs[0], sizeof kdefs[0], "-DK_NX=%d", k->n[0]);
        snprintf(kdefs[1], sizeof kdefs[1], "-DK_NY=%d", k->n[1]);
        snprintf(kdefs[2], sizeof kdefs[2], "-DK_NZ=%d", k->n[2]);
        snprintf(kdefs[3], sizeof kdefs[3], "-DK_BCX=%d", (int)k->bc[0]);
        snprintf(kdefs[4], sizeof kdefs[4], "-DK_BCY=%d", (int)k->bc[1]);
    }
    const char *opts[] = {arch,     "-dlto",  "--relocatable-device-code=true", "-std=c++17", defs[0], defs[1], defs[2],
                          defs[3], kdefs[0], kdefs[1], kdefs[2], kdefs[3], kdefs[4]};
    int nopts = k ? 13 : 8;
    nvrtcProgram prog;
    NVRTC_CHECK(nvrtcCreateProgram(&prog, fused_src, "fp_fused_callbacks.cu", 0, NULL, NULL));
    nvrtcResult rc = nvrtcCompileProgram(prog, nopts, opts);
    if (rc != NVRTC_SUCCESS) {
        size_t n;
        NVRTC_CHECK(nvrtcGetProgramLogSize(prog, &n));
        char *log = (char *)malloc(n + 1);
        NVRTC_CHECK(nvrtcGetProgramLog(prog, log));
        fprintf(stderr, "nvrtcCompileProgram (the fused solver's callback %s): %s\n%s\n", name, nvrtcGetErrorString(rc), log);
        exit(1);
    }
    if (k) { /* a grid's own: the caller's to free */
        NVRTC_CHECK(nvrtcGetLTOIRSize(prog, size));
        char *ir = (char *)malloc(*size);
        if (!ir) {
            fprintf(stderr, "fused_ltoir: out of host memory\n");
            exit(1);
        }
        NVRTC_CHECK(nvrtcGetLTOIR(prog, ir));
        NVRTC_CHECK(nvrtcDestroyProgram(&prog));
        return ir;
    }
    NVRTC_CHECK(nvrtcGetLTOIRSize(prog, &sizes[i]));
    irs[i] = (char *)malloc(sizes[i]);
    if (!irs[i]) {
        fprintf(stderr, "fused_ltoir: out of host memory\n");
        exit(1);
    }
    NVRTC_CHECK(nvrtcGetLTOIR(prog, irs[i]));
    NVRTC_CHECK(nvrtcDestroyProgram(&prog));
    names[i] = name;
    *size = sizes[i];
    return irs[i];
}

/* The four plans of one grid (x and y, forward and back) with their
 * callbacks, the callbacks' parameters and twiddle tables. Linking the
 * callbacks into cuFFT's kernels takes a good part of a second, so the
 * plans of the last grid are kept for the process's next solve of the
 * same grid. Grids of 2^21 cells and more get callbacks compiled for
 * them (their sizes and x, y types constants: SPECIAL_CELLS); smaller
 * ones, the tests' many grids, share one compiled set. */
enum { SPECIAL_CELLS = 1 << 21 };
struct fused_plans {
    int n[3], bc[2], special;
    cufftHandle xf, yf, yi, xi;
    fused_par *d_par;
    double2 *tw; /* x's n[0] entries, then y's n[1] */
};
static fused_plans cache;

/* tw[k] = (sin, cos)(-pi k / 2n), k < n: the staged kernels' sincospi,
 * once per grid, where the callbacks would call it for every element */
__global__ static void twiddles(double2 *tw, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        sincospi(-(double)k / (2.0 * n), &tw[k].x, &tw[k].y);
}

/* A plan with its two callbacks, or 0 (with a message naming the call)
 * where cuFFT cannot make it: the caller then solves by the staged path. */
#define FUSED_TRY(call)                                                                        \
    do {                                                                                       \
        cufftResult r_ = (call);                                                               \
        if (r_ != CUFFT_SUCCESS) {                                                             \
            fprintf(stderr, "%s:%d: cuFFT error in %s: code %d (the fused solver is not used)\n", \
                    __FILE__, __LINE__, #call, (int)r_);                                       \
            cufftDestroy(plan);                                                                \
            return 0;                                                                          \
        }                                                                                      \
    } while (0)

static cufftHandle fused_plan(int n, int stride, int batch, cufftType type, const char *load, const char *store,
                              void **info, const fp_grid *special)
{
    size_t ld_size, st_size, work;
    const char *ld = fused_ltoir(load, special, &ld_size), *st = fused_ltoir(store, special, &st_size);
    bool fwd = type == CUFFT_D2Z;
    int h = n / 2 + 1, in_n = fwd ? n : h, out_n = fwd ? h : n;
    cufftHandle plan;
    CUFFT_CHECK(cufftCreate(&plan));
    FUSED_TRY(cufftXtSetJITCallback(plan, load, ld, ld_size, fwd ? CUFFT_CB_LD_REAL_DOUBLE : CUFFT_CB_LD_COMPLEX_DOUBLE, info));
    FUSED_TRY(cufftXtSetJITCallback(plan, store, st, st_size, fwd ? CUFFT_CB_ST_COMPLEX_DOUBLE : CUFFT_CB_ST_REAL_DOUBLE, info));
    /* contiguous lines (stride 1): line b at b times the line's length;
     * strided lines: element j at j stride, neighbouring lines side by
     * side (dist 1). inembed/onembed must not be NULL, or cuFFT ignores
     * the strides. */
    int idist = stride == 1 ? in_n : 1, odist = stride == 1 ? out_n : 1;
    FUSED_TRY(cufftMakePlanMany(plan, 1, &n, &in_n, stride, idist, &out_n, stride, odist, type, batch, &work));
    if (special) /* the grid's own IR, linked by now */
        free((void *)ld), free((void *)st);
    return plan;
}

/* The plans of grid g, or NULL where cuFFT could not make them (said once). */
static fused_plans *fused_get(const fp_grid *g)
{
    static int failed;
    if (failed)
        return NULL;
    int special = fp_cells(g) >= SPECIAL_CELLS;
    if (cache.d_par && cache.n[0] == g->n[0] && cache.n[1] == g->n[1] && cache.n[2] == g->n[2] &&
        cache.special == special && (!special || (cache.bc[0] == (int)g->bc[0] && cache.bc[1] == (int)g->bc[1])))
        return &cache;
    if (cache.d_par) {
        cufftHandle h[4] = {cache.xf, cache.yf, cache.yi, cache.xi};
        for (int i = 0; i < 4; i++)
            CUFFT_CHECK(cufftDestroy(h[i]));
        CUDA_CHECK(cudaFree(cache.d_par));
        CUDA_CHECK(cudaFree(cache.tw));
        cache.d_par = NULL;
    }
    int nx = g->n[0], ny = g->n[1], nz = g->n[2];
    fused_par *d_par;
    CUDA_CHECK(cudaMalloc(&d_par, sizeof(fused_par)));
    void *info = d_par;
    const fp_grid *k = special ? g : NULL;
    int B = nx * nz, lines_x = ny * nz; /* fits: fused_ok */
    cufftHandle h[4] = {fused_plan(nx, 1, lines_x, CUFFT_D2Z, "x_fwd_load", "x_fwd_store", &info, k),
                        fused_plan(ny, B, B, CUFFT_D2Z, "y_fwd_load", "y_fwd_store", &info, k),
                        fused_plan(ny, B, B, CUFFT_Z2D, "y_inv_load", "y_inv_store", &info, k),
                        fused_plan(nx, 1, lines_x, CUFFT_Z2D, "x_inv_load", "x_inv_store", &info, k)};
    if (!h[0] || !h[1] || !h[2] || !h[3]) {
        for (int i = 0; i < 4; i++)
            if (h[i])
                CUFFT_CHECK(cufftDestroy(h[i]));
        CUDA_CHECK(cudaFree(d_par));
        failed = 1;
        return NULL;
    }
    CUDA_CHECK(cudaMalloc(&cache.tw, (size_t)(nx + ny) * sizeof(double2)));
    twiddles<<<blocks_for(nx), THREADS>>>(cache.tw, nx);
    CUDA_CHECK(cudaGetLastError());
    twiddles<<<blocks_for(ny), THREADS>>>(cache.tw + nx, ny);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    cache.xf = h[0], cache.yf = h[1], cache.yi = h[2], cache.xi = h[3], cache.d_par = d_par;
    for (int a = 0; a < 3; a++)
        cache.n[a] = g->n[a];
    cache.bc[0] = (int)g->bc[0], cache.bc[1] = (int)g->bc[1], cache.special = special;
    return &cache;
}

/* Where the fused solver applies: a whole grid on one GPU, lines of at
 * least 2 along x and y (a line of one is the staged path's), batches
 * that cuFFT's int counts hold. */
static int fused_ok(const fp_gpu *P)
{
    for (int a = 0; a < 3; a++)
        if (P->box[a].n[0] != P->g.n[0] || P->box[a].n[1] != P->g.n[1] || P->box[a].n[2] != P->g.n[2])
            return 0;
    return P->g.n[0] >= 2 && P->g.n[1] >= 2 && P->cells < (size_t)1 << 31;
}

extern "C" int fp_gpu_solve_fused(fp_gpu *P, double *d_a)
{
    fused_plans *F = fused_ok(P) ? fused_get(&P->g) : NULL;
    if (!F)
        return 1;
    fused_par par = {d_a,         P->real, F->tw, F->tw + P->g.n[0], (unsigned)P->g.n[0], (unsigned)P->g.n[1],
                     (unsigned)P->g.n[2], (int)P->g.bc[0], (int)P->g.bc[1]};
    CUDA_CHECK(cudaMemcpyAsync(F->d_par, &par, sizeof par, cudaMemcpyHostToDevice, P->stream));
    cufftHandle plans[4] = {F->xf, F->yf, F->yi, F->xi};
    for (int i = 0; i < 4; i++)
        CUFFT_CHECK(cufftSetStream(plans[i], P->stream));
    /* the nominal buffers: the real side is the array the callbacks read
     * or write anyway (cuFFT reads or writes nothing itself where a
     * callback is set), the complex side P->spec */
    CUFFT_CHECK(cufftExecD2Z(F->xf, d_a, P->spec));
    CUFFT_CHECK(cufftExecD2Z(F->yf, P->real, P->spec));
    int rc = fp_gpu_solve_z_checkpointed(P, d_a);
    CUFFT_CHECK(cufftExecZ2D(F->yi, P->spec, P->real));
    CUFFT_CHECK(cufftExecZ2D(F->xi, P->spec, d_a));
    return rc;
}
