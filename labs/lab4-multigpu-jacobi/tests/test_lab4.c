/* Lab 4 (multigpu-jacobi): the visible tests. Run them with
 * `make lab4 && make check`.
 *
 * Every CUDA stage is compared with the kit's CPU reference bit for bit: the
 * kit fixes the order of each point's additions (poisson_jacobi_point), and
 * the lab builds the C side with -ffp-contract=off and the CUDA side with
 * -fmad=false. Two things use a tolerance. The offload stage's grid, within
 * 1e-12: GCC's nvptx code lets the PTX compiler fuse h^2 f + sum into an FMA
 * (lab4_checks.h says more). And the sweep at which a run to tolerance
 * stops: a GPU sums the norm in another order, and the GPU stages read it
 * one sweep late, so the count may differ from the CPU's by one; the grid
 * must still be the CPU's after the sweeps counted.
 *
 * Tests that need GPUs are skipped (never passed) where there are fewer;
 * the offload stage runs on the host where no GPU offloading exists, and
 * the kit's z-split and gather are tested with MPI ranks on the CPU. */
#include "autograder.h"
#include "cuda/compute_sanitizer.h"
#include "jacobi.h"
#include "lab4_checks.h"

static void all_sizes(const char *name, l4_solver solver, double close)
{
    for (int s = 0; s < 5; s++)
        l4_check_sweeps(name, solver, l4_sizes[s], 0.0, l4_sweeps, 5, close);
}

/* The tolerance used by the tolerance tests: N = 30 stops after a few
 * hundred sweeps. */
#define L4_TOL 1e-3

START_TEST(offload_sweeps)
{
    all_sizes("jacobi_offload", jacobi_offload, L4_OFFLOAD);
    l4_check_sweeps("jacobi_offload", jacobi_offload, 30, 10.0, l4_sweeps, 4, L4_OFFLOAD);
    l4_check_fresh("jacobi_offload", jacobi_offload, 30, 10, L4_OFFLOAD);
}
END_TEST

START_TEST(offload_tolerance) { l4_check_tolerance("jacobi_offload", jacobi_offload, 30, L4_TOL, L4_OFFLOAD); }
END_TEST

/* gpu1 is one thread: small sizes only. */
START_TEST(gpu1_sweeps)
{
    static const int few[] = {0, 1, 2};
    l4_check_sweeps("jacobi_gpu1", jacobi_gpu1, 8, 0.0, l4_sweeps, 5, L4_EXACT);
    l4_check_sweeps("jacobi_gpu1", jacobi_gpu1, 30, 0.0, l4_sweeps, 4, L4_EXACT);
    l4_check_sweeps("jacobi_gpu1", jacobi_gpu1, 47, 0.0, few, 3, L4_EXACT);
    l4_check_fresh("jacobi_gpu1", jacobi_gpu1, 8, 10, L4_EXACT);
}
END_TEST

START_TEST(gpu2_sweeps)
{
    all_sizes("jacobi_gpu2", jacobi_gpu2, L4_EXACT);
    l4_check_fresh("jacobi_gpu2", jacobi_gpu2, 30, 10, L4_EXACT);
}
END_TEST

/* N = 257 is past the size where the reference's gpu3 changes kernels, and
 * a multiple of no tile edge: 2 x 128 + 1 columns, 32 x 8 + 1 rows, 4 x 64
 * + 1 planes. */
#define L4_WIDE 257

START_TEST(gpu3_sweeps)
{
    all_sizes("jacobi_gpu3", jacobi_gpu3, L4_EXACT);
    l4_check_sweeps("jacobi_gpu3", jacobi_gpu3, 30, 10.0, l4_sweeps, 4, L4_EXACT);
    l4_check_sweeps("jacobi_gpu3", jacobi_gpu3, L4_WIDE, 10.0, l4_sweeps, 4, L4_EXACT);
    l4_check_fresh("jacobi_gpu3", jacobi_gpu3, 47, 10, L4_EXACT);
}
END_TEST

START_TEST(gpu_tolerance)
{
    l4_check_tolerance("jacobi_gpu1", jacobi_gpu1, 8, L4_TOL, L4_EXACT);
    l4_check_tolerance("jacobi_gpu2", jacobi_gpu2, 30, L4_TOL, L4_EXACT);
    l4_check_tolerance("jacobi_gpu3", jacobi_gpu3, 30, L4_TOL, L4_EXACT);
    l4_check_tolerance("jacobi_gpu3", jacobi_gpu3, 47, L4_TOL, L4_EXACT);
    /* 64 blocks adding to the norm at once: where a lost update shows */
    l4_check_tolerance("jacobi_gpu3", jacobi_gpu3, 60, 0.3, L4_EXACT);
    /* ~16 sweeps, every block of a wide grid adding to the norm */
    l4_check_tolerance("jacobi_gpu3", jacobi_gpu3, L4_WIDE, 300.0, L4_EXACT);
}
END_TEST

