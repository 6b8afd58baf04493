/* The z-split of the Poisson cube over P parts (GPUs or MPI ranks).
 *
 * The N interior planes i = 1 .. N (i <-> z, the slowest index, so a plane is
 * one contiguous block of (N+2)^2 doubles) are dealt out in order: part p
 * owns planes first .. first+count-1, and the first N % P parts own one plane
 * more than the others, so any N >= P splits (N = 100 on 3 GPUs: 34, 33, 33).
 *
 * A part stores count + 2 planes: its own, plus one plane below and one above.
 * Those two are either the cube's boundary (part 0's plane i = 0, part P-1's
 * plane i = N+1) or halo copies of the neighbour's edge plane, refreshed
 * after every sweep. Local plane l holds global plane first - 1 + l, so a
 * part runs the single-GPU sweep over its local planes 1 .. count with the
 * global plane index i = first - 1 + l for the radiator test.
 *
 * Plain C, no MPI and no CUDA: the CPU tests, the peer stage and the NCCL
 * stage all use this one definition. */
#ifndef KIT_DECOMP_H
#define KIT_DECOMP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int first;  /* global index of the first owned plane (1 .. N) */
    int count;  /* owned planes (>= 1 when N >= P) */
    int below;  /* part that owns plane first-1, or -1: the boundary */
    int above;  /* part that owns plane first+count, or -1: the boundary */
} decomp_part;

/* Returns 0 if N interior planes can be split over P parts (1 <= P <= N),
 * else prints why to stderr and returns 1. */
int decomp_check(int N, int P);

/* Part p (0 <= p < P) of the split of N interior planes over P parts. */
decomp_part decomp_split(int N, int P, int p);

/* Doubles in one plane, (N+2)^2, and in a part's local array,
 * (count+2)(N+2)^2: size_t, never int (the seed's overflow). */
size_t decomp_plane_size(int N);
size_t decomp_local_size(int N, decomp_part part);

/* Offset (in doubles) of plane i in an array of planes: of global plane i
 * in the full (N+2)^3 array, or of local plane i in a part's array. */
size_t decomp_plane_offset(int N, int i);

/* Copies planes first-1 .. first+count of the full array into the part's
 * local array (boundary or halo planes included), and back: the owned
 * planes of local into the full array (local's planes 0 and count+1 are not
 * copied back). */
void decomp_scatter_part(int N, decomp_part part, const double *full, double *local);
void decomp_gather_part(int N, decomp_part part, const double *local, double *full);

#ifdef __cplusplus
}
#endif
#endif
