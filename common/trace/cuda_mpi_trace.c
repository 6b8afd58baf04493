/* A timeline of one process's GPU work and MPI calls, for hosts without
 * Nsight Systems (the kit's lent GPU hosts). Preloaded into each rank:
 *
 *   mpirun -np 2 -x LD_PRELOAD=build/trace/libcuda_mpi_trace.so -x TRACE_DIR=DIR PROG ...
 *
 * it writes DIR/trace.PID.csv at MPI_Finalize (or at exit), one row an
 * event:
 *
 *   kind,start_ns,end_ns,name,stream,bytes
 *   kernel,...,NAME,STREAM,            every kernel, from CUPTI's activity records
 *   memcpy,...,HtoD|DtoH|DtoD|PtoP|...,STREAM,BYTES   every copy, the same way
 *   memset,...,memset,STREAM,BYTES
 *   mpi,...,MPI_Sendrecv,,             the time spent in each blocking or
 *                                      posting MPI call
 *
 * The GPU's start and end are CUPTI's: stamped on the GPU and converted to
 * the host's CLOCK_REALTIME, the clock the MPI rows are read from and that
 * every process on the host shares, so the files of two ranks lie on one
 * time line (what nsys does for a session over mpirun).
 *
 * The MPI calls are caught at both of MPI's entry points. A program with
 * a profiling layer of its own (lab 6's halo_mpi_log.c: its MPI_Isend
 * calls PMPI_Isend) wins the MPI_ name over a preloaded library, so the
 * tracer defines PMPI_X too, times the call and forwards it to MPI's own
 * PMPI_X (the next definition, dlsym RTLD_NEXT). Where the program has no
 * layer, the tracer's MPI_X goes the same way. Each call is recorded once:
 * a traced call made inside another (an MPI library that implements one
 * call with another through its PMPI_ names) is not recorded again.
 *
 * Built without CUPTI (-DTRACE_NO_CUPTI: a host without the CUDA
 * toolkit), the file has the MPI rows alone.
 *
 * TRACE_DEBUG=1 (the CUPTI build): at the end, what CUPTI delivered, per
 * device (kernel records, those named nccl, records without timestamps,
 * copies by kind, the first kernels' names), the kernel launches the CUDA
 * runtime and driver APIs saw (by name, those named nccl apart), records
 * dropped or delivered after the file was written; on stderr and in
 * DIR/debug.PID.txt (a demo that keeps its program's stderr to itself
 * still leaves it).
 *
 * What a kernel's start and end mean where two processes share a GPU
 * without MPS: the GPU runs one context at a time, in time slices, so a
 * kernel's interval brackets the slices it ran in and the other context's
 * slices between them. timeslice_probe.cu measures the slices themselves.
 *
 * MPI_Test* are not recorded: the programs poll them in loops, and each
 * row would be one poll. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifndef TRACE_NO_CUPTI
#include <cupti.h>
#endif

enum { MAX_MPI_ROWS = 1 << 20 };

static struct {
    uint64_t start, end;
    const char *name;
} mpi_rows[MAX_MPI_ROWS];
static int mpi_count, tracing, written, debug;
static long rows; /* written to the file so far */
static FILE *out;
/* CUPTI hands its buffers over on a thread of its own: the file and the
 * counts below are shared with it */
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void trace_path(char *path, size_t len, const char *what, const char *ext)
{
    snprintf(path, len, "%s/%s.%d.%s", getenv("TRACE_DIR"), what, (int)getpid(), ext);
}

#ifndef TRACE_NO_CUPTI
/* ---- The GPU's rows, from CUPTI's activity records ---------------------- */

enum { BUFFER_BYTES = 8 << 20, MAX_DEVICES = 16, FIRST_NAMES = 4, NAME_LEN = 96, MAX_LAUNCH_NAMES = 64 };
enum { COPY_KINDS = 6 };
static const char *const copy_names[COPY_KINDS] = {"HtoD", "DtoH", "DtoD", "HtoH", "PtoP", "other"};

