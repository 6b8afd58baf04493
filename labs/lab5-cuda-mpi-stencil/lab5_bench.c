/* Lab 5's benchmark program (make bench LAB=5 runs it through bench.sh):
 *
 *   mpirun -np P lab5_bench [--size DX DY DZ] [--steps N] [--repeats R]
 *                           [--backend cpu|cuda] [--csv FILE]
 *
 * (default: the lecture's 480 x 480 x 400, 100 steps, 5 repeats). Times the
 * student's compute_process (whatever was built) in four variants, each
 * repeated, the median reported:
 *   overlap-sendrecv        the pipeline as written, MPI_Sendrecv exchange
 *   overlap-nonblocking     the same with the non-blocking exchange
 *   serialized              every device call waited for at once (a wrapper
 *                           backend), MPI_Sendrecv exchange: no overlap, and
 *                           each phase timed alone (boundary kernels, D2H,
 *                           exchange, H2D, interior)
 *   serialized-nonblocking  the same with the non-blocking exchange (its
 *                           exchange: posting the four transfers, then the
 *                           wait for them; the interior between is not in it)
 * and, on the same ranks in the same run, these bounds:
 *   copy      device-to-device copy of one slab (rank 0 alone), counted as
 *             read + write: the bandwidth a kernel moving 4 floats a point
 *             (in, prev, vel read; next written) could reach
 *   kernel    the stencil over rank 0's whole local array alone, counted at
 *             4 floats (16 B) a point
 *   pingpong  MPI round trips of one halo (4 planes) between compute ranks 0
 *             and 1, one way, through pinned host buffers of a halo each,
 *             as the pipeline's are: one direction at a time
 *   bibw      the same two ranks sending one halo each way at once
 *             (MPI_Irecv + MPI_Isend posted together, then MPI_Waitall: an
 *             OSU osu_bibw-style run with a window of one message, the
 *             exchange's), on the same buffers: what the MPI library
 *             reaches for a simultaneous exchange, a rank's receive rate.
 *             Each halo exchange sends and receives at once, so this is its
 *             bound; the ping-pong, one way at a time, is the second goal
 *   exchange alone  exchange_halos and the non-blocking exchange between
 *             ranks 0 and 1 alone, on the same buffers (not a bound: where
 *             the pipeline's exchange falls short of it, the pipeline costs)
 * Every variant's gathered result is compared bit for bit with the kit's
 * serial reference; a wrong one prints INVALID (N wrong elements) in place
 * of its figures and the program exits 1 (common/bench's rule), as does a
 * kernel bound above the copy bandwidth (where its arrays do not fit in
 * the GPU's L2). On a GPU every device phase is timed by CUDA events
 * recorded around it on the stream it runs on, in every variant (so the
 * overlapped pipeline shows its phases too), and the bounds the same way;
 * the exchange, host work, by the host clock. On the CPU backend, whose
 * calls are synchronous, the host clock around each call is its time (the
 * serialized variants only). Prints a table and the goals as ratios, each
 * on a line of its own that starts with "goal"; FILE gets the table's rows
 * appended, without the header (bench.sh writes it, and collects the rows
 * of every rank count in one CSV whose last column, status, is "ok" or the
 * reason a row is INVALID). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <omp.h>

#include "alloc.h"
#include "bench/bench_check.h"
#include "cli.h"
#include "cuda_check.h"
#include "mpi_check.h"
#include "timer.h"
#include "wave_mpi.h"
#include "wave_serial.h"

enum { PH_BOUNDARY, PH_D2H, PH_EXCHANGE, PH_H2D, PH_INTERIOR, PH_STEP, PH_N };

/* --- the timing backend ------------------------------------------------- */

static const dev_backend *inner;
static int serialize;
static double phase[PH_N], t_first, t_last, t_synced;

/* Device phases on a GPU: a pair of events around each call, read back
 * when the pipeline finishes (or when the pool is full, waiting for each
 * event then). */
enum { EVENT_PAIRS = 4096 };
static struct {
    cudaEvent_t start, stop;
    int phase;
} pairs[EVENT_PAIRS];
static int pairs_made, pairs_used;

