/* Lab 7, stage 6a (reference): the solver on one GPU. cuFFT's D2Z/Z2D
 * between Makhoul's pre- and post-processing kernels give FFTW's r2r
 * coefficients exactly; the z systems are solved one per thread with the
 * system index fastest. */
#include <cufft.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"
#include "fp_gpu_plan.h"

/* Where the lines along one axis of a box lie. Cell (x, y, z) of the box
 * is d_a[x + d0 (y + d1 z)]; the lines along an axis are numbered by the
 * other two coordinates, the lower-numbered fastest: line l = co[p] + d[p]
 * co[q]. The kernels get these coordinates from a 3-D launch grid, not by
 * dividing a flat index: 64-bit division is a long instruction sequence on
 * a GPU, and three of them per cell cost more than the cell's memory
 * traffic. */
struct lines_geo {
    int n;          /* line length */
    int d[3];       /* the box's extents */
    int axis, p, q; /* the axis and the other two */
    fp_bc bc;
};

static lines_geo geo_of(const fp_gpu *P, int axis)
{
    lines_geo G;
    G.n = P->g.n[axis];
    for (int a = 0; a < 3; a++)
        G.d[a] = P->box[axis].n[a];
    G.axis = axis;
    G.p = axis == 0 ? 1 : 0;
    G.q = axis == 2 ? 1 : 2;
    G.bc = P->g.bc[axis];
    return G;
}

/* ---- what happens to one element (every layout below uses these) ---- */

/* Makhoul's order: even elements first, then the odd ones backwards. */
__device__ static int makhoul_slot(int c, int n) { return c % 2 == 0 ? c / 2 : n - 1 - (c - 1) / 2; }

/* Where element c of a line goes in the gathered line, and its sign there
 * (DST-II = DCT-II of the alternated input, reversed). The inverse's post
 * step reads it back from the same slot with the same sign. */
__device__ static int pre_slot(const lines_geo &G, int c) { return G.bc == FP_P ? c : makhoul_slot(c, G.n); }
__device__ static double pre_sign(const lines_geo &G, int c, double x) { return G.bc == FP_D && c % 2 ? -x : x; }

/* Coefficient k of a line from its half spectrum S. */
__device__ static double post_forward_value(const lines_geo &G, const cufftDoubleComplex *S, int k)
{
    int n = G.n;
    if (G.bc == FP_P) /* halfcomplex: r_0 .. r_{n/2}, then i_{(n-1)/2} .. i_1 */
        return 2 * k <= n ? S[k].x : S[n - k].y;
    int kk = G.bc == FP_D ? n - 1 - k : k;
    double vx = 2 * kk <= n ? S[kk].x : S[n - kk].x, vy = 2 * kk <= n ? S[kk].y : -S[n - kk].y;
    double s, co;
    sincospi(-(double)kk / (2.0 * n), &s, &co);
    return 2.0 * (co * vx - s * vy); /* 2 Re(exp(-i pi k/2n) V_k) */
}

/* Half-spectrum entry k of a line of coefficients (contiguous). */
__device__ static cufftDoubleComplex pre_inverse_value(const lines_geo &G, const double *line, int k)
{
    int n = G.n;
    cufftDoubleComplex w;
    if (G.bc == FP_P) {
        w.x = line[k];
        w.y = (k == 0 || 2 * k == n) ? 0.0 : line[n - k];
        return w;
    }
    /* Y (reversed for D), Y_n = 0: W_k = exp(i pi k/2n) (Y_k - i Y_{n-k}) */
    double yk, ynk;
    if (G.bc == FP_N) {
        yk = line[k];
        ynk = k == 0 ? 0.0 : line[n - k];
    } else {
        yk = line[n - 1 - k];
        ynk = k == 0 ? 0.0 : line[k - 1];
    }
    double sn, co;
    sincospi((double)k / (2.0 * n), &sn, &co);
    w.x = co * yk + sn * ynk;
    w.y = sn * yk - co * ynk;
    return w;
}

