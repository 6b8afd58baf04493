/* Lab 7, stage 6a (reference): the solver on one GPU. cuFFT's D2Z/Z2D
 * between Makhoul's pre- and post-processing kernels give FFTW's r2r
 * coefficients exactly; the z systems are solved one per thread with the
 * system index fastest. */
#include <cufft.h>

#include <stdio.h>
#include <stdlib.h>

#include "cuda_check.h"
#include "fp_gpu_plan.h"

/* Where the lines along one axis of a box lie: cell t of the box (x
 * fastest) is element c = coordinate along the axis of line l = the other
 * two coordinates, the lower-numbered fastest. */
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

__device__ static void split(const lines_geo &G, size_t t, int *c, size_t *l)
{
    int co[3];
    co[0] = (int)(t % G.d[0]);
    co[1] = (int)(t / G.d[0] % G.d[1]);
    co[2] = (int)(t / ((size_t)G.d[0] * G.d[1]));
    *c = co[G.axis];
    *l = (size_t)co[G.p] + (size_t)G.d[G.p] * co[G.q];
}

/* Makhoul's order: even elements first, then the odd ones backwards. */
__device__ static int makhoul_slot(int c, int n) { return c % 2 == 0 ? c / 2 : n - 1 - (c - 1) / 2; }

__global__ static void pre_forward(lines_geo G, size_t cells, const double *a, double *R)
{
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= cells)
        return;
    int c;
    size_t l;
    split(G, t, &c, &l);
    double x = a[t];
    if (G.bc == FP_P) {
        R[l * G.n + c] = x;
        return;
    }
    if (G.bc == FP_D && c % 2) /* DST-II = DCT-II of the alternated input, reversed */
        x = -x;
    R[l * G.n + makhoul_slot(c, G.n)] = x;
}

__global__ static void post_forward(lines_geo G, size_t cells, const cufftDoubleComplex *C, double *a)
{
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= cells)
        return;
    int k, n = G.n;
    size_t l;
    split(G, t, &k, &l);
    const cufftDoubleComplex *S = C + l * (size_t)(n / 2 + 1);
    if (G.bc == FP_P) { /* halfcomplex: r_0 .. r_{n/2}, then i_{(n-1)/2} .. i_1 */
        a[t] = 2 * k <= n ? S[k].x : S[n - k].y;
        return;
    }
    int kk = G.bc == FP_D ? n - 1 - k : k;
    double vx = 2 * kk <= n ? S[kk].x : S[n - kk].x, vy = 2 * kk <= n ? S[kk].y : -S[n - kk].y;
    double s, co;
    sincospi(-(double)kk / (2.0 * n), &s, &co);
    a[t] = 2.0 * (co * vx - s * vy); /* 2 Re(exp(-i pi k/2n) V_k) */
}

__global__ static void pre_inverse(lines_geo G, size_t lines, const double *a, cufftDoubleComplex *C)
{
    int n = G.n, h = n / 2 + 1;
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= lines * h)
        return;
    size_t l = t / h;
    int k = (int)(t % h);
    size_t o1 = l % G.d[G.p], o2 = l / G.d[G.p];
    size_t st[3] = {1, (size_t)G.d[0], (size_t)G.d[0] * G.d[1]};
    const double *line = a + o1 * st[G.p] + o2 * st[G.q];
    size_t s = st[G.axis];
    if (G.bc == FP_P) {
        C[t].x = line[k * s];
        C[t].y = (k == 0 || 2 * k == n) ? 0.0 : line[(size_t)(n - k) * s];
        return;
    }
    /* Y (reversed for D), Y_n = 0: W_k = exp(i pi k/2n) (Y_k - i Y_{n-k}) */
    double yk, ynk;
    if (G.bc == FP_N) {
        yk = line[k * s];
        ynk = k == 0 ? 0.0 : line[(size_t)(n - k) * s];
    } else {
        yk = line[(size_t)(n - 1 - k) * s];
        ynk = k == 0 ? 0.0 : line[(size_t)(k - 1) * s];
    }
    double sn, co;
    sincospi((double)k / (2.0 * n), &sn, &co);
    C[t].x = co * yk + sn * ynk;
    C[t].y = sn * yk - co * ynk;
}

