/* Lab 6: the halo layer's set-up (given). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "halo.h"

int halo_layer_init(halo_layer *L, int num_blocks, int num_threads, int rank, int size, const size_t *sizes,
                    halo_pattern p, const halo_backend *be)
{
    memset(L, 0, sizeof *L);
    if (num_blocks < 1 || num_blocks > HALO_MAX_BLOCKS || num_threads < 1 || num_threads > 1024) {
        fprintf(stderr, "halo_layer_init: %d blocks of %d threads: blocks must be in [1, %d], threads in [1, 1024]\n",
                num_blocks, num_threads, HALO_MAX_BLOCKS);
        return -1;
    }
    if (size > HALO_MAX_RANKS) {
        fprintf(stderr, "halo_layer_init: %d ranks: the sentinel values are unique for at most %d\n", size,
                HALO_MAX_RANKS);
        return -1;
    }
    L->num_blocks = num_blocks;
    L->num_threads = num_threads;
    L->rank = rank;
    L->size = size;
    L->pattern = p;
    L->full_check = 1;
    L->backend = be;
    for (int b = 0; b < num_blocks; b++) {
        if (sizes[b] < 1 || sizes[b] > (size_t)1 << 28) {
            fprintf(stderr, "halo_layer_init: block %d has %zu doubles: must be in [1, 2^28]\n", b, sizes[b]);
            return -1;
        }
        L->sizes[b] = sizes[b];
        if (halo_partners(p, b, rank, size, &L->send_to[b], &L->recv_from[b]) || L->send_to[b] < 0 ||
            L->send_to[b] >= size || L->recv_from[b] < 0 || L->recv_from[b] >= size) {
            fprintf(stderr, "halo_layer_init: halo_partners gave no valid partners for block %d of rank %d of %d\n",
                    b, rank, size);
            return -1;
        }
    }
    L->unpack_errors = be->alloc_shared(num_blocks * sizeof *L->unpack_errors);
    if (!L->unpack_errors)
        return -1;
    memset(L->unpack_errors, 0, num_blocks * sizeof *L->unpack_errors);
    for (int b = 0; b < num_blocks; b++) {
        L->send_buf[b] = be->alloc_shared(sizes[b] * sizeof(double));
        L->recv_buf[b] = be->alloc_shared(sizes[b] * sizeof(double));
        if (!L->send_buf[b] || !L->recv_buf[b]) {
            halo_layer_free(L);
            return -1;
        }
        memset(L->send_buf[b], 0, sizes[b] * sizeof(double));
        for (size_t i = 0; i < sizes[b]; i++)
            L->recv_buf[b][i] = NAN;
    }
    return 0;
}

void halo_layer_free(halo_layer *L)
{
    if (!L->backend)
        return;
    for (int b = 0; b < L->num_blocks; b++) {
        if (L->send_buf[b])
            L->backend->free_shared(L->send_buf[b]);
        if (L->recv_buf[b])
            L->backend->free_shared(L->recv_buf[b]);
        L->send_buf[b] = L->recv_buf[b] = NULL;
    }
    if (L->unpack_errors)
        L->backend->free_shared(L->unpack_errors);
    L->unpack_errors = NULL;
}

int halo_pattern_parse(const char *name, halo_pattern *p)
{
    static const char *names[] = {"pair", "self", "fig26", "ring"};
    for (int k = 0; k < 4; k++)
        if (!strcmp(name, names[k])) {
            *p = (halo_pattern)k;
            return 0;
        }
    return -1;
}
