/* Lab 7, stage 4 (reference): the pencil solver over MPI. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "fp_mpi.h"
#include "mpi_check.h"

int fp_dist_init(fp_dist *d, const fp_grid *g, int pr, int pc, MPI_Comm comm)
{
    int size, rank;
    MPI_CHECK(MPI_Comm_size(comm, &size));
    MPI_CHECK(MPI_Comm_rank(comm, &rank));
    if (fp_pencils_check(g, pr, pc) != 0)
        return -1;
    if (size != pr * pc) {
        fprintf(stderr, "fp_dist_init: %d ranks for a %d x %d process grid\n", size, pr, pc);
        return -1;
    }
    d->g = *g;
    d->pr = pr, d->pc = pc;
    d->r = rank / pc, d->c = rank % pc;
    d->comm = comm;
    MPI_CHECK(MPI_Comm_split(comm, d->r, d->c, &d->row));
    MPI_CHECK(MPI_Comm_split(comm, d->c, d->r, &d->col));
    for (int p = 0; p < 3; p++)
        d->box[p] = fp_pencil_box(g, pr, pc, d->r, d->c, (fp_pencil)p);
    return 0;
}

void fp_dist_free(fp_dist *d)
{
    MPI_CHECK(MPI_Comm_free(&d->row));
    MPI_CHECK(MPI_Comm_free(&d->col));
}

/* The cells of box `part` (a sub-box of both) copied from src, laid out as
 * box `from`, into dst, laid out as box `to`: the pack (to = part) and the
 * unpack (from = part) of a transpose. x lines are contiguous in both. */
static void copy_box(const fp_box *part, const fp_box *from, const double *src, const fp_box *to, double *dst)
{
    for (int k = 0; k < part->n[2]; k++)
        for (int j = 0; j < part->n[1]; j++) {
            int gj = part->lo[1] + j, gk = part->lo[2] + k;
            const double *s = src + (size_t)(part->lo[0] - from->lo[0]) +
                              (size_t)from->n[0] * ((size_t)(gj - from->lo[1]) + (size_t)from->n[1] * (gk - from->lo[2]));
            double *t = dst + (size_t)(part->lo[0] - to->lo[0]) +
                        (size_t)to->n[0] * ((size_t)(gj - to->lo[1]) + (size_t)to->n[1] * (gk - to->lo[2]));
            memcpy(t, s, (size_t)part->n[0] * sizeof *s);
        }
}

int fp_transpose(const fp_dist *d, fp_pencil from, fp_pencil to, const double *in, double *out)
{
    int across_row = (from == FP_XPENCIL && to == FP_YPENCIL) || (from == FP_YPENCIL && to == FP_XPENCIL);
    int across_col = (from == FP_YPENCIL && to == FP_ZPENCIL) || (from == FP_ZPENCIL && to == FP_YPENCIL);
    if (!across_row && !across_col) {
        fprintf(stderr, "fp_transpose: pencil %d to pencil %d is not one exchange\n", (int)from, (int)to);
        return -1;
    }
    MPI_Comm comm = across_row ? d->row : d->col;
    int peers = across_row ? d->pc : d->pr;
    size_t cells = fp_box_cells(&d->box[from]), block = cells / (size_t)peers;
    if (block > INT_MAX) {
        fprintf(stderr, "fp_transpose: blocks of %zu doubles are too large for MPI_Alltoall's int count\n", block);
        return -1;
    }
    double *send = kit_alloc_doubles(cells), *recv = kit_alloc_doubles(cells);
    for (int q = 0; q < peers; q++) {
        /* peer q of the row is (r, q); of the column, (q, c) */
        int pr_ = across_row ? d->r : q, pc_ = across_row ? q : d->c;
        fp_box theirs_to = fp_pencil_box(&d->g, d->pr, d->pc, pr_, pc_, to);
        fp_box part = fp_box_intersect(&d->box[from], &theirs_to);
        copy_box(&part, &d->box[from], in, &part, send + (size_t)q * block);
    }
    MPI_CHECK(MPI_Alltoall(send, (int)block, MPI_DOUBLE, recv, (int)block, MPI_DOUBLE, comm));
    for (int q = 0; q < peers; q++) {
        int pr_ = across_row ? d->r : q, pc_ = across_row ? q : d->c;
        fp_box theirs_from = fp_pencil_box(&d->g, d->pr, d->pc, pr_, pc_, from);
        fp_box part = fp_box_intersect(&theirs_from, &d->box[to]);
        copy_box(&part, &part, recv + (size_t)q * block, &d->box[to], out);
    }
    kit_free(send);
    kit_free(recv);
    return 0;
}

/* The mean over all ranks of a field of which each holds `cells`. */
static double global_mean(const fp_dist *d, const double *a, size_t cells)
{
    double s = 0.0;
    for (size_t c = 0; c < cells; c++)
        s += a[c];
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, d->comm));
    return s / (double)fp_cells(&d->g);
}

int fp_solve_mpi(const fp_dist *d, double *a)
{
    const fp_grid *g = &d->g;
    size_t cells = fp_box_cells(&d->box[FP_XPENCIL]);
    double *b = kit_alloc_doubles(cells);
    if (fp_singular(g)) {
        double m = global_mean(d, a, cells);
        for (size_t c = 0; c < cells; c++)
            a[c] -= m;
    }
    fp_transform(g, &d->box[FP_XPENCIL], 0, 0, a);
    fp_transpose(d, FP_XPENCIL, FP_YPENCIL, a, b);
    fp_transform(g, &d->box[FP_YPENCIL], 1, 0, b);
    fp_transpose(d, FP_YPENCIL, FP_ZPENCIL, b, a);
    int rc = fp_solve_z(g, &d->box[FP_ZPENCIL], a);
    fp_transpose(d, FP_ZPENCIL, FP_YPENCIL, a, b);
    fp_transform(g, &d->box[FP_YPENCIL], 1, 1, b);
    fp_transpose(d, FP_YPENCIL, FP_XPENCIL, b, a);
    fp_transform(g, &d->box[FP_XPENCIL], 0, 1, a);
    if (fp_singular(g)) {
        double m = global_mean(d, a, cells);
        for (size_t c = 0; c < cells; c++)
            a[c] -= m;
    }
    kit_free(b);
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MIN, d->comm));
    return rc;
}
