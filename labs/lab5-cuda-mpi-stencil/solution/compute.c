/* Lab 5, stage 5: a compute rank's overlapped pipeline (the lecture's
 * compute process, "GETTING SOME OVERLAP"), on the device backend dev.
 *
 * Local array of S + 8 planes (plane = dimx * dimy points):
 *   [0,4) left halo  [4,8) left boundary  [8,S) interior  [S,S+4) right
 *   boundary  [S+4,S+8) right halo
 * Two device arrays: d_input (this step's u) and d_output, which holds the
 * previous step's u and receives the next one: each point reads prev[n]
 * before it writes next[n], so prev and next may be the same array. */
#include <limits.h>
#include <string.h>

#include "alloc.h"
#include "mpi_check.h"
#include "wave_mpi.h"

static void recv_exact(float *buf, size_t points, int source, int tag)
{
    MPI_Status status;
    int got = -1;
    if (points > INT_MAX)
        wave_fail("a slab of %zu floats is more than one MPI count can say", points);
    MPI_CHECK(MPI_Recv(buf, (int)points, MPI_FLOAT, source, tag, MPI_COMM_WORLD, &status));
    MPI_CHECK(MPI_Get_count(&status, MPI_FLOAT, &got));
    if (got != (int)points)
        wave_fail("expected %zu floats from rank %d (tag %d), got %d", points, source, tag, got);
}

/* One step on a region of nz planes from local plane z0 of each array. */
static void launch_region(const dev_backend *dev, float *d_next, const float *d_in, const float *d_vel, size_t plane,
                          int z0, int nz, int dimx, int dimy, int stream)
{
    size_t off = (size_t)z0 * plane;
    dev_launch(dev, d_next + off, d_in + off, d_next + off, d_vel + off, dimx, dimy, nz, stream);
}