/* TRACE_DEBUG's counts: what CUPTI delivered, per device */
static struct {
    long kernels, nccl, untimed, copies[COPY_KINDS], memsets;
    int named;
    char first[FIRST_NAMES][NAME_LEN];
} dev[MAX_DEVICES];
static long late, other_devices; /* delivered after the file was written; a device past MAX_DEVICES */
static size_t dropped;
static const char *cupti_trouble; /* the first CUPTI call that failed */

/* One of NCCL's own kernels (ncclDevKernel_*, ncclKernel_*, mangled or
 * not), as lab 4's demo counts them: a student's kernel named nccl_sweep
 * is not one. */
static int named_nccl(const char *name)
{
    return name && (strstr(name, "ncclDevKernel") || strstr(name, "ncclKernel"));
}

/* The first failure said once (on a host without a GPU every call
 * fails alike), every one under TRACE_DEBUG. */
static void cupti_failed(CUptiResult r, const char *what)
{
    const char *msg = "?";
    cuptiGetResultString(r, &msg);
    if (!cupti_trouble || debug)
        fprintf(stderr, "cuda_mpi_trace: %s failed: %s (no GPU rows in this trace)\n", what, msg);
    if (!cupti_trouble)
        cupti_trouble = what;
}

static int copy_index(uint8_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return 0;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return 1;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return 2;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return 3;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return 4;
    default: return 5;
    }
}

static typeof(dev[0]) *device(uint32_t id)
{
    if (id < MAX_DEVICES)
        return &dev[id];
    other_devices++;
    return NULL;
}

/* A record CUPTI could not time (CUPTI_TIMESTAMP_UNKNOWN: 0) has no place
 * on the time line: counted, not written. */
static int timed(uint64_t start, uint64_t end, typeof(dev[0]) *d)
{
    if (start != CUPTI_TIMESTAMP_UNKNOWN && end != CUPTI_TIMESTAMP_UNKNOWN && end >= start)
        return 1;
    if (d)
        d->untimed++;
    return 0;
}

static void kernel_row(const CUpti_ActivityKernel10 *k)
{
    typeof(dev[0]) *d = device(k->deviceId);
    const char *name = k->name ? k->name : "?";
    if (d) {
        d->kernels++;
        d->nccl += named_nccl(name);
        if (d->named < FIRST_NAMES)
            snprintf(d->first[d->named++], NAME_LEN, "%s", name);
    }
    if (!timed(k->start, k->end, d))
        return;
    rows++;
    fprintf(out, "kernel,%llu,%llu,%s,%u,\n", (unsigned long long)k->start, (unsigned long long)k->end, name,
            k->streamId);
}

static void copy_row(uint8_t kind, uint64_t start, uint64_t end, uint32_t device_id, uint32_t stream, uint64_t bytes)
{
    typeof(dev[0]) *d = device(device_id);
    if (d)
        d->copies[copy_index(kind)]++;
    if (!timed(start, end, d))
        return;
    rows++;
    fprintf(out, "memcpy,%llu,%llu,%s,%u,%llu\n", (unsigned long long)start, (unsigned long long)end,
            copy_names[copy_index(kind)], stream, (unsigned long long)bytes);
}

static void memset_row(const CUpti_ActivityMemset4 *m)
{
    typeof(dev[0]) *d = device(m->deviceId);
    if (d)
        d->memsets++;
    if (!timed(m->start, m->end, d))
        return;
    rows++;
    fprintf(out, "memset,%llu,%llu,memset,%u,%llu\n", (unsigned long long)m->start, (unsigned long long)m->end,
            m->streamId, (unsigned long long)m->bytes);
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    (void)ctx, (void)stream, (void)size;
    CUpti_Activity *r = NULL;
    pthread_mutex_lock(&out_lock);
    while (cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
        if (!out) { /* the file is written: a record too late for it */
            late++;
            continue;
        }
        if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            kernel_row((const CUpti_ActivityKernel10 *)r);
        } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)r;
            copy_row(m->copyKind, m->start, m->end, m->deviceId, m->streamId, m->bytes);
        } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY2) { /* between two GPUs */
            const CUpti_ActivityMemcpyPtoP4 *m = (const CUpti_ActivityMemcpyPtoP4 *)r;
            copy_row(m->copyKind, m->start, m->end, m->deviceId, m->streamId, m->bytes);
        } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            memset_row((const CUpti_ActivityMemset4 *)r);
        }
    }
    size_t lost = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &lost) == CUPTI_SUCCESS && lost) {
        dropped += lost;
        fprintf(stderr, "cuda_mpi_trace: %zu GPU records dropped\n", lost);
    }
    pthread_mutex_unlock(&out_lock);
    free(buffer);
}

