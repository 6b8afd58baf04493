/* Lab 5's check program: a PMPI layer. The program defines the MPI calls
 * that the stages make; the linker binds the student's calls to these
 * (under the kit's watchdog layer, autograder/mpi_checker/mpi_checker.h),
 * which log the call (lab5_call_log.h) and pass it on to the library's PMPI_
 * entry point. The program's own MPI calls set pmpi_quiet and go unlogged. */
#include <mpi.h>

#include "lab5_call_log.h"

int pmpi_quiet;
static long barriers;

long pmpi_barriers(void) { return barriers; }

static void note(ev_type type, int peer, int tag)
{
    if (!pmpi_quiet)
        call_log_add((event){.type = type, .peer = peer, .tag = tag, .stream = -1});
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    note(EV_SEND, dest, tag);
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    note(EV_RECV, source, tag);
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    /* the tag that matters is the one both sides agree on: the send tag,
     * and a receive tag unlike it is logged as tag -2 */
    note(EV_SENDRECV, dest, sendtag == recvtag ? sendtag : -2);
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, status);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    note(EV_ISEND, dest, tag);
    return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *req)
{
    note(EV_IRECV, source, tag);
    return PMPI_Irecv(buf, count, type, source, tag, comm, req);
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    note(EV_WAIT, -1, -1);
    return PMPI_Wait(req, status);
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status *statuses)
{
    note(EV_WAIT, -1, -1);
    return PMPI_Waitall(count, reqs, statuses);
}

int MPI_Barrier(MPI_Comm comm)
{
    if (!pmpi_quiet)
        barriers++;
    note(EV_BARRIER, -1, -1);
    return PMPI_Barrier(comm);
}
