/* Lab 5, stage 3: the split along z (distribution_plan) and the data
 * server (data_server), rank np-1. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "mpi_check.h"
#include "wave_mpi.h"

int distribution_plan(int dimz, int ncomp, int rank, wave_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    if (ncomp < 2 || rank < 0 || rank >= ncomp || dimz % ncomp != 0 || dimz / ncomp < WAVE_MIN_SLAB)
        return -1;
    int S = dimz / ncomp;
    /* own planes [rank*S, rank*S + S) plus 4 planes on each side that has a
     * neighbour; local plane 4 is global plane rank*S */
    int has_left = rank > 0, has_right = rank < ncomp - 1;
    plan->src_plane = rank * S - WAVE_RADIUS * has_left;
    plan->nplanes = S + WAVE_RADIUS * (has_left + has_right);
    plan->dst_plane = WAVE_RADIUS * !has_left;
    return 0;
}

/* An MPI count is an int: a slab that does not fit is refused, never
 * truncated. */
static int mpi_count(size_t points)
{
    if (points > INT_MAX)
        wave_fail("a message of %zu floats is more than one MPI count (%d) can say", points, INT_MAX);
    return (int)points;
}

static void recv_exact(float *buf, size_t points, int source, int tag)
{
    MPI_Status status;
    int got = -1, want = mpi_count(points);
    MPI_CHECK(MPI_Recv(buf, want, MPI_FLOAT, source, tag, MPI_COMM_WORLD, &status));
    MPI_CHECK(MPI_Get_count(&status, MPI_FLOAT, &got));
    if (got != want)
        wave_fail("expected %d floats from rank %d (tag %d), got %d", want, source, tag, got);
}

void data_server(int dimx, int dimy, int dimz, const float *input, const float *velocity, float *output)
{
    int np;
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &np));
    int ncomp = np - 1;
    size_t plane = (size_t)dimx * dimy;
    wave_plan plan;
    if (distribution_plan(dimz, ncomp, 0, &plan) != 0)
        wave_fail("cannot split dimz = %d over %d compute ranks: dimz must be a multiple of %d, in slabs of at "
                  "least %d planes",
                  dimz, ncomp, ncomp, WAVE_MIN_SLAB);
    /* input first, then velocity, with the same plan: MPI keeps messages
     * between two ranks with one tag in order */
    const float *fields[2] = {input, velocity};
    for (int f = 0; f < 2; f++)
        for (int r = 0; r < ncomp; r++) {
            distribution_plan(dimz, ncomp, r, &plan);
            MPI_CHECK(MPI_Send(fields[f] + (size_t)plan.src_plane * plane, mpi_count((size_t)plan.nplanes * plane),
                               MPI_FLOAT, r, WAVE_TAG_DISTRIBUTE, MPI_COMM_WORLD));
        }
    /* the compute ranks' barrier before their first step */
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    int S = dimz / ncomp;
    for (int r = 0; r < ncomp; r++)
        recv_exact(output + (size_t)r * S * plane, (size_t)S * plane, r, WAVE_TAG_COLLECT);
}
