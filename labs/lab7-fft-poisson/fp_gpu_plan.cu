/* Lab 7, stage 6a (given): the cuFFT plans and device buffers of one
 * GPU's solver (fp_gpu_create), and the mean helpers of the singular
 * problems (fp_gpu_add, fp_gpu_sum). Linked into every build of the lab:
 * the kernels and the solver in fp_cuda.cu are yours. */
#include <stdio.h>
#include <stdlib.h>

#include "fp_gpu_plan.h" /* cufft.h first: cuda_check.h then defines CUFFT_CHECK */
#include "cuda_check.h"

enum { THREADS = 256 };
static unsigned blocks_for(size_t n) { return (unsigned)((n + THREADS - 1) / THREADS); }

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
    add_kernel<<<blocks_for(n), THREADS, 0, P->stream>>>(d_a, n, c);
    CUDA_CHECK(cudaGetLastError());
}

extern "C" void fp_gpu_sum(fp_gpu *P, const double *d_a, size_t n, double *d_sum)
{
    CUDA_CHECK(cudaMemsetAsync(d_sum, 0, sizeof(double), P->stream));
    unsigned blocks = blocks_for(n) < 1024 ? blocks_for(n) : 1024;
    sum_kernel<<<blocks, THREADS, 0, P->stream>>>(d_a, n, d_sum);
    CUDA_CHECK(cudaGetLastError());
}
