/* Lab 5's MPI check program, run by the Check suite under mpirun
 * (ag_run_mpi): MPI does not survive Check's fork, so the ranks run here
 * and the suite judges the exit status and the FAIL lines.
 *
 *   lab5_mpi_check [--backend cpu|cuda] [--order] [--watchdog S] CASE...
 *     sendrecv:DXxDYxDZ:N,N,...     the whole program (data_server on rank
 *     nonblocking:DXxDYxDZ:N,...    np-1, compute_process elsewhere) for
 *                                   each step count N, the gathered result
 *                                   against the serial reference, bit for bit
 *     halo                          exchange_halos and its non-blocking
 *                                   variant alone, on rank-coded planes
 *   --order  also checks, from a log of each compute rank's device and MPI
 *            calls, the order of the overlapped pipeline, 2 exchanges a
 *            step with tag = step, and equal barrier counts on every rank
 *
 *   --watchdog S  a case's hard time limit (100 s on the CPU, 300 with CUDA)
 *
 * A deadlock ends the job with "FAIL TIMEOUT ..." within seconds
 * (autograder/mpi_checker/mpi_checker.h), not at the suite's time limit. The
 * exit status is 0 only if every case passed. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "runner/hints.h"
#include "lab5_call_log.h"
#include "wave_mpi.h"
#include "mpi_checker/mpi_checker.h"
#include "wave_serial.h"

static int rank, np, order_checks, watchdog_s;
static const dev_backend *base;

static void arm(const char *what) { checker_case(what, watchdog_s); }

/* The program's own barrier (pmpi_quiet: lab5_pmpi.c does not count it). */
static void barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }

static int fails;
#define FAIL(...) (printf("FAIL " __VA_ARGS__), putchar('\n'), fails++)

/* --- the end-to-end runs ------------------------------------------------ */

/* What a wrong result may be (grader/hints.h): the serial reference one time
 * step off (a loop one step short or long, the answer in the other
 * buffer), or the same numbers added in another order. */
static const char *wrong_hint(const float *u0, const float *vel, const float *want, const float *got, int dimx,
                              int dimy, int dimz, int nreps, char *buf, size_t cap)
{
    size_t points = (size_t)dimx * dimy * dimz;
    float *near = kit_alloc(points, sizeof(float));
    int off = 0;
    for (int d = -1; d <= 1 && !off; d += 2) {
        if (nreps + d < 0)
            continue;
        if (nreps + d == 0)
            memcpy(near, u0, points * sizeof *near);
        else
            wave_serial(dimx, dimy, dimz, nreps + d, u0, vel, near);
        off = ag_equal_floats(near, got, points) ? d : 0;
    }
    kit_free(near);
    if (off)
        return ag_step_hint(off, nreps, "time step", buf, cap);
    return ag_order_hint(ag_worst_rel_float(want, got, points), AG_CLOSE_FLOAT);
}

static int compare(const float *u0, const float *vel, const float *want, const float *got, int dimx, int dimy,
                   int dimz, int nreps, const char *what)
{
    size_t points = (size_t)dimx * dimy * dimz, wrong = 0, first = 0;
    for (size_t c = 0; c < points; c++)
        if (!(got[c] == want[c]) && wrong++ == 0)
            first = c;
    if (!wrong)
        return 0;
    size_t plane = (size_t)dimx * dimy;
    char hint[300];
    FAIL("%s: %zu of %zu points differ from the serial reference; first at (x,y,z) = (%zu,%zu,%zu) (the slab of "
         "compute rank %zu): expected %.9g, got %.9g%s",
         what, wrong, points, first % dimx, first / dimx % dimy, first / plane, first / plane / (dimz / (np - 1)),
         want[first], got[first], wrong_hint(u0, vel, want, got, dimx, dimy, dimz, nreps, hint, sizeof hint));
    return 1;
}

/* The order of one compute rank's calls, step by step (wave_mpi.h,
 * compute.c's pipeline): boundary launches on the boundary stream, the
 * interior launch on the other stream before the exchange waits, the
 * boundary copies waited for before they are sent, the halo copies and a
 * device-wide sync before the next step. Prints at most one FAIL line. */
static int is_exchange(const event *e, int tag)
{
    return (e->type == EV_SENDRECV || e->type == EV_ISEND || e->type == EV_IRECV) && e->tag == tag;
}