/* ---- x: the lines are rows of d_a already ---------------------------------
 * Grid (ceil(n / THREADS), d1, d2): thread c of line l = y + d1 z. */

__device__ static size_t row_line() { return blockIdx.y + (size_t)gridDim.y * blockIdx.z; }

__global__ static void pre_forward_rows(lines_geo G, const double *a, double *R)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    size_t l = row_line();
    if (c < G.n)
        R[l * G.n + pre_slot(G, c)] = pre_sign(G, c, a[l * G.n + c]);
}

/* The lines back into d_a's rows: the spectra through the forward post
 * step (FORWARD: src holds the spectra), or the inverse FFT's output read
 * in Makhoul's order with its signs (src holds the real lines). */
template <bool FORWARD> __global__ static void scatter_rows(lines_geo G, const void *src, double *a)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    size_t l = row_line();
    if (c < G.n)
        a[l * G.n + c] = FORWARD ? post_forward_value(G, (const cufftDoubleComplex *)src + l * (size_t)(G.n / 2 + 1), c)
                                 : pre_sign(G, c, ((const double *)src)[l * G.n + pre_slot(G, c)]);
}

/* Every line of coefficients (contiguous, line l at lines + l n) to its half
 * spectrum: grid (ceil((n/2 + 1) / THREADS), d[p], d[q]). */
__global__ static void pre_inverse_rows(lines_geo G, const double *lines, cufftDoubleComplex *C)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x, h = G.n / 2 + 1;
    size_t l = row_line();
    if (k < h)
        C[l * h + k] = pre_inverse_value(G, lines + l * G.n, k);
}

/* ---- y and z: the lines cross the rows -----------------------------------
 * A block moves a tile of TILE cells along x by TILE along the axis, at
 * one value o of the third coordinate, through shared memory: it reads
 * d_a along x (whole cache lines) and writes the gathered lines along
 * each line (whole cache lines again), where one thread per cell would
 * touch a cache line for every cell on one side. Grid (ceil(d0 / TILE),
 * ceil(n / TILE), d_o), blocks of TILE x ROWS threads. The lines here are
 * l = x + d0 o. */
enum { TILE = 32, ROWS = 8 };

__device__ static size_t cell_of(const lines_geo &G, int x, int c, int o)
{
    size_t row = G.d[0], plane = (size_t)G.d[0] * G.d[1];
    return x + (G.axis == 1 ? c * row + o * plane : o * row + c * plane);
}

/* d_a's cells into gathered lines R: in Makhoul's order with its signs
 * (MAKHOUL), or as they are (the inverse's input, for pre_inverse_rows). */
template <bool MAKHOUL> __global__ static void gather_tiles(lines_geo G, const double *a, double *R)
{
    __shared__ double tile[TILE][TILE + 1]; /* [along the axis][x]; + 1: no bank conflicts */
    const int x0 = blockIdx.x * TILE, c0 = blockIdx.y * TILE, o = blockIdx.z, tx = threadIdx.x;
    for (int r = threadIdx.y; r < TILE; r += ROWS)
        if (x0 + tx < G.d[0] && c0 + r < G.n) {
            double v = a[cell_of(G, x0 + tx, c0 + r, o)];
            tile[r][tx] = MAKHOUL ? pre_sign(G, c0 + r, v) : v;
        }
    __syncthreads();
    for (int r = threadIdx.y; r < TILE; r += ROWS)
        if (x0 + r < G.d[0] && c0 + tx < G.n) {
            size_t l = x0 + r + (size_t)G.d[0] * o;
            R[l * G.n + (MAKHOUL ? pre_slot(G, c0 + tx) : c0 + tx)] = tile[tx][r];
        }
}

/* Gathered lines back into d_a's cells: the spectra through the forward
 * post step (FORWARD: src holds the spectra), or the inverse FFT's output
 * read in Makhoul's order with its signs (src holds the real lines). */