static int on_gpu(void) { return inner != &dev_cpu; }

static cudaStream_t cuda_stream(int stream) { return (cudaStream_t)dev_cuda_stream(stream); }

static void collect_events(void)
{
    for (int i = 0; i < pairs_used; i++) {
        float ms = 0;
        CUDA_CHECK(cudaEventSynchronize(pairs[i].stop));
        CUDA_CHECK(cudaEventElapsedTime(&ms, pairs[i].start, pairs[i].stop));
        phase[pairs[i].phase] += 1e-3 * ms;
    }
    pairs_used = 0;
}

/* Opens a timed device phase on stream: a handle for phase_end (-1 on the CPU). */
static int phase_begin(int ph, int stream)
{
    if (!on_gpu())
        return -1;
    if (pairs_used == EVENT_PAIRS)
        collect_events();
    int i = pairs_used++;
    if (i == pairs_made) {
        CUDA_CHECK(cudaEventCreate(&pairs[i].start));
        CUDA_CHECK(cudaEventCreate(&pairs[i].stop));
        pairs_made++;
    }
    pairs[i].phase = ph;
    CUDA_CHECK(cudaEventRecord(pairs[i].start, cuda_stream(stream)));
    return i;
}

/* Closes it. The serialized variant then waits for the call; on the CPU
 * backend it times the call with the host clock instead (from t0). */
static void phase_end(int handle, int ph, int stream, double t0)
{
    if (handle >= 0)
        CUDA_CHECK(cudaEventRecord(pairs[handle].stop, cuda_stream(stream)));
    if (!serialize)
        return;
    inner->sync();
    if (handle < 0)
        phase[ph] += wall_time() - t0;
}

static void t_init(int rank) { inner->init(rank); }
/* the events are read at the end, off the steps' clock */
static void t_finish(void)
{
    if (on_gpu()) {
        inner->sync();
        collect_events();
    }
    inner->finish();
}
static void *t_alloc(size_t b) { return inner->alloc(b); }
static void t_free(void *p) { inner->free(p); }
static void *t_alloc_host(size_t b) { return inner->alloc_host(b); }
static void t_free_host(void *p) { inner->free_host(p); }
static void t_zero(void *p, size_t b) { inner->zero(p, b); }
static void t_memcpy(void *d, const void *s, size_t b, dev_copy_kind k) { inner->memcpy(d, s, b, k); }

/* The exchange, host work: the gap from the boundary stream's sync to the
 * next device call. Returns whether one was open (the non-blocking
 * exchange's transfers posted, its wait still to come). */
static int mark_call(void)
{
    double t = wall_time();
    if (t_synced <= 0)
        return 0;
    phase[PH_EXCHANGE] += t - t_synced, t_synced = 0;
    return 1;
}

static void t_memcpy_async(void *d, const void *s, size_t b, dev_copy_kind k, int stream)
{
    mark_call();
    int ph = k == DEV_D2H ? PH_D2H : PH_H2D;
    double t0 = wall_time();
    int h = phase_begin(ph, stream);
    inner->memcpy_async(d, s, b, k, stream);
    phase_end(h, ph, stream, t0);
}

static void t_launch(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy, int nz,
                     int stream)
{
    int exchanging = mark_call();
    int ph = stream == DEV_STREAM_BOUNDARY ? PH_BOUNDARY : PH_INTERIOR;
    double t0 = wall_time();
    if (t_first == 0)
        t_first = t0;
    int h = phase_begin(ph, stream);
    inner->launch(next, in, prev, vel, dimx, dimy, nz, stream);
    phase_end(h, ph, stream, t0);
    /* the non-blocking exchange launches the interior between posting its
     * transfers and waiting for them: its clock runs on from here, so the
     * wait counts and the interior (waited for when serialized) does not */
    if (exchanging)
        t_synced = wall_time();
}

static void t_stream_sync(int stream)
{
    mark_call();
    inner->stream_sync(stream);
    if (stream == DEV_STREAM_BOUNDARY)
        t_synced = wall_time();
}

static void t_sync(void)
{
    mark_call();
    inner->sync();
    t_last = wall_time();
}

