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

/* fp_gpu_solve_z with thomas_checkpointed (a periodic z is fp_gpu_solve_z's):
 * the z stage of the optional fused solve (fp_cuda_fused.cu), here beside
 * the kernels whose system set-up it shares. */
extern "C" int fp_gpu_solve_z_checkpointed(fp_gpu *P, double *d_a)
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
    /* the optional fused solve (fp_cuda_fused.cu) where it is there and
     * applies, else the staged path */
    int rc = fp_gpu_solve_fused ? fp_gpu_solve_fused(P, d_a) : 1;
    if (rc == 1) {
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
