/* Lab 6's test helpers (see lab6_checks.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "autograder.h"
#include "lab6_checks.h"

static const char *pattern_name(halo_pattern p)
{
    static const char *names[] = {"pair", "self", "fig26", "ring"};
    return (unsigned)p < 4 ? names[p] : "?";
}

void l6_check_partner_symmetry(halo_pattern p, int size)
{
    for (int r = 0; r < size; r++)
        for (int b = 0; b < HALO_MAX_BLOCKS; b++) {
            int to = -9, from = -9;
            int rc = halo_partners(p, b, r, size, &to, &from);
            ck_assert_msg(rc == 0, "halo_partners(%s, block %d, rank %d, size %d) returned %d, expected 0",
                          pattern_name(p), b, r, size, rc);
            ck_assert_msg(to >= 0 && to < size && from >= 0 && from < size,
                          "halo_partners(%s, block %d, rank %d, size %d): send_to %d, recv_from %d: not ranks in [0, %d)",
                          pattern_name(p), b, r, size, to, from, size);
            int to_to = -9, to_from = -9, from_to = -9, from_from = -9;
            halo_partners(p, b, to, size, &to_to, &to_from);
            halo_partners(p, b, from, size, &from_to, &from_from);
            ck_assert_msg(to_from == r,
                          "halo_partners(%s, block %d, size %d): rank %d sends to rank %d, but rank %d receives from "
                          "rank %d: the message would never be received",
                          pattern_name(p), b, size, r, to, to, to_from);
            ck_assert_msg(from_to == r,
                          "halo_partners(%s, block %d, size %d): rank %d receives from rank %d, but rank %d sends to "
                          "rank %d: the receive would wait forever",
                          pattern_name(p), b, size, r, from, from, from_to);
        }
}

void l6_fill(double *a, size_t n, double value)
{
    for (size_t i = 0; i < n; i++)
        a[i] = value;
}

const char *l6_count(size_t n)
{
    static char text[4][24];
    static int next;
    char *t = text[next++ % 4];
    if (n == (size_t)-1)
        snprintf(t, sizeof text[0], "(size_t)-1");
    else
        snprintf(t, sizeof text[0], "%zu", n);
    return t;
}

void l6_check_strided_pack(size_t n, int nthreads)
{
    size_t guard = (size_t)nthreads + 1;
    double *buf = malloc((n + guard) * sizeof *buf);
    ck_assert_msg(buf != NULL, "out of memory");
    for (int pass = 0; pass < 2; pass++) {
        ag_poison(buf, n + guard);
        for (int k = 0; k < nthreads; k++) {
            int tid = pass == 0 ? k : nthreads - 1 - k;
            halo_pack_thread(buf, n, tid + 1.0, tid, nthreads);
        }
        for (size_t i = 0; i < n + guard; i++) {
            double want = i < n ? (double)(i % (size_t)nthreads) + 1.0 : NAN;
            if (i < n && buf[i] != want) {
                double got = buf[i];
                free(buf);
                ck_abort_msg("halo_pack_thread, n=%zu, %d threads (called in %s order), element %zu: expected thread "
                             "%zu's value %g, got %g%s",
                             n, nthreads, pass ? "descending" : "ascending", i, i % (size_t)nthreads, want, got,
                             isnan(got) ? " (no thread wrote it)" : " (written by another thread)");
            }
            if (i >= n && !isnan(buf[i])) {
                free(buf);
                ck_abort_msg("halo_pack_thread, n=%zu, %d threads: element %zu, past the end of the buffer, was "
                             "written",
                             n, nthreads, i);
            }
        }
    }
    free(buf);
}
