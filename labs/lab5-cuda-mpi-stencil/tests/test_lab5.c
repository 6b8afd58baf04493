/* Lab 5 (cuda-mpi-stencil): the visible tests. Run them with
 * `make lab5 && make check`.
 *
 * Every result is compared bit for bit with the kit's serial reference
 * (wave_serial.c: the whole grid, zero-padded, three time levels; nothing
 * of the stages' regions, halos or buffers): the scheme fixes the order of
 * every addition, and the lab builds without contraction (gcc
 * -ffp-contract=off, nvcc -fmad=false). The MPI tests run the lab's check
 * program (mpi/lab5_mpi_check.c) under mpirun on 3 to 5 ranks,
 * oversubscribed, each within a time limit generous enough for a loaded
 * machine (oversubscribed ranks wait for each other's time slices); a
 * deadlock there ends as "FAIL TIMEOUT" after a few seconds all the same. GPU tests are skipped (never passed)
 * where there is no GPU. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "autograder.h"
#include "cuda/compute_sanitizer.h"
#include "lab5_checks.h"
#include "wave.h"
#include "wave_serial.h"

/* --- stages 1 and 2: the region contract, on the CPU and on the GPU -------- */

/* The region contract on one backend, stage 1's stencil_region_cpu or
 * stage 2's kernel: one body per check, a row per backend. */
typedef struct {
    l5_region_fn region;
    const char *name;
    int npoints;      /* how many of delta_points (13 x 11 x 20) to try */
    int more[2][6];   /* deltas in other shapes: dimx, dimy, nz, x, y, z (dimx 0: none) */
} delta_row;

typedef struct {
    l5_region_fn region;
    const char *name;
    int shapes[3][3]; /* dimx, dimy, S */
} composition_row;

/* 13 x 11 x 20: no two sizes equal, so an index with dimz or dimy in the
 * wrong place, or swapped axes, moves the delta's neighbours. The points:
 * the middle, and near each x and y edge (the neighbours past the edge must
 * count as 0, not wrap into the next row). */
static const int delta_points[][3] = {
    {6, 5, 10}, {1, 1, 8}, {11, 9, 11}, {0, 10, 9}, {12, 0, 12}, {3, 7, 4}, {9, 2, 15},
};

/* A region of 9 planes writes only plane 4; of 8, nothing. */
static const delta_row stencil_delta = {
    stencil_region_cpu, "stencil_region_cpu", 7, {{5, 6, 9, 2, 3, 4}, {5, 6, 8, 2, 3, 4}},
};
/* Wider than a block row and taller than a block column. */
static const delta_row gpu_delta = {l5_gpu_region, "launch_kernel", 5, {{67, 21, 11, 66, 20, 5}}};

START_TEST(region_delta)
{
    const delta_row *r = ag_test_arg();
    for (int p = 0; p < r->npoints; p++)
        l5_check_delta(r->region, r->name, 13, 11, 20, delta_points[p][0], delta_points[p][1], delta_points[p][2]);
    for (int d = 0; d < 2 && r->more[d][0]; d++) {
        const int *m = r->more[d];
        l5_check_delta(r->region, r->name, m[0], m[1], m[2], m[3], m[4], m[5]);
    }
}
END_TEST

static const composition_row stencil_composition = {
    stencil_region_cpu, "stencil_region_cpu", {{13, 11, 8}, {7, 9, 12}, {16, 3, 21}},
};
static const composition_row gpu_composition = {
    l5_gpu_region, "launch_kernel", {{13, 11, 8}, {70, 37, 40}, {1, 1, 9}},
};

START_TEST(region_composition)
{
    const composition_row *r = ag_test_arg();
    for (int c = 0; c < 3; c++)
        l5_check_composition(r->region, r->name, r->shapes[c][0], r->shapes[c][1], r->shapes[c][2]);
}
END_TEST

/* The CUDA toolkit's checkers (autograder/cuda/compute_sanitizer.h) on
 * launch_kernel: a 37 x 19 region (one 32 x 16 tile and part of another
 * each way, as the reference tiles it) with the delta next to its far
 * corner, and the composition's calls on 53 planes (the reference's blocks
 * walk 50 planes: a whole chunk and part of one), under memcheck (every
 * read and write in the region's arrays) and under racecheck and
 * synccheck (a tile in shared memory read before every thread of the
 * block has stored its part). */
