/* Wall-clock timing for drivers and benchmarks.
 *
 * A monotonic clock, so that a benchmark is never fooled by an NTP step.
 * Device work is asynchronous: synchronise before reading this clock. */
#ifndef KIT_TIMER_H
#define KIT_TIMER_H

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds since an arbitrary fixed point; only differences mean anything. */
double wall_time(void);

#ifdef __cplusplus
}
#endif
#endif
