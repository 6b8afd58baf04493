/* Aligned allocation that never returns NULL.
 *
 * 64-byte alignment puts every array on a cache-line (and AVX-512 vector)
 * boundary, so a benchmark measures the code and not the allocator's luck.
 * Sizes are size_t element counts: an int product overflows at N ~ 645 for a
 * 3-D double array (the bug in the seed this kit is built from). */
#ifndef KIT_ALLOC_H
#define KIT_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KIT_ALIGNMENT 64

/* Allocates count elements of size bytes each, aligned to KIT_ALIGNMENT.
 * On overflow of count*size or when memory runs out, prints what was asked
 * for and exits with status 1. Free with kit_free. */
void *kit_alloc(size_t count, size_t size);
double *kit_alloc_doubles(size_t count);
void kit_free(void *p);

/* count * size, or exits with a message if that overflows size_t. */
size_t kit_mul_size(size_t count, size_t size);

#ifdef __cplusplus
}
#endif
#endif
