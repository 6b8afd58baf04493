/* Lab 7's MPI test program, run by the Check suite under mpirun
 * (ag_run_mpi): MPI does not survive Check's fork, so the ranks run here
 * and the suite judges the exit status and the FAIL lines.
 *
 *   lab7_mpi_check CASE...
 *     transpose:NXxNYxNZ:PRxPC    x -> y -> z -> y -> x on a global-index code
 *                                 (i + 1000 j + 1e6 k, exact in a double):
 *                                 every element of every pencil, exactly
 *     solve:BCS:NXxNYxNZ:PRxPC    fp_solve_mpi against fp_solve_serial on the
 *                                 same random f, to 1e-12 of max |u|
 *     nccl:BCS:NXxNYxNZ:PRxPC     fp_solve_nccl (one GPU per rank) against
 *                                 fp_solve_serial and fp_solve_cuda, the same way
 * A case whose PR x PC is not the number of ranks is an error. Rank 0
 * prints "ok ..." per case; any rank prints "FAIL ..." for what it found
 * wrong; the exit status is 0 only if every case passed everywhere. A rank
 * that fails a check and leaves a case early makes the others wait in a
 * collective it never calls: the kit's watchdog ends the job then, within
 * seconds (autograder/mpi_checker/mpi_checker.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "mpi_checker/mpi_checker.h"
#include "fp_gpu.h"
#include "fp_mpi.h"
#include "nccl/nccl_world.h"
#include "mpi_check.h"
#include "random.h"

static int world_rank, world_size;

static double code_of(int i, int j, int k) { return i + 1000.0 * j + 1e6 * k; }

/* Every element of a box against the code; returns the number wrong and
 * prints the first. */
static int check_code(const char *what, const fp_box *b, const double *a)
{
    int wrong = 0;
    for (int k = 0; k < b->n[2]; k++)
        for (int j = 0; j < b->n[1]; j++)
            for (int i = 0; i < b->n[0]; i++) {
                size_t at = (size_t)i + (size_t)b->n[0] * ((size_t)j + (size_t)b->n[1] * k);
                double want = code_of(b->lo[0] + i, b->lo[1] + j, b->lo[2] + k);
                if (!(a[at] == want) && wrong++ == 0)
                    printf("FAIL %s: rank %d, global cell (%d,%d,%d) (local %zu of box lo=(%d,%d,%d) n=(%d,%d,%d)): "
                           "expected code %.0f, got %.17g\n",
                           what, world_rank, b->lo[0] + i, b->lo[1] + j, b->lo[2] + k, at, b->lo[0], b->lo[1],
                           b->lo[2], b->n[0], b->n[1], b->n[2], want, a[at]);
            }
    return wrong ? 1 : 0;
}

static int same_box(const fp_box *a, const fp_box *b)
{
    for (int x = 0; x < 3; x++)
        if (a->lo[x] != b->lo[x] || a->n[x] != b->n[x])
            return 0;
    return 1;
}

/* The layout fp_dist_init must produce, checked field by field. */
static int check_dist(const char *what, const fp_dist *d, const fp_grid *g, int pr, int pc)
{
    int bad = 0, rs = -1, cs = -1, rr = -1, cr = -1;
    MPI_Comm_size(d->row, &rs), MPI_Comm_size(d->col, &cs);
    MPI_Comm_rank(d->row, &rr), MPI_Comm_rank(d->col, &cr);
    if (d->r != world_rank / pc || d->c != world_rank % pc || rs != pc || cs != pr || rr != d->c || cr != d->r) {
        printf("FAIL %s: rank %d: expected r=%d c=%d, a row of %d ranks ranked by c and a column of %d ranked by r; "
               "got r=%d c=%d, row of %d (rank %d), column of %d (rank %d)\n",
               what, world_rank, world_rank / pc, world_rank % pc, pc, pr, d->r, d->c, rs, rr, cs, cr);
        bad = 1;
    }
    for (int p = 0; p < 3 && !bad; p++) {
        fp_box want = fp_pencil_box(g, pr, pc, world_rank / pc, world_rank % pc, (fp_pencil)p);
        if (!same_box(&want, &d->box[p])) {
            printf("FAIL %s: rank %d: box of pencil %d is lo=(%d,%d,%d) n=(%d,%d,%d), expected lo=(%d,%d,%d) "
                   "n=(%d,%d,%d)\n", what, world_rank, p, d->box[p].lo[0], d->box[p].lo[1], d->box[p].lo[2],
                   d->box[p].n[0], d->box[p].n[1], d->box[p].n[2], want.lo[0], want.lo[1], want.lo[2], want.n[0],
                   want.n[1], want.n[2]);
            bad = 1;
        }
    }
    return bad;
}