/* (N+2)^3 doubles take more than 2^31 bytes from N = 643 on: a byte count
 * or an index product in int breaks here (the seed's "out of memory"). */
START_TEST(gpu3_large_n)
{
    static const int three[] = {0, 3};
    l4_check_sweeps("jacobi_gpu3", jacobi_gpu3, 700, 0.0, three, 2, L4_EXACT);
}
END_TEST

static int peer_one_gpu(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    static const int same[2] = {0, 0};
    return jacobi_peer(N, tol, max_iter, f, u, u_old, same);
}

static int peer_two_gpus(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    static const int two[2] = {0, 1};
    return jacobi_peer(N, tol, max_iter, f, u, u_old, two);
}

/* Both halves on GPU 0: the split and the halo logic, on a 1-GPU host. */
START_TEST(peer_halves_on_one_gpu)
{
    all_sizes("jacobi_peer on GPUs {0,0}", peer_one_gpu, L4_EXACT);
    static const int some[] = {0, 1, 2, 10};
    l4_check_sweeps("jacobi_peer on GPUs {0,0}", peer_one_gpu, 2, 0.0, some, 4, L4_EXACT);
    l4_check_sweeps("jacobi_peer on GPUs {0,0}", peer_one_gpu, 3, 0.0, some, 4, L4_EXACT);
    l4_check_tolerance("jacobi_peer on GPUs {0,0}", peer_one_gpu, 30, L4_TOL, L4_EXACT);
    l4_check_sweeps("jacobi_peer on GPUs {0,0}", peer_one_gpu, L4_WIDE, 0.0, some, 4, L4_EXACT);
}
END_TEST

START_TEST(peer_two_gpus_test)
{
    all_sizes("jacobi_peer on GPUs {0,1}", peer_two_gpus, L4_EXACT);
    l4_check_sweeps("jacobi_peer on GPUs {0,1}", peer_two_gpus, L4_WIDE, 0.0, l4_sweeps, 4, L4_EXACT);
    l4_check_tolerance("jacobi_peer on GPUs {0,1}", peer_two_gpus, 30, L4_TOL, L4_EXACT);
}
END_TEST

/* The CUDA toolkit's checkers (autograder/cuda/compute_sanitizer.h), on
 * sizes that are multiples of no block edge: N = 13 and 37 (partial
 * blocks of 8^3 and of 32 x 4 columns), and N = L4_WIDE for gpu3 alone,
 * where the reference's gpu3 streams planes through a shared-memory ring
 * (gpu1's one thread would take minutes there). The tolerances stop the
 * runs after 2 to 6 sweeps (the update's norm is 42.7 after sweep 4 and
 * 36.0 after 5 at N = 13; 100.6 and 87.7 after 5 and 6 at N = 37; 1927 and
 * 1321 after 1 and 2 at N = 257), so that the norm's block reduction runs
 * too, in few sweeps under the tools. */
static void tolerance_runs(void)
{
    l4_check_tolerance("jacobi_gpu1", jacobi_gpu1, 13, 40.0, L4_EXACT);
    l4_check_tolerance("jacobi_gpu2", jacobi_gpu2, 13, 40.0, L4_EXACT);
    l4_check_tolerance("jacobi_gpu3", jacobi_gpu3, 37, 95.0, L4_EXACT);
    l4_check_tolerance("jacobi_gpu3", jacobi_gpu3, L4_WIDE, 1500.0, L4_EXACT);
}

/* Memcheck: every stage that runs in this process, the peer halves on GPU
 * 0 too. Racecheck and synccheck: the tolerance runs, whose kernels share
 * memory within a block (the norm's block reduction; the reference's ring
 * of planes). */
static void stages_small_case(void)
{
    static const int few[] = {0, 1, 2};
    l4_check_sweeps("jacobi_gpu1", jacobi_gpu1, 13, 0.0, few, 3, L4_EXACT);
    l4_check_sweeps("jacobi_gpu2", jacobi_gpu2, 13, 0.0, few, 3, L4_EXACT);
    l4_check_sweeps("jacobi_gpu3", jacobi_gpu3, 37, 0.0, few, 3, L4_EXACT);
    l4_check_sweeps("jacobi_gpu3", jacobi_gpu3, L4_WIDE, 0.0, few, 3, L4_EXACT);
    l4_check_sweeps("jacobi_peer on GPUs {0,0}", peer_one_gpu, 37, 0.0, few, 3, L4_EXACT);
    l4_check_tolerance("jacobi_peer on GPUs {0,0}", peer_one_gpu, 37, 95.0, L4_EXACT);
    tolerance_runs();
}

