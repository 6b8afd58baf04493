/* Lab 6: what MPI calls did, per block, seen through MPI's profiling
 * interface (given). A program that links halo_mpi_log.c gets these
 * wrappers in front of MPI's own functions: every send and every completed
 * receive of a watched layer's buffers goes into the event log (halo.h's
 * HL_SENT, HL_RECEIVED), and the arguments of each are recorded, so that a
 * test can say "block 4's receive was posted with tag 0" instead of hanging. */
#ifndef LAB6_HALO_MPI_LOG_H
#define LAB6_HALO_MPI_LOG_H

#include "halo.h"

typedef struct {
    int irecvs, sends;          /* calls this iteration */
    int recv_tag, recv_source;  /* of the last receive posted */
    long recv_count;
    int send_tag, send_dest;    /* of the last send */
    long send_count;
} halo_mpi_block_log;

/* Watch L's buffers and clear the records; NULL: stop watching, keep them. */
void halo_mpi_watch(const halo_layer *L);
const halo_mpi_block_log *halo_mpi_block(int block);
/* Calls on buffers that belong to no block of the watched layer. */
int halo_mpi_strays(void);

/* The thesis's profile of the event loop (§4.4), since the last watch: a
 * send of a watched block or an MPI_Testany that completed a watched
 * receive is an event found, an MPI_Testany that completed none a test that
 * found nothing. events: events found; chained: events found right after
 * another; max_run: the most found in a row. High chained with a short
 * max_run: the CPU is busy evenly; low chained with long runs: bursts. */
void halo_mpi_profile(long *events, long *chained, int *max_run);

#endif
