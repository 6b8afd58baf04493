/* Lab 2 reference: Jacobi and Gauss-Seidel, sequential and with OpenMP.
 * poisson_omp.h states the contract; common/poisson.h the problem. */
#include <math.h>
#include <string.h>

#include <omp.h>

#include "poisson.h"
#include "poisson_omp.h"

/* Rows of j per block: three planes' worth of a block (the -z, own and +z
 * neighbours) must stay in the L2 cache while the block moves up through
 * the planes, so that u_old comes from memory once per sweep. */
#define JACOBI_ROWS_PER_BLOCK 64

/* Jacobi on planes i0 .. i1-1: src -> dst; returns the sum of the squared
 * updates. Blocks of rows go up through the planes (see above). The k loop
 * is a simd loop so that the norm's sum may be split into vector lanes (the
 * updates themselves do not depend on that order, so u stays bit for bit
 * the kit's). */
static double jacobi_planes(int N, int i0, int i1, const double *restrict f, const double *restrict src,
                            double *restrict dst)
{
    size_t sj = poisson_side(N), si = sj * sj;
    double h = poisson_h(N), h2 = h * h, norm2 = 0.0;
    for (int j0 = 1; j0 <= N; j0 += JACOBI_ROWS_PER_BLOCK) {
        int j1 = j0 + JACOBI_ROWS_PER_BLOCK - 1 < N ? j0 + JACOBI_ROWS_PER_BLOCK - 1 : N;
        for (int i = i0; i < i1; i++)
            for (int j = j0; j <= j1; j++) {
                size_t row = poisson_index(N, i, j, 0);
#pragma omp simd reduction(+ : norm2)
                for (int k = 1; k <= N; k++) {
                    size_t c = row + (size_t)k;
                    double v = poisson_jacobi_point(src, c, sj, si, h2 * f[c]);
                    double d = v - src[c];
                    norm2 += d * d;
                    dst[c] = v;
                }
            }
    }
    return norm2;
}

/* Gauss-Seidel on one row (i, j), in place; returns the squared updates. */
static double gauss_seidel_row(int N, int i, int j, const double *f, double *u)
{
    size_t sj = poisson_side(N), si = sj * sj, row = poisson_index(N, i, j, 0);
    double h = poisson_h(N), h2 = h * h, norm2 = 0.0;
    for (int k = 1; k <= N; k++) {
        size_t c = row + (size_t)k;
        double v = poisson_jacobi_point(u, c, sj, si, h2 * f[c]);
        double d = v - u[c];
        norm2 += d * d;
        u[c] = v;
    }
    return norm2;
}

/* The planes of the calling thread: a static split of 1..N into as many
 * contiguous chunks as there are threads, the same in every sweep and in
 * poisson_init_omp, so each thread sweeps the pages it touched first. */
static double jacobi_my_planes(int N, const double *f, const double *src, double *dst)
{
    int t = omp_get_thread_num(), T = omp_get_num_threads();
    int i0 = 1 + (int)((long)N * t / T), i1 = 1 + (int)((long)N * (t + 1) / T);
    return jacobi_planes(N, i0, i1, f, src, dst);
}

static int bad_arguments(int N, int max_iter)
{
    return N < 1 || max_iter < 0;
}

int jacobi(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    if (bad_arguments(N, max_iter))
        return -1;
    double *src = u, *dst = u_old;
    int it = 0;
    while (it < max_iter) {
        double norm2 = jacobi_planes(N, 1, N + 1, f, src, dst);
        double *t = src;
        src = dst;
        dst = t;
        it++;
        if (sqrt(norm2) <= tol)
            break;
    }
    if (src != u) /* an odd number of sweeps: the newest iterate is in u_old */
        memcpy(u, src, poisson_points(N) * sizeof *u);
    return it;
}

int gauss_seidel(int N, double tol, int max_iter, const double *f, double *u)
{
    if (bad_arguments(N, max_iter))
        return -1;
    int it = 0;
    while (it < max_iter) {
        double norm2 = 0.0;
        for (int i = 1; i <= N; i++)
            for (int j = 1; j <= N; j++)
                norm2 += gauss_seidel_row(N, i, j, f, u);
        it++;
        if (sqrt(norm2) <= tol)
            break;
    }
    return it;
}

