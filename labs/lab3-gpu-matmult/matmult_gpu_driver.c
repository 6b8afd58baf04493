/* matmult_gpu: the lab 3 driver (given code, do not edit).
 *
 *   ./build/lab3/matmult_gpu TYPE m n k
 *   TYPE: lib gpu1 gpu2 gpu3 gpu4 gpu5 gpu6 gpulib
 *
 * Prints "<memory kB> <Mflop/s> <errors> # matmult_TYPE" like lab 1's
 * matmult_c (common/matmult_driver.h documents MATMULT_COMPARE,
 * MFLOPS_MIN_T, MFLOPS_MAX_IT and MATMULT_RESULTS). The GPU types are timed
 * as the student's functions run: with the copies to and from the device
 * inside every call. Also:
 *   MATMULT_SPLIT=[0]|1|2  then print a "# split" line: the copies and the
 *                        product on device arrays (matmult_TYPE_dev) timed
 *                        apart; 2 adds the same copies through page-locked
 *                        host memory
 *   MATMULT_WARMUP=[1]   untimed calls before timing (1 for the GPU types:
 *                        the first pays for the CUDA context, the device
 *                        memory and the host's page faults)
 * lib is OpenBLAS DGEMM on all the host's cores (OPENBLAS_NUM_THREADS sets
 * how many), the comparison the seed made. A GPU type on a machine without
 * a GPU stops with a message and status 1. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "cli.h"
#include "gpu.h"
#include "matmult_driver.h"
#include "matmult_gpu.h"
#include "time_split.h"

static void matmult_lib(int m, int n, int k, const double *A, const double *B, double *C)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, A, k, B, n, 0.0, C, n);
}

static const matmult_variant variants[] = {
    {"lib", matmult_lib, 0},   {"gpu1", matmult_gpu1, 0}, {"gpu2", matmult_gpu2, 0},     {"gpu3", matmult_gpu3, 0},
    {"gpu4", matmult_gpu4, 0}, {"gpu5", matmult_gpu5, 0}, {"gpu6", matmult_gpu6, 0},     {"gpulib", matmult_gpulib, 0},
};

static const struct {
    const char *name;
    matmult_fn dev;
} device_versions[] = {
    {"gpu1", matmult_gpu1_dev}, {"gpu2", matmult_gpu2_dev}, {"gpu3", matmult_gpu3_dev},     {"gpu4", matmult_gpu4_dev},
    {"gpu5", matmult_gpu5_dev}, {"gpu6", matmult_gpu6_dev}, {"gpulib", matmult_gpulib_dev},
};

int main(int argc, char **argv)
{
    const int count = (int)(sizeof variants / sizeof variants[0]);
    int gpu_type = -1;
    for (int i = 0; argc > 1 && i < (int)(sizeof device_versions / sizeof device_versions[0]); i++)
        if (!strcmp(argv[1], device_versions[i].name))
            gpu_type = i;
    if (gpu_type >= 0) {
        char reason[200];
        int bad = matmult_driver_check_args(argc, argv, variants, count);
        if (bad)
            return bad;
        if (gpu_count_reason(reason, (int)sizeof reason) == 0) {
            fprintf(stderr, "error: matmult_%s runs on an NVIDIA GPU, and this machine has none usable (%s)\n",
                    argv[1], reason);
            return 1;
        }
        /* One untimed call first, at the size asked for: it creates the CUDA
         * context, loads the kernels, makes the cuBLAS handle, grows the
         * device memory pool and faults in the pages of C, none of which
         * the timing should see. MATMULT_WARMUP=0 shows what they cost. */
        if (setenv("MATMULT_WARMUP", "1", 0) != 0) {
            perror("setenv");
            return 1;
        }
    }
    int rc = matmult_driver_main(argc, argv, variants, count);
    int split;
    if (rc != 0 || gpu_type < 0 || cli_env_int("MATMULT_SPLIT", 0, 0, 2, &split) || !split)
        return rc;
    int m, n, k; /* already checked by matmult_driver_main */
    if (cli_parse_int(argv[2], "m", 1, 1 << 20, &m) || cli_parse_int(argv[3], "n", 1, 1 << 20, &n) ||
        cli_parse_int(argv[4], "k", 1, 1 << 20, &k))
        return 2;
    time_split_report(device_versions[gpu_type].name, device_versions[gpu_type].dev, m, n, k, split == 2);
    return 0;
}
