/* Lab 4's MPI test program, run by the Check suite under mpirun (see
 * labs/lab4-multigpu-jacobi/tests/test_lab4.c); MPI does not survive Check's fork, so the
 * ranks run here and the suite judges the exit status and the output.
 *
 *   lab4_mpi_check cpu  N S...    the kit's z-split and gather (decomp.h,
 *                                 nccl_world_gather) with a CPU sweep and an
 *                                 MPI halo exchange, after S sweeps each
 *   lab4_mpi_check nccl N S...    the student's jacobi_nccl, one GPU per rank
 *   lab4_mpi_check nccl-tol N tol the tolerance stop of jacobi_nccl
 *
 * Each case is compared on rank 0 with the CPU reference, bit for bit (and
 * the NCCL stage with jacobi_gpu3 too). Rank 0 prints one line per case,
 * "ok ..." or "FAIL ..." with the first wrong point; the exit status is 0
 * only if every case passed, and a deadlock or an early end of the program
 * is a FAIL (autograder/mpi_checker/mpi_checker.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "runner/hints.h"
#include "mpi_checker/mpi_checker.h"
#include "cli.h"
#include "decomp.h"
#include "jacobi.h"
#include "mpi_check.h"
#include "poisson.h"

/* What a wrong grid may be (grader/hints.h): the CPU's Jacobi one sweep off (a
 * loop one sweep short or long, the answer in the other buffer), or the
 * same numbers added in another order. sweeps < 0: expected is not the
 * CPU's after a number of sweeps (no step hint). */
static const char *wrong_hint(int N, int sweeps, const double *expected, const double *got, char *buf, size_t cap)
{
    size_t n = poisson_points(N);
    int off = 0;
    if (sweeps >= 0) {
        double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n), *u_old = kit_alloc_doubles(n);
        for (int d = -1; d <= 1 && !off; d += 2)
            if (sweeps + d >= 0) {
                poisson_init(N, 0.0, f, u);
                memcpy(u_old, u, n * sizeof *u);
                poisson_jacobi_reference(N, 0.0, sweeps + d, f, u, u_old);
                off = ag_equal_doubles(u, got, n, -1.0) ? d : 0;
            }
        kit_free(f), kit_free(u), kit_free(u_old);
    }
    if (off)
        return ag_step_hint(off, sweeps, "sweep", buf, cap);
    return ag_order_hint(ag_worst_rel_double(expected, got, n), AG_CLOSE_DOUBLE);
}

/* Compares the whole grid, expected the CPU's after `sweeps` sweeps (or
 * -1); returns 0 or prints the first difference. */
static int same_grid(const char *what, int N, int sweeps, const double *expected, const double *got)
{
    size_t n = poisson_points(N), wrong = 0, first = 0;
    for (size_t c = 0; c < n; c++)
        if (!(got[c] == expected[c]) && wrong++ == 0)
            first = c;
    if (!wrong)
        return 0;
    size_t s = poisson_side(N);
    char hint[300];
    printf("FAIL %s: %zu of %zu points differ; first at (i,j,k) = (%zu,%zu,%zu): expected %.17g, got %.17g%s\n",
           what, wrong, n, first / (s * s), first / s % s, first % s, expected[first], got[first],
           wrong_hint(N, sweeps, expected, got, hint, sizeof hint));
    return 1;
}

/* One CPU sweep over a part's local planes 1 .. count. */
static void cpu_sweep(int N, decomp_part part, const double *src, double *dst)
{
    size_t sj = poisson_side(N), si = sj * sj;
    for (int l = 1; l <= part.count; l++)
        for (int j = 1; j <= N; j++)
            for (int k = 1; k <= N; k++) {
                size_t c = (size_t)l * si + (size_t)j * sj + (size_t)k;
                dst[c] = poisson_jacobi_point(src, c, sj, si, poisson_h2f(N, part.first - 1 + l, j, k));
            }
}

