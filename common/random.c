#include "random.h"

kit_rng kit_rng_seed(uint64_t seed)
{
    kit_rng r = {seed};
    return r;
}

uint64_t kit_splitmix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and passes BigCrush. */
uint64_t kit_rng_next(kit_rng *rng) { return kit_splitmix64(rng->state += 0x9E3779B97F4A7C15ull); }

double kit_rng_uniform(kit_rng *rng)
{
    /* The top 53 bits fill a double's mantissa exactly. */
    return (double)(kit_rng_next(rng) >> 11) * 0x1.0p-53;
}

void kit_fill_int(double *a, size_t n, int lo, int hi, uint64_t seed)
{
    kit_rng r = kit_rng_seed(seed);
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo + 1);
    for (size_t i = 0; i < n; i++)
        a[i] = (double)((int64_t)lo + (int64_t)(kit_rng_next(&r) % span));
}

void kit_fill_real(double *a, size_t n, double lo, double hi, uint64_t seed)
{
    kit_rng r = kit_rng_seed(seed);
    for (size_t i = 0; i < n; i++)
        a[i] = lo + (hi - lo) * kit_rng_uniform(&r);
}
