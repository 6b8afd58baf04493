/* Lab 7, stage 6b (reference): the pencil solver with one GPU per rank.
 * The stages of fp_cuda.cu on each rank's pencils; the transposes pack and
 * unpack on the device and exchange through NCCL's grouped send/recv. */
#include <stdio.h>
#include <stdlib.h>

#include "cuda_check.h"
#include "fp_gpu.h"

/* Copies the cells of part from src (laid out as box from) to dst (laid
 * out as box to): the pack (to = part), the unpack (from = part) and a
 * rank's own share (both whole pencils). A block copies one row along x,
 * its y and z given by the grid: no division per cell (64-bit divisions
 * cost more than the copy's memory traffic), and every box is x-fastest,
 * so each warp reads and writes contiguous runs. */
__global__ static void copy_box(fp_box part, fp_box from, const double *src, fp_box to, double *dst)
{
    int j = part.lo[1] + (int)blockIdx.y, k = part.lo[2] + (int)blockIdx.z;
    const double *s = src + (size_t)(part.lo[0] - from.lo[0]) +
                      (size_t)from.n[0] * ((size_t)(j - from.lo[1]) + (size_t)from.n[1] * (k - from.lo[2]));
    double *d = dst + (size_t)(part.lo[0] - to.lo[0]) +
                (size_t)to.n[0] * ((size_t)(j - to.lo[1]) + (size_t)to.n[1] * (k - to.lo[2]));
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < part.n[0]; i += gridDim.x * blockDim.x)
        d[i] = s[i];
}

struct pencils {
    fp_grid g;
    int pr, pc, r, c;
    fp_box box[3];
    ncclComm_t comm;
    cudaStream_t stream;
    double *send, *recv; /* device, one pencil each */
    cudaEvent_t ev[8];   /* around each of the four transposes, for fp_record_seconds */
    int nev;
};

static void launch_copy(const pencils &W, const fp_box &part, const fp_box &from, const double *src, const fp_box &to,
                        double *dst)
{
    if (!fp_box_cells(&part))
        return;
    dim3 grid((unsigned)((part.n[0] + 127) / 128), (unsigned)part.n[1], (unsigned)part.n[2]);
    copy_box<<<grid, 128, 0, W.stream>>>(part, from, src, to, dst);
    CUDA_CHECK(cudaGetLastError());
}

/* x <-> y among the pc ranks of a row, y <-> z among the pr of a column.
 * A rank's own share goes straight from in to out: packing it, sending it
 * to itself and unpacking it would move it through memory three times. */
static void transpose(pencils &W, fp_pencil from, fp_pencil to, const double *in, double *out)
{
    CUDA_CHECK(cudaEventRecord(W.ev[W.nev++], W.stream));
    int across_row = from != FP_ZPENCIL && to != FP_ZPENCIL;
    int peers = across_row ? W.pc : W.pr, me = across_row ? W.c : W.r;
    size_t block = fp_box_cells(&W.box[from]) / (size_t)peers;
    for (int q = 0; q < peers; q++) {
        int qr = across_row ? W.r : q, qc = across_row ? q : W.c;
        fp_box theirs = fp_pencil_box(&W.g, W.pr, W.pc, qr, qc, to);
        fp_box part = fp_box_intersect(&W.box[from], &theirs);
        if (q == me)
            launch_copy(W, part, W.box[from], in, W.box[to], out);
        else
            launch_copy(W, part, W.box[from], in, part, W.send + (size_t)q * block);
    }
    if (peers > 1) {
        NCCL_CHECK(ncclGroupStart());
        for (int q = 0; q < peers; q++) {
            int peer = across_row ? W.r * W.pc + q : q * W.pc + W.c;
            if (q == me)
                continue;
            NCCL_CHECK(ncclSend(W.send + (size_t)q * block, block, ncclDouble, peer, W.comm, W.stream));
            NCCL_CHECK(ncclRecv(W.recv + (size_t)q * block, block, ncclDouble, peer, W.comm, W.stream));
        }
        NCCL_CHECK(ncclGroupEnd());
    }
    for (int q = 0; q < peers; q++) {
        int qr = across_row ? W.r : q, qc = across_row ? q : W.c;
        if (q == me)
            continue;
        fp_box theirs = fp_pencil_box(&W.g, W.pr, W.pc, qr, qc, from);
        fp_box part = fp_box_intersect(&theirs, &W.box[to]);
        launch_copy(W, part, part, W.recv + (size_t)q * block, W.box[to], out);
    }
    CUDA_CHECK(cudaEventRecord(W.ev[W.nev++], W.stream));
}