static const ag_sanitized_case gpu_memcheck = {"gpu_memcheck", "memcheck", stages_small_case};
static const ag_sanitized_case gpu_racecheck = {"gpu_racecheck", "racecheck synccheck", tolerance_runs};

/* The kit's split and gather with a CPU sweep and MPI halos: what the NCCL
 * stage is built on (uneven splits, one plane per rank). It runs the kit's
 * code only, so it is worth no points (every point needs the student's
 * work): it is here so that a broken MPI installation or kit shows as
 * such, before the NCCL tests fail for that reason. */
static const ag_launch mpi_split_and_gather_on_cpu[] = {
    {"lab4_mpi_check", 1, "cpu 8 0 1 10", 60},
    {"lab4_mpi_check", 2, "cpu 2 0 1 2 10", 60},
    {"lab4_mpi_check", 2, "cpu 31 0 1 2 10", 60},
    {"lab4_mpi_check", 3, "cpu 30 0 1 2 10", 60},
    {"lab4_mpi_check", 4, "cpu 4 1 2 10", 60},
    {"lab4_mpi_check", 4, "cpu 30 0 1 2 10", 60},
    {NULL},
};

static const ag_launch nccl_one_rank[] = {
    {"lab4_mpi_check", 1, "nccl 8 0 1 2 10 100", 120},
    {"lab4_mpi_check", 1, "nccl 130 0 1 2 10 100", 120},
    {"lab4_mpi_check", 1, "nccl 257 1 2 10", 120},
    {"lab4_mpi_check", 1, "nccl-tol 30 1e-3", 60},
    {NULL},
};

static const ag_launch nccl_two_ranks[] = {
    {"lab4_mpi_check", 2, "nccl 8 0 1 2 10 100", 120},
    {"lab4_mpi_check", 2, "nccl 47 0 1 2 10 100", 120},
    {"lab4_mpi_check", 2, "nccl 3 1 2 10", 120},
    {"lab4_mpi_check", 2, "nccl 130 0 1 2 10 100", 120},
    {"lab4_mpi_check", 2, "nccl 257 1 2 10", 120},
    {"lab4_mpi_check", 2, "nccl-tol 30 1e-3", 60},
    {NULL},
};

static const ag_launch nccl_three_and_four_ranks[] = {
    {"lab4_mpi_check", 3, "nccl 100 0 1 2 10 100", 120},
    {"lab4_mpi_check", 4, "nccl 4 1 2 10", 120},
    {"lab4_mpi_check", 4, "nccl 30 0 1 2 10 100", 120},
    {"lab4_mpi_check", 4, "nccl 130 0 1 2 10 100", 120},
    {"lab4_mpi_check", 4, "nccl-tol 30 1e-3", 60},
    {NULL},
};

static void register_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = offload_sweeps, .points = 3, .timeout = 120, .runs_here = l4_offload_reaches_the_gpu});
    ag_add(s, (ag_spec){.test = offload_tolerance, .points = 1, .timeout = 60, .runs_here = l4_offload_reaches_the_gpu});
    ag_add(s, (ag_spec){AG_LAUNCHES(mpi_split_and_gather_on_cpu), .points = 0, .timeout = 120});
    ag_add(s, (ag_spec){.test = gpu1_sweeps, .points = 1, .gpus = 1, .timeout = 120});
    ag_add(s, (ag_spec){.test = gpu2_sweeps, .points = 2, .gpus = 1, .timeout = 120});
    ag_add(s, (ag_spec){.test = gpu3_sweeps, .points = 3, .gpus = 1, .timeout = 120});
    ag_add(s, (ag_spec){.test = gpu_tolerance, .points = 2, .gpus = 1, .timeout = 120});
    ag_add(s, (ag_spec){.test = gpu3_large_n, .points = 2, .gpus = 1, .timeout = 300});
    ag_add(s, (ag_spec){.test = peer_halves_on_one_gpu, .points = 3, .gpus = 1, .timeout = 120});
    ag_add(s, (ag_spec){.test = peer_two_gpus_test, .points = 2, .gpus = 2, .timeout = 120});
    ag_add(s, (ag_spec){AG_LAUNCHES(nccl_one_rank), .points = 1, .gpus = 1, .timeout = 400});
    ag_add(s, (ag_spec){AG_LAUNCHES(nccl_two_ranks), .points = 3, .gpus = 2, .timeout = 600});
    ag_add(s, (ag_spec){AG_LAUNCHES(nccl_three_and_four_ranks), .points = 3, .gpus = 4, .timeout = 600});
    ag_add(s, (ag_spec){AG_SANITIZED(gpu_memcheck), .points = 1});
    ag_add(s, (ag_spec){AG_SANITIZED(gpu_racecheck), .points = 1});
}

int main(int argc, char **argv)
{
    return ag_main(argc, argv, register_tests);
}