/* TRACE_DEBUG: every kernel launch the CUDA APIs saw, by name, to hold
 * against the kernel records CUPTI delivered (a kernel launched and never
 * recorded shows here and not there). The runtime's launches and the
 * driver's apart: the kit's kernels go through the runtime, NCCL's
 * through the driver (cuLaunchKernelEx). */
static struct {
    char name[NAME_LEN];
    long n;
} launched[MAX_LAUNCH_NAMES];
static long launches[2], nccl_launches[2], unlisted; /* [0] runtime, [1] driver */
static pthread_mutex_t launch_lock = PTHREAD_MUTEX_INITIALIZER;

static const CUpti_CallbackId runtime_launches[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,           CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,       CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
};
static const CUpti_CallbackId driver_launches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,   CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunch,         CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
};

static void CUPTIAPI launch_seen(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
    (void)user, (void)cbid; /* only the launches are enabled */
    const CUpti_CallbackData *d = data;
    if (d->callbackSite != CUPTI_API_ENTER)
        return;
    int api = domain == CUPTI_CB_DOMAIN_DRIVER_API;
    const char *name = d->symbolName ? d->symbolName : "?";
    pthread_mutex_lock(&launch_lock);
    launches[api]++;
    nccl_launches[api] += named_nccl(name);
    int i = 0;
    while (i < MAX_LAUNCH_NAMES && launched[i].n && strncmp(launched[i].name, name, NAME_LEN - 1))
        i++;
    if (i == MAX_LAUNCH_NAMES) {
        unlisted++;
    } else {
        if (!launched[i].n)
            snprintf(launched[i].name, NAME_LEN, "%s", name);
        launched[i].n++;
    }
    pthread_mutex_unlock(&launch_lock);
}

static void watch_launches(void)
{
    CUpti_SubscriberHandle sub;
    CUptiResult r = cuptiSubscribe(&sub, launch_seen, NULL);
    if (r != CUPTI_SUCCESS) { /* another tool (nsys) holds CUPTI's one subscriber */
        const char *msg = "?";
        cuptiGetResultString(r, &msg);
        fprintf(stderr, "cuda_mpi_trace: cuptiSubscribe failed: %s (TRACE_DEBUG counts no launches)\n", msg);
        return;
    }
    for (size_t i = 0; i < sizeof runtime_launches / sizeof *runtime_launches; i++)
        cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API, runtime_launches[i]);
    for (size_t i = 0; i < sizeof driver_launches / sizeof *driver_launches; i++)
        cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, driver_launches[i]);
}

static void start_gpu_rows(void)
{
    CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r != CUPTI_SUCCESS) {
        cupti_failed(r, "cuptiActivityRegisterCallbacks");
        return;
    }
    CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                  CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if ((r = cuptiActivityEnable(kinds[i])) != CUPTI_SUCCESS)
            cupti_failed(r, "cuptiActivityEnable");
    if (debug)
        watch_launches();
}

/* Every record CUPTI holds, into the file (buffer_completed), before it
 * is closed: the forced flush hands over the buffers not yet full. */
static void flush_gpu_rows(void)
{
    if (cupti_trouble && !debug) /* set-up failed: nothing to flush, and it fails again */
        return;
    CUptiResult r = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (r != CUPTI_SUCCESS && r != CUPTI_ERROR_NOT_INITIALIZED) /* not initialised: no GPU work at all */
        cupti_failed(r, "cuptiActivityFlushAll");
}