/* Removes the global mean (sum over every rank's pencil). */
static void remove_mean(const pencils &W, fp_gpu *P, double *d_a, size_t cells, double *d_sum)
{
    double sum;
    fp_gpu_sum(P, d_a, cells, d_sum);
    NCCL_CHECK(ncclAllReduce(d_sum, d_sum, 1, ncclDouble, ncclSum, W.comm, W.stream));
    CUDA_CHECK(cudaMemcpyAsync(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost, W.stream));
    CUDA_CHECK(cudaStreamSynchronize(W.stream));
    fp_gpu_add(P, d_a, cells, -sum / (double)fp_cells(&W.g));
}

extern "C" int fp_solve_nccl(const fp_grid *g, int pr, int pc, ncclComm_t comm, cudaStream_t stream, double *a)
{
    int size, rank;
    NCCL_CHECK(ncclCommCount(comm, &size));
    NCCL_CHECK(ncclCommUserRank(comm, &rank));
    if (fp_pencils_check(g, pr, pc) != 0 || size != pr * pc) {
        if (size != pr * pc)
            fprintf(stderr, "fp_solve_nccl: %d ranks for a %d x %d process grid\n", size, pr, pc);
        return -1;
    }
    pencils W;
    W.g = *g, W.pr = pr, W.pc = pc, W.r = rank / pc, W.c = rank % pc, W.comm = comm, W.stream = stream, W.nev = 0;
    for (int e = 0; e < 8; e++)
        CUDA_CHECK(cudaEventCreate(&W.ev[e]));
    for (int p = 0; p < 3; p++)
        W.box[p] = fp_pencil_box(g, pr, pc, W.r, W.c, (fp_pencil)p);
    size_t cells = fp_box_cells(&W.box[0]), bytes = cells * sizeof(double);
    fp_gpu *P = fp_gpu_create(g, W.box, stream);
    double *d_a, *d_b, *d_sum;
    int *d_rc;
    CUDA_CHECK(cudaMalloc(&d_a, bytes));
    CUDA_CHECK(cudaMalloc(&d_b, bytes));
    CUDA_CHECK(cudaMalloc(&W.send, bytes));
    CUDA_CHECK(cudaMalloc(&W.recv, bytes));
    CUDA_CHECK(cudaMalloc(&d_sum, sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_rc, sizeof(int)));
    CUDA_CHECK(cudaMemcpyAsync(d_a, a, bytes, cudaMemcpyHostToDevice, stream));
    /* The ranks' uploads end at different times (pageable host memory): a
     * one-word all-reduce lines their streams up, so that the first
     * transpose's events time the exchange, not the wait for a late peer
     * (on 2 GPUs that wait made the transposes read 4 x slower). */
    CUDA_CHECK(cudaMemsetAsync(d_rc, 0, sizeof(int), stream));
    NCCL_CHECK(ncclAllReduce(d_rc, d_rc, 1, ncclInt32, ncclSum, comm, stream));
    if (fp_singular(g))
        remove_mean(W, P, d_a, cells, d_sum);
    fp_gpu_transform(P, 0, 0, d_a);
    transpose(W, FP_XPENCIL, FP_YPENCIL, d_a, d_b);
    fp_gpu_transform(P, 1, 0, d_b);
    transpose(W, FP_YPENCIL, FP_ZPENCIL, d_b, d_a);
    int rc = fp_gpu_solve_z(P, d_a);
    transpose(W, FP_ZPENCIL, FP_YPENCIL, d_a, d_b);
    fp_gpu_transform(P, 1, 1, d_b);
    transpose(W, FP_YPENCIL, FP_XPENCIL, d_b, d_a);
    fp_gpu_transform(P, 0, 1, d_a);
    if (fp_singular(g))
        remove_mean(W, P, d_a, cells, d_sum);
    /* every rank returns the worst code */
    CUDA_CHECK(cudaMemcpyAsync(d_rc, &rc, sizeof rc, cudaMemcpyHostToDevice, stream));
    NCCL_CHECK(ncclAllReduce(d_rc, d_rc, 1, ncclInt32, ncclMin, comm, stream));
    CUDA_CHECK(cudaMemcpyAsync(&rc, d_rc, sizeof rc, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(a, d_a, bytes, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    double seconds = 0.0;
    for (int e = 0; e < W.nev; e += 2) {
        float ms;
        CUDA_CHECK(cudaEventElapsedTime(&ms, W.ev[e], W.ev[e + 1]));
        seconds += ms / 1e3;
    }
    fp_record_seconds(FP_PART_TRANSPOSES, seconds);
    for (int e = 0; e < 8; e++)
        CUDA_CHECK(cudaEventDestroy(W.ev[e]));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(W.send));
    CUDA_CHECK(cudaFree(W.recv));
    CUDA_CHECK(cudaFree(d_sum));
    CUDA_CHECK(cudaFree(d_rc));
    fp_gpu_destroy(P);
    return rc;
}
