/* Lab 6, stage 5: the CUDA kernels (reference).
 *
 * Every buffer, task_list and request live in mapped pinned host memory
 * (cudaHostAllocMapped): the kernels write and read them across PCIe or
 * NVLink-C2C, and MPI sends them straight from there: no copies. With
 * unified addressing (every 64-bit CUDA host) the host pointer is also the
 * device pointer; halo_cuda_init checks that this holds.
 *
 * Memory ordering (the thesis's volatile + __threadfence_system(), made
 * explicit with CUDA's system-scope atomic loads and stores, the
 * __nv_atomic_*_n builtins of CUDA 12.8 and later):
 *   push:  every thread fences its pack (__threadfence_system), the block
 *          meets at __syncthreads, thread 0 publishes the task with a
 *          release store at system scope;
 *   wait:  thread 0 spins on an acquire load at system scope, the block
 *          meets at __syncthreads, then everyone reads the receive buffer. */
#include <stdio.h>

#include "cuda_check.h"
#include "halo.h"

/* A release store and an acquire load that the CPU's C11 atomics pair with. */
__device__ void store_release_sys(int *p, int v)
{
    __nv_atomic_store_n(p, v, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_SYSTEM);
}

__device__ int load_acquire_sys(int *p)
{
    return __nv_atomic_load_n(p, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_SYSTEM);
}

/* What one launch needs, by value (about 1.2 kB of kernel parameters). */
struct halo_kparams {
    int nb, full, lockfree;
    size_t n[HALO_MAX_BLOCKS];
    double *send[HALO_MAX_BLOCKS], *recv[HALO_MAX_BLOCKS];
    double pack_value[HALO_MAX_BLOCKS], expected[HALO_MAX_BLOCKS];
    unsigned *errors;
    int *task_list, *request, *lock, *tail;
};

static cudaStream_t stream; /* the kernels' own non-blocking stream */
static int initialised;

static halo_kparams params_of(const halo_layer *L, const taskqueue *tq, int iteration)
{
    halo_kparams p = {};
    p.nb = L->num_blocks;
    p.full = L->full_check;
    p.errors = L->unpack_errors;
    for (int b = 0; b < L->num_blocks; b++) {
        p.n[b] = L->sizes[b];
        p.send[b] = L->send_buf[b];
        p.recv[b] = L->recv_buf[b];
        p.pack_value[b] = halo_msg_value(iteration, L->rank, b);
        p.expected[b] = halo_msg_value(iteration, L->recv_from[b], b);
    }
    if (tq) {
        p.lockfree = tq->lockfree;
        p.task_list = tq->task_list;
        p.request = tq->request;
        p.lock = tq->lock;
        p.tail = tq->tail;
    }
    return p;
}

/* 9 blocks as 3 x 3 x 1 and 27 as 3 x 3 x 3, as the thesis launches them. */
static dim3 grid_of(int nb)
{
    return nb % 9 == 0 ? dim3(3, 3, nb / 9) : dim3(nb, 1, 1);
}

__device__ int global_block_id()
{
    return blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
}

__device__ void GPU_Write(const halo_kparams &p, int b)
{
    double *buf = p.send[b], value = p.pack_value[b];
    for (size_t i = threadIdx.x; i < p.n[b]; i += blockDim.x)
        buf[i] = value;
}

__device__ void GPU_Read(const halo_kparams &p, int b)
{
    __shared__ unsigned wrong;
    if (threadIdx.x == 0)
        wrong = 0;
    __syncthreads();
    const double *buf = p.recv[b];
    double expected = p.expected[b];
    unsigned mine = 0;
    if (p.full) {
        for (size_t i = threadIdx.x; i < p.n[b]; i += blockDim.x)
            mine += !(buf[i] == expected);
    } else {
        mine = !(buf[p.n[b] / blockDim.x * threadIdx.x] == expected);
    }
    if (mine)
        atomicAdd(&wrong, mine);
    __syncthreads();
    if (threadIdx.x == 0)
        p.errors[b] = wrong; /* a count, not an assert: the host reports it */
}

__global__ void GPU_global_Write(halo_kparams p)
{
    GPU_Write(p, global_block_id());
}

__global__ void GPU_global_Read(halo_kparams p)
{
    GPU_Read(p, global_block_id());
}

/* Thread 0 only. */
__device__ void push_task(const halo_kparams &p, int b)
{
    if (p.lockfree) {
        store_release_sys(&p.task_list[b], 1);
        return;
    }
    while (atomicCAS(p.lock, -1, b) != -1) {
    }
    __threadfence(); /* lock taken before the tail is read */
    int slot = *(volatile int *)p.tail;
    store_release_sys(&p.task_list[slot], b);
    *(volatile int *)p.tail = slot + 1;
    __threadfence(); /* tail written before the lock is free */
    atomicExch(p.lock, -1);
}

__device__ void wait_for(const halo_kparams &p, int b, int bit)
{
    if (threadIdx.x == 0)
        while (!(load_acquire_sys(&p.request[b]) & bit))
            __nanosleep(200); /* polite to the PCIe link the CPU polls too */
    __syncthreads();
}