template <bool FORWARD> __global__ static void scatter_tiles(lines_geo G, const void *src, double *a)
{
    __shared__ double tile[TILE][TILE + 1];
    const int x0 = blockIdx.x * TILE, c0 = blockIdx.y * TILE, o = blockIdx.z, tx = threadIdx.x;
    for (int r = threadIdx.y; r < TILE; r += ROWS)
        if (x0 + r < G.d[0] && c0 + tx < G.n) {
            size_t l = x0 + r + (size_t)G.d[0] * o;
            int c = c0 + tx;
            tile[tx][r] = FORWARD ? post_forward_value(G, (const cufftDoubleComplex *)src + l * (size_t)(G.n / 2 + 1), c)
                                  : pre_sign(G, c, ((const double *)src)[l * G.n + pre_slot(G, c)]);
        }
    __syncthreads();
    for (int r = threadIdx.y; r < TILE; r += ROWS)
        if (x0 + tx < G.d[0] && c0 + r < G.n)
            a[cell_of(G, x0 + tx, c0 + r, o)] = tile[r][tx];
}

/* Every kernel here runs THREADS threads a block (or TILE x ROWS); the
 * grids below cover the work with them (a launch with another block size
 * would leave work undone: one thread per z system missed half of them
 * once). */
enum { THREADS = 256 };
static unsigned blocks_for(size_t n) { return (unsigned)((n + THREADS - 1) / THREADS); }

extern "C" void fp_gpu_transform(fp_gpu *P, int axis, int inverse, double *d_a)
{
    lines_geo G = geo_of(P, axis);
    const unsigned h = (unsigned)(G.n / 2 + 1);
    const dim3 rows(blocks_for(G.n), G.d[G.p], G.d[G.q]), spectra(blocks_for(h), G.d[G.p], G.d[G.q]);
    const dim3 tiles((G.d[0] + TILE - 1) / TILE, (G.n + TILE - 1) / TILE, G.d[G.q]), tile_threads(TILE, ROWS);
    cudaStream_t s = P->stream;
    if (!inverse) {
        if (axis == 0)
            pre_forward_rows<<<rows, THREADS, 0, s>>>(G, d_a, P->real);
        else
            gather_tiles<true><<<tiles, tile_threads, 0, s>>>(G, d_a, P->real);
        CUDA_CHECK(cudaGetLastError());
        CUFFT_CHECK(cufftExecD2Z(P->fwd[axis], P->real, P->spec));
        if (axis == 0)
            scatter_rows<true><<<rows, THREADS, 0, s>>>(G, P->spec, d_a);
        else
            scatter_tiles<true><<<tiles, tile_threads, 0, s>>>(G, P->spec, d_a);
        CUDA_CHECK(cudaGetLastError());
    } else {
        const double *lines = d_a; /* x: the rows are the lines */
        if (axis != 0) {
            gather_tiles<false><<<tiles, tile_threads, 0, s>>>(G, d_a, P->real);
            CUDA_CHECK(cudaGetLastError());
            lines = P->real;
        }
        pre_inverse_rows<<<spectra, THREADS, 0, s>>>(G, lines, P->spec);
        CUDA_CHECK(cudaGetLastError());
        CUFFT_CHECK(cufftExecZ2D(P->inv[axis], P->spec, P->real));
        if (axis == 0)
            scatter_rows<false><<<rows, THREADS, 0, s>>>(G, P->real, d_a);
        else
            scatter_tiles<false><<<tiles, tile_threads, 0, s>>>(G, P->real, d_a);
        CUDA_CHECK(cudaGetLastError());
    }
}

/* lambda/h^2 of index k of an axis, as fp_eigenvalue (cospi: exact at the
 * quarter points). */
__device__ static double eig(fp_bc bc, int k, int n, double h)
{
    double x = bc == FP_P ? 2.0 * k / n : bc == FP_N ? (double)k / n : (double)(k + 1) / n;
    return (-2.0 + 2.0 * cospi(x)) / (h * h);
}