static int transpose_case(const char *what, const fp_grid *g, int pr, int pc)
{
    fp_dist d;
    if (fp_dist_init(&d, g, pr, pc, MPI_COMM_WORLD) != 0) {
        printf("FAIL %s: fp_dist_init returned an error\n", what);
        return 1;
    }
    int bad = check_dist(what, &d, g, pr, pc);
    if (!bad) {
        size_t cells = fp_box_cells(&d.box[0]);
        double *a = kit_alloc_doubles(cells), *b = kit_alloc_doubles(cells);
        for (int k = 0; k < d.box[0].n[2]; k++)
            for (int j = 0; j < d.box[0].n[1]; j++)
                for (int i = 0; i < d.box[0].n[0]; i++)
                    a[(size_t)i + (size_t)d.box[0].n[0] * ((size_t)j + (size_t)d.box[0].n[1] * k)] =
                        code_of(i, d.box[0].lo[1] + j, d.box[0].lo[2] + k);
        static const fp_pencil path[5] = {FP_XPENCIL, FP_YPENCIL, FP_ZPENCIL, FP_YPENCIL, FP_XPENCIL};
        static const char *names[5] = {"x", "y", "z", "y", "x"};
        for (int s = 1; s < 5 && !bad; s++) {
            char step[200];
            snprintf(step, sizeof step, "%s, fp_transpose %s -> %s%s", what, names[s - 1], names[s],
                     s == 4 ? " (back to the start)" : "");
            double *in = s % 2 ? a : b, *out = s % 2 ? b : a;
            for (size_t c = 0; c < cells; c++) /* never written: NaN */
                out[c] = NAN;
            if (fp_transpose(&d, path[s - 1], path[s], in, out) != 0) {
                printf("FAIL %s: returned an error\n", step);
                bad = 1;
            } else {
                bad = check_code(step, &d.box[path[s]], out);
            }
        }
        kit_free(a), kit_free(b);
    }
    fp_dist_free(&d);
    return bad;
}

/* This rank's x pencil of a whole-grid array. */
static void take_pencil(const fp_grid *g, const fp_box *b, const double *all, double *a)
{
    for (int k = 0; k < b->n[2]; k++)
        for (int j = 0; j < b->n[1]; j++)
            for (int i = 0; i < b->n[0]; i++)
                a[(size_t)i + (size_t)b->n[0] * ((size_t)j + (size_t)b->n[1] * k)] =
                    all[fp_index(g, i, b->lo[1] + j, b->lo[2] + k)];
}

/* The pencil got against the whole-grid want, to 1e-12 of max |want|. */
static int same_pencil(const char *what, const char *against, const fp_grid *g, const fp_box *b, const double *got,
                       const double *want)
{
    double umax = 0.0;
    for (size_t c = 0; c < fp_cells(g); c++)
        umax = fmax(umax, fabs(want[c]));
    for (int k = 0; k < b->n[2]; k++)
        for (int j = 0; j < b->n[1]; j++)
            for (int i = 0; i < b->n[0]; i++) {
                double x = got[(size_t)i + (size_t)b->n[0] * ((size_t)j + (size_t)b->n[1] * k)];
                double y = want[fp_index(g, i, b->lo[1] + j, b->lo[2] + k)];
                if (!(fabs(x - y) <= 1e-12 * umax)) {
                    printf("FAIL %s: rank %d, cell (%d,%d,%d): %.17g, %s gives %.17g (tolerance 1e-12 max|u| = %.3g)\n",
                           what, world_rank, i, b->lo[1] + j, b->lo[2] + k, x, against, y, 1e-12 * umax);
                    return 1;
                }
            }
    return 0;
}

/* fp_solve_mpi (world == NULL) or fp_solve_nccl against the serial solver
 * (and, for NCCL, the 1-GPU solver) on the same random f. */
