/* Lab 6 (halo-taskqueue): GPU halo exchange through pinned host memory.
 *
 * The model (a TUM master's thesis, Vanecek 2020): every GPU block owns one
 * send buffer and one receive buffer in pinned host memory. Block b packs its
 * send buffer (a mock workload: every element set to a sentinel value that
 * says which iteration, rank and block wrote it), the CPU sends it with tag b
 * to block b's partner rank, and block b unpacks (checks) what arrived from
 * its own partner.
 *
 * This header has no MPI in it, so that nvcc compiles the CUDA file without
 * MPI's flags; halo_mpi.h adds the MPI side. Everything marked "student"
 * is written by you, in the file named; everything else is given.
 *
 * Sizes are size_t, counts of doubles unless said otherwise. */
#ifndef LAB6_HALO_H
#define LAB6_HALO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 3 x 3 x 3 blocks at most (the thesis's "full" grid). */
#define HALO_MAX_BLOCKS 27
/* The sentinel value stays unique for iteration < 1000000, rank < 10 and
 * block < 100 (see halo_msg_value). */
#define HALO_MAX_RANKS 10

/* ---- Stage 1: configuration (student: halo_config.c) -------------------- */

/* Who sends to whom, per block (block b always talks to block b):
 *   HALO_PAT_PAIR   ranks in pairs {0,1}, {2,3}, ...; with an odd number of
 *                   ranks the last one is its own partner
 *   HALO_PAT_SELF   every rank sends to itself (one GPU, np = 1)
 *   HALO_PAT_FIG26  the thesis's Fig. 2.6: block 0 in pairs as PAIR,
 *                   block 1 to the next rank (rank + 1) % size, every
 *                   other block to the previous one (rank - 1 + size) % size
 *   HALO_PAT_RING   every block to the next rank (rank + 1) % size
 * The receive partner is the rank that sends to this rank. */
typedef enum { HALO_PAT_PAIR, HALO_PAT_SELF, HALO_PAT_FIG26, HALO_PAT_RING } halo_pattern;

/* Table 4.1 of the thesis: block 0 holds 1 double, block b > 0 holds
 * 5000 * (b / 9) + 15000 * (b % 9). 0 for a block outside [0, 27). */
size_t halo_default_array_size(int block);

/* Table 4.1 times num / den (integer arithmetic, rounded down), at least 1:
 * 1/1000 gives 1, 15, 30, 45, ...; 10/1 gives 10, 150000, ... 1300000.
 * 0 for a block outside [0, 27) or num < 1 or den < 1. */
size_t halo_scaled_array_size(int block, long num, long den);

/* The sentinel (thesis Listing 3.7): 1000 * (iteration + 1) + 100 * rank +
 * block, the rank being the SENDER's. Exact in a double. */
double halo_msg_value(int iteration, int rank, int block);

/* The block's id in a gx x gy x gz grid: bx + by * gx + bz * gx * gy. */
int halo_global_block_id(int bx, int by, int bz, int gx, int gy);

/* Block's send and receive partner ranks under pattern p for this rank of
 * size ranks. Returns 0, or -1 (partners untouched) for a bad argument:
 * size < 1, rank outside [0, size), block outside [0, 27), unknown pattern. */
int halo_partners(halo_pattern p, int block, int rank, int size, int *send_to, int *recv_from);

/* ---- Stage 2: pack and unpack on the CPU (student: halo_pack.c) --------- */

/* What thread tid of nthreads does in a block's pack (thesis Listing 3.7):
 * the strided loop i = tid, tid + nthreads, ... < n, writing value. */
void halo_pack_thread(double *send_buf, size_t n, double value, int tid, int nthreads);

/* The one element thread tid checks in the thesis's sampled unpack
 * (Listing 3.8): n / nthreads * tid (integer division). Always < n. */
size_t halo_sample_index(size_t n, int tid, int nthreads);

/* The unpack check: how many elements differ from expected. full = 1: every
 * element (the tests); full = 0: the element of halo_sample_index of each of
 * the nthreads threads (the benchmark, as the thesis does; an index sampled
 * by several threads counts once per thread). */
size_t halo_unpack_check(const double *recv_buf, size_t n, double expected, int nthreads, int full);

/* ---- The halo layer (given: halo_layer.c) -------------------------------- */

