/* Lab 6, stage 4: the taskqueue's CPU event loop. Yours to write
 * (halo_mpi.h, the README's Fig. 3.8). */
#include "halo_mpi.h"
#include "mpi_check.h"

int halo_tq_iteration(halo_layer *L, halo_comm *C, taskqueue *tq, int iteration, int blocking)
{
    /* TODO: launch, receives, exactly 2 * num_blocks events, then
     * synchronize, tq_reset, the sends' Waitall, MPI_Barrier. */
    (void)L;
    (void)C;
    (void)tq;
    (void)iteration;
    (void)blocking;
    return -1;
}
