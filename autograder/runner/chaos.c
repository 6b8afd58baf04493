/* Chaos schedules: the seeds the runner draws (run.h) and the OpenMP
 * perturbation in the test's process (chaos.h says the contract). */
#define _GNU_SOURCE
#include "chaos.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "chaos_seed.h"
#include "random.h"
#include "run.h"

/* A well-mixed 64-bit value from a counter: what the kit's SplitMix64
 * generator (common/random.h) gives next from state x. */
static uint64_t mix(uint64_t x)
{
    kit_rng r = kit_rng_seed(x);
    return kit_rng_next(&r);
}

/* A seed shown to students: 32 bits, never 0 (0 means "no chaos"). */
static unsigned long nonzero32(uint64_t x)
{
    unsigned long s = (unsigned long)(x & 0xffffffffu);
    return s ? s : 1;
}

unsigned long ag_chaos_keyed_seed(const char *key, const char *test, int k)
{
    /* FNV-1a over "key\0test\0k": the same submission (its files' digest
     * is the key) gets the same seeds on every regrade. */
    uint64_t h = 0xcbf29ce484222325ull;
    char tail[16];
    snprintf(tail, sizeof tail, "%d", k);
    const char *parts[3] = {key, test, tail};
    for (int p = 0; p < 3; p++)
        for (const char *c = parts[p];; c++) {
            h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
            if (!*c)
                break;
        }
    return nonzero32(mix(h));
}

unsigned long ag_chaos_fresh_seed(void)
{
    /* From the kernel's secret source: a student cannot know the next run's
     * seeds, and each make check tries new schedules. */
    uint64_t x = 0;
    if (getrandom(&x, sizeof x, 0) != (ssize_t)sizeof x && !ag_random_bytes(&x, sizeof x))
        x = (uint64_t)(uintptr_t)&x ^ (uint64_t)rand();
    return nonzero32(mix(x));
}

/* In the test's process: the seed, once, and the draws from it. */
static int seed_read;
static unsigned long run_seed;
static uint64_t draw_state;

unsigned long ag_chaos_seed(void)
{
    if (!seed_read) {
        seed_read = 1;
        if (!ag_chaos_seed_from_text(getenv("AG_CHAOS_SEED"), &run_seed))
            run_seed = 0;
        draw_state = run_seed;
    }
    return run_seed;
}

unsigned ag_chaos_draw(unsigned n)
{
    if (!ag_chaos_seed() || n < 1)
        return 0;
    draw_state += 0x9e3779b97f4a7c15ull;
    return (unsigned)(mix(draw_state) % n);
}

int ag_omp_threads(int quiet, int most)
{
    static const int counts[] = {2, 3, 5, 7, 8, 13};
    if (!ag_chaos_seed() || quiet <= 1)
        return quiet;
    unsigned choices = sizeof counts / sizeof counts[0];
    while (most > 0 && choices > 1 && counts[choices - 1] > most)
        choices--;
    return counts[ag_chaos_draw(choices)];
}

void ag_chaos_omp_setup(void)
{
    if (!ag_chaos_seed())
        return;
    void (*set_threads)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    void (*set_dynamic)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "omp_set_dynamic");
    void (*set_schedule)(int, int) = (void (*)(int, int))dlsym(RTLD_DEFAULT, "omp_set_schedule");
    if (set_dynamic)
        set_dynamic(0); /* the count asked for, not fewer */
    if (set_threads)
        set_threads(ag_omp_threads(2, 0));
    /* omp_sched_t: 1 static, 2 dynamic, 3 guided (OpenMP 5); chunk 0 is
     * the kind's default. */
    static const int chunks[] = {0, 1, 2, 3, 7};
    if (set_schedule)
        set_schedule(1 + (int)ag_chaos_draw(3), chunks[ag_chaos_draw(5)]);
}