/* The halo exchange of the NCCL stage, by MPI on host arrays. */
static void cpu_exchange(int N, decomp_part part, double *a)
{
    int plane = (int)decomp_plane_size(N);
    double *first = a + plane, *last = a + (size_t)part.count * plane;
    int below = part.below >= 0 ? part.below : MPI_PROC_NULL, above = part.above >= 0 ? part.above : MPI_PROC_NULL;
    MPI_CHECK(MPI_Sendrecv(last, plane, MPI_DOUBLE, above, 1, a, plane, MPI_DOUBLE, below, 1, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_Sendrecv(first, plane, MPI_DOUBLE, below, 2, a + (size_t)(part.count + 1) * plane, plane,
                           MPI_DOUBLE, above, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static int cpu_case(const nccl_world *w, int N, int sweeps, double *f, double *u, double *ref, double *ref_old)
{
    decomp_part part = decomp_split(N, w->size, w->rank);
    double *a = kit_alloc_doubles(decomp_local_size(N, part)), *b = kit_alloc_doubles(decomp_local_size(N, part));
    poisson_init(N, 0.0, f, u);
    decomp_scatter_part(N, part, u, a);
    decomp_scatter_part(N, part, u, b);
    for (int s = 0; s < sweeps; s++) {
        cpu_sweep(N, part, a, b);
        cpu_exchange(N, part, b);
        double *t = a;
        a = b;
        b = t;
    }
    /* rank 0's u keeps the boundary and receives every part's planes;
     * poison its interior so that a plane nobody sends shows up */
    if (w->rank == 0)
        for (int i = 1; i <= N; i++)
            for (size_t c = 0; c < decomp_plane_size(N); c++)
                u[decomp_plane_offset(N, i) + c] = NAN;
    nccl_world_gather(w, N, a, u);
    kit_free(a);
    kit_free(b);
    if (w->rank != 0)
        return 0;
    poisson_init(N, 0.0, f, ref);
    memcpy(ref_old, ref, poisson_points(N) * sizeof *ref);
    poisson_jacobi_reference(N, 0.0, sweeps, f, ref, ref_old);
    /* the interior planes only: the halo exchange never touches the rest */
    char what[128];
    snprintf(what, sizeof what, "CPU split over %d ranks, N=%d, %d sweeps", w->size, N, sweeps);
    int bad = same_grid(what, N, sweeps, ref, u);
    if (!bad)
        printf("ok %s\n", what);
    return bad;
}

static int nccl_case(const nccl_world *w, int N, int sweeps, double tol, double *f, double *u, double *u_old,
                     double *ref, double *ref_old)
{
    poisson_init(N, 0.0, f, u);
    memcpy(u_old, u, poisson_points(N) * sizeof *u);
    int got = jacobi_nccl(N, tol, sweeps, f, u, u_old, w);
    if (w->rank != 0)
        return 0;
    char what[160];
    int bad = 0;
    poisson_init(N, 0.0, f, ref);
    memcpy(ref_old, ref, poisson_points(N) * sizeof *ref);
    if (tol > 0) {
        int want = poisson_jacobi_reference(N, tol, sweeps, f, ref, ref_old);
        snprintf(what, sizeof what, "jacobi_nccl on %d ranks, N=%d, tol=%g: %d sweeps (CPU: %d)", w->size, N, tol,
                 got, want);
        if (got < want - 1 || got > want + 1) {
            printf("FAIL %s: the stop must be within 1 sweep of the CPU's\n", what);
            return 1;
        }
        /* the answer must be that of the sweeps it counted */
        poisson_init(N, 0.0, f, ref);
        memcpy(ref_old, ref, poisson_points(N) * sizeof *ref);
        poisson_jacobi_reference(N, 0.0, got, f, ref, ref_old);
        bad = same_grid(what, N, got, ref, u);
    } else {
        poisson_jacobi_reference(N, 0.0, sweeps, f, ref, ref_old);
        snprintf(what, sizeof what, "jacobi_nccl on %d ranks, N=%d, %d sweeps", w->size, N, sweeps);
        if (got != sweeps) {
            printf("FAIL %s: returned %d sweeps\n", what, got);
            return 1;
        }
        bad = same_grid(what, N, sweeps, ref, u);
        if (!bad) { /* and the single-GPU stage, on rank 0's GPU */
            poisson_init(N, 0.0, f, ref);
            memcpy(ref_old, ref, poisson_points(N) * sizeof *ref);
            jacobi_gpu3(N, 0.0, sweeps, f, ref, ref_old);
            char vs[200];
            snprintf(vs, sizeof vs, "%s, against jacobi_gpu3", what);
            bad = same_grid(vs, N, -1, ref, u);
        }
    }
    if (!bad)
        printf("ok %s\n", what);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s cpu|nccl N sweeps...  or  %s nccl-tol N tol\n", argv[0], argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    int N, cpu = !strcmp(mode, "cpu"), tolmode = !strcmp(mode, "nccl-tol");
    if (!cpu && !tolmode && strcmp(mode, "nccl")) {
        fprintf(stderr, "error: mode must be cpu, nccl or nccl-tol, got '%s'\n", mode);
        return 2;
    }
    if (cli_parse_int(argv[2], "N", 1, POISSON_MAX_N, &N))
        return 2;
    nccl_world w;
    if (cpu) {
        MPI_CHECK(MPI_Init(&argc, &argv));
        MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &w.rank));
        MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &w.size));
    } else {
        int rc = nccl_world_init(&argc, &argv, &w);
        if (rc)
            return rc;
    }
    if (decomp_check(N, w.size))
        MPI_Abort(MPI_COMM_WORLD, 2);
    checker_mpi_start();
    size_t n = poisson_points(N);
    double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n), *u_old = kit_alloc_doubles(n);
    double *ref = kit_alloc_doubles(n), *ref_old = kit_alloc_doubles(n);
    int failed = 0;
    for (int a = 3; a < argc; a++) {
        int sweeps;
        double tol = 0;
        if (tolmode ? cli_parse_double(argv[a], "tol", 1e-300, 1e300, &tol)
                    : cli_parse_int(argv[a], "sweeps", 0, 1 << 30, &sweeps))
            MPI_Abort(MPI_COMM_WORLD, 2);
        if (tolmode)
            sweeps = 1 << 20;
        char what[160];
        snprintf(what, sizeof what, "%s N=%d, %s on %d ranks", mode, N, argv[a], w.size);
        checker_case(what, 300);
        failed |= cpu ? cpu_case(&w, N, sweeps, f, u, ref, ref_old)
                      : nccl_case(&w, N, sweeps, tol, f, u, u_old, ref, ref_old);
        checker_case_end();
    }
    fflush(stdout);
    int status = checker_mpi_end(failed);
    kit_free(f);
    kit_free(u);
    kit_free(u_old);
    kit_free(ref);
    kit_free(ref_old);
    if (cpu)
        MPI_CHECK(MPI_Finalize());
    else
        nccl_world_finalize(&w);
    return status;
}
