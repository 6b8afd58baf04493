/* Lab 4's poisson driver: lab 2's driver (common/poisson_driver.h) with the
 * GPU methods.
 *
 *   poisson METHOD N max_iter tol T0 [output [file]]
 *   mpirun -np P poisson nccl N max_iter tol T0 [output [file]]
 *
 * seconds are the sweeps alone (as the solver reports them), total_seconds
 * the whole call with allocation and copies; GB/s counts 16 bytes per point
 * (read u once, write it once: what a kernel that never reads f must move)
 * and the 24-byte figure of the seed, which adds f, goes to stderr.
 * PEER_DEVICES="a b" picks the peer stage's two GPUs (default "0 1"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpu.h"
#include "jacobi.h"
#include "poisson.h"
#include "poisson_driver.h"

static nccl_world world;

static int need_gpus(const char *method, int n)
{
    int have = gpu_count();
    if (have >= n)
        return 1;
    char why[256] = "";
    gpu_count_reason(why, sizeof why);
    fprintf(stderr, "error: method %s needs %d GPU(s); this machine has %d (%s)\n", method, n, have, why);
    exit(2);
}

static int gpu1(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    need_gpus("gpu1", 1);
    return jacobi_gpu1(N, tol, max_iter, f, u, u_old);
}

static int gpu2(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    need_gpus("gpu2", 1);
    return jacobi_gpu2(N, tol, max_iter, f, u, u_old);
}

static int gpu3(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    need_gpus("gpu3", 1);
    return jacobi_gpu3(N, tol, max_iter, f, u, u_old);
}

static int peer(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    int devices[2] = {0, 1};
    const char *env = getenv("PEER_DEVICES");
    if (env && *env && sscanf(env, "%d %d", &devices[0], &devices[1]) != 2) {
        fprintf(stderr, "error: PEER_DEVICES must be two device numbers, e.g. \"0 1\", got '%s'\n", env);
        exit(2);
    }
    need_gpus("peer", (devices[0] > devices[1] ? devices[0] : devices[1]) + 1);
    return jacobi_peer(N, tol, max_iter, f, u, u_old, devices);
}

static int nccl(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    return jacobi_nccl(N, tol, max_iter, f, u, u_old, &world);
}

#define GPU_METHOD(name_, fn_, about_)                                                           \
    {.name = name_, .jacobi = fn_, .bytes_per_point = 16, .bytes_per_point_alt = 24,              \
     .sweep_seconds = lab4_sweep_seconds, .about = about_}

static const poisson_method methods[] = {
    GPU_METHOD("offload", jacobi_offload, "OpenMP target offload (on the host where no GPU offloading works)"),
    GPU_METHOD("gpu1", gpu1, "one CUDA thread does the whole sweep (small N only)"),
    GPU_METHOD("gpu2", gpu2, "one CUDA thread per point, f read from the GPU"),
    GPU_METHOD("gpu3", gpu3, "the optimised kernel: coalesced, no f, norm reduced on the GPU"),
    GPU_METHOD("peer", peer, "2 GPUs, split along z, halos over peer access (PEER_DEVICES)"),
    GPU_METHOD("nccl", nccl, "P GPUs: mpirun -np P poisson nccl ..., halos by NCCL"),
};

int main(int argc, char **argv)
{
    int count = (int)(sizeof methods / sizeof methods[0]);
    if (argc > 1 && !strcmp(argv[1], "nccl")) {
        int rc = nccl_world_init(&argc, &argv, &world);
        if (rc)
            return rc;
        if (world.rank != 0) {
            /* one report, one output file: rank 0's */
            if (!freopen("/dev/null", "w", stdout))
                perror("freopen");
            argc = argc > 6 ? 6 : argc;
        }
        rc = poisson_driver_main(argc, argv, methods, count);
        nccl_world_finalize(&world);
        return rc;
    }
    return poisson_driver_main(argc, argv, methods, count);
}
