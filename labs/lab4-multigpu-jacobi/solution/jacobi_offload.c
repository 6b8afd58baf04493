/* Lab 4, stage 1: Jacobi with OpenMP target offload (reference solution).
 *
 * One target data region keeps both grids on the device for all sweeps.
 * Each sweep is one target region: a team per plane i (teams distribute),
 * and the team's threads over that plane's N^2 points (parallel for), one
 * flat loop over jk = (j-1) N + (k-1) so that consecutive threads take
 * consecutive k (schedule(static, 1)) and a warp's loads cover whole cache
 * lines. Why a team per plane, and not one collapse(3) loop over i, j, k
 * (which is right too, and simpler): clang-16 hands each team of the
 * collapsed loop one point per thread at a time, and LLVM's device runtime
 * opens and closes a parallel region (with barriers of the whole team) for
 * every such chunk, so per point; its few thousand teams also stride over
 * the whole grid, and neighbouring planes come from memory twice. A team per
 * plane opens one region per N^2 points, and neighbouring teams sweep
 * neighbouring planes at the same pace, so each plane comes from memory
 * once. With clang-16: 1602 against 955 GB/s at
 * N = 512, 1635 against 935 at N = 1024 (lab README, Measured figures).
 * 1024 threads a team (the most a block may have): 2-5% faster than 512.
 * Two more choices move fewer bytes and do less work per sweep:
 *   - the radiator is decided with poisson_h2f's integer test, so f is never
 *     read: 16 bytes per point instead of 24, and f is not even mapped;
 *   - the norm is computed only when tol > 0 decides something: with
 *     tol = 0 (a fixed number of sweeps) no reduction is asked for.
 * Built with clang-16's offloading (lab.mk: OFFLOAD=clang, the default where
 * it is installed). Without a usable GPU the regions run on the host, which
 * is how CI tests this file. */
#include <math.h>
#include <string.h>

#include "jacobi.h"
#include "poisson.h"
#include "timer.h"

int jacobi_offload(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    (void)f; /* h^2 f comes from the integer radiator test on the device */
    if (poisson_check_size(N))
        return -1;
    size_t n = poisson_points(N), sj = poisson_side(N), si = sj * sj;
    int plane = N * N; /* interior points of a plane: fits an int (N <= POISSON_MAX_N) */
    double *src = u, *dst = u_old;
    int it = 0;
#pragma omp target data map(tofrom : u[0:n], u_old[0:n])
    {
        double t0 = wall_time();
        while (it < max_iter) {
            double norm2 = 0.0;
            /* src and dst swap roles every sweep; naming them here makes
             * the region use their device copies (present: nothing moves) */
            if (tol > 0) {
#pragma omp target teams distribute thread_limit(1024) reduction(+ : norm2) map(alloc : src[0:n], dst[0:n])
                for (int i = 1; i <= N; i++) {
#pragma omp parallel for schedule(static, 1) reduction(+ : norm2)
                    for (int jk = 0; jk < plane; jk++) {
                        int j = jk / N + 1, k = jk % N + 1;
                        size_t c = poisson_index(N, i, j, k);
                        double v = poisson_jacobi_point(src, c, sj, si, poisson_h2f(N, i, j, k));
                        double d = v - src[c];
                        norm2 += d * d;
                        dst[c] = v;
                    }
                }
            } else { /* tol = 0: a fixed number of sweeps, no norm needed */
#pragma omp target teams distribute thread_limit(1024) map(alloc : src[0:n], dst[0:n])
                for (int i = 1; i <= N; i++) {
#pragma omp parallel for schedule(static, 1)
                    for (int jk = 0; jk < plane; jk++) {
                        int j = jk / N + 1, k = jk % N + 1;
                        size_t c = poisson_index(N, i, j, k);
                        dst[c] = poisson_jacobi_point(src, c, sj, si, poisson_h2f(N, i, j, k));
                    }
                }
            }
            double *t = src;
            src = dst;
            dst = t;
            it++;
            if (tol > 0 && sqrt(norm2) <= tol)
                break;
        }
        lab4_record_sweep_seconds(wall_time() - t0);
    }
    if (src != u) /* an odd number of sweeps: the answer is in u_old */
        memcpy(u, src, n * sizeof *u);
    return it;
}
