/* Lab 7, stage 6a: the solver on one GPU. Read fp_gpu.h and the README's
 * stage 6. The plans and buffers (fp_gpu_create) and the mean helpers are
 * given; the kernels and the solver are yours. */
#include <cufft.h>

#include <stdio.h>
#include <stdlib.h>

#include "cuda_check.h"
#include "fp_gpu.h"

struct fp_gpu {
    fp_grid g;
    fp_box box[3];
    cudaStream_t stream;
    size_t cells;
    cufftHandle fwd[3], inv[3];
    double *real;             /* gathered lines (cells), also Thomas's gamma */
    cufftDoubleComplex *spec; /* spectra: lines x (n/2 + 1) complex, the largest axis's */
    int *bad;                 /* a zero pivot was met */
};

static unsigned blocks_for(size_t n) { return (unsigned)((n + 255) / 256); }

extern "C" fp_gpu *fp_gpu_create(const fp_grid *g, const fp_box box[3], cudaStream_t stream)
{
    fp_gpu *P = (fp_gpu *)calloc(1, sizeof *P);
    if (!P) {
        fprintf(stderr, "fp_gpu_create: out of host memory\n");
        exit(1);
    }
    P->g = *g;
    for (int a = 0; a < 3; a++)
        P->box[a] = box[a];
    P->stream = stream;
    P->cells = fp_box_cells(&box[0]);
    for (int a = 0; a < 3; a++) {
        int n = g->n[a], lines = (int)(P->cells / (size_t)n);
        CUFFT_CHECK(cufftPlanMany(&P->fwd[a], 1, &n, NULL, 1, n, NULL, 1, n / 2 + 1, CUFFT_D2Z, lines));
        CUFFT_CHECK(cufftPlanMany(&P->inv[a], 1, &n, NULL, 1, n / 2 + 1, NULL, 1, n, CUFFT_Z2D, lines));
        CUFFT_CHECK(cufftSetStream(P->fwd[a], stream));
        CUFFT_CHECK(cufftSetStream(P->inv[a], stream));
    }
    /* the largest half spectrum of the three axes: lines x (n/2 + 1) */
    size_t spec = 0;
    for (int a = 0; a < 3; a++) {
        size_t s = P->cells / (size_t)g->n[a] * (size_t)(g->n[a] / 2 + 1);
        spec = s > spec ? s : spec;
    }
    CUDA_CHECK(cudaMalloc(&P->real, P->cells * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&P->spec, spec * sizeof(cufftDoubleComplex)));
    CUDA_CHECK(cudaMalloc(&P->bad, sizeof(int)));
    return P;
}

extern "C" void fp_gpu_destroy(fp_gpu *P)
{
    if (!P)
        return;
    for (int a = 0; a < 3; a++) {
        CUFFT_CHECK(cufftDestroy(P->fwd[a]));
        CUFFT_CHECK(cufftDestroy(P->inv[a]));
    }
    CUDA_CHECK(cudaFree(P->real));
    CUDA_CHECK(cudaFree(P->spec));
    CUDA_CHECK(cudaFree(P->bad));
    free(P);
}

extern "C" void fp_gpu_transform(fp_gpu *P, int axis, int inverse, double *d_a)
{
    /* TODO: forward: a "pre" kernel gathers every line of P->box[axis] into
     * P->real (line after line; Makhoul's order for N and D, alternated
     * signs for D), cufftExecD2Z(P->fwd[axis]) into P->spec, a "post"
     * kernel writes FFTW's coefficients back into d_a (halfcomplex for P;
     * 2 Re(exp(-i pi k/2n) V_k) for N; the same, reversed, for D). Inverse:
     * the mirror image with cufftExecZ2D (the notes' 7.2 formulas). */
    (void)P, (void)axis, (void)inverse, (void)d_a;
}

extern "C" int fp_gpu_solve_z(fp_gpu *P, double *d_a)
{
    /* TODO: one thread per (kx, ky) system of P->box[2], the system index
     * fastest (element k of system s at d_a[s + k*nsys]), gamma in
     * P->real; the CPU's coefficients, scale and singular pin; a zero pivot
     * sets *P->bad. A periodic z: transform, divide, transform back. */
    (void)P, (void)d_a;
    return -1;
}

__global__ static void add_kernel(double *a, size_t n, double c)
{
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t < n)
        a[t] += c;
}

__global__ static void sum_kernel(const double *a, size_t n, double *sum)
{
    double s = 0.0;
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < n; t += (size_t)gridDim.x * blockDim.x)
        s += a[t];
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_down_sync(0xffffffffu, s, o);
    if (threadIdx.x % 32 == 0)
        atomicAdd(sum, s);
}

extern "C" void fp_gpu_add(fp_gpu *P, double *d_a, size_t n, double c)
{
    add_kernel<<<blocks_for(n), 256, 0, P->stream>>>(d_a, n, c);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" void fp_gpu_sum(fp_gpu *P, const double *d_a, size_t n, double *d_sum)
{
    CUDA_CHECK(cudaMemsetAsync(d_sum, 0, sizeof(double), P->stream));
    unsigned blocks = blocks_for(n) < 1024 ? blocks_for(n) : 1024;
    sum_kernel<<<blocks, 256, 0, P->stream>>>(d_a, n, d_sum);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" int fp_solve_cuda(const fp_grid *g, double *f)
{
    /* TODO: check the grid and that there is a GPU; a stream; fp_gpu_create
     * with the whole grid as every box; copy f to the device; the stages of
     * fp_solve_serial (means with fp_gpu_sum and fp_gpu_add); copy back. */
    (void)g, (void)f;
    return -1;
}