static void check_order(const char *what, int nreps, int S, wave_exchange mode)
{
    const event *e = call_log_events();
    long m = (long)call_log_count(), start = 0;
    char where[300];
    for (int i = 0; i < nreps; i++) {
        snprintf(where, sizeof where, "%s: compute rank %d, step %d", what, rank, i);
        long X = -1, B = -1, D = -1;
        for (long k = start; k < m && X < 0; k++)
            if (is_exchange(&e[k], i))
                X = k;
        if (X < 0) {
            FAIL("%s: no halo exchange with tag %d (MPI_Sendrecv, or MPI_Isend/MPI_Irecv) after the step's launches", where, i);
            return;
        }
        int sendrecvs = 0, isends = 0, irecvs = 0;
        for (long k = X; k < m; k++) {
            if (e[k].type == EV_LAUNCH && e[k].stream == DEV_STREAM_BOUNDARY)
                break; /* the next step */
            if (e[k].type == EV_COPY_ASYNC && e[k].kind == DEV_H2D)
                break;
            if (is_exchange(&e[k], i) || e[k].type == EV_WAIT) {
                D = k;
                sendrecvs += e[k].type == EV_SENDRECV, isends += e[k].type == EV_ISEND, irecvs += e[k].type == EV_IRECV;
                if (B < 0 && (e[k].type == EV_SENDRECV || e[k].type == EV_WAIT))
                    B = k;
            }
        }
        if (mode == WAVE_SENDRECV && sendrecvs != 2) {
            FAIL("%s: %d MPI_Sendrecv calls with tag %d; the exchange is 2 (one each way)", where, sendrecvs, i);
            return;
        }
        if (mode == WAVE_NONBLOCKING && (isends != 2 || irecvs != 2 || B < 0)) {
            FAIL("%s: %d MPI_Isend and %d MPI_Irecv with tag %d%s; the non-blocking exchange is 2 of each, then "
                 "MPI_Waitall",
                 where, isends, irecvs, i, B < 0 ? " and no wait" : "");
            return;
        }
        /* before the exchange: the two boundary launches, then their copies
         * to the host, then a wait for them */
        int boundary = 0, d2h = 0;
        long last_boundary = -1, last_d2h = -1, synced = -1;
        for (long k = start; k < X; k++) {
            if (e[k].type == EV_LAUNCH && e[k].stream == DEV_STREAM_BOUNDARY) {
                if (e[k].nz != WAVE_BOUNDARY_REGION) {
                    FAIL("%s: a launch on the boundary stream over %d planes; the boundary regions are %d planes", where,
                         e[k].nz, WAVE_BOUNDARY_REGION);
                    return;
                }
                boundary++, last_boundary = k;
            }
            if (e[k].type == EV_COPY_ASYNC && e[k].kind == DEV_D2H) {
                if (e[k].stream != DEV_STREAM_BOUNDARY) {
                    FAIL("%s: a boundary copy to the host on stream %d; it belongs on the boundary stream, behind the "
                         "boundary kernels that write its planes", where, e[k].stream);
                    return;
                }
                d2h++, last_d2h = k;
            }
            if (e[k].type == EV_STREAM_SYNC && e[k].stream == DEV_STREAM_BOUNDARY)
                synced = k;
        }
        if (boundary != 2) {
            FAIL("%s: %d launches on the boundary stream before the exchange; expected 2 (left and right boundary)",
                 where, boundary);
            return;
        }
        if (d2h != 2 || last_d2h < last_boundary) {
            FAIL("%s: %d boundary copies to the host between the boundary launches and the exchange; expected 2, "
                 "after the launches", where, d2h);
            return;
        }
        /* a wait for the whole device, or for the interior stream, before
         * the exchange has waited would wait for the interior too: no
         * overlap (the README: "a wait for that stream only") */
        for (long k = start; k < B; k++)
            if (e[k].type == EV_SYNC || (e[k].type == EV_STREAM_SYNC && e[k].stream == DEV_STREAM_INTERIOR)) {
                FAIL("%s: a %s before the exchange waited (MPI_Sendrecv or MPI_Waitall): it waits for the interior "
                     "too, so nothing overlaps; wait for the boundary stream only (dev_stream_sync)",
                     where, e[k].type == EV_SYNC ? "device-wide synchronisation" : "synchronisation of the interior stream");
                return;
            }
        if (synced < last_d2h) {
            FAIL("%s: the exchange starts before the copies of the boundary planes to the host were waited for "
                 "(a synchronisation of the boundary stream between the copies and the send): it would send stale "
                 "planes", where);
            return;
        }
        /* the interior: on its own stream, enqueued before the exchange waits */
        long interior = -1;
        for (long k = start; k < m && interior < 0; k++) {
            if (k > D && e[k].type == EV_LAUNCH && e[k].stream == DEV_STREAM_BOUNDARY)
                break; /* the next step */
            if (e[k].type == EV_LAUNCH && e[k].stream == DEV_STREAM_INTERIOR)
                interior = k;
        }
        if (interior < 0 || interior > B) {
            FAIL("%s: the interior is %s; it must be launched on the interior stream before the exchange waits "
                 "(MPI_Sendrecv or MPI_Waitall), so that it runs during the exchange",
                 where, interior < 0 ? "not launched on the interior stream" : "launched only after the exchange waited");
            return;
        }
        if (e[interior].nz != S) {
            FAIL("%s: the interior launch covers %d planes; expected S = %d (local planes [4, S+4))", where,
                 e[interior].nz, S);
            return;
        }
        /* after the exchange: the halos to the device, then a device-wide sync */
        int h2d = 0;
        long last_h2d = -1, end = -1;
        for (long k = D + 1; k < m && end < 0; k++) {
            if (e[k].type == EV_LAUNCH || e[k].type == EV_COPY)
                break;
            if (e[k].type == EV_COPY_ASYNC && e[k].kind == DEV_H2D)
                h2d++, last_h2d = k;
            if (e[k].type == EV_SYNC && last_h2d >= 0)
                end = k;
        }
        if (h2d != 2 || end < 0) {
            FAIL("%s: after the exchange, %d halo copies to the device%s; expected 2, then a device-wide sync "
                 "before the next step",
                 where, h2d, end < 0 ? " and no device-wide sync after them" : "");
            return;
        }
        start = end + 1;
    }
}

