/* Lab 4, stage 1: Jacobi with OpenMP target offload (reference solution).
 *
 * One target data region keeps f and both grids on the device for all
 * sweeps; each sweep is one target region, and only the norm (a reduction)
 * comes back to the host after each sweep. The three loops map onto the
 * GPU's three levels as GCC's nvptx offloading defines them: teams are
 * thread blocks (one per z plane), OpenMP threads are warps (one row at a
 * time), and SIMD lanes are the 32 threads of a warp (neighbouring x points,
 * so that a warp's loads coalesce). Without the `simd` level each warp runs
 * on one lane: the collapse(3) version of this loop ran at 45 GB/s on an
 * H100, this one at 470-530 GB/s (2026-11-23, N = 512-768). Without a
 * usable GPU the regions run on the host, which is how CI tests this file. */
#include <math.h>
#include <string.h>

#include "jacobi4.h"
#include "poisson.h"
#include "timer.h"

int jacobi_offload(int N, double tol, int max_iter, const double *f, double *u, double *u_old)
{
    if (poisson_check_size(N))
        return -1;
    size_t n = poisson_points(N), sj = poisson_side(N), si = sj * sj;
    double h = poisson_h(N), h2 = h * h;
    double *src = u, *dst = u_old;
    int it = 0;
#pragma omp target data map(to : f[0:n]) map(tofrom : u[0:n], u_old[0:n])
    {
        double t0 = wall_time();
        while (it < max_iter) {
            double norm2 = 0.0;
            /* src and dst swap roles every sweep; naming them here makes
             * the region use their device copies (present: nothing moves) */
#pragma omp target teams distribute reduction(+ : norm2) map(alloc : f[0:n], src[0:n], dst[0:n])
            for (int i = 1; i <= N; i++)
#pragma omp parallel for reduction(+ : norm2)
                for (int j = 1; j <= N; j++)
#pragma omp simd reduction(+ : norm2)
                    for (int k = 1; k <= N; k++) {
                        size_t c = poisson_index(N, i, j, k);
                        double v = poisson_jacobi_point(src, c, sj, si, h2 * f[c]);
                        double d = v - src[c];
                        norm2 += d * d;
                        dst[c] = v;
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