static void report_gpu(FILE *f)
{
    uint32_t version = 0;
    cuptiGetVersion(&version);
    fprintf(f, "CUPTI API version %u; %s%s\n", version, cupti_trouble ? "the first CUPTI call that failed: " : "",
            cupti_trouble ? cupti_trouble : "every CUPTI call succeeded");
    int any = 0;
    for (int i = 0; i < MAX_DEVICES; i++) {
        typeof(dev[0]) *d = &dev[i];
        long copies = 0;
        for (int c = 0; c < COPY_KINDS; c++)
            copies += d->copies[c];
        if (!d->kernels && !copies && !d->memsets)
            continue;
        any = 1;
        fprintf(f, "device %d: %ld kernel records (%ld named nccl), %ld records without timestamps, %ld memsets, copies:", i,
                d->kernels, d->nccl, d->untimed, d->memsets);
        for (int c = 0; c < COPY_KINDS; c++)
            fprintf(f, " %s %ld", copy_names[c], d->copies[c]);
        fprintf(f, "\n");
        for (int n = 0; n < d->named; n++)
            fprintf(f, "device %d: kernel record %d: %s\n", i, n + 1, d->first[n]);
    }
    if (!any)
        fprintf(f, "no GPU records from any device\n");
    if (other_devices)
        fprintf(f, "%ld records of devices numbered %d or more (not counted above)\n", other_devices, MAX_DEVICES);
    fprintf(f, "GPU records dropped by CUPTI: %zu; delivered after the file was written: %ld\n", dropped, late);
    pthread_mutex_lock(&launch_lock);
    fprintf(f, "kernel launches seen: runtime API %ld (%ld named nccl), driver API %ld (%ld named nccl)\n",
            launches[0], nccl_launches[0], launches[1], nccl_launches[1]);
    for (int i = 0; i < MAX_LAUNCH_NAMES && launched[i].n; i++)
        fprintf(f, "launched %ld x %s\n", launched[i].n, launched[i].name);
    if (unlisted)
        fprintf(f, "launched %ld x kernels of more names than %d\n", unlisted, MAX_LAUNCH_NAMES);
    pthread_mutex_unlock(&launch_lock);
}
#else
static void start_gpu_rows(void) {}
static void flush_gpu_rows(void) {}
static void report_gpu(FILE *f)
{
    fprintf(f, "built without CUPTI (TRACE_NO_CUPTI): MPI rows alone\n");
}
#endif

/* ---- The file ------------------------------------------------------------ */

/* TRACE_DEBUG's report, on stderr and beside the trace. */
static void report(void)
{
    char path[4096];
    trace_path(path, sizeof path, "debug", "txt");
    FILE *files[2] = {stderr, fopen(path, "w")};
    pthread_mutex_lock(&out_lock); /* CUPTI's thread may still count a late buffer */
    for (int i = 0; i < 2 && files[i]; i++) {
        fprintf(files[i], "cuda_mpi_trace: pid %d, TRACE_DEBUG report\n", (int)getpid());
        report_gpu(files[i]);
        fprintf(files[i], "MPI calls recorded: %d\n", mpi_count);
    }
    pthread_mutex_unlock(&out_lock);
    if (files[1])
        fclose(files[1]);
    else
        perror(path);
}

/* Writes everything recorded so far, once: at MPI_Finalize, where the
 * ranks' GPU work is done and the CUDA context still exists, or at exit
 * for a program without MPI. */
static void write_trace(void)
{
    if (!tracing || written)
        return;
    written = 1;
    flush_gpu_rows();
    int n = mpi_count < MAX_MPI_ROWS ? mpi_count : MAX_MPI_ROWS;
    pthread_mutex_lock(&out_lock);
    rows += n;
    for (int i = 0; i < n; i++)
        fprintf(out, "mpi,%llu,%llu,%s,,\n", (unsigned long long)mpi_rows[i].start,
                (unsigned long long)mpi_rows[i].end, mpi_rows[i].name);
    if (mpi_count > n)
        fprintf(stderr, "cuda_mpi_trace: %d MPI calls not recorded (more than %d)\n", mpi_count - n, MAX_MPI_ROWS);
    fclose(out);
    out = NULL;
    pthread_mutex_unlock(&out_lock);
    if (debug)
        report();
}

__attribute__((constructor)) static void start_tracing(void)
{
    const char *dir = getenv("TRACE_DIR"), *dbg = getenv("TRACE_DEBUG");
    if (!dir || !*dir)
        return;
    debug = dbg && *dbg && strcmp(dbg, "0");
    /* the shells in front of a program inherit LD_PRELOAD too: each process
     * opens its file, and one left with no rows is removed at exit */
    char path[4096];
    trace_path(path, sizeof path, "trace", "csv");
    out = fopen(path, "w");
    if (!out) {
        perror(path);
        return;
    }
    fprintf(out, "kind,start_ns,end_ns,name,stream,bytes\n");
    start_gpu_rows();
    tracing = 1;
}

