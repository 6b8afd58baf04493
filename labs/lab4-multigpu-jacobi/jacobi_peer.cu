/* Lab 4, stage 3: Jacobi on two GPUs of one host, the cube split along z.
 *
 * devices[0] takes the lower planes and devices[1] the upper ones, as
 * decomp_split(N, 2, p) says; each keeps its planes plus one halo plane
 * towards the other (common/decomp.h draws the layout). After every sweep
 * each device's edge plane must reach the other's halo plane device to
 * device (cudaMemcpyPeerAsync, or a kernel that writes the peer's memory),
 * never through the host. The devices may be the same one: the tests run
 * both halves on GPU 0 on a 1-GPU host. */
#include <math.h>

#include "cuda_check.h"
#include "decomp.h"
#include "jacobi.h"
#include "poisson.h"
#include "timer.h"

extern "C" int jacobi_peer(int N, double tol, int max_iter, const double *f, double *u, double *u_old,
                           const int devices[2])
{
    /* TODO 1: check N (poisson_check_size, decomp_check(N, 2)) and the two
     *         device numbers; where the devices differ, enable peer access
     *         both ways if cudaDeviceCanAccessPeer says it is possible.
     * TODO 2: per device: cudaSetDevice, allocate two local grids of
     *         decomp_local_size(N, part) doubles, copy its planes (with the
     *         plane below and above) from u into both.
     * TODO 3: per sweep and device: update the plane the other device
     *         needs first (jacobi_gpu3_slab), copy it into the other's halo
     *         plane, update the rest; then wait for both devices, swap,
     *         and test the norm (the sum of both halves' squared norms).
     * TODO 4: copy each device's own planes back into u, free, and record
     *         the time of the sweeps with lab4_record_sweep_seconds(). */
    (void)N, (void)tol, (void)max_iter, (void)f, (void)u, (void)u_old, (void)devices;
    fprintf(stderr, "jacobi_peer: not implemented yet\n");
    return -1;
}