/* The taskqueue's one kernel per iteration (thesis Fig. 3.7). */
__global__ void Write_GPU_Read_GPU(halo_kparams p)
{
    int b = global_block_id();
    GPU_Write(p, b);
    __threadfence_system(); /* my pack before anything I write later, for the CPU too */
    __syncthreads();        /* every thread's pack fenced */
    if (threadIdx.x == 0)
        push_task(p, b);
    wait_for(p, b, TQ_BIT_RECV);
    GPU_Read(p, b);
}

extern "C" int halo_cuda_init(int rank)
{
    if (initialised)
        return 0;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        fprintf(stderr, "halo_cuda_init: no CUDA GPU\n");
        return -1;
    }
    int dev = rank % count, uva = 0, map = 0;
    CUDA_CHECK(cudaSetDevice(dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&uva, cudaDevAttrUnifiedAddressing, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&map, cudaDevAttrCanMapHostMemory, dev));
    if (!uva || !map) {
        fprintf(stderr, "halo_cuda_init: GPU %d cannot map host memory with unified addresses\n", dev);
        return -1;
    }
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    initialised = 1;
    return 0;
}

extern "C" void *halo_cuda_alloc_shared(size_t bytes)
{
    void *p = NULL;
    /* Mapped, not write-combined: the CPU and MPI read these buffers. */
    cudaError_t rc = cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocMapped);
    if (rc != cudaSuccess) {
        fprintf(stderr, "cudaHostAlloc(%zu bytes, cudaHostAllocMapped): %s\n", bytes, cudaGetErrorString(rc));
        return NULL;
    }
    return p;
}

extern "C" void halo_cuda_free_shared(void *p)
{
    CUDA_CHECK(cudaFreeHost(p));
}

extern "C" int halo_cuda_tq_init(taskqueue *tq, int num_blocks, int lockfree)
{
    tq->num_blocks = num_blocks;
    tq->lockfree = lockfree;
    tq->task_list = (int *)halo_cuda_alloc_shared(num_blocks * sizeof(int));
    tq->request = (int *)halo_cuda_alloc_shared(num_blocks * sizeof(int));
    if (!tq->task_list || !tq->request)
        return -1;
    CUDA_CHECK(cudaMalloc(&tq->lock, sizeof(int)));
    CUDA_CHECK(cudaMalloc(&tq->tail, sizeof(int)));
    tq_reset(tq);
    return 0;
}

extern "C" void halo_cuda_tq_free(taskqueue *tq)
{
    halo_cuda_free_shared(tq->task_list);
    halo_cuda_free_shared(tq->request);
    CUDA_CHECK(cudaFree(tq->lock));
    CUDA_CHECK(cudaFree(tq->tail));
    tq->task_list = tq->request = tq->lock = tq->tail = NULL;
}

extern "C" int halo_cuda_tq_fits(int blocks, int threads)
{
    if (blocks < 1 || threads < 1 || threads > 1024)
        return 0;
    /* asked once per block size: the answer does not change, and every launch asks */
    static int asked_threads, resident;
    if (threads != asked_threads) {
        int dev = 0, sms = 0, per_sm = 0;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Write_GPU_Read_GPU, threads, 0));
        asked_threads = threads;
        resident = per_sm * sms;
    }
    return blocks <= resident;
}

extern "C" int halo_cuda_launch_pack(halo_layer *L, int iteration)
{
    GPU_global_Write<<<grid_of(L->num_blocks), L->num_threads, 0, stream>>>(params_of(L, NULL, iteration));
    CUDA_CHECK(cudaGetLastError()); /* not CUDA_CHECK_LAUNCH: it would wait for the kernel */
    return 0;
}

extern "C" int halo_cuda_launch_unpack(halo_layer *L, int iteration)
{
    GPU_global_Read<<<grid_of(L->num_blocks), L->num_threads, 0, stream>>>(params_of(L, NULL, iteration));
    CUDA_CHECK(cudaGetLastError()); /* not CUDA_CHECK_LAUNCH: it would wait for the kernel */
    return 0;
}

extern "C" int halo_cuda_launch_tq(halo_layer *L, taskqueue *tq, int iteration)
{
    if (!halo_cuda_tq_fits(L->num_blocks, L->num_threads)) {
        fprintf(stderr, "halo_cuda_launch_tq: %d blocks of %d threads cannot all be resident: a spinning kernel "
                        "would hang; refused\n", L->num_blocks, L->num_threads);
        return -1;
    }
    /* the device's words, reset before any block runs (halo.h's scheme) */
    CUDA_CHECK(cudaMemsetAsync(tq->lock, 0xff, sizeof(int), stream)); /* -1 */
    CUDA_CHECK(cudaMemsetAsync(tq->tail, 0, sizeof(int), stream));
    Write_GPU_Read_GPU<<<grid_of(L->num_blocks), L->num_threads, 0, stream>>>(params_of(L, tq, iteration));
    CUDA_CHECK(cudaGetLastError()); /* not CUDA_CHECK_LAUNCH: it would wait for the kernel */
    return 0;
}

extern "C" int halo_cuda_synchronize(void)
{
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return 0;
}
