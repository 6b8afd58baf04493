/* Lab 5: the lecture's wave stencil (ECE408 lecture 26) on MPI ranks.
 *
 * The grid: dimx x dimy x dimz floats, point (x, y, z) at index
 *   n = x + dimx * (y + dimy * z)
 * (z slowest, so a slab of whole z-planes is one contiguous block: the reason
 * the lecture splits the volume along z). One step of the scheme:
 *
 *   lap     = c0 * in[n]
 *   lap    += c_i * (((((L + R) + T) + B) + Behind) + Front)     for i = 1..4
 *   next[n] = (vel[n] * lap + 2.0f * in[n]) - prev[n]
 *
 * with L/R = in at x -/+ i, T/B = y -/+ i, Behind/Front = z -/+ i, and every
 * value outside the global domain taken as 0. The order of the additions is
 * part of the assignment: float addition is not associative, and the tests
 * compare every result bit for bit with the kit's serial reference. This
 * header holds what needs neither MPI nor CUDA. */
#ifndef LAB5_WAVE_H
#define LAB5_WAVE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The stencil's radius: 4 points each way along each axis (1 + 6 x 4 = 25
 * points), so a neighbour needs 4 of my planes: the halo depth. */
#define WAVE_RADIUS 4
/* The slab a compute rank owns must be at least 2 x WAVE_RADIUS planes deep:
 * its left and right boundary planes ([4,8) and [S,S+4) of its local array)
 * must not overlap. */
#define WAVE_MIN_SLAB (2 * WAVE_RADIUS)
/* The region the two boundary launches cover: 4 halo + 4 boundary + 4 planes
 * they read beyond. */
#define WAVE_BOUNDARY_REGION (3 * WAVE_RADIUS)

/* The 8th-order central second difference: c0 for the centre (3 x the 1-D
 * centre -205/72, one per axis), c1..c4 for distances 1..4. Float division
 * of exact operands, so the compilers fold each to the same float. */
static const float wave_coeff[WAVE_RADIUS + 1] = {-205.0f / 24.0f, 8.0f / 5.0f, -1.0f / 5.0f, 8.0f / 315.0f,
                                                  -1.0f / 560.0f};

/* Stage 1, stencil_cpu.c: one step on a region of nz whole planes.
 *
 * in, prev, vel and next point at plane 0 of the region (each array has
 * nz planes of dimx x dimy from there). Writes next at planes [4, nz-4) of
 * the region, every x and y, and nothing else; reads in at planes [0, nz),
 * prev and vel at the planes it writes. Out-of-range x or y neighbours
 * count as 0 (the global boundary); in z the caller supplies the 4 planes
 * at each end (zero planes at the global edges). next may be the same
 * array as prev (each point reads prev[n] before writing next[n]), so no
 * restrict. With OpenMP over z and y; the result must not depend on the
 * number of threads. nz <= 8 writes nothing. */
void stencil_region_cpu(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy,
                        int nz);

/* Stage 3, server.c: which planes compute rank `rank` (0 .. ncomp-1) of
 * ncomp gets, for a global depth dimz split into slabs of S = dimz / ncomp
 * planes. The rank's local array has S + 8 planes: 4 left-halo planes, its
 * S own planes (global planes rank*S ..), 4 right-halo planes. The server
 * sends global planes [src_plane, src_plane + nplanes) into local planes
 * [dst_plane, dst_plane + nplanes): the own planes and each halo that has a
 * neighbour. A pure function (no MPI). Returns 0, or -1 (plan zeroed) when
 * the split is impossible: ncomp < 2, rank outside [0, ncomp), dimz not a
 * multiple of ncomp, or S < WAVE_MIN_SLAB. */
typedef struct {
    int src_plane; /* first global plane sent */
    int nplanes;   /* how many planes */
    int dst_plane; /* where they go in the local array */
} wave_plan;

int distribution_plan(int dimz, int ncomp, int rank, wave_plan *plan);

/* Given (wave_kit.c): the deterministic initial state. Values come from a
 * hash of the GLOBAL index n, so any rank or test can make them without a
 * message: u0 in [0, 1) (24 random bits, exact in a float), vel in
 * [0, 0.1) (the scheme is stable for vel below about 0.205: README). The
 * wave starts at rest: prev = u0. */
float wave_u0(size_t n);
float wave_vel(size_t n);
/* u0 and vel of the whole grid (either may be NULL). */
void wave_fill(int dimx, int dimy, int dimz, float *u0, float *vel);
/* The demo's start: a Gaussian bump of width 2 points at the centre, vel =
 * 0.1 everywhere. */
void wave_fill_pulse(int dimx, int dimy, int dimz, float *u0, float *vel);

/* Raw little-endian float32 in memory order (the lecture's store_output).
 * Returns 0, or prints why and returns -1. */
int wave_store_output(const char *path, const float *u, int dimx, int dimy, int dimz);

/* Checks the grid's sizes for a run on np ranks; returns NULL when they are
 * fine, else a message for the user (static storage). Covers only what the
 * kit's driver knows before any stage runs: np >= 3 and positive sizes;
 * the split itself is distribution_plan's to refuse. */
const char *wave_check_sizes(int np, int dimx, int dimy, int dimz, int nreps);

#ifdef __cplusplus
}
#endif
#endif