int jacobi_omp_v1(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    if (bad_arguments(N, max_iter))
        return -1;
    double *src = u, *dst = u_old;
    int it = 0;
    while (it < max_iter) {
        double norm2 = 0.0;
        /* The threads are forked and joined again in every sweep. */
#pragma omp parallel reduction(+ : norm2)
        norm2 += jacobi_my_planes(N, f, src, dst);
        double *t = src;
        src = dst;
        dst = t;
        it++;
        if (sqrt(norm2) <= tol)
            break;
    }
    if (src != u) {
        size_t n = poisson_points(N);
#pragma omp parallel for schedule(static)
        for (size_t c = 0; c < n; c++)
            u[c] = src[c];
    }
    return it;
}

int jacobi_omp_v2(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    if (bad_arguments(N, max_iter))
        return -1;
    double *src = u, *dst = u_old, norm2 = 0.0;
    int it = 0, done = max_iter == 0;
#pragma omp parallel
    {
        while (!done) {
            /* One chunk of planes per thread (a static for over the
             * threads); the reduction into the shared norm2 is complete at
             * the loop's closing barrier ... */
            int T = omp_get_num_threads();
#pragma omp for schedule(static, 1) reduction(+ : norm2)
            for (int t = 0; t < T; t++)
                norm2 += jacobi_my_planes(N, f, src, dst);
            /* ... so one thread may decide, and reset norm2 for the next
             * sweep; the barrier after single publishes done, src and dst
             * to all before anyone reads them again. */
#pragma omp single
            {
                double *t = src;
                src = dst;
                dst = t;
                it++;
                done = it >= max_iter || sqrt(norm2) <= tol;
                norm2 = 0.0;
            }
        }
        if (src != u) {
            size_t n = poisson_points(N);
#pragma omp for schedule(static)
            for (size_t c = 0; c < n; c++)
                u[c] = src[c];
        }
    }
    return it;
}

void poisson_init_omp(int N, double T0, double *f, double *u, double *u_old)
{
    if (N < 1)
        return;
    int last = N + 1;
    /* The planes of each thread as in jacobi_my_planes (the boundary
     * planes 0 and N+1 go to the first and last thread), so that each
     * thread first touches the pages it will sweep. */
#pragma omp parallel
    {
        int t = omp_get_thread_num(), T = omp_get_num_threads();
        int i0 = t == 0 ? 0 : 1 + (int)((long)N * t / T), i1 = t == T - 1 ? last + 1 : 1 + (int)((long)N * (t + 1) / T);
        for (int i = i0; i < i1; i++)
        for (int j = 0; j <= last; j++)
            for (int k = 0; k <= last; k++) {
                size_t c = poisson_index(N, i, j, k);
                int interior = i > 0 && i < last && j > 0 && j < last && k > 0 && k < last;
                double v = interior ? T0 : poisson_boundary_value(N, i, j, k);
                u[c] = v;
                u_old[c] = v;
                f[c] = interior && poisson_in_radiator(N, i, j, k) ? POISSON_RADIATOR : 0.0;
            }
    }
}

int gauss_seidel_omp(int N, double tol, int max_iter, const double *f, double *u)
{
    if (bad_arguments(N, max_iter))
        return -1;
    double norm2 = 0.0;
    int it = 0, done = max_iter == 0;
#pragma omp parallel
    {
        while (!done) {
            /* A wavefront: planes go round-robin to the threads (static,1),
             * and row (i, j) starts once row (i-1, j) of the plane below is
             * done, so it reads the new -z neighbours and the old +z ones,
             * exactly as the sequential sweep does, with the threads one row
             * apart. */
#pragma omp for ordered(2) schedule(static, 1) reduction(+ : norm2)
            for (int i = 1; i <= N; i++)
                for (int j = 1; j <= N; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
                    norm2 += gauss_seidel_row(N, i, j, f, u);
#pragma omp ordered depend(source)
                }
#pragma omp single
            {
                it++;
                done = it >= max_iter || sqrt(norm2) <= tol;
                norm2 = 0.0;
            }
        }
    }
    return it;
}