void compute_process(int dimx, int dimy, int dimz, int nreps, const dev_backend *dev, wave_exchange mode)
{
    int rank, np;
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &np));
    int server = np - 1, ncomp = np - 1;
    wave_plan plan;
    if (distribution_plan(dimz, ncomp, rank, &plan) != 0)
        wave_fail("cannot split dimz = %d over %d compute ranks: dimz must be a multiple of %d, in slabs of at "
                  "least %d planes",
                  dimz, ncomp, ncomp, WAVE_MIN_SLAB);
    const int S = dimz / ncomp;
    const size_t plane = (size_t)dimx * dimy;
    const size_t num_points = plane * (size_t)(S + 2 * WAVE_RADIUS);
    const size_t num_bytes = num_points * sizeof(float);
    const size_t halo_points = plane * WAVE_RADIUS, halo_bytes = halo_points * sizeof(float);

    /* The planes past the global edge are never received: they are the
     * zero boundary, so the host copies start zeroed. */
    float *h_input = kit_alloc(num_points, sizeof(float)), *h_vel = kit_alloc(num_points, sizeof(float));
    memset(h_input, 0, num_bytes);
    memset(h_vel, 0, num_bytes);
    recv_exact(h_input + (size_t)plan.dst_plane * plane, (size_t)plan.nplanes * plane, server, WAVE_TAG_DISTRIBUTE);
    recv_exact(h_vel + (size_t)plan.dst_plane * plane, (size_t)plan.nplanes * plane, server, WAVE_TAG_DISTRIBUTE);

    dev->init(rank);
    float *d_input = dev_alloc(dev, num_bytes), *d_output = dev_alloc(dev, num_bytes);
    float *d_vel = dev_alloc(dev, num_bytes);
    dev_memcpy(dev, d_input, h_input, num_bytes, DEV_H2D);
    /* the wave starts at rest: prev = u0, and d_output is prev */
    dev_memcpy(dev, d_output, h_input, num_bytes, DEV_H2D);
    dev_memcpy(dev, d_vel, h_vel, num_bytes, DEV_H2D);

    /* Pinned buffers, so that the copies really run asynchronously. An edge
     * rank never receives its outer halo: it must stay zero. */
    wave_halos h = {dev_alloc_host(dev, halo_bytes), dev_alloc_host(dev, halo_bytes), dev_alloc_host(dev, halo_bytes),
                    dev_alloc_host(dev, halo_bytes), (int)halo_points};
    memset(h.left_halo, 0, halo_bytes);
    memset(h.right_halo, 0, halo_bytes);
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < ncomp - 1 ? rank + 1 : MPI_PROC_NULL;

    const int right_stage1 = S - WAVE_RADIUS;          /* region [S-4, S+8): writes [S, S+4) */
    const size_t left_boundary_offset = halo_points;   /* local plane 4 */
    const size_t right_boundary_offset = (size_t)S * plane;
    const size_t right_halo_offset = (size_t)(S + WAVE_RADIUS) * plane;

    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* the server's, after it sent everything */
    for (int i = 0; i < nreps; i++) {
        /* 1. the planes my neighbours need, first, on the boundary stream */
        launch_region(dev, d_output, d_input, d_vel, plane, 0, WAVE_BOUNDARY_REGION, dimx, dimy, DEV_STREAM_BOUNDARY);
        launch_region(dev, d_output, d_input, d_vel, plane, right_stage1, WAVE_BOUNDARY_REGION, dimx, dimy,
                      DEV_STREAM_BOUNDARY);
        /* 2. the interior on the other stream: it runs during the exchange */
        if (mode == WAVE_SENDRECV)
            launch_region(dev, d_output, d_input, d_vel, plane, WAVE_RADIUS, S, dimx, dimy, DEV_STREAM_INTERIOR);
        /* 3. boundary planes to the host, and wait for them (only them) */
        dev_memcpy_async(dev, h.left_boundary, d_output + left_boundary_offset, halo_bytes, DEV_D2H,
                         DEV_STREAM_BOUNDARY);
        dev_memcpy_async(dev, h.right_boundary, d_output + right_boundary_offset, halo_bytes, DEV_D2H,
                         DEV_STREAM_BOUNDARY);
        dev_stream_sync(dev, DEV_STREAM_BOUNDARY);
        /* 4. the exchange, tag = step */
        if (mode == WAVE_SENDRECV) {
            exchange_halos(&h, left, right, i);
        } else {
            MPI_Request req[4];
            exchange_halos_start(&h, left, right, i, req);
            launch_region(dev, d_output, d_input, d_vel, plane, WAVE_RADIUS, S, dimx, dimy, DEV_STREAM_INTERIOR);
            exchange_halos_finish(req);
        }
        /* 5. the halos into d_output, which becomes the next step's input */
        dev_memcpy_async(dev, d_output, h.left_halo, halo_bytes, DEV_H2D, DEV_STREAM_BOUNDARY);
        dev_memcpy_async(dev, d_output + right_halo_offset, h.right_halo, halo_bytes, DEV_H2D, DEV_STREAM_BOUNDARY);
        /* 6. both streams done, then swap: the old input is the next prev */
        dev_sync(dev);
        float *t = d_output;
        d_output = d_input;
        d_input = t;
    }

    /* After the last swap the newest step is in d_input. */
    dev_memcpy(dev, h_input, d_input, num_bytes, DEV_D2H);
    MPI_CHECK(MPI_Send(h_input + halo_points, (int)((size_t)S * plane), MPI_FLOAT, server, WAVE_TAG_COLLECT,
                       MPI_COMM_WORLD));

    dev_free_host(dev, h.left_boundary);
    dev_free_host(dev, h.right_boundary);
    dev_free_host(dev, h.left_halo);
    dev_free_host(dev, h.right_halo);
    dev_free(dev, d_input);
    dev_free(dev, d_output);
    dev_free(dev, d_vel);
    dev->finish();
    kit_free(h_input);
    kit_free(h_vel);
}
