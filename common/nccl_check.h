/* Error check for NCCL calls, in host C code and in CUDA files alike (it
 * needs no MPI header, which a .cu file may not include):
 *
 *   NCCL_CHECK(ncclGroupEnd());
 *
 * A failed call prints its text, file:line and NCCL's reason, and the
 * process exits with status 1: mpirun then ends the whole job, so no other
 * rank is left waiting in a collective. (MPI calls: mpi_check.h's
 * MPI_CHECK; CUDA: cuda_check.h.) */
#ifndef KIT_NCCL_CHECK_H
#define KIT_NCCL_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include <nccl.h>

#define NCCL_CHECK(call)                                                                           \
    do {                                                                                           \
        ncclResult_t kit_nrc_ = (call);                                                            \
        if (kit_nrc_ != ncclSuccess) {                                                             \
            fprintf(stderr, "%s:%d: NCCL error in %s: %s\n", __FILE__, __LINE__, #call,           \
                    ncclGetErrorString(kit_nrc_));                                                 \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#endif
