/* Error check for NCCL calls in CUDA files, which are compiled without
 * MPI's header:
 *
 *   NCCL_OK(ncclGroupEnd());
 *
 * A failed call prints its text, file:line and NCCL's reason, and the
 * process exits (mpirun then ends the job). Host C code that has MPI uses
 * mpi_check.h's NCCL_CHECK, which aborts the whole job with MPI_Abort. */
#ifndef KIT_NCCL_CHECK_H
#define KIT_NCCL_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include <nccl.h>

#define NCCL_OK(call)                                                                              \
    do {                                                                                           \
        ncclResult_t rc_ = (call);                                                                 \
        if (rc_ != ncclSuccess) {                                                                  \
            fprintf(stderr, "%s:%d: NCCL error in %s: %s\n", __FILE__, __LINE__, #call,           \
                    ncclGetErrorString(rc_));                                                      \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#endif
