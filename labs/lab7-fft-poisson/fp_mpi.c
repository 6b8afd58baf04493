/* Lab 7, stage 4: the pencil solver over MPI. Read fp_mpi.h and the
 * README's stage 4. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "fp_mpi.h"
#include "mpi_check.h"

int fp_dist_init(fp_dist *d, const fp_grid *g, int pr, int pc, MPI_Comm comm)
{
    /* TODO: check the grid (fp_pencils_check) and comm's size; r and c from
     * the rank; the row and the column communicators (MPI_Comm_split); the
     * three boxes (fp_pencil_box). */
    (void)d, (void)g, (void)pr, (void)pc, (void)comm;
    return -1;
}

void fp_dist_free(fp_dist *d)
{
    /* TODO: free the communicators fp_dist_init made. */
    (void)d;
}

int fp_transpose(const fp_dist *d, fp_pencil from, fp_pencil to, const double *in, double *out)
{
    /* TODO: over the row (x <-> y) or the column (y <-> z): for each peer q,
     * pack the cells of your `from` box that lie in q's `to` box into block
     * q of a send buffer (x fastest); MPI_Alltoall; unpack block q (the
     * cells of q's `from` box in your `to` box) into out. */
    (void)d, (void)from, (void)to, (void)in, (void)out;
    return -1;
}

int fp_solve_mpi(const fp_dist *d, double *a)
{
    /* TODO: as fp_solve_serial, with transposes between the stages and the
     * means (singular operators) summed over all ranks. */
    (void)d, (void)a;
    return -1;
}
