#define _POSIX_C_SOURCE 200809L
#include "alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

size_t kit_mul_size(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size) {
        fprintf(stderr, "error: allocation of %zu x %zu bytes overflows size_t\n", count, size);
        exit(1);
    }
    return count * size;
}

void *kit_alloc(size_t count, size_t size)
{
    size_t bytes = kit_mul_size(count, size);
    void *p = NULL;
    /* posix_memalign with 0 bytes may return NULL legitimately: ask for one line. */
    int rc = posix_memalign(&p, KIT_ALIGNMENT, bytes ? bytes : KIT_ALIGNMENT);
    if (rc != 0 || p == NULL) {
        fprintf(stderr, "error: out of memory allocating %zu bytes (%.2f GiB)\n", bytes,
                (double)bytes / (1024.0 * 1024.0 * 1024.0));
        exit(1);
    }
    return p;
}

double *kit_alloc_doubles(size_t count)
{
    return kit_alloc(count, sizeof(double));
}

void kit_free(void *p)
{
    free(p);
}