static const dev_backend timing = {"timing", t_init, t_finish, t_alloc, t_free, t_alloc_host, t_free_host, t_zero,
                                   t_memcpy, t_memcpy_async, t_launch, t_stream_sync, t_sync};

/* --- the program ---------------------------------------------------------- */

typedef struct {
    int dimx, dimy, dimz, steps, repeats;
    const dev_backend *dev;
    const char *csv;
} options;

static int rank, np;

/* One run of the whole program; returns (on every rank) the number of
 * elements of the gathered result whose bits differ from the serial
 * reference's, and in ph the slowest compute rank's phases per step. */
static long run_once(const options *o, wave_exchange mode, int ser, const float *u0, const float *vel,
                    const float *want, float *out, double ph[PH_N])
{
    double mine[PH_N] = {0};
    long wrong = 0;
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == np - 1) {
        size_t points = (size_t)o->dimx * o->dimy * o->dimz;
        for (size_t c = 0; c < points; c++)
            out[c] = NAN;
        data_server(o->dimx, o->dimy, o->dimz, u0, vel, out);
        for (size_t c = 0; c < points; c++)
            wrong += memcmp(&want[c], &out[c], sizeof *out) != 0;
    } else {
        inner = o->dev, serialize = ser;
        memset(phase, 0, sizeof phase);
        t_first = t_last = t_synced = 0;
        compute_process(o->dimx, o->dimy, o->dimz, o->steps, &timing, mode);
        for (int p = 0; p < PH_N; p++)
            mine[p] = (p == PH_STEP ? t_last - t_first : phase[p]) / (o->steps ? o->steps : 1);
    }
    MPI_CHECK(MPI_Allreduce(mine, ph, PH_N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    MPI_CHECK(MPI_Bcast(&wrong, 1, MPI_LONG, np - 1, MPI_COMM_WORLD));
    return wrong;
}

/* The time of one device operation: by a pair of events on `stream` on a
 * GPU (-1: the legacy default stream, where the backend's synchronous
 * copies run), by the host clock around it and a sync on the CPU. */
typedef struct {
    cudaEvent_t start, stop;
    cudaStream_t stream;
    double t0;
} op_clock;

static void op_start(op_clock *c, const dev_backend *d, int stream)
{
    inner = d;
    if (on_gpu()) {
        c->stream = stream < 0 ? (cudaStream_t)0 : cuda_stream(stream);
        CUDA_CHECK(cudaEventCreate(&c->start));
        CUDA_CHECK(cudaEventCreate(&c->stop));
        CUDA_CHECK(cudaEventRecord(c->start, c->stream));
    }
    c->t0 = wall_time();
}

static double op_seconds(op_clock *c, const dev_backend *d)
{
    d->sync();
    if (!on_gpu())
        return wall_time() - c->t0;
    float ms = 0;
    CUDA_CHECK(cudaEventRecord(c->stop, c->stream));
    CUDA_CHECK(cudaEventSynchronize(c->stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, c->start, c->stop));
    CUDA_CHECK(cudaEventDestroy(c->start));
    CUDA_CHECK(cudaEventDestroy(c->stop));
    return 1e-3 * ms;
}

/* The bounds, every rank's copy the same (0 where there is none). */
typedef struct {
    double copy_gbs, kernel_gbs; /* rank 0's GPU (or CPU) alone */
    double pingpong_gbs;         /* one halo one way, ranks 0 and 1 */
    double bibw_gbs;             /* one halo each way at once: a rank's receive rate */
    double alone_gbs[2];         /* exchange_halos, the non-blocking exchange: the same */
    double l2_bytes, array_bytes;
} bound_figs;

/* The ways ranks 0 and 1 move halos between them, timed by pair_seconds. */
enum { PAIR_PINGPONG, PAIR_BIBW, PAIR_SENDRECV, PAIR_NONBLOCKING };

/* One round of `how` between ranks 0 and 1 on the halo buffers h: the
 * ping-pong's round trip (a halo each way, one after the other), the
 * bibw's halo each way at once, or the student's exchange of a chain of
 * two ranks (rank 0 has no left neighbour, rank 1 no right one). */
static void pair_round(int how, const wave_halos *h)
{
    int other = 1 - rank, n = h->count, tag = 9;
    MPI_Request req[4];
    switch (how) {
    case PAIR_PINGPONG:
        if (rank == 0) {
            MPI_CHECK(MPI_Send(h->right_boundary, n, MPI_FLOAT, other, tag, MPI_COMM_WORLD));
            MPI_CHECK(MPI_Recv(h->right_halo, n, MPI_FLOAT, other, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            MPI_CHECK(MPI_Recv(h->left_halo, n, MPI_FLOAT, other, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MPI_CHECK(MPI_Send(h->left_boundary, n, MPI_FLOAT, other, tag, MPI_COMM_WORLD));
        }
        break;
    case PAIR_BIBW: { /* osu_bibw's order: the receive posted first */
        float *into = rank == 0 ? h->right_halo : h->left_halo;
        const float *from = rank == 0 ? h->right_boundary : h->left_boundary;
        MPI_CHECK(MPI_Irecv(into, n, MPI_FLOAT, other, tag, MPI_COMM_WORLD, &req[0]));
        MPI_CHECK(MPI_Isend(from, n, MPI_FLOAT, other, tag, MPI_COMM_WORLD, &req[1]));
        MPI_CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        break;
    }
    case PAIR_SENDRECV:
        exchange_halos(h, rank == 0 ? MPI_PROC_NULL : 0, rank == 0 ? 1 : MPI_PROC_NULL, tag);
        break;
    default:
        exchange_halos_start(h, rank == 0 ? MPI_PROC_NULL : 0, rank == 0 ? 1 : MPI_PROC_NULL, tag, req);
        exchange_halos_finish(req);
    }
}

/* Ranks 0 and 1: the median over the repeats of the seconds a round of
 * `how` takes (each sample 10 rounds, after a warm-up sample). */
static double pair_seconds(int how, const wave_halos *h, int repeats, double *t)
{
    const int rounds = 10;
    for (int k = -1; k < repeats; k++) { /* k = -1: warm-up */
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* both ranks start together */
        double t0 = wall_time();
        for (int j = 0; j < rounds; j++)
            pair_round(how, h);
        if (k >= 0)
            t[k] = (wall_time() - t0) / rounds;
    }
    return bench_median(t, repeats);
}

/* Rank 0: the device copy and the kernel alone, in GB/s; ranks 0 and 1:
 * the halo transfers between them. Every rank gets the figures, and the
 * L2's size with the kernel's arrays': where they fit in the L2 (the
 * bench's small sizes), the copy bandwidth of device memory bounds nothing
 * (0 on the CPU). */
static void bounds(const options *o, bound_figs *f)
{
    int S = o->dimz / (np - 1);
    size_t plane = (size_t)o->dimx * o->dimy, points = plane * (size_t)(S + 2 * WAVE_RADIUS);
    size_t bytes = points * sizeof(float), halo = WAVE_RADIUS * plane * sizeof(float);
    double r[8] = {0}; /* bound_figs' fields, in order */
    double *t = kit_alloc((size_t)o->repeats, sizeof(double));
    if (rank == 0) {
        o->dev->init(rank);
        float *a = o->dev->alloc(bytes), *b = o->dev->alloc(bytes), *v = o->dev->alloc(bytes);
        o->dev->zero(a, bytes), o->dev->zero(b, bytes), o->dev->zero(v, bytes);
        o->dev->memcpy(b, a, bytes, DEV_D2D); /* warm-up */
        for (int k = 0; k < o->repeats; k++) {
            op_clock c;
            op_start(&c, o->dev, -1);
            o->dev->memcpy(b, a, bytes, DEV_D2D);
            t[k] = op_seconds(&c, o->dev);
        }
        r[0] = 2.0 * bytes / bench_median(t, o->repeats) * 1e-9;
        o->dev->launch(b, a, b, v, o->dimx, o->dimy, S + 2 * WAVE_RADIUS, DEV_STREAM_BOUNDARY);
        o->dev->sync();
        for (int k = 0; k < o->repeats; k++) {
            op_clock c;
            op_start(&c, o->dev, DEV_STREAM_BOUNDARY);
            o->dev->launch(b, a, b, v, o->dimx, o->dimy, S + 2 * WAVE_RADIUS, DEV_STREAM_BOUNDARY);
            t[k] = op_seconds(&c, o->dev);
        }
        r[1] = 16.0 * (double)plane * S / bench_median(t, o->repeats) * 1e-9;
        if (o->dev != &dev_cpu)
            r[6] = (double)dev_cuda_l2_bytes(), r[7] = 3.0 * bytes;
        o->dev->free(a), o->dev->free(b), o->dev->free(v);
        o->dev->finish();
    }
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank <= 1) { /* np >= 3: ranks 0 and 1 both compute */
        /* the pipeline's four pinned buffers of a halo each */
        o->dev->init(rank);
        wave_halos h = {o->dev->alloc_host(halo), o->dev->alloc_host(halo), o->dev->alloc_host(halo),
                        o->dev->alloc_host(halo), (int)(halo / sizeof(float))};
        memset(h.left_boundary, 0, halo), memset(h.right_boundary, 0, halo);
        memset(h.left_halo, 0, halo), memset(h.right_halo, 0, halo);
        double pingpong = pair_seconds(PAIR_PINGPONG, &h, o->repeats, t) / 2; /* one way */
        double bibw = pair_seconds(PAIR_BIBW, &h, o->repeats, t);
        double sendrecv = pair_seconds(PAIR_SENDRECV, &h, o->repeats, t);
        double nonblocking = pair_seconds(PAIR_NONBLOCKING, &h, o->repeats, t);
        if (rank == 0)
            r[2] = halo / pingpong * 1e-9, r[3] = halo / bibw * 1e-9, r[4] = halo / sendrecv * 1e-9,
            r[5] = halo / nonblocking * 1e-9;
        o->dev->free_host(h.left_boundary), o->dev->free_host(h.right_boundary);
        o->dev->free_host(h.left_halo), o->dev->free_host(h.right_halo);
        o->dev->finish();
    } else {
        /* the other ranks meet the pair's barriers */
        for (int how = 0; how < 4; how++)
            for (int k = -1; k < o->repeats; k++)
                MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    }
    MPI_CHECK(MPI_Bcast(r, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    *f = (bound_figs){r[0], r[1], r[2], r[3], {r[4], r[5]}, r[6], r[7]};
    kit_free(t);
}

/* A model of the lecture's exchange, in seconds: two MPI_Sendrecv in
 * series (wave_mpi.h), the first a shift to the left (each rank sends its
 * left boundary and receives its right halo), the second a shift to the
 * right. In one shift a rank sends at most one halo and receives at most
 * one, and every pair of neighbours moves its halo at once, so a shift
 * takes about one halo's one-way time: the ping-pong's, measured between
 * two compute ranks through pinned host buffers as the halos are. Twice
 * that, if the second shift starts when the first has ended. It need not:
 * MPI_Sendrecv returns once its send buffer may be reused, which can be
 * before the neighbour has the whole halo, so the two shifts may overlap
 * and the exchange beat the model (119% of it on two NVLinked GPUs): a
 * model, not a bound. The bound is the bibw line (both ways at once, as
 * an exchange moves halos), which counts the halos a rank receives. */
static double sendrecv_series_model(size_t halo_bytes, double pingpong_gbs)
{
    return 2.0 * (double)halo_bytes / (pingpong_gbs * 1e9);
}

/* The variants timed, in order: overlapped, then serialized (each phase
 * waited for), each with both exchanges. */
enum { VARIANTS = 4, SERIALIZED = 2 };
static const struct {
    const char *name;
    wave_exchange mode;
    int ser;
} variant[VARIANTS] = {{"overlap-sendrecv", WAVE_SENDRECV, 0},
                       {"overlap-nonblocking", WAVE_NONBLOCKING, 0},
                       {"serialized", WAVE_SENDRECV, 1},
                       {"serialized-nonblocking", WAVE_NONBLOCKING, 1}};

/* The goals, as ratios, only from valid figures (the server rank). */
static void print_goals(const options *o, const bound_figs *bf, double cached, int kernel_ok,
                        double result[VARIANTS][PH_N], const int valid[VARIANTS])
{
    if (cached > 0)
        printf("kernel: %.0f GB/s at 16 B/point; its arrays (%.1f MB) fit in the GPU's L2 (%.0f MB), where the "
               "copy bandwidth of device memory bounds nothing: no goal at this size\n",
               bf->kernel_gbs, cached * 1e-6, bf->l2_bytes * 1e-6);
    else if (kernel_ok && bf->copy_gbs > 0)
        printf("goal kernel: %.0f GB/s at 16 B/point = %.0f%% of the copy bandwidth %.0f GB/s (goal >= 80%%)\n",
               bf->kernel_gbs, 100 * bf->kernel_gbs / bf->copy_gbs, bf->copy_gbs);
    for (int v = 0; v < SERIALIZED; v++) { /* each overlapped pipeline against its serialized phases */
        const double *s = result[v + SERIALIZED];
        double halo_path = s[PH_BOUNDARY] + s[PH_D2H] + s[PH_EXCHANGE] + s[PH_H2D];
        if (valid[v] && valid[v + SERIALIZED] && s[PH_INTERIOR] > 0)
            printf("goal overlap (%s): step %.3f ms = %.2f x max(interior %.3f ms, halo path %.3f ms) (goal <= "
                   "1.15); serialized step %.3f ms\n",
                   variant[v].name, result[v][PH_STEP] * 1e3, result[v][PH_STEP] / fmax(s[PH_INTERIOR], halo_path),
                   s[PH_INTERIOR] * 1e3, halo_path * 1e3, s[PH_STEP] * 1e3);
    }
    /* The exchange's rate: the halos the slowest compute rank (an internal
     * one where there is one) receives a step, over the serialized
     * exchange's time; it sends as many at once. The bibw and the
     * ping-pong are a rank's receive rate too, for one halo. */
    size_t halo_bytes = WAVE_RADIUS * (size_t)o->dimx * o->dimy * sizeof(float);
    int neighbours = np - 1 > 2 ? 2 : 1;
    if (bf->bibw_gbs > 0)
        printf("bounds: ranks 0 and 1 move one halo (%.2f MB) one way at %.2f GB/s (ping-pong), each way at once at "
               "%.2f GB/s a rank (bibw); alone, exchange_halos %.2f GB/s, the non-blocking exchange %.2f GB/s\n",
               halo_bytes * 1e-6, bf->pingpong_gbs, bf->bibw_gbs, bf->alone_gbs[0], bf->alone_gbs[1]);
    for (int v = SERIALIZED; v < VARIANTS; v++) {
        const double *s = result[v];
        if (!valid[v] || s[PH_EXCHANGE] <= 0 || bf->bibw_gbs <= 0 || bf->pingpong_gbs <= 0)
            continue;
        double gbs = neighbours * halo_bytes / s[PH_EXCHANGE] * 1e-9;
        printf("goal exchange vs bibw (%s): %.2f GB/s (%d halo(s) in and out a step, %.3f ms) = %.0f%% of the "
               "simultaneous exchange's %.2f GB/s (goal >= 80%%)\n",
               variant[v].name, gbs, neighbours, s[PH_EXCHANGE] * 1e3, 100 * gbs / bf->bibw_gbs, bf->bibw_gbs);
        printf("goal exchange vs ping-pong (%s): %.2f GB/s = %.0f%% of the ping-pong's %.2f GB/s one way (goal >= "
               "80%%)\n",
               variant[v].name, gbs, 100 * gbs / bf->pingpong_gbs, bf->pingpong_gbs);
    }
    const double *s = result[SERIALIZED];
    if (valid[SERIALIZED] && s[PH_EXCHANGE] > 0 && bf->pingpong_gbs > 0) {
        double model = sendrecv_series_model(halo_bytes, bf->pingpong_gbs);
        printf("exchange (two Sendrecv in series): %.3f ms a step = %.0f%% of the model's %.3f ms, 2 x one halo "
               "one way at the ping-pong's rate%s\n",
               s[PH_EXCHANGE] * 1e3, 100 * model / s[PH_EXCHANGE], model * 1e3,
               model > s[PH_EXCHANGE] ? " (above 100%: the two shifts overlapped; a model, not a bound)" : "");
    }
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){480, 480, 400, 100, 5, &dev_cpu, NULL};
    for (int a = 1; a < argc; a++) {
        int left = argc - a - 1;
        if (!strcmp(argv[a], "--size") && left >= 3) {
            if (cli_parse_int(argv[a + 1], "DX", 1, 1 << 20, &o->dimx) ||
                cli_parse_int(argv[a + 2], "DY", 1, 1 << 20, &o->dimy) ||
                cli_parse_int(argv[a + 3], "DZ", 1, 1 << 20, &o->dimz))
                return -1;
            a += 3;
        } else if (!strcmp(argv[a], "--steps") && left >= 1) {
            if (cli_parse_int(argv[++a], "steps", 1, 1 << 20, &o->steps))
                return -1;
        } else if (!strcmp(argv[a], "--repeats") && left >= 1) {
            if (cli_parse_int(argv[++a], "repeats", 1, 1000, &o->repeats))
                return -1;
        } else if (!strcmp(argv[a], "--backend") && left >= 1) {
            a++;
            if (strcmp(argv[a], "cpu") && strcmp(argv[a], "cuda"))
                return -1;
            o->dev = !strcmp(argv[a], "cuda") ? dev_cuda() : &dev_cpu;
        } else if (!strcmp(argv[a], "--csv") && left >= 1) {
            o->csv = argv[++a];
        } else {
            return -1;
        }
    }
    return 0;
}

/* A figure, or "-" where there is none. */
static void fig(char *buf, size_t len, double v, double scale)
{
    if (v > 0 && isfinite(v))
        snprintf(buf, len, "%.4g", v * scale);
    else
        snprintf(buf, len, "-");
}

int main(int argc, char **argv)
{
    MPI_CHECK(MPI_Init(&argc, &argv));
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &np));
    options o;
    if (parse(argc, argv, &o)) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np P lab5_bench [--size DX DY DZ] [--steps N] [--repeats R] "
                            "[--backend cpu|cuda] [--csv FILE]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *bad = wave_check_sizes(np, o.dimx, o.dimy, o.dimz, o.steps);
    wave_plan plan;
    if (!bad && distribution_plan(o.dimz, np - 1, 0, &plan))
        bad = "DZ must split into np-1 slabs of at least 8 planes (or distribution_plan is not written yet)";
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "lab5_bench: %s\n", bad);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    size_t points = (size_t)o.dimx * o.dimy * o.dimz;
    float *u0 = NULL, *vel = NULL, *want = NULL, *out = NULL;
    if (rank == np - 1) {
        u0 = kit_alloc(points, sizeof(float)), vel = kit_alloc(points, sizeof(float));
        want = kit_alloc(points, sizeof(float)), out = kit_alloc(points, sizeof(float));
        wave_fill(o.dimx, o.dimy, o.dimz, u0, vel);
        double t0 = wall_time();
        wave_serial(o.dimx, o.dimy, o.dimz, o.steps, u0, vel, want);
        /* the bench's own check, not the student's work: it must not make
         * the benchmark minutes long (it once took 50 s a rank count) */
        printf("goal serial check: the reference on the server rank took %.2f s (OpenMP, %d threads) (goal < 5 s)\n",
               wall_time() - t0, omp_get_max_threads());
    }
    bound_figs bf;
    bounds(&o, &bf);
    /* the arrays' bytes where they fit in the L2, else 0 */
    double cached = bf.array_bytes <= bf.l2_bytes ? bf.array_bytes : 0;

    double result[VARIANTS][PH_N];
    long wrong[VARIANTS];
    int valid[VARIANTS], all_valid = 1;
    double *samples = kit_alloc((size_t)o.repeats * PH_N, sizeof(double));
    run_once(&o, WAVE_SENDRECV, 0, u0, vel, want, out, result[0]); /* warm-up */
    for (int v = 0; v < VARIANTS; v++) {
        wrong[v] = 0;
        for (int k = 0; k < o.repeats; k++) {
            double ph[PH_N];
            long w = run_once(&o, variant[v].mode, variant[v].ser, u0, vel, want, out, ph);
            wrong[v] = w > wrong[v] ? w : wrong[v]; /* the worst run's */
            for (int p = 0; p < PH_N; p++)
                samples[(size_t)p * o.repeats + k] = ph[p];
        }
        for (int p = 0; p < PH_N; p++)
            result[v][p] = bench_median(samples + (size_t)p * o.repeats, o.repeats);
        valid[v] = wrong[v] == 0;
        all_valid &= valid[v];
    }
    /* a kernel faster than the copy bandwidth cannot be, where its arrays
     * are larger than the GPU's L2 (the lecture's grid: 580 MB against
     * 50 MB on a large GPU); the bench's small sizes sit in the L2, and the
     * CPU's in its caches, where the copy is no bound */
    int kernel_ok = !(o.dev != &dev_cpu && !cached && bf.kernel_gbs > 1.1 * bf.copy_gbs);

    if (rank == np - 1) {
        FILE *csv = o.csv ? fopen(o.csv, "a") : NULL;
        if (o.csv && !csv)
            perror(o.csv);
        printf("variant,backend,ranks,dimx,dimy,dimz,steps,step_ms,glups,boundary_ms,d2h_ms,exchange_ms,h2d_ms,"
               "interior_ms,copy_gbs,kernel_gbs,pingpong_gbs,bibw_gbs,status\n");
        char c[32], k[32], pp[32], bw[32], line0[512];
        fig(c, sizeof c, bf.copy_gbs, 1), fig(k, sizeof k, kernel_ok ? bf.kernel_gbs : 0, 1);
        fig(pp, sizeof pp, bf.pingpong_gbs, 1), fig(bw, sizeof bw, bf.bibw_gbs, 1);
        for (int v = 0; v < VARIANTS; v++) {
            char line[512], f[PH_N][32], g[32];
            if (!valid[v]) {
                snprintf(line, sizeof line, "%s,%s,%d,%d,%d,%d,%d,-,-,-,-,-,-,-,-,-,-,-,INVALID (%ld wrong element%s)",
                         variant[v].name, o.dev->name, np, o.dimx, o.dimy, o.dimz, o.steps, wrong[v],
                         wrong[v] == 1 ? "" : "s");
            } else {
                /* Phases: every one in the serialized variants; on a GPU the
                 * device phases of the overlapped ones too (events), and
                 * their exchange (the host's time in it) */
                for (int p = 0; p < PH_N; p++) {
                    int shown = variant[v].ser || p == PH_STEP || o.dev != &dev_cpu;
                    fig(f[p], sizeof f[p], shown ? result[v][p] : 0, 1e3);
                }
                fig(g, sizeof g, (double)points / result[v][PH_STEP], 1e-9);
                snprintf(line, sizeof line, "%s,%s,%d,%d,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,ok", variant[v].name,
                         o.dev->name, np, o.dimx, o.dimy, o.dimz, o.steps, f[PH_STEP], g, f[PH_BOUNDARY], f[PH_D2H],
                         f[PH_EXCHANGE], f[PH_H2D], f[PH_INTERIOR], c, k, pp, bw);
            }
            printf("%s\n", line);
            if (csv)
                fprintf(csv, "%s\n", line);
        }
        if (!kernel_ok) { /* a row of its own, so that the CSV says it too */
            snprintf(line0, sizeof line0, "kernel-bound,%s,%d,%d,%d,%d,%d,-,-,-,-,-,-,-,%s,-,%s,%s,INVALID (above peak: "
                     "%.0f GB/s, above the copy bandwidth measured in this run)",
                     o.dev->name, np, o.dimx, o.dimy, o.dimz, o.steps, c, pp, bw, bf.kernel_gbs);
            printf("%s\n", line0);
            if (csv)
                fprintf(csv, "%s\n", line0);
        }
        if (csv)
            fclose(csv);
        print_goals(&o, &bf, cached, kernel_ok, result, valid);
        kit_free(u0), kit_free(vel), kit_free(want), kit_free(out);
    }
    kit_free(samples);
    MPI_CHECK(MPI_Finalize());
    return all_valid && kernel_ok ? 0 : 1;
}