struct z_geo {
    fp_grid g;
    int lo[2], d[2]; /* the box's x and y */
    double scale;
    int singular;
};

/* System s of a z_geo, for both Thomas kernels: its matrix (off the
 * diagonal off; on it b, and b0 and bn in the first and last rows), and
 * the first row of the forward sweep (aux its pivot, prev its value);
 * false once a one-row system is solved whole. */
struct z_sys {
    size_t nsys, s;
    int n;
    double off, b, b0, bn, aux, prev;
};
__device__ static bool z_system_start(const z_geo &Z, double *a, int *bad, z_sys *m)
{
    size_t s = m->s;
    int kx = Z.lo[0] + (int)(s % Z.d[0]), ky = Z.lo[1] + (int)(s / Z.d[0]), n = Z.g.n[2];
    double hz = Z.g.L[2] / n, off = 1.0 / (hz * hz);
    double b = -2.0 * off + eig(Z.g.bc[0], kx, Z.g.n[0], Z.g.L[0] / Z.g.n[0]) +
               eig(Z.g.bc[1], ky, Z.g.n[1], Z.g.L[1] / Z.g.n[1]);
    double corner = Z.g.bc[2] == FP_N ? off : -off;
    double b0 = b + corner, bn = b + corner;
    if (kx == 0 && ky == 0 && Z.singular)
        b0 -= off; /* pin u_0 = 0, as on the CPU */
    m->n = n, m->off = off, m->b = b, m->b0 = b0, m->bn = bn;
    if (n == 1) {
        double d = b0 + bn - b;
        if (d == 0.0)
            *bad = 1;
        a[s] = a[s] * Z.scale / d;
        return false;
    }
    m->aux = b0;
    if (m->aux == 0.0)
        *bad = 1;
    m->prev = a[s] * Z.scale / m->aux;
    a[s] = m->prev;
    return true;
}

/* One thread per (kx, ky) system; element k of system s at a[s + k*nsys],
 * so neighbouring threads read neighbouring doubles. */
__global__ static void thomas_batch(z_geo Z, double *a, double *gamma, int *bad)
{
    z_sys m;
    m.nsys = (size_t)Z.d[0] * Z.d[1], m.s = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (m.s >= m.nsys || !z_system_start(Z, a, bad, &m))
        return;
    const size_t nsys = m.nsys, s = m.s;
    const int n = m.n;
    const double off = m.off, b = m.b, bn = m.bn;
    double aux = m.aux, prev = m.prev;
    for (int k = 1; k < n; k++) {
        double gk = off / aux;
        gamma[k * nsys + s] = gk;
        aux = (k == n - 1 ? bn : b) - off * gk;
        if (aux == 0.0)
            *bad = 1;
        prev = (a[k * nsys + s] * Z.scale - off * prev) / aux;
        a[k * nsys + s] = prev;
    }
    for (int k = n - 2; k >= 0; k--) {
        prev = a[k * nsys + s] - gamma[(k + 1) * nsys + s] * prev;
        a[k * nsys + s] = prev;
    }
}

/* z periodic: after the z transform every mode is divided by its
 * eigenvalue sum; the singular mode (the mean) is set to 0. */
__global__ static void divide_modes(z_geo Z, double *a)
{
    size_t nsys = (size_t)Z.d[0] * Z.d[1], t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= nsys * Z.g.n[2])
        return;
    size_t s = t % nsys;
    int kx = Z.lo[0] + (int)(s % Z.d[0]), ky = Z.lo[1] + (int)(s / Z.d[0]), kz = (int)(t / nsys);
    if (kx == 0 && ky == 0 && kz == 0 && Z.singular) {
        a[t] = 0.0;
        return;
    }
    double l = 0.0;
    const int k3[3] = {kx, ky, kz};
    for (int ax = 0; ax < 3; ax++)
        l += eig(Z.g.bc[ax], k3[ax], Z.g.n[ax], Z.g.L[ax] / Z.g.n[ax]);
    a[t] *= Z.scale / l;
}

