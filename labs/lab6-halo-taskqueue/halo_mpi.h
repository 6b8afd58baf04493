/* Lab 6: the MPI side of the halo exchange (stages 3 and 4).
 *
 * One MPI process per GPU; only the main thread calls MPI
 * (MPI_THREAD_FUNNELED is enough). Every MPI call's return code is checked
 * (common/mpi_check.h). */
#ifndef LAB6_HALO_MPI_H
#define LAB6_HALO_MPI_H

#include <mpi.h>

#include "halo.h"

/* The requests of one iteration: receive b and send b belong to block b. */
typedef struct {
    MPI_Comm comm;
    MPI_Request recv_req[HALO_MAX_BLOCKS];
    MPI_Request send_req[HALO_MAX_BLOCKS];
} halo_comm;

/* ---- Stage 3: the baseline (student: halo_baseline.c) -------------------- */

/* One MPI_Irecv per block into L->recv_buf[b]: L->sizes[b] doubles from
 * L->recv_from[b], tag b. */
int halo_post_irecvs(const halo_layer *L, halo_comm *C);

/* Sends block's buffer to L->send_to[block], tag = block: MPI_Send when
 * blocking, else MPI_Isend into C->send_req[block]. */
int halo_send_block(const halo_layer *L, halo_comm *C, int block, int blocking);

/* Waits for all n requests with a loop of MPI_Testany (thesis Listing
 * 3.11); order[i] = the index of the i-th request to complete. Returns 0, or
 * -1 if a request was already null (MPI_UNDEFINED before all n were seen). */
int halo_waitall_via_testany(int n, MPI_Request *reqs, int *order);

/* One baseline iteration: launch the pack, post the receives while it runs,
 * wait for it, send every block (blocking or not), wait for the receives
 * (MPI_Waitall, or the Testany loop when testany), launch the unpack, then
 * the three barriers in order: MPI_Waitall on the sends (non-blocking only),
 * the device's synchronize, MPI_Barrier. Returns 0 or -1. */
int halo_baseline_iteration(halo_layer *L, halo_comm *C, int iteration, int blocking, int testany);

/* ---- Stage 4: the taskqueue's event loop (student: halo_tq_loop.c) ------- */

/* One taskqueue iteration: launch the one kernel, post the receives, then
 * handle exactly 2 * num_blocks events, one at a time: a task (send that
 * block, blocking or not) when the queue has one, else a completed receive
 * found by MPI_Testany (notify that block with TQ_BIT_RECV). Then:
 * synchronize, tq_reset, MPI_Waitall on the sends (non-blocking only),
 * MPI_Barrier. Returns the number of events handled, or -1. */
int halo_tq_iteration(halo_layer *L, halo_comm *C, taskqueue *tq, int iteration, int blocking);

#endif