static void kernel_small_case(void)
{
    l5_check_delta(l5_gpu_region, "launch_kernel", 37, 19, 13, 36, 18, 6);
    l5_check_composition(l5_gpu_region, "launch_kernel", 37, 19, 53);
}

static const ag_sanitized_case gpu_memcheck = {"gpu_memcheck", "memcheck", kernel_small_case};
static const ag_sanitized_case gpu_racecheck = {"gpu_racecheck", "racecheck synccheck", kernel_small_case};

/* next == prev (the pipeline's d_output) gives what separate arrays give. */
START_TEST(stencil_aliasing)
{
    const int dimx = 11, dimy = 7, nz = 17;
    size_t points = (size_t)dimx * dimy * nz;
    float *in = kit_alloc(points, sizeof(float)), *vel = kit_alloc(points, sizeof(float));
    float *prev = kit_alloc(points, sizeof(float)), *next = kit_alloc(points, sizeof(float));
    float *same = kit_alloc(points, sizeof(float));
    l5_fill_random(dimx, dimy, nz, in, vel);
    for (size_t c = 0; c < points; c++)
        prev[c] = same[c] = 0.5f * in[(c * 7) % points];
    l5_poison(next, points);
    stencil_region_cpu(next, in, prev, vel, dimx, dimy, nz);
    stencil_region_cpu(same, in, same, vel, dimx, dimy, nz);
    l5_assert_planes(next, same, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS,
                     "stencil_region_cpu, 11 x 7 x 17, next == prev against separate arrays");
    kit_free(in), kit_free(vel), kit_free(prev), kit_free(next), kit_free(same);
}
END_TEST

/* 1 and 2 OpenMP threads (and 3 and 4, more than the planes of some
 * chunks) must give the same bits: each point is written once, with no
 * reduction. A race (a buffer the threads share) shows only when threads
 * really overlap, so the threaded calls also run on rows long enough
 * (4096) and a region large enough (16 planes of 48 rows written) that
 * each thread's share lasts milliseconds: longer than the stagger with
 * which threads start on a busy machine, and longer than a time slice when
 * fewer cores than threads are free, so that a thread is interrupted
 * inside a row and another runs meanwhile (as lab 7's batch_threads).
 * 19 x 13 x 15 alone caught a shared row buffer 5 runs of 8 on 2 loaded
 * cores. The test is about threads, never about speed. */
START_TEST(stencil_threads)
{
    static const int shapes[2][3] = {{19, 13, 15}, {4096, 48, 24}};
    for (int s = 0; s < 2; s++) {
        const int dimx = shapes[s][0], dimy = shapes[s][1], nz = shapes[s][2];
        size_t points = (size_t)dimx * dimy * nz;
        float *in = kit_alloc(points, sizeof(float)), *vel = kit_alloc(points, sizeof(float));
        float *one = kit_alloc(points, sizeof(float)), *many = kit_alloc(points, sizeof(float));
        l5_fill_random(dimx, dimy, nz, in, vel);
        omp_set_num_threads(1);
        l5_poison(one, points);
        stencil_region_cpu(one, in, in, vel, dimx, dimy, nz);
        if (s == 0)
            l5_check_composition(stencil_region_cpu, "stencil_region_cpu on 1 thread", dimx, dimy, 9);
        for (int t = 2; t <= 4; t++) {
            omp_set_num_threads(t);
            l5_poison(many, points);
            stencil_region_cpu(many, in, in, vel, dimx, dimy, nz);
            char ctx[96];
            snprintf(ctx, sizeof ctx, "stencil_region_cpu, %d x %d x %d: %d threads against 1", dimx, dimy, nz, t);
            l5_assert_planes(one, many, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS, ctx);
        }
        kit_free(in), kit_free(vel), kit_free(one), kit_free(many);
    }
}
END_TEST

/* --- stage 3: distribution_plan -------------------------------------------- */

