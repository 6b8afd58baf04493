/* Seeded, reproducible random inputs.
 *
 * The same seed gives the same numbers on every machine and compiler (a
 * SplitMix64 generator, not rand()), so a failing test can be rerun exactly.
 *
 * Integer-valued doubles matter for testing: with small integers every partial
 * sum of a matrix product is exact in double precision, so any loop order or
 * blocking gives a bit-identical result and a test can compare bitwise. */
#ifndef KIT_RANDOM_H
#define KIT_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t state;
} kit_rng;

kit_rng kit_rng_seed(uint64_t seed);
uint64_t kit_rng_next(kit_rng *rng);
/* SplitMix64's output function: a well-mixed 64-bit value of z (what
 * kit_rng_next returns of its state after each step). */
uint64_t kit_splitmix64(uint64_t z);
/* Uniform in [0, 1). */
double kit_rng_uniform(kit_rng *rng);

/* a[i] = an integer drawn uniformly from [lo, hi], stored as a double. */
void kit_fill_int(double *a, size_t n, int lo, int hi, uint64_t seed);
/* a[i] = a real drawn uniformly from [lo, hi). */
void kit_fill_real(double *a, size_t n, double lo, double hi, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