__attribute__((destructor)) static void stop_tracing(void)
{
    if (!tracing)
        return;
    write_trace();
    if (rows == 0) { /* a launcher or a shell: nothing of its own, the header alone */
        char path[4096];
        trace_path(path, sizeof path, "trace", "csv");
        remove(path);
    }
}

/* ---- The MPI calls ------------------------------------------------------- */

static __thread int inside; /* a traced call is running on this thread */

static void mpi_row(const char *name, uint64_t start)
{
    int i = __atomic_fetch_add(&mpi_count, 1, __ATOMIC_RELAXED);
    if (i < MAX_MPI_ROWS)
        mpi_rows[i] = (typeof(mpi_rows[0])){start, now_ns(), name};
}

/* MPI's own PMPI_ function of that name, the next definition after this
 * library's: looked up once, into *slot. */
static void *mpi_own(void **slot, const char *name)
{
    void *f = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (f)
        return f;
    if (!(f = dlsym(RTLD_NEXT, name))) {
        fprintf(stderr, "cuda_mpi_trace: no %s after this library (%s)\n", name, dlerror());
        abort();
    }
    __atomic_store_n(slot, f, __ATOMIC_RELAXED);
    return f;
}

/* One call: the time it spends in MPI's own PMPI_X, under its own name.
 * Both MPI_X and PMPI_X come here, so the call is recorded once whichever
 * the program called (MPI_X, or PMPI_X from a layer of its own). */
#define TRACED(name, params, args)                                      \
    static int traced_##name params                                     \
    {                                                                   \
        static void *own;                                               \
        typeof(P##name) *f = (typeof(P##name) *)mpi_own(&own, "P" #name); \
        if (!tracing || inside)                                         \
            return f args;                                              \
        inside = 1;                                                     \
        uint64_t t0 = now_ns();                                         \
        int rc = f args;                                                \
        mpi_row(#name, t0);                                             \
        inside = 0;                                                     \
        return rc;                                                      \
    }                                                                   \
    int P##name params                                                  \
    {                                                                   \
        return traced_##name args;                                      \
    }                                                                   \
    int name params                                                     \
    {                                                                   \
        return traced_##name args;                                      \
    }

TRACED(MPI_Sendrecv,
       (const void *sb, int sc, MPI_Datatype st, int dst, int stag, void *rb, int rc_, MPI_Datatype rt, int src,
        int rtag, MPI_Comm comm, MPI_Status *status),
       (sb, sc, st, dst, stag, rb, rc_, rt, src, rtag, comm, status))
TRACED(MPI_Send, (const void *b, int c, MPI_Datatype t, int dst, int tag, MPI_Comm comm), (b, c, t, dst, tag, comm))
TRACED(MPI_Recv, (void *b, int c, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *s),
       (b, c, t, src, tag, comm, s))
TRACED(MPI_Isend, (const void *b, int c, MPI_Datatype t, int dst, int tag, MPI_Comm comm, MPI_Request *r),
       (b, c, t, dst, tag, comm, r))
TRACED(MPI_Irecv, (void *b, int c, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *r),
       (b, c, t, src, tag, comm, r))
TRACED(MPI_Wait, (MPI_Request * r, MPI_Status *s), (r, s))
TRACED(MPI_Waitall, (int n, MPI_Request r[], MPI_Status s[]), (n, r, s))
TRACED(MPI_Waitany, (int n, MPI_Request r[], int *i, MPI_Status *s), (n, r, i, s))
TRACED(MPI_Barrier, (MPI_Comm comm), (comm))

/* The trace is written before MPI ends, whichever entry point the program
 * finalises through. */
static int finalize(void)
{
    static void *own;
    typeof(PMPI_Finalize) *f = (typeof(PMPI_Finalize) *)mpi_own(&own, "PMPI_Finalize");
    write_trace();
    return f();
}

int PMPI_Finalize(void)
{
    return finalize();
}

int MPI_Finalize(void)
{
    return finalize();
}
