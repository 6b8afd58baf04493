/* Lab 6, stage 1: the configuration (reference). */
#include "halo.h"

size_t halo_default_array_size(int block)
{
    if (block < 0 || block >= HALO_MAX_BLOCKS)
        return 0;
    if (block == 0)
        return 1; /* the one eager-sized message: 8 B */
    /* Table 4.1 in rows of nine: +15000 along a row, +5000 per row. */
    return 5000 * (size_t)(block / 9) + 15000 * (size_t)(block % 9);
}

size_t halo_scaled_array_size(int block, long num, long den)
{
    size_t n = halo_default_array_size(block);
    if (n == 0 || num < 1 || den < 1)
        return 0;
    size_t scaled = n * (size_t)num / (size_t)den; /* at most 130000 * num */
    return scaled > 0 ? scaled : 1;
}

double halo_msg_value(int iteration, int rank, int block)
{
    return 1000.0 * (iteration + 1) + 100.0 * rank + block;
}

int halo_global_block_id(int bx, int by, int bz, int gx, int gy)
{
    return bx + by * gx + bz * gx * gy;
}

/* The partner in {0,1}, {2,3}, ...; the last of an odd count is alone. */
static int pair_of(int rank, int size)
{
    int other = rank ^ 1;
    return other < size ? other : rank;
}

int halo_partners(halo_pattern p, int block, int rank, int size, int *send_to, int *recv_from)
{
    if (size < 1 || rank < 0 || rank >= size || block < 0 || block >= HALO_MAX_BLOCKS)
        return -1;
    int next = (rank + 1) % size, prev = (rank - 1 + size) % size; /* never (rank - 1) % size: -1 at rank 0 */
    switch (p) {
    case HALO_PAT_PAIR:
        *send_to = *recv_from = pair_of(rank, size);
        return 0;
    case HALO_PAT_SELF:
        *send_to = *recv_from = rank;
        return 0;
    case HALO_PAT_FIG26:
        if (block == 0) {
            *send_to = *recv_from = pair_of(rank, size);
        } else if (block == 1) {
            *send_to = next;
            *recv_from = prev;
        } else {
            *send_to = prev;
            *recv_from = next;
        }
        return 0;
    case HALO_PAT_RING:
        *send_to = next;
        *recv_from = prev;
        return 0;
    }
    return -1;
}
