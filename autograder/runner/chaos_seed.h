/* The one reading of a chaos seed's text (AG_CHAOS_SEED, and the replay
 * seed of make check CHAOS_SEED=N): a non-zero unsigned decimal below
 * 2^32, digits only. The runner, the MPI checkers' interposer and the CUDA
 * stream perturber all read the seed through it, so that a text one of
 * them refuses is not a seed to another (chaos.h holds the contract).
 * Header-only: it is compiled into C programs and into nvcc's C++. */
#ifndef KIT_GRADER_CHAOS_SEED_H
#define KIT_GRADER_CHAOS_SEED_H

#include <stdlib.h>
#include <string.h>

/* 1 and *seed set when text is a seed; 0 (and *seed untouched) otherwise. */
static inline int ag_chaos_seed_from_text(const char *text, unsigned long *seed)
{
    if (!text || !*text || strspn(text, "0123456789") != strlen(text) || strlen(text) > 10)
        return 0;
    unsigned long long value = strtoull(text, NULL, 10);
    if (value == 0 || value > 0xffffffffull)
        return 0;
    *seed = (unsigned long)value;
    return 1;
}

#endif
