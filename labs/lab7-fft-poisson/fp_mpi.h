/* Lab 7, stage 4: the distributed solver on pencils (fft_poisson.h says
 * which rank holds which part of the grid in each pencil). */
#ifndef LAB7_FP_MPI_H
#define LAB7_FP_MPI_H

#include <mpi.h>

#include "fft_poisson.h"

typedef struct {
    fp_grid g;
    int pr, pc;     /* the process grid */
    int r, c;       /* this rank's place in it: rank in comm = r*pc + c */
    MPI_Comm comm;  /* all pr*pc ranks */
    MPI_Comm row;   /* the pc ranks with this r, ranked by c (x <-> y) */
    MPI_Comm col;   /* the pr ranks with this c, ranked by r (y <-> z) */
    fp_box box[3];  /* this rank's box in each pencil (fp_pencil_box) */
} fp_dist;

/* Sets d up for grid g on pr x pc ranks of comm (whose size must be
 * pr*pc): the coordinates, the row and column communicators
 * (MPI_Comm_split) and the boxes. Returns 0, or -1 (after a message) if
 * the grid or the process grid does not fit (fp_pencils_check) or comm's
 * size is not pr*pc. Collective over comm. */
int fp_dist_init(fp_dist *d, const fp_grid *g, int pr, int pc, MPI_Comm comm);
void fp_dist_free(fp_dist *d);

/* Redistributes this rank's part of the grid from pencil `from` to pencil
 * `to` (x <-> y over the row communicator, y <-> z over the column
 * communicator; other pairs are an error): in holds the box d->box[from],
 * out receives d->box[to]. Pack the blocks for each peer contiguously,
 * MPI_Alltoall, unpack. Collective over the row or the column. Returns 0,
 * or -1 for a pair of pencils that are not neighbours. */
int fp_transpose(const fp_dist *d, fp_pencil from, fp_pencil to, const double *in, double *out);

/* fp_solve_serial's result, distributed: a holds this rank's x pencil of f
 * on entry (boundary values folded in) and of u on return. Transforms x
 * in the x pencil, y in the y pencil, solves z in the z pencil
 * (fp_solve_z), and back. Collective over d->comm; every rank returns the
 * same value: 0, or -1 on a zero pivot anywhere. */
int fp_solve_mpi(const fp_dist *d, double *a);

#endif
