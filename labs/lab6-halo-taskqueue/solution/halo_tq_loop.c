/* Lab 6, stage 4: the taskqueue's CPU event loop (reference, thesis Fig. 3.8). */
#include <sched.h>

#include "halo_mpi.h"
#include "mpi_check.h"

int halo_tq_iteration(halo_layer *L, halo_comm *C, taskqueue *tq, int iteration, int blocking)
{
    const halo_backend *be = L->backend;
    int nb = L->num_blocks, events = 0;
    if (be->launch_tq(L, tq, iteration))
        return -1;
    halo_post_irecvs(L, C);
    while (events < 2 * nb) {
        /* Tasks first: a send started early is the whole point. */
        int block = tq_cpu_poll_task(tq);
        if (block != TQ_EMPTY) {
            halo_send_block(L, C, block, blocking);
            events++;
            continue;
        }
        int index = MPI_UNDEFINED, done = 0;
        MPI_CHECK(MPI_Testany(nb, C->recv_req, &index, &done, MPI_STATUS_IGNORE));
        if (done && index != MPI_UNDEFINED) {
            tq_cpu_notify(tq, index, TQ_BIT_RECV);
            events++;
        } else {
            sched_yield(); /* nothing to do: let a block (a thread, on the host) run */
        }
    }
    if (be->synchronize())
        return -1;
    tq_reset(tq); /* the kernel is over: nothing races with the reset */
    if (!blocking)
        MPI_CHECK(MPI_Waitall(nb, C->send_req, MPI_STATUSES_IGNORE));
    MPI_CHECK(MPI_Barrier(C->comm));
    return events;
}