struct halo_backend;

typedef struct {
    int num_blocks, rank, size;
    int num_threads;       /* threads per block */
    int full_check;        /* unpack checks every element (1) or a sample (0) */
    halo_pattern pattern;
    size_t sizes[HALO_MAX_BLOCKS];
    int send_to[HALO_MAX_BLOCKS], recv_from[HALO_MAX_BLOCKS];
    /* In memory both the CPU and the device reach: mapped pinned host
     * memory (CUDA), plain memory (the host backend). */
    double *send_buf[HALO_MAX_BLOCKS], *recv_buf[HALO_MAX_BLOCKS];
    unsigned *unpack_errors; /* [num_blocks]: mismatches the unpack found */
    const struct halo_backend *backend;
} halo_layer;

/* Sets the layer up: sizes[b] doubles for block b (the same on every rank),
 * partners from halo_partners, buffers from the backend (send buffers 0,
 * receive buffers NaN). Returns 0, or -1 with a message on stderr. */
int halo_layer_init(halo_layer *L, int num_blocks, int num_threads, int rank, int size, const size_t *sizes,
                    halo_pattern p, const struct halo_backend *be);
void halo_layer_free(halo_layer *L);

/* "pair", "self", "fig26" or "ring" to *p; returns 0, or -1 for another name. */
int halo_pattern_parse(const char *name, halo_pattern *p);

/* ---- Stage 4: the taskqueue (student: taskqueue.c) ----------------------- */

/* The notification bits of request[b]: the CPU sets TQ_BIT_RECV when block
 * b's message has arrived (TQ_BIT_H2D belongs to the memcpy variant). */
enum { TQ_EMPTY = -1, TQ_BIT_H2D = 1, TQ_BIT_RECV = 2 };

/* One iteration's CPU <-> device signalling.
 *
 * task_list and request live where both sides reach them (mapped pinned
 * memory); lock and tail only the device uses (device memory on a GPU).
 *   lockfree = 0, the task queue: a block takes the lock (CAS -1 -> its id),
 *     writes its id at task_list[*tail], increments *tail, frees the lock
 *     (-1); the CPU reads task_list[front] and moves front on. FIFO.
 *   lockfree = 1, a channel per block: block b sets task_list[b] = 1; the
 *     CPU scans the slots from 0 and takes the lowest that is set, marking
 *     it 0 (taken) so that it is not taken twice.
 * Empty slots hold TQ_EMPTY.
 *
 * The reset scheme (the thesis leaves it open): everything is reset once per
 * iteration, after the device work has finished and before the next launch,
 * so no reset ever races with a block. tq_reset resets the CPU's words
 * (task_list, request, front); the launch resets the device's (lock = -1,
 * tail = 0) before any block runs. */
typedef struct {
    int num_blocks, lockfree;
    int *task_list; /* [num_blocks], shared */
    int *request;   /* [num_blocks], shared: TQ_BIT_* */
    int *lock;      /* device word: -1 free, else the owner's id */
    int *tail;      /* device word: next free slot of task_list */
    int front;      /* CPU: next slot to read (task queue) */
} taskqueue;

/* CPU side. Poll: the block whose task is next (the queue's front, or the
 * lowest set channel), consumed, or TQ_EMPTY. Notify: ORs bits into
 * request[block], publishing every write made before it (release). Reset:
 * task_list all TQ_EMPTY, request all 0, front 0. */
int tq_cpu_poll_task(taskqueue *tq);
void tq_cpu_notify(taskqueue *tq, int block, int bits);
void tq_reset(taskqueue *tq);

/* The device side as the host backend runs it, one OS thread per block, with
 * C11 atomics where the GPU uses fences. Push: posts block's task after
 * every write of its pack (release). Wait: returns once request[block] has
 * bit set, and every write the CPU made before setting it is visible
 * (acquire); spins yield the core. */
void tq_host_push_task(taskqueue *tq, int block);
void tq_host_wait(taskqueue *tq, int block, int bit);

