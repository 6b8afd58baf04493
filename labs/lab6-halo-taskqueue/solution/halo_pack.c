/* Lab 6, stage 2: the CPU reference of pack and unpack (reference). */
#include "halo.h"

void halo_pack_thread(double *send_buf, size_t n, double value, int tid, int nthreads)
{
    for (size_t i = (size_t)tid; i < n; i += (size_t)nthreads)
        send_buf[i] = value;
}

size_t halo_sample_index(size_t n, int tid, int nthreads)
{
    /* n / nthreads * tid < n for tid < nthreads; 0 for every thread when
     * n < nthreads (the thesis's blocks of 1 double). */
    return n / (size_t)nthreads * (size_t)tid;
}

size_t halo_unpack_check(const double *recv_buf, size_t n, double expected, int nthreads, int full)
{
    size_t wrong = 0;
    if (full) {
        for (size_t i = 0; i < n; i++)
            wrong += !(recv_buf[i] == expected); /* NaN counts as wrong */
    } else {
        for (int t = 0; t < nthreads; t++)
            wrong += !(recv_buf[halo_sample_index(n, t, nthreads)] == expected);
    }
    return wrong;
}
