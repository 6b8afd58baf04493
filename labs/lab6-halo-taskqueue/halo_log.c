/* Lab 6: the per-block log of events (given). Written by many threads at
 * once (the host backend's blocks), so every word is atomic. */
#include <stdatomic.h>

#include "halo.h"
#include "timer.h"

static atomic_long clock_tick;
static atomic_long ticks[HL_KINDS][HALO_MAX_BLOCKS];
static atomic_int counts[HL_KINDS][HALO_MAX_BLOCKS];
static _Atomic double times[HL_KINDS][HALO_MAX_BLOCKS];

void halo_log_reset(void)
{
    for (int e = 0; e < HL_KINDS; e++)
        for (int b = 0; b < HALO_MAX_BLOCKS; b++) {
            atomic_store(&ticks[e][b], 0);
            atomic_store(&counts[e][b], 0);
            atomic_store(&times[e][b], 0.0);
        }
}

void halo_log(halo_event e, int block)
{
    if ((int)e < 0 || e >= HL_KINDS || block < 0 || block >= HALO_MAX_BLOCKS)
        return;
    atomic_store(&times[e][block], wall_time());
    atomic_store(&ticks[e][block], atomic_fetch_add(&clock_tick, 1) + 1);
    atomic_fetch_add(&counts[e][block], 1);
}

long halo_log_tick(halo_event e, int block)
{
    return atomic_load(&ticks[e][block]);
}

double halo_log_time(halo_event e, int block)
{
    return atomic_load(&times[e][block]);
}

int halo_log_count(halo_event e, int block)
{
    return atomic_load(&counts[e][block]);
}

long halo_log_events(void)
{
    return atomic_load(&clock_tick);
}
