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
 *   memcpy,...,HtoD|DtoH|DtoD|...,STREAM,BYTES   every copy, the same way
 *   memset,...,memset,STREAM,BYTES
 *   mpi,...,MPI_Sendrecv,,             the time spent in each blocking or
 *                                      posting MPI call (PMPI wrappers)
 *
 * The GPU's start and end are CUPTI's: stamped on the GPU and converted to
 * the host's CLOCK_REALTIME, the clock the MPI rows are read from and that
 * every process on the host shares, so the files of two ranks lie on one
 * time line (what nsys does for a session over mpirun).
 *
 * What a kernel's start and end mean where two processes share a GPU
 * without MPS: the GPU runs one context at a time, in time slices, so a
 * kernel's interval brackets the slices it ran in and the other context's
 * slices between them. timeslice_probe.cu measures the slices themselves.
 *
 * MPI_Test* are not recorded: the programs poll them in loops, and each
 * row would be one poll. */
#define _GNU_SOURCE
#include <cupti.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { BUFFER_BYTES = 8 << 20, MAX_MPI_ROWS = 1 << 20 };

static struct {
    uint64_t start, end;
    const char *name;
} mpi_rows[MAX_MPI_ROWS];
static int mpi_count, mpi_dropped, tracing, written;
static long rows; /* written to the file so far */
static FILE *out;

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void cupti_failed(CUptiResult r, const char *what)
{
    const char *msg = "?";
    cuptiGetResultString(r, &msg);
    fprintf(stderr, "cuda_mpi_trace: %s failed: %s (no GPU rows in this trace)\n", what, msg);
}

static const char *copy_kind(uint8_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "PtoP";
    default: return "other";
    }
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
    while (out && cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS) {
        if (r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)r;
            rows++;
            fprintf(out, "kernel,%llu,%llu,%s,%u,\n", (unsigned long long)k->start, (unsigned long long)k->end,
                    k->name ? k->name : "?", k->streamId);
        } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
            const CUpti_ActivityMemcpy6 *m = (const CUpti_ActivityMemcpy6 *)r;
            rows++;
            fprintf(out, "memcpy,%llu,%llu,%s,%u,%llu\n", (unsigned long long)m->start, (unsigned long long)m->end,
                    copy_kind(m->copyKind), m->streamId, (unsigned long long)m->bytes);
        } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
            const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)r;
            rows++;
            fprintf(out, "memset,%llu,%llu,memset,%u,%llu\n", (unsigned long long)m->start,
                    (unsigned long long)m->end, m->streamId, (unsigned long long)m->bytes);
        }
    }
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped)
        fprintf(stderr, "cuda_mpi_trace: %zu GPU records dropped\n", dropped);
    free(buffer);
}

/* Writes everything recorded so far, once: at MPI_Finalize, where the
 * ranks' GPU work is done and the CUDA context still exists, or at exit
 * for a program without MPI. */
static void write_trace(void)
{
    if (!tracing || written)
        return;
    written = 1;
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    rows += mpi_count;
    for (int i = 0; i < mpi_count; i++)
        fprintf(out, "mpi,%llu,%llu,%s,,\n", (unsigned long long)mpi_rows[i].start,
                (unsigned long long)mpi_rows[i].end, mpi_rows[i].name);
    if (mpi_dropped)
        fprintf(stderr, "cuda_mpi_trace: %d MPI calls not recorded (more than %d)\n", mpi_dropped, MAX_MPI_ROWS);
    fclose(out);
    out = NULL;
}

__attribute__((constructor)) static void start_tracing(void)
{
    const char *dir = getenv("TRACE_DIR");
    if (!dir || !*dir)
        return;
    /* the shells in front of a program inherit LD_PRELOAD too: each process
     * opens its file, and one left with no rows is removed at exit */
    char path[4096];
    snprintf(path, sizeof path, "%s/trace.%d.csv", dir, (int)getpid());
    out = fopen(path, "w");
    if (!out) {
        perror(path);
        return;
    }
    fprintf(out, "kind,start_ns,end_ns,name,stream,bytes\n");
    CUptiResult r = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (r != CUPTI_SUCCESS) {
        cupti_failed(r, "cuptiActivityRegisterCallbacks");
    } else {
        CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                      CUPTI_ACTIVITY_KIND_MEMSET};
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            if ((r = cuptiActivityEnable(kinds[i])) != CUPTI_SUCCESS)
                cupti_failed(r, "cuptiActivityEnable");
    }
    tracing = 1;
}

__attribute__((destructor)) static void stop_tracing(void)
{
    if (!tracing)
        return;
    write_trace();
    if (rows == 0) { /* a launcher or a shell: nothing of its own, the header alone */
        char path[4096];
        snprintf(path, sizeof path, "%s/trace.%d.csv", getenv("TRACE_DIR"), (int)getpid());
        remove(path);
    }
}

static void mpi_row(const char *name, uint64_t start)
{
    if (!tracing)
        return;
    if (mpi_count < MAX_MPI_ROWS)
        mpi_rows[mpi_count++] = (typeof(mpi_rows[0])){start, now_ns(), name};
    else
        mpi_dropped++;
}

/* One wrapper a call: the time it spends, under its own name. */
#define TRACED(name, params, args)          \
    int name params                         \
    {                                       \
        uint64_t t0 = now_ns();             \
        int rc = P##name args;              \
        mpi_row(#name, t0);                 \
        return rc;                          \
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

int MPI_Finalize(void)
{
    write_trace();
    return PMPI_Finalize();
}