extern "C" int fp_gpu_solve_z(fp_gpu *P, double *d_a)
{
    z_geo Z;
    Z.g = P->g;
    for (int a = 0; a < 2; a++)
        Z.lo[a] = P->box[2].lo[a], Z.d[a] = P->box[2].n[a];
    Z.scale = 1.0 / (fp_round_trip(P->g.bc[0], P->g.n[0]) * fp_round_trip(P->g.bc[1], P->g.n[1]));
    Z.singular = fp_singular(&P->g);
    size_t nsys = (size_t)Z.d[0] * Z.d[1];
    CUDA_CHECK(cudaMemsetAsync(P->bad, 0, sizeof(int), P->stream));
    if (P->g.bc[2] == FP_P) {
        Z.scale /= fp_round_trip(FP_P, P->g.n[2]);
        fp_gpu_transform(P, 2, 0, d_a);
        divide_modes<<<blocks_for(P->cells), THREADS, 0, P->stream>>>(Z, d_a);
        CUDA_CHECK(cudaGetLastError());
        fp_gpu_transform(P, 2, 1, d_a);
    } else {
        thomas_batch<<<blocks_for(nsys), THREADS, 0, P->stream>>>(Z, d_a, P->real, P->bad);
        CUDA_CHECK(cudaGetLastError());
    }
    int bad = 0;
    CUDA_CHECK(cudaMemcpyAsync(&bad, P->bad, sizeof bad, cudaMemcpyDeviceToHost, P->stream));
    CUDA_CHECK(cudaStreamSynchronize(P->stream));
    return bad ? -1 : 0;
}

/* ---- Beyond the pass bound (the reference's optional challenge) ----------
 * The staged transforms above are three trips through memory each: the pre
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
 * CUFFT_INTERNAL_ERROR on the kit's H100 host). */
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
     * CUFFT_INTERNAL_ERROR on the kit's H100 host). Calling it here links
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

/* The z systems of the fused solve: thomas_batch without its gamma array.
 * Gamma depends on the system's diagonal alone, not on the data, so the
 * forward sweep keeps only every CK-th pivot (aux), and the backward sweep
 * recomputes each chunk's CK gammas from its pivot, by the same
 * operations, into registers: the grid is read and written twice, where
 * thomas_batch also writes and reads a gamma array of the grid's size
 * (six trips through memory become four). ckpt: ceil(n/CK) nsys doubles. */
enum { CK = 16 };
__global__ static void thomas_checkpointed(z_geo Z, double *a, double *ckpt, int *bad)
{
    z_sys m;
    m.nsys = (size_t)Z.d[0] * Z.d[1], m.s = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (m.s >= m.nsys || !z_system_start(Z, a, bad, &m))
        return;
    const size_t nsys = m.nsys, s = m.s;
    const int n = m.n;
    const double off = m.off, b = m.b, bn = m.bn;
    double aux = m.aux, prev = m.prev;
    ckpt[s] = aux;
    for (int k = 1; k < n; k++) {
        double gk = off / aux;
        aux = (k == n - 1 ? bn : b) - off * gk;
        if (aux == 0.0)
            *bad = 1;
        if (k % CK == 0)
            ckpt[(size_t)(k / CK) * nsys + s] = aux;
        prev = (Z.scale * a[k * nsys + s] - off * prev) / aux;
        a[k * nsys + s] = prev;
    }
    for (int c = (n - 1) / CK; c >= 0; c--) {
        const int k0 = c * CK;
        double g[CK]; /* g[i] = gamma_{k0 + 1 + i}; unrolled: registers */
        double x = ckpt[(size_t)c * nsys + s];
#pragma unroll
        for (int i = 0; i < CK; i++)
            if (k0 + 1 + i < n) {
                g[i] = off / x;
                x = (k0 + 1 + i == n - 1 ? bn : b) - off * g[i];
            }
#pragma unroll
        for (int i = CK - 1; i >= 0; i--)
            if (k0 + i <= n - 2) {
                prev = a[(k0 + i) * nsys + s] - g[i] * prev;
                a[(k0 + i) * nsys + s] = prev;
            }
    }
}