static void check_barriers(const char *what, long before)
{
    long mine = pmpi_barriers() - before;
    long *all = kit_alloc((size_t)np, sizeof(long));
    MPI_Allgather(&mine, 1, MPI_LONG, all, 1, MPI_LONG, MPI_COMM_WORLD);
    for (int r = 1; r < np; r++)
        if (all[r] != all[0]) {
            if (rank == 0)
                FAIL("%s: rank %d called MPI_Barrier %ld times, rank %d %ld times: every rank must call it equally "
                     "often (the lecture's deadlock)",
                     what, 0, all[0], r, all[r]);
            break;
        }
    kit_free(all);
}

static void run_e2e(wave_exchange mode, int dimx, int dimy, int dimz, int nreps)
{
    char what[200];
    snprintf(what, sizeof what, "%s, %d x %d x %d, %d steps, %d ranks (%s backend)",
             mode == WAVE_SENDRECV ? "sendrecv" : "nonblocking", dimx, dimy, dimz, nreps, np, base->name);
    arm(what);
    long barriers_before = pmpi_barriers();
    call_log_reset();
    if (rank == np - 1) {
        size_t points = (size_t)dimx * dimy * dimz;
        float *u0 = kit_alloc(points, sizeof(float)), *vel = kit_alloc(points, sizeof(float));
        float *out = kit_alloc(points, sizeof(float)), *want = kit_alloc(points, sizeof(float));
        wave_fill(dimx, dimy, dimz, u0, vel);
        for (size_t c = 0; c < points; c++)
            out[c] = NAN; /* a plane nobody sends shows */
        pmpi_quiet = 0;
        data_server(dimx, dimy, dimz, u0, vel, out);
        pmpi_quiet = 1;
        if (nreps == 0) /* the start itself (the reference would only copy it; cheap at any size) */
            memcpy(want, u0, points * sizeof *want);
        else
            wave_serial(dimx, dimy, dimz, nreps, u0, vel, want);
        if (!compare(u0, vel, want, out, dimx, dimy, dimz, nreps, what))
            printf("ok %s\n", what);
        kit_free(u0), kit_free(vel), kit_free(out), kit_free(want);
    } else {
        pmpi_quiet = 0;
        compute_process(dimx, dimy, dimz, nreps, order_checks ? logging_backend(base) : base, mode);
        pmpi_quiet = 1;
        if (order_checks)
            check_order(what, nreps, dimz / (np - 1), mode);
    }
    if (order_checks)
        check_barriers(what, barriers_before);
    barrier();
    checker_case_end();
}

/* --- the halo exchange alone --------------------------------------------- */

/* Rank r's boundary values: distinct for each rank, side and element. */
static float coded(int r, int side, int k) { return (float)(r * 10000 + k) + (side ? 0.5f : 0.25f); }

