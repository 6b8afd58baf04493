#include "decomp.h"

#include <stdio.h>
#include <string.h>

int decomp_check(int N, int P)
{
    if (P < 1) {
        fprintf(stderr, "error: the cube must be split over at least 1 part, got %d\n", P);
        return 1;
    }
    if (N < P) {
        fprintf(stderr, "error: N = %d interior planes cannot be split over %d parts: every part needs a plane\n", N, P);
        return 1;
    }
    return 0;
}

decomp_part decomp_split(int N, int P, int p)
{
    int base = N / P, extra = N % P;
    decomp_part part;
    part.count = base + (p < extra);
    /* the parts before p own base planes each, the first `extra` one more */
    part.first = 1 + p * base + (p < extra ? p : extra);
    part.below = p > 0 ? p - 1 : -1;
    part.above = p < P - 1 ? p + 1 : -1;
    return part;
}

size_t decomp_plane_size(int N)
{
    return ((size_t)N + 2) * ((size_t)N + 2);
}

size_t decomp_local_size(int N, decomp_part part)
{
    return ((size_t)part.count + 2) * decomp_plane_size(N);
}

size_t decomp_plane_offset(int N, int i)
{
    return (size_t)i * decomp_plane_size(N);
}

void decomp_scatter_part(int N, decomp_part part, const double *full, double *local)
{
    memcpy(local, full + decomp_plane_offset(N, part.first - 1), decomp_local_size(N, part) * sizeof *local);
}

void decomp_gather_part(int N, decomp_part part, const double *local, double *full)
{
    memcpy(full + decomp_plane_offset(N, part.first), local + decomp_plane_size(N),
           (size_t)part.count * decomp_plane_size(N) * sizeof *local);
}
