/* Lab 6's test helpers: the checks of stage 1 and 2 that several tests
 * share, and the CUDA facts the GPU tests compare with. */
#ifndef LAB6_CHECKS_H
#define LAB6_CHECKS_H

#include <stddef.h>

#include "halo.h"
#include "lab6_table.h"

/* halo_partners under p for every rank of size ranks and every block:
 * returns 0, partners inside [0, size), and symmetry (the rank I send to
 * receives from me, the rank I receive from sends to me). */
void l6_check_partner_symmetry(halo_pattern p, int size);

/* Thread tid of nthreads must write exactly the indices tid, tid +
 * nthreads, ... < n: packs into a NaN-filled buffer (with a guard past n)
 * with each thread's own value, threads in ascending and then descending
 * order, and demands element i = value of thread i % nthreads. */
void l6_check_strided_pack(size_t n, int nthreads);

/* Fills n doubles with value. */
void l6_fill(double *a, size_t n, double value);

/* A count a student function returned, for a message: "(size_t)-1" for
 * that value (a stub's, or -1 returned as an error), which %zu would show as
 * 18446744073709551615. Four calls' results can be used in one message. */
const char *l6_count(size_t n);

#endif
