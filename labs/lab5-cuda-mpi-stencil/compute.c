/* Lab 5, stage 5: a compute rank's overlapped pipeline (the lecture's
 * compute process, "GETTING SOME OVERLAP"), on the device backend dev.
 *
 * Local array of S + 8 planes (plane = dimx * dimy points):
 *   [0,4) left halo  [4,8) left boundary  [8,S) interior  [S,S+4) right
 *   boundary  [S+4,S+8) right halo */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "mpi_check.h"
#include "wave_mpi.h"

void compute_process(int dimx, int dimy, int dimz, int nreps, const dev_backend *dev, wave_exchange mode)
{
    int rank, np;
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &np));
    /* TODO 1: your plan (distribution_plan; wave_fail if refused). Receive
     *         u0 and then vel from the server (rank np-1) into host arrays
     *         of S + 8 planes at local plane dst_plane, with exact counts
     *         checked by MPI_Get_count. The planes nobody sends must be 0.
     * TODO 2: dev->init(rank); device arrays d_input, d_output, d_vel
     *         (dev_alloc); d_input = u0, and d_output = u0 too (the wave
     *         starts at rest: d_output holds prev and receives next).
     * TODO 3: four pinned halo buffers (dev_alloc_host, 4 planes each), the
     *         halos zeroed (an edge rank never receives its outer halo);
     *         neighbours rank-1 and rank+1, MPI_PROC_NULL past the ends.
     * TODO 4: MPI_Barrier once (the server's), then per step i:
     *         boundary regions (local planes 0 and S-4, 12 planes each) on
     *         DEV_STREAM_BOUNDARY; the interior (plane 4, S planes) on
     *         DEV_STREAM_INTERIOR; the boundary planes [4,8) and [S,S+4) to
     *         the host on the boundary stream; wait for that stream only;
     *         the exchange with tag i (mode WAVE_SENDRECV: exchange_halos
     *         after the interior launch; WAVE_NONBLOCKING: _start, then the
     *         interior launch, then _finish); the halos into d_output's
     *         planes [0,4) and [S+4,S+8); dev_sync; swap d_input, d_output.
     *         Every launch: next = prev = d_output + offset, in = d_input +
     *         offset, vel = d_vel + offset.
     * TODO 5: the newest step (which buffer?) back to the host; send the S
     *         own planes to the server (tag WAVE_TAG_COLLECT); free
     *         everything; dev->finish(). */
    (void)dimx, (void)dimy, (void)dimz, (void)nreps, (void)dev, (void)mode, (void)rank, (void)np;
    fprintf(stderr, "compute_process: not implemented yet\n");
}
