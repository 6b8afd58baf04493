/* Lab 5: the MPI stages. np >= 3 ranks: ranks 0 .. np-2 compute, rank np-1
 * is the data server (the lecture's roles). Compute rank r owns global
 * planes [r*S, (r+1)*S), S = dimz / (np-1); its neighbours are r-1 and r+1,
 * MPI_PROC_NULL past the ends (the server is never a neighbour).
 *
 * Messages (MPI_FLOAT, MPI_COMM_WORLD):
 *   server -> rank r  tag WAVE_TAG_DISTRIBUTE  u0 planes per distribution_plan,
 *                                              then vel planes, the same plan
 *   rank r -> rank r+-1  tag = step           the halos, 4 planes each way
 *   rank r -> server  tag WAVE_TAG_COLLECT     the S own planes after nreps steps
 * Every receive asks for the exact count and checks it with MPI_Get_count.
 * The server and every compute rank call MPI_Barrier the same number of
 * times (the reference: once each, so that the ranks start the steps
 * together). */
#ifndef LAB5_WAVE_MPI_H
#define LAB5_WAVE_MPI_H

#include <mpi.h>

#include "device.h"
#include "wave.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WAVE_TAG_DISTRIBUTE 0
#define WAVE_TAG_COLLECT 1

/* Stage 3, server.c, on rank np-1. input and velocity: the whole grid;
 * output (dimx*dimy*dimz): where the compute ranks' planes are collected.
 * Sends, collects, returns. An impossible split (distribution_plan's -1):
 * wave_fail with a message that names dimz and the number of compute ranks. */
void data_server(int dimx, int dimy, int dimz, const float *input, const float *velocity, float *output);

/* Stage 4, exchange.c: the four pinned host buffers of a compute rank, each
 * count floats (4 planes): its boundary planes to send, its halos to fill. */
typedef struct {
    float *left_boundary, *right_boundary; /* local planes [4,8) and [S,S+4) */
    float *left_halo, *right_halo;         /* local planes [0,4) and [S+4,S+8) */
    int count;
} wave_halos;

/* Two MPI_Sendrecv, as the lecture's lines 42-43: left boundary to left,
 * right halo from right; then right boundary to right, left halo from left.
 * left/right may be MPI_PROC_NULL (that halo is then left untouched). */
void exchange_halos(const wave_halos *h, int left, int right, int tag);
/* The non-blocking variant: posts MPI_Irecv x2 and MPI_Isend x2 into req and
 * returns at once; exchange_halos_finish waits for all four (MPI_Waitall). */
void exchange_halos_start(const wave_halos *h, int left, int right, int tag, MPI_Request req[4]);
void exchange_halos_finish(MPI_Request req[4]);

/* How a compute rank exchanges its halos each step. */
typedef enum {
    WAVE_SENDRECV,   /* interior launched on its stream, then exchange_halos */
    WAVE_NONBLOCKING /* exchange_halos_start, interior launched, then _finish */
} wave_exchange;

/* Stage 5, compute.c, on ranks 0 .. np-2: receives its planes, runs nreps
 * steps with the overlapped pipeline on the device backend dev, sends its S
 * own planes back. dimz is the global depth. */
void compute_process(int dimx, int dimy, int dimz, int nreps, const dev_backend *dev, wave_exchange mode);

/* Given (wave_kit.c): prints "rank R: <message>" to stderr and stops the
 * whole job with MPI_Abort(MPI_COMM_WORLD, 1). */
void wave_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#ifdef __cplusplus
}
#endif
#endif