static void expect_plan(int dimz, int ncomp, int rank, int src, int n, int dst)
{
    wave_plan p = {-7, -7, -7};
    int rc = distribution_plan(dimz, ncomp, rank, &p);
    ck_assert_msg(rc == 0 && p.src_plane == src && p.nplanes == n && p.dst_plane == dst,
                  "distribution_plan(dimz=%d, ncomp=%d, rank=%d): expected 0 and {src_plane %d, nplanes %d, dst_plane "
                  "%d}, got %d and {%d, %d, %d}",
                  dimz, ncomp, rank, src, n, dst, rc, p.src_plane, p.nplanes, p.dst_plane);
}

static void expect_refused(int dimz, int ncomp, int rank, const char *why)
{
    wave_plan p = {-7, -7, -7};
    ck_assert_msg(distribution_plan(dimz, ncomp, rank, &p) == -1,
                  "distribution_plan(dimz=%d, ncomp=%d, rank=%d) must return -1: %s", dimz, ncomp, rank, why);
}

/* The lecture's grid, 480 x 480 x 400, on 2, 4, 5 and 8 compute ranks:
 * rank 0 gets its S planes and the 4 after them, into local plane 4 (its
 * left halo stays the zero boundary); an internal rank gets S + 8 planes
 * from global plane r*S - 4 into local plane 0; the last rank S + 4 from
 * r*S - 4. The points per message (nplanes x 480 x 480) are the lecture's
 * edge_num_points and int_num_points (the notes' table). */
START_TEST(plan_lecture_numbers)
{
    static const struct { int ncomp, S; long edge, internal; } t[] = {
        {2, 200, 47001600, 47923200}, {4, 100, 23961600, 24883200}, {5, 80, 19353600, 20275200}, {8, 50, 12441600, 13363200}};
    for (int c = 0; c < 4; c++) {
        int S = t[c].S, last = t[c].ncomp - 1;
        expect_plan(400, t[c].ncomp, 0, 0, S + 4, 4);
        for (int r = 1; r < last; r++)
            expect_plan(400, t[c].ncomp, r, r * S - 4, S + 8, 0);
        expect_plan(400, t[c].ncomp, last, last * S - 4, S + 4, 0);
        wave_plan p0, p1;
        distribution_plan(400, t[c].ncomp, 0, &p0);
        distribution_plan(400, t[c].ncomp, 1, &p1);
        ck_assert_msg((long)p0.nplanes * 480 * 480 == t[c].edge, "%d compute ranks: edge message of %ld points, the lecture's %ld",
                      t[c].ncomp, (long)p0.nplanes * 480 * 480, t[c].edge);
        if (last > 1)
            ck_assert_msg((long)p1.nplanes * 480 * 480 == t[c].internal,
                          "%d compute ranks: internal message of %ld points, the lecture's %ld", t[c].ncomp,
                          (long)p1.nplanes * 480 * 480, t[c].internal);
    }
    /* the smallest slab, S = 8, and 3 ranks */
    expect_plan(24, 3, 0, 0, 12, 4);
    expect_plan(24, 3, 1, 4, 16, 0);
    expect_plan(24, 3, 2, 12, 12, 0);
    expect_refused(401, 4, 0, "401 planes do not split evenly over 4 ranks");
    expect_refused(28, 4, 0, "S = 7 < 8: the boundary planes of a slab would overlap");
    expect_refused(400, 1, 0, "one compute rank has no neighbour to exchange with (np >= 3)");
    expect_refused(400, 4, 4, "rank 4 is not a compute rank of 4");
    expect_refused(400, 4, -1, "rank -1 is not a compute rank");
}
END_TEST

/* --- stages 3 to 5 under mpirun ---------------------------------------------- */

/* nreps 0 (the input back), 1 and 2 (a step with and without the swap),
 * odd and even counts (the answer's buffer), 100 (long enough for an error
 * at an edge to spread everywhere). S = 8 is the smallest slab. */
static const ag_launch e2e_three_ranks[] = {
    {"lab5_mpi_check", 3, "sendrecv:16x16x32:0,1,2,7,10 sendrecv:9x20x16:1,2 halo", 120},
    {NULL},
};

/* 40 x 33: halos of 4 planes, 21 kB, above Open MPI's eager limit (4 kB in
 * shared memory): a send is delivered only while its sender drives MPI, so
 * an exchange that does not complete its sends shows (the checker also
 * fails a request never completed, at any size). */
