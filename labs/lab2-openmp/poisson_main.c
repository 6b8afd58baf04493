/* poisson: the lab 2 driver (given code, do not edit).
 *
 *   ./build/lab2/poisson METHOD N max_iter tol T0 [none|binary|vtk|png [file]]
 *   METHOD: jacobi gs omp_v1 omp_v2 omp_v3 gs_omp
 *
 * Prints "N sweeps seconds Mflop/s GB/s GLUP/s total_seconds residual
 * # poisson_METHOD"; common/poisson_driver.h explains each figure. The
 * threads are OpenMP's: OMP_NUM_THREADS=4 ./build/lab2/poisson omp_v2 ... */
#include "poisson.h"
#include "poisson_driver.h"
#include "poisson_omp.h"

/* Bytes counted per point and sweep: u_old (or u) and f read, u written,
 * 8 bytes each. Caches hold the neighbours, so each array crosses the memory
 * bus about once per sweep; the write-allocate read of u is not counted
 * (as in STREAM, which the benchmark compares with). */
#define BYTES 24.0

static const poisson_method methods[] = {
    {.name = "jacobi", .jacobi = jacobi, .bytes_per_point = BYTES, .about = "sequential Jacobi"},
    {.name = "gs", .gauss_seidel = gauss_seidel, .bytes_per_point = BYTES, .about = "sequential Gauss-Seidel"},
    {.name = "omp_v1", .jacobi = jacobi_omp_v1, .bytes_per_point = BYTES,
     .about = "OpenMP Jacobi, a parallel region per sweep"},
    {.name = "omp_v2", .jacobi = jacobi_omp_v2, .bytes_per_point = BYTES,
     .about = "OpenMP Jacobi, one parallel region around the sweeps"},
    {.name = "omp_v3", .jacobi = jacobi_omp_v2, .init = poisson_init_omp, .bytes_per_point = BYTES,
     .about = "omp_v2 after a parallel (first-touch) set-up"},
    {.name = "gs_omp", .gauss_seidel = gauss_seidel_omp, .bytes_per_point = BYTES,
     .about = "OpenMP Gauss-Seidel, a wavefront (doacross)"},
};

int main(int argc, char **argv)
{
    return poisson_driver_main(argc, argv, methods, (int)(sizeof methods / sizeof methods[0]));
}