/* ---- Stage 6 (challenge): the memcpy variant's state machine (student:
 * taskqueue.c) ---------------------------------------------------------------
 * Per block and iteration (thesis §3.5): 0 = its host-to-device copy is in
 * flight; 1 = packing (the copy is done, the block notified with
 * TQ_BIT_H2D); 3 = its device-to-host copy is in flight (the task came);
 * 7 = both copies done (the buffer is sent). Each event adds its own bit:
 * MC_H2D_DONE 1, MC_TASK 2, MC_D2H_DONE 4, and only in that order. */
typedef enum { MC_H2D_DONE, MC_TASK, MC_D2H_DONE } memcpy_event;
/* The state after ev, or -1 if ev cannot happen in state. */
int memcpy_state_step(int state, memcpy_event ev);
/* 1 if the CPU must ask cudaStreamQuery about this block (a copy is in
 * flight: states 0 and 3), else 0: the query is costly, ask only then. */
int memcpy_state_needs_query(int state);

/* ---- Backends: who plays the GPU ----------------------------------------- */

/* Launches return at once (the work runs alongside the CPU, as a kernel
 * does); synchronize waits for it. All return 0, or -1 with a message. */
typedef struct halo_backend {
    const char *name;
    int (*init)(int rank);                            /* pick a device */
    void *(*alloc_shared)(size_t bytes);              /* CPU and device reach it */
    void (*free_shared)(void *p);
    int (*tq_init)(taskqueue *tq, int num_blocks, int lockfree); /* all four arrays */
    void (*tq_free)(taskqueue *tq);
    int (*launch_pack)(halo_layer *L, int iteration);   /* GPU_Write: every block packs */
    int (*launch_unpack)(halo_layer *L, int iteration); /* GPU_Read: every block checks */
    /* The taskqueue's one kernel: pack, fence, push, wait, unpack. */
    int (*launch_tq)(halo_layer *L, taskqueue *tq, int iteration);
    int (*synchronize)(void);
} halo_backend;

/* OpenMP threads as GPU blocks (given: backend_host.c). */
extern const halo_backend halo_host_backend;
/* CUDA (given: backend_cuda.c, over your halo_kernels.cu). */
extern const halo_backend halo_cuda_backend;

/* ---- Stage 5: CUDA (student: halo_kernels.cu) ---------------------------- */

/* What halo_cuda_backend calls. The buffers, task_list and request are
 * mapped pinned host memory (cudaHostAlloc with cudaHostAllocMapped); lock
 * and tail device memory. The kernels compute no sentinel themselves: the
 * launch passes them halo_msg_value's values. */
int halo_cuda_init(int rank);
void *halo_cuda_alloc_shared(size_t bytes);
void halo_cuda_free_shared(void *p);
int halo_cuda_tq_init(taskqueue *tq, int num_blocks, int lockfree);
void halo_cuda_tq_free(taskqueue *tq);
int halo_cuda_launch_pack(halo_layer *L, int iteration);
int halo_cuda_launch_unpack(halo_layer *L, int iteration);
int halo_cuda_launch_tq(halo_layer *L, taskqueue *tq, int iteration);
int halo_cuda_synchronize(void);
/* The co-residency guard: 1 if blocks blocks of threads threads of the
 * persistent kernel can all be resident on the current GPU at once (a
 * spinning kernel whose blocks cannot all run deadlocks), else 0;
 * halo_cuda_launch_tq refuses (-1) a launch this says no to. */
int halo_cuda_tq_fits(int blocks, int threads);

/* ---- The order of events (given: halo_log.c) ----------------------------- */

/* A per-block log of when things happened in an iteration, filled by the
 * host backend (started, packed, task, unpack) and by the tests' MPI wrappers (sent,
 * received): a global tick orders the events, and a clock times them for
 * the timeline figure. */
typedef enum { HL_STARTED, HL_PACKED, HL_TASK, HL_SENT, HL_RECEIVED, HL_UNPACK, HL_KINDS } halo_event;
void halo_log_reset(void);
void halo_log(halo_event e, int block);
/* The tick of e for block (0: not logged this iteration) and its time in
 * seconds (wall_time()). */
long halo_log_tick(halo_event e, int block);
double halo_log_time(halo_event e, int block);
/* How often e was logged for block since the reset. */
int halo_log_count(halo_event e, int block);
/* Events logged so far, of any kind and block (never reset): a test's
 * watchdog calls a run that logs nothing for seconds a hang. */
long halo_log_events(void);

#ifdef __cplusplus
}
#endif
#endif