static const ag_launch e2e_four_ranks[] = {
    {"lab5_mpi_check", 4, "sendrecv:12x10x24:1,2,100 nonblocking:12x10x24:1,2,7 nonblocking:40x33x24:1,3", 120},
    {NULL},
};

/* 13 x 11 x 48: odd sizes, S = 12; internal ranks on both sides */
static const ag_launch e2e_five_ranks[] = {
    {"lab5_mpi_check", 5, "sendrecv:13x11x48:0,1,2,7,10 nonblocking:13x11x48:1,2,7", 120},
    {NULL},
};

static const ag_launch halo_exchange[] = {{"lab5_mpi_check", 5, "halo", 120}, {NULL}};

/* The overlap, from the log of each compute rank's calls: S = 10 (not 12,
 * the boundary regions' depth), both exchanges, and barrier counts. */
static const ag_launch overlap_order[] = {
    {"lab5_mpi_check", 4, "--order sendrecv:9x7x30:1,3 nonblocking:9x7x30:3", 120},
    {NULL},
};

/* The driver on bad configurations: a message and MPI_Abort, never a hang
 * or a wrong answer. */
START_TEST(bad_configurations)
{
    ag_run_mpi_refused("wave", 3, "16 16 31 2", "dimz", 30);
    ag_run_mpi_refused("wave", 4, "16 16 21 2", "dimz", 30);
    ag_run_mpi_refused("wave", 2, "16 16 32 2", "Needed 3 or more processes.", 30);
}
END_TEST

/* --- the CUDA backend under mpirun, on a GPU host ---------------------------- */

/* The ranks share the host's GPU(s): rank r on GPU r mod count. */
static const ag_launch gpu_e2e[] = {
    {"lab5_mpi_check", 3, "--backend cuda --order sendrecv:16x16x32:0,1,2,7 nonblocking:40x33x32:1,10", 180},
    {"lab5_mpi_check", 5, "--backend cuda --order sendrecv:13x11x48:1,2,7,100 nonblocking:13x11x48:2,7", 180},
    {NULL},
};

/* One compute rank per GPU. */
static const ag_launch gpu_two_gpus[] = {
    {"lab5_mpi_check", 3, "--backend cuda --order sendrecv:96x80x64:1,2,50 nonblocking:96x80x64:3,50", 180},
    {NULL},
};

static void register_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){AG_ROW(region_delta, stencil_delta), .points = 3});
    ag_add(s, (ag_spec){AG_ROW(region_composition, stencil_composition), .points = 2});
    ag_add(s, (ag_spec){.test = stencil_aliasing, .points = 1});
    ag_add(s, (ag_spec){.test = stencil_threads, .points = 1});
    ag_add(s, (ag_spec){.test = plan_lecture_numbers, .points = 2});
    ag_add(s, (ag_spec){AG_LAUNCHES(e2e_three_ranks), .points = 3, .timeout = 150});
    ag_add(s, (ag_spec){AG_LAUNCHES(e2e_four_ranks), .points = 2, .timeout = 150});
    ag_add(s, (ag_spec){AG_LAUNCHES(e2e_five_ranks), .points = 3, .timeout = 150});
    ag_add(s, (ag_spec){AG_LAUNCHES(halo_exchange), .points = 2, .timeout = 150});
    ag_add(s, (ag_spec){AG_LAUNCHES(overlap_order), .points = 2, .timeout = 150});
    ag_add(s, (ag_spec){.test = bad_configurations, .points = 1, .timeout = 120});
    ag_add(s, (ag_spec){AG_ROW(region_delta, gpu_delta), .points = 2, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){AG_ROW(region_composition, gpu_composition), .points = 2, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){AG_LAUNCHES(gpu_e2e), .points = 3, .gpus = 1, .timeout = 400});
    ag_add(s, (ag_spec){AG_LAUNCHES(gpu_two_gpus), .points = 1, .gpus = 2, .timeout = 200});
    ag_add(s, (ag_spec){AG_SANITIZED(gpu_memcheck), .points = 1});
    ag_add(s, (ag_spec){AG_SANITIZED(gpu_racecheck), .points = 1});
}

int main(int argc, char **argv)
{
    return ag_main(argc, argv, register_tests);
}