static int solve_case(const char *what, const fp_grid *g, int pr, int pc, const nccl_world *world)
{
    size_t n = fp_cells(g);
    double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n);
    kit_fill_real(f, n, -1.0, 1.0, 2024);
    memcpy(u, f, n * sizeof *u);
    if (fp_solve_serial(g, u) != 0 || !(fp_residual(g, u, f) < 1e-10)) {
        printf("FAIL %s: fp_solve_serial itself fails here (residual %.3g): fix the serial solver first\n", what,
               fp_residual(g, u, f));
        kit_free(f), kit_free(u);
        return 1;
    }
    fp_dist d;
    fp_box b = fp_pencil_box(g, pr, pc, world_rank / pc, world_rank % pc, FP_XPENCIL);
    int bad = 0;
    if (!world) {
        if (fp_dist_init(&d, g, pr, pc, MPI_COMM_WORLD) != 0) {
            printf("FAIL %s: fp_dist_init returned an error\n", what);
            kit_free(f), kit_free(u);
            return 1;
        }
        bad = check_dist(what, &d, g, pr, pc);
    }
    if (!bad) {
        double *a = kit_alloc_doubles(fp_box_cells(&b));
        take_pencil(g, &b, f, a);
        int rc = world ? fp_solve_nccl(g, pr, pc, world->comm, world->stream, a) : fp_solve_mpi(&d, a);
        if (rc != 0) {
            printf("FAIL %s: rank %d: %s returned %d\n", what, world_rank, world ? "fp_solve_nccl" : "fp_solve_mpi",
                   rc);
            bad = 1;
        }
        if (!bad)
            bad = same_pencil(what, "fp_solve_serial", g, &b, a, u);
        if (!bad && world) {
            double *v = kit_alloc_doubles(n);
            memcpy(v, f, n * sizeof *v);
            if (fp_solve_cuda(g, v) != 0) {
                printf("FAIL %s: fp_solve_cuda (1 GPU) fails here\n", what);
                bad = 1;
            } else {
                bad = same_pencil(what, "fp_solve_cuda", g, &b, a, v);
            }
            kit_free(v);
        }
        kit_free(a);
    }
    if (!world)
        fp_dist_free(&d);
    kit_free(f), kit_free(u);
    return bad;
}

static int run_case(const char *spec, const nccl_world *world)
{
    char kind[16], bcs[4] = "DDD";
    int nx, ny, nz, pr, pc, ok;
    if (!strncmp(spec, "transpose:", 10))
        ok = sscanf(spec, "%15[a-z]:%dx%dx%d:%dx%d", kind, &nx, &ny, &nz, &pr, &pc) == 6;
    else
        ok = sscanf(spec, "%15[a-z]:%3[PND]:%dx%dx%d:%dx%d", kind, bcs, &nx, &ny, &nz, &pr, &pc) == 7 &&
             (!strcmp(kind, "solve") || !strcmp(kind, "nccl"));
    if (!ok || pr * pc != world_size) {
        if (world_rank == 0)
            printf("FAIL bad case '%s' for %d ranks (transpose:NXxNYxNZ:PRxPC or solve:BCS:NXxNYxNZ:PRxPC)\n", spec,
                   world_size);
        return 1;
    }
    fp_grid g = {{nx, ny, nz}, {1.0, 1.5, 0.8}, {FP_P, FP_P, FP_P}};
    for (int a = 0; a < 3; a++)
        g.bc[a] = bcs[a] == 'D' ? FP_D : bcs[a] == 'N' ? FP_N : FP_P;
    char what[160];
    snprintf(what, sizeof what, "%s%s%s %dx%dx%d on %d x %d ranks", kind, spec[0] != 't' ? " " : "",
             spec[0] != 't' ? bcs : "", nx, ny, nz, pr, pc);
    checker_case(what, 300);
    int bad = spec[0] == 't' ? transpose_case(what, &g, pr, pc) : solve_case(what, &g, pr, pc, spec[0] == 'n' ? world : NULL);
    fflush(stdout);
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    checker_case_end();
    if (!bad && world_rank == 0)
        printf("ok %s\n", what);
    return bad;
}

int main(int argc, char **argv)
{
    /* NCCL cases need one GPU per rank, bound by common/nccl/nccl_world */
    int gpus = 0;
    for (int i = 1; i < argc; i++)
        gpus |= !strncmp(argv[i], "nccl:", 5);
    nccl_world world;
    if (gpus) {
        if (nccl_world_init(&argc, &argv, &world) != 0) {
            printf("FAIL the NCCL cases need one GPU per rank\n");
            return 1;
        }
    } else {
        MPI_CHECK(MPI_Init(&argc, &argv));
    }
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &world_rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &world_size));
    checker_mpi_start();
    int bad = 0;
    for (int i = 1; i < argc; i++)
        bad |= run_case(argv[i], gpus ? &world : NULL);
    int status = checker_mpi_end(bad);
    if (gpus)
        nccl_world_finalize(&world);
    else
        MPI_CHECK(MPI_Finalize());
    return status;
}
