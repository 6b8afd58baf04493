/* Lab 5, stage 3: the split along z (distribution_plan) and the data
 * server (data_server), rank np-1. */
#include <stdio.h>
#include <string.h>

#include "mpi_check.h"
#include "wave_mpi.h"

int distribution_plan(int dimz, int ncomp, int rank, wave_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    /* TODO: refuse (return -1) an impossible split (wave.h); else fill
     *       src_plane, nplanes, dst_plane: rank 0 -> (0, S+4, 4), an
     *       internal rank -> (rank*S - 4, S+8, 0), the last rank ->
     *       (rank*S - 4, S+4, 0). */
    (void)dimz, (void)ncomp, (void)rank;
    return -1;
}

void data_server(int dimx, int dimy, int dimz, const float *input, const float *velocity, float *output)
{
    int np;
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &np));
    /* TODO 1: check the split (distribution_plan; wave_fail naming dimz and
     *         the number of compute ranks when it is refused).
     * TODO 2: send each compute rank its input planes, then its velocity
     *         planes (MPI_Send, tag WAVE_TAG_DISTRIBUTE, counts in floats
     *         as int: refuse a count past INT_MAX), per its plan.
     * TODO 3: MPI_Barrier, once: the compute ranks call it once too.
     * TODO 4: receive each rank's S own planes (tag WAVE_TAG_COLLECT) into
     *         output at global plane rank*S, with the exact count, checked
     *         by MPI_Get_count. Offsets in size_t. */
    (void)dimx, (void)dimy, (void)dimz, (void)input, (void)velocity, (void)output, (void)np;
    fprintf(stderr, "data_server: not implemented yet\n");
}
