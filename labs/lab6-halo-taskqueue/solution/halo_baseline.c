/* Lab 6, stage 3: the baseline (reference): pack, synchronise, MPI, unpack,
 * strictly one after the other. */
#include "halo_mpi.h"
#include "mpi_check.h"

int halo_post_irecvs(const halo_layer *L, halo_comm *C)
{
    for (int b = 0; b < L->num_blocks; b++)
        MPI_CHECK(MPI_Irecv(L->recv_buf[b], (int)L->sizes[b], MPI_DOUBLE, L->recv_from[b], b, C->comm,
                            &C->recv_req[b]));
    return 0;
}

int halo_send_block(const halo_layer *L, halo_comm *C, int block, int blocking)
{
    if (blocking)
        MPI_CHECK(MPI_Send(L->send_buf[block], (int)L->sizes[block], MPI_DOUBLE, L->send_to[block], block, C->comm));
    else
        MPI_CHECK(MPI_Isend(L->send_buf[block], (int)L->sizes[block], MPI_DOUBLE, L->send_to[block], block, C->comm,
                            &C->send_req[block]));
    return 0;
}

int halo_waitall_via_testany(int n, MPI_Request *reqs, int *order)
{
    for (int i = 0; i < n; i++) {
        int index = MPI_UNDEFINED, done = 0;
        while (!done)
            MPI_CHECK(MPI_Testany(n, reqs, &index, &done, MPI_STATUS_IGNORE));
        if (index == MPI_UNDEFINED) /* every request null: fewer than n were pending */
            return -1;
        order[i] = index;
    }
    return 0;
}

int halo_baseline_iteration(halo_layer *L, halo_comm *C, int iteration, int blocking, int testany)
{
    const halo_backend *be = L->backend;
    int nb = L->num_blocks, order[HALO_MAX_BLOCKS];
    if (be->launch_pack(L, iteration))
        return -1;
    halo_post_irecvs(L, C); /* while the pack runs */
    if (be->synchronize())  /* the packed data is in host memory only now */
        return -1;
    for (int b = 0; b < nb; b++)
        halo_send_block(L, C, b, blocking);
    if (testany) {
        if (halo_waitall_via_testany(nb, C->recv_req, order))
            return -1;
    } else {
        MPI_CHECK(MPI_Waitall(nb, C->recv_req, MPI_STATUSES_IGNORE));
    }
    if (be->launch_unpack(L, iteration))
        return -1;
    if (!blocking)
        MPI_CHECK(MPI_Waitall(nb, C->send_req, MPI_STATUSES_IGNORE));
    if (be->synchronize())
        return -1;
    MPI_CHECK(MPI_Barrier(C->comm));
    return 0;
}
