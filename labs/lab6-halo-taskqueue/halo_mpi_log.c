/* Lab 6: MPI's profiling interface as a per-block event log (given; see
 * halo_mpi_log.h). Each wrapper calls the PMPI_ version and records; they
 * run on the main thread only (MPI_THREAD_FUNNELED). */
#include <string.h>

#include <mpi.h>

#include "halo_mpi_log.h"

static const halo_layer *watched;
static halo_mpi_block_log blocks[HALO_MAX_BLOCKS];
static MPI_Request pending[HALO_MAX_BLOCKS]; /* receive requests not yet seen complete */
static int strays;
static long prof_events, prof_chained;
static int prof_run, prof_max_run, prof_last_found;

static void outcome(int found)
{
    if (!watched)
        return;
    if (found) {
        prof_events++;
        prof_chained += prof_last_found;
        if (++prof_run > prof_max_run)
            prof_max_run = prof_run;
    } else {
        prof_run = 0;
    }
    prof_last_found = found;
}

void halo_mpi_profile(long *events, long *chained, int *max_run)
{
    *events = prof_events;
    *chained = prof_chained;
    *max_run = prof_max_run;
}

void halo_mpi_watch(const halo_layer *L)
{
    watched = L;
    if (!L)
        return; /* stop watching, keep the records */
    memset(blocks, 0, sizeof blocks);
    prof_events = prof_chained = 0;
    prof_run = prof_max_run = prof_last_found = 0;
    for (int b = 0; b < HALO_MAX_BLOCKS; b++)
        pending[b] = MPI_REQUEST_NULL;
    strays = 0;
}

const halo_mpi_block_log *halo_mpi_block(int block)
{
    return &blocks[block];
}

int halo_mpi_strays(void)
{
    return strays;
}

static int block_of(const void *buf, int recv)
{
    if (!watched)
        return -1;
    for (int b = 0; b < watched->num_blocks; b++)
        if (buf == (recv ? (const void *)watched->recv_buf[b] : (const void *)watched->send_buf[b]))
            return b;
    strays++;
    return -1;
}

static void sent(const void *buf, int count, int dest, int tag)
{
    int b = block_of(buf, 0);
    if (b < 0)
        return;
    blocks[b].sends++;
    blocks[b].send_tag = tag;
    blocks[b].send_dest = dest;
    blocks[b].send_count = count;
    halo_log(HL_SENT, b);
    outcome(1);
}

/* Requests that were a watched receive before the call and are null after
 * it have completed; returns how many. */
static int completed(int n, const MPI_Request *before, const MPI_Request *after)
{
    int done = 0;
    for (int i = 0; i < n; i++)
        if (before[i] != MPI_REQUEST_NULL && after[i] == MPI_REQUEST_NULL)
            for (int b = 0; b < HALO_MAX_BLOCKS; b++)
                if (pending[b] == before[i]) {
                    pending[b] = MPI_REQUEST_NULL;
                    halo_log(HL_RECEIVED, b);
                    done++;
                }
    return done;
}

#define SNAPSHOT(n, reqs)                                                   \
    MPI_Request before_[(n) > 0 ? (n) : 1];                                 \
    if ((n) > 0)                                                            \
        memcpy(before_, (reqs), (size_t)(n) * sizeof(MPI_Request))

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *req)
{
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    int b = block_of(buf, 1);
    if (b >= 0) {
        blocks[b].irecvs++;
        blocks[b].recv_tag = tag;
        blocks[b].recv_source = source;
        blocks[b].recv_count = count;
        pending[b] = *req;
    }
    return rc;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    sent(buf, count, dest, tag); /* logged when posted: the data must be ready by now */
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    sent(buf, count, dest, tag);
    return PMPI_Ssend(buf, count, type, dest, tag, comm);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    sent(buf, count, dest, tag);
    return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    SNAPSHOT(1, req);
    int rc = PMPI_Wait(req, status);
    completed(1, before_, req);
    return rc;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
    SNAPSHOT(1, req);
    int rc = PMPI_Test(req, flag, status);
    completed(1, before_, req);
    return rc;
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[])
{
    SNAPSHOT(n, reqs);
    int rc = PMPI_Waitall(n, reqs, statuses);
    completed(n, before_, reqs);
    return rc;
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    SNAPSHOT(n, reqs);
    int rc = PMPI_Testall(n, reqs, flag, statuses);
    completed(n, before_, reqs);
    return rc;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status)
{
    SNAPSHOT(n, reqs);
    int rc = PMPI_Waitany(n, reqs, index, status);
    completed(n, before_, reqs);
    return rc;
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    SNAPSHOT(n, reqs);
    int rc = PMPI_Testany(n, reqs, index, flag, status);
    outcome(completed(n, before_, reqs) > 0);
    return rc;
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    SNAPSHOT(n, reqs);
    int rc = PMPI_Waitsome(n, reqs, outcount, indices, statuses);
    completed(n, before_, reqs);
    return rc;
}

int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[])
{
    SNAPSHOT(n, reqs);
    int rc = PMPI_Testsome(n, reqs, outcount, indices, statuses);
    completed(n, before_, reqs);
    return rc;
}

int MPI_Barrier(MPI_Comm comm)
{
    prof_run = prof_last_found = 0; /* an iteration's end: runs do not span iterations */
    return PMPI_Barrier(comm);
}
