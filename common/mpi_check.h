/* Error check for MPI calls (NCCL's: nccl_check.h):
 *
 *   MPI_CHECK(MPI_Sendrecv(...));
 *
 * A failure prints the call, the library's error text, file:line and the
 * rank, then aborts the whole job (MPI_Abort). */
#ifndef KIT_MPI_CHECK_H
#define KIT_MPI_CHECK_H

#include <stdio.h>

#include <mpi.h>

static inline int kit_mpi_rank(void)
{
    int initialized = 0, rank = -1;
    MPI_Initialized(&initialized);
    if (initialized)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

#define MPI_CHECK(call)                                                                    \
    do {                                                                                   \
        int kit_mrc_ = (call);                                                             \
        if (kit_mrc_ != MPI_SUCCESS) {                                                     \
            char kit_msg_[MPI_MAX_ERROR_STRING];                                           \
            int kit_len_ = 0;                                                              \
            MPI_Error_string(kit_mrc_, kit_msg_, &kit_len_);                               \
            fprintf(stderr, "%s:%d: rank %d: MPI error in %s: %s\n", __FILE__, __LINE__,   \
                    kit_mpi_rank(), #call, kit_msg_);                                      \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                  \
        }                                                                                  \
    } while (0)

#endif