__global__ static void post_inverse(lines_geo G, size_t cells, const double *R, double *a)
{
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t >= cells)
        return;
    int c;
    size_t l;
    split(G, t, &c, &l);
    if (G.bc == FP_P) {
        a[t] = R[l * G.n + c];
        return;
    }
    double v = R[l * G.n + makhoul_slot(c, G.n)];
    a[t] = G.bc == FP_D && c % 2 ? -v : v;
}

/* Every kernel here runs THREADS threads a block; blocks_for(n) covers n
 * threads with them (a launch with another block size would leave work
 * undone: one thread per z system missed half of them once). */
enum { THREADS = 256 };
static unsigned blocks_for(size_t n) { return (unsigned)((n + THREADS - 1) / THREADS); }

extern "C" void fp_gpu_transform(fp_gpu *P, int axis, int inverse, double *d_a)
{
    lines_geo G = geo_of(P, axis);
    size_t lines = P->cells / (size_t)G.n;
    if (!inverse) {
        pre_forward<<<blocks_for(P->cells), THREADS, 0, P->stream>>>(G, P->cells, d_a, P->real);
        CUDA_CHECK(cudaGetLastError());
        CUFFT_CHECK(cufftExecD2Z(P->fwd[axis], P->real, P->spec));
        post_forward<<<blocks_for(P->cells), THREADS, 0, P->stream>>>(G, P->cells, P->spec, d_a);
        CUDA_CHECK(cudaGetLastError());
    } else {
        size_t h = (size_t)(G.n / 2 + 1);
        pre_inverse<<<blocks_for(lines * h), THREADS, 0, P->stream>>>(G, lines, d_a, P->spec);
        CUDA_CHECK(cudaGetLastError());
        CUFFT_CHECK(cufftExecZ2D(P->inv[axis], P->spec, P->real));
        post_inverse<<<blocks_for(P->cells), THREADS, 0, P->stream>>>(G, P->cells, P->real, d_a);
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

/* One thread per (kx, ky) system; element k of system s at a[s + k*nsys],
 * so neighbouring threads read neighbouring doubles. */
__global__ static void thomas_batch(z_geo Z, double *a, double *gamma, int *bad)
{
    size_t nsys = (size_t)Z.d[0] * Z.d[1], s = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (s >= nsys)
        return;
    int kx = Z.lo[0] + (int)(s % Z.d[0]), ky = Z.lo[1] + (int)(s / Z.d[0]), n = Z.g.n[2];
    double hz = Z.g.L[2] / n, off = 1.0 / (hz * hz);
    double b = -2.0 * off + eig(Z.g.bc[0], kx, Z.g.n[0], Z.g.L[0] / Z.g.n[0]) +
               eig(Z.g.bc[1], ky, Z.g.n[1], Z.g.L[1] / Z.g.n[1]);
    double corner = Z.g.bc[2] == FP_N ? off : -off;
    double b0 = b + corner, bn = b + corner;
    if (kx == 0 && ky == 0 && Z.singular)
        b0 -= off; /* pin u_0 = 0, as on the CPU */
    if (n == 1) {
        double d = b0 + bn - b;
        if (d == 0.0)
            *bad = 1;
        a[s] = a[s] * Z.scale / d;
        return;
    }
    double aux = b0;
    if (aux == 0.0)
        *bad = 1;
    double prev = a[s] * Z.scale / aux;
    a[s] = prev;
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
    fp_gpu_transform(P, 0, 0, d_a);
    fp_gpu_transform(P, 1, 0, d_a);
    int rc = fp_gpu_solve_z(P, d_a);
    fp_gpu_transform(P, 1, 1, d_a);
    fp_gpu_transform(P, 0, 1, d_a);
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