static void check_halo(const char *what, const float *halo, int from, int side, int count)
{
    for (int k = 0; k < count; k++) {
        float want = from < 0 ? 0.0f : coded(from, side, k);
        if (!(halo[k] == want)) {
            FAIL("%s: compute rank %d's %s halo [%d] = %g; expected %g (%s)", what, rank, side ? "left" : "right", k,
                 halo[k], want,
                 from < 0 ? "an edge rank's outer halo stays 0: nothing is received there"
                          : side ? "the left neighbour's right boundary" : "the right neighbour's left boundary");
            return;
        }
    }
}

static void run_halo(int nonblocking)
{
    char what[120];
    snprintf(what, sizeof what, "%s halo exchange, %d compute ranks", nonblocking ? "non-blocking" : "MPI_Sendrecv",
             np - 1);
    arm(what);
    int ncomp = np - 1;
    if (rank < ncomp) {
        int count = 4 * 7 * 5; /* 4 planes of 7 x 5 */
        float *b = kit_alloc(4 * (size_t)count, sizeof(float));
        wave_halos h = {b, b + count, b + 2 * count, b + 3 * count, count};
        for (int k = 0; k < count; k++) {
            h.left_boundary[k] = coded(rank, 0, k);  /* my left boundary: side 0 */
            h.right_boundary[k] = coded(rank, 1, k); /* my right boundary: side 1 */
            h.left_halo[k] = h.right_halo[k] = 0.0f;
        }
        int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < ncomp - 1 ? rank + 1 : MPI_PROC_NULL;
        pmpi_quiet = 0;
        if (nonblocking) {
            MPI_Request req[4];
            exchange_halos_start(&h, left, right, 3, req);
            exchange_halos_finish(req);
        } else {
            exchange_halos(&h, left, right, 7);
        }
        pmpi_quiet = 1;
        /* my left halo is my left neighbour's right boundary (side 1), my
         * right halo my right neighbour's left boundary (side 0) */
        check_halo(what, h.left_halo, rank > 0 ? rank - 1 : -1, 1, count);
        check_halo(what, h.right_halo, rank < ncomp - 1 ? rank + 1 : -1, 0, count);
        for (int k = 0; k < count; k++)
            if (h.left_boundary[k] != coded(rank, 0, k) || h.right_boundary[k] != coded(rank, 1, k)) {
                FAIL("%s: compute rank %d's boundary buffers changed during the exchange", what, rank);
                break;
            }
        kit_free(b);
    }
    if (rank == 0 && !fails)
        printf("ok %s\n", what);
    barrier();
    checker_case_end();
}

/* --- the command line ------------------------------------------------------ */

static int run_case(const char *arg)
{
    if (!strcmp(arg, "halo")) {
        run_halo(0);
        run_halo(1);
        return 0;
    }
    char mode[16];
    int dimx, dimy, dimz, used = 0;
    if (sscanf(arg, "%15[a-z]:%dx%dx%d:%n", mode, &dimx, &dimy, &dimz, &used) != 4 || !used ||
        (strcmp(mode, "sendrecv") && strcmp(mode, "nonblocking")))
        return -1;
    for (const char *p = arg + used; *p;) {
        char *endp;
        long n = strtol(p, &endp, 10);
        if (endp == p || n < 0)
            return -1;
        run_e2e(!strcmp(mode, "sendrecv") ? WAVE_SENDRECV : WAVE_NONBLOCKING, dimx, dimy, dimz, (int)n);
        p = *endp == ',' ? endp + 1 : endp;
    }
    return 0;
}

int main(int argc, char **argv)
{
    pmpi_quiet = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    setvbuf(stdout, NULL, _IOLBF, 0);
    base = &dev_cpu;
    int a = 1;
    for (; a < argc && !strncmp(argv[a], "--", 2); a++) {
        if (!strcmp(argv[a], "--backend") && a + 1 < argc)
            base = !strcmp(argv[++a], "cuda") ? dev_cuda() : &dev_cpu;
        else if (!strcmp(argv[a], "--order"))
            order_checks = 1;
        else if (!strcmp(argv[a], "--watchdog") && a + 1 < argc)
            watchdog_s = atoi(argv[++a]);
        else
            break;
    }
    if (watchdog_s <= 0)
        watchdog_s = base == &dev_cpu ? 100 : 300;
    checker_mpi_start();
    if (np < 3) {
        if (rank == 0)
            printf("FAIL lab5_mpi_check needs 3 or more ranks, got %d\n", np);
        checker_mpi_end(1);
        MPI_Finalize();
        return 1;
    }
    for (; a < argc; a++)
        if (run_case(argv[a])) {
            if (rank == 0)
                printf("FAIL lab5_mpi_check: cannot read the case '%s'\n", argv[a]);
            fails++;
        }
    int status = checker_mpi_end(fails > 0);
    MPI_Finalize();
    return status;
}
