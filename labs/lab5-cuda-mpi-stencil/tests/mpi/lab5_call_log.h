/* Lab 5's check program: one log of what a compute rank did, in order:
 * every device call (the logging backend, lab5_call_log.c, which passes
 * each call on to the real backend) and every MPI call (the PMPI layer,
 * lab5_pmpi.c). From it the program checks the order of the overlapped
 * pipeline and counts the exchanges and barriers. */
#ifndef LAB5_CALL_LOG_H
#define LAB5_CALL_LOG_H

#include <stddef.h>

#include "device.h"

typedef enum {
    EV_LAUNCH, EV_COPY_ASYNC, EV_COPY, EV_STREAM_SYNC, EV_SYNC, /* device */
    EV_SENDRECV, EV_ISEND, EV_IRECV, EV_WAIT, EV_BARRIER, EV_SEND, EV_RECV /* MPI */
} ev_type;

typedef struct {
    ev_type type;
    int stream;         /* launches, async copies, stream syncs */
    int nz;             /* launches: planes of the region */
    dev_copy_kind kind; /* copies */
    size_t bytes;       /* copies */
    int tag, peer;      /* MPI */
} event;

void call_log_add(event e);
/* Starts a new log (one per case). */
void call_log_reset(void);
size_t call_log_count(void);
const event *call_log_events(void);
/* The logging backend over inner. */
const dev_backend *logging_backend(const dev_backend *inner);

/* How many barriers this process called since the program began. */
long pmpi_barriers(void);
/* 1 while the program's own MPI calls run (they are not logged). */
extern int pmpi_quiet;

#endif