/* fp_gpu_solve_z with thomas_checkpointed (a periodic z is fp_gpu_solve_z's). */
static int solve_z_fused(fp_gpu *P, double *d_a)
{
    if (P->g.bc[2] == FP_P)
        return fp_gpu_solve_z(P, d_a);
    z_geo Z;
    Z.g = P->g;
    for (int a = 0; a < 2; a++)
        Z.lo[a] = P->box[2].lo[a], Z.d[a] = P->box[2].n[a];
    Z.scale = 1.0 / (fp_round_trip(P->g.bc[0], P->g.n[0]) * fp_round_trip(P->g.bc[1], P->g.n[1]));
    Z.singular = fp_singular(&P->g);
    size_t nsys = (size_t)Z.d[0] * Z.d[1];
    CUDA_CHECK(cudaMemsetAsync(P->bad, 0, sizeof(int), P->stream));
    thomas_checkpointed<<<blocks_for(nsys), THREADS, 0, P->stream>>>(Z, d_a, P->real, P->bad);
    CUDA_CHECK(cudaGetLastError());
    int bad = 0;
    CUDA_CHECK(cudaMemcpyAsync(&bad, P->bad, sizeof bad, cudaMemcpyDeviceToHost, P->stream));
    CUDA_CHECK(cudaStreamSynchronize(P->stream));
    return bad ? -1 : 0;
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
    int rc = solve_z_fused(P, d_a);
    CUFFT_CHECK(cufftExecZ2D(F->yi, P->spec, P->real));
    CUFFT_CHECK(cufftExecZ2D(F->xi, P->spec, d_a));
    return rc;
}

/* The mean removal of the singular problems, on one GPU. */
static void remove_mean(fp_gpu *P, double *d_a, double *d_sum)
{
    double sum;
    fp_gpu_sum(P, d_a, P->cells, d_sum);
    CUDA_CHECK(cudaMemcpyAsync(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost, P->stream));
    CUDA_CHECK(cudaStreamSynchronize(P->stream));
    fp_gpu_add(P, d_a, P->cells, -sum / (double)P->cells);
}

extern "C" int fp_solve_cuda(const fp_grid *g, double *f)
{
    if (fp_grid_check(g) != 0)
        return -1;
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        fprintf(stderr, "fp_solve_cuda: no GPU\n");
        return -1;
    }
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    fp_box all[3] = {fp_whole(g), fp_whole(g), fp_whole(g)};
    fp_gpu *P = fp_gpu_create(g, all, stream);
    size_t bytes = P->cells * sizeof(double);
    double *d_a, *d_sum;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_sum, sizeof(double)));
    CUDA_CHECK(cudaMemcpyAsync(d_a, f, bytes, cudaMemcpyHostToDevice, stream));
    if (fp_singular(g))
        remove_mean(P, d_a, d_sum);
    int rc = fp_gpu_solve_fused(P, d_a);
    if (rc == 1) { /* the staged path */
        fp_gpu_transform(P, 0, 0, d_a);
        fp_gpu_transform(P, 1, 0, d_a);
        rc = fp_gpu_solve_z(P, d_a);
        fp_gpu_transform(P, 1, 1, d_a);
        fp_gpu_transform(P, 0, 1, d_a);
    }
    if (fp_singular(g))
        remove_mean(P, d_a, d_sum);
    CUDA_CHECK(cudaMemcpyAsync(f, d_a, bytes, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_sum));
    fp_gpu_destroy(P);
    CUDA_CHECK(cudaStreamDestroy(stream));
    return rc;
}
