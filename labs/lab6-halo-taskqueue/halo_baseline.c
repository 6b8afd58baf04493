/* Lab 6, stage 3: the baseline. Yours to write (halo_mpi.h; check every
 * MPI call with MPI_CHECK). */
#include "halo_mpi.h"
#include "mpi_check.h"

int halo_post_irecvs(const halo_layer *L, halo_comm *C)
{
    /* TODO: one MPI_Irecv per block, tag = block id. */
    (void)L;
    (void)C;
    return -1;
}

int halo_send_block(const halo_layer *L, halo_comm *C, int block, int blocking)
{
    /* TODO: MPI_Send or MPI_Isend of block's buffer, tag = block id. */
    (void)L;
    (void)C;
    (void)block;
    (void)blocking;
    return -1;
}

int halo_waitall_via_testany(int n, MPI_Request *reqs, int *order)
{
    /* TODO: thesis Listing 3.11, recording the order of completion. */
    (void)n;
    (void)reqs;
    (void)order;
    return -2;
}

int halo_baseline_iteration(halo_layer *L, halo_comm *C, int iteration, int blocking, int testany)
{
    /* TODO: pack, receives, synchronize, sends, wait, unpack, three barriers. */
    (void)L;
    (void)C;
    (void)iteration;
    (void)blocking;
    (void)testany;
    return -1;
}
