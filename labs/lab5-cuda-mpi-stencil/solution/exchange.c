/* Lab 5, stage 4: the halo exchange between neighbouring compute ranks,
 * through pinned host buffers (the GPU hosts' MPI is not CUDA-aware). */
#include "mpi_check.h"
#include "wave_mpi.h"

void exchange_halos(const wave_halos *h, int left, int right, int tag)
{
    /* my left boundary is my left neighbour's right halo; meanwhile my
     * right neighbour's left boundary becomes my right halo */
    MPI_CHECK(MPI_Sendrecv(h->left_boundary, h->count, MPI_FLOAT, left, tag, h->right_halo, h->count, MPI_FLOAT,
                           right, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_Sendrecv(h->right_boundary, h->count, MPI_FLOAT, right, tag, h->left_halo, h->count, MPI_FLOAT,
                           left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

void exchange_halos_start(const wave_halos *h, int left, int right, int tag, MPI_Request req[4])
{
    /* receives first, so that a message finds its buffer waiting */
    MPI_CHECK(MPI_Irecv(h->left_halo, h->count, MPI_FLOAT, left, tag, MPI_COMM_WORLD, &req[0]));
    MPI_CHECK(MPI_Irecv(h->right_halo, h->count, MPI_FLOAT, right, tag, MPI_COMM_WORLD, &req[1]));
    MPI_CHECK(MPI_Isend(h->left_boundary, h->count, MPI_FLOAT, left, tag, MPI_COMM_WORLD, &req[2]));
    MPI_CHECK(MPI_Isend(h->right_boundary, h->count, MPI_FLOAT, right, tag, MPI_COMM_WORLD, &req[3]));
}

void exchange_halos_finish(MPI_Request req[4])
{
    MPI_CHECK(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
}
