/* Where the time of one GPU matrix product goes: copying A and B to the
 * device, the product on device arrays, copying C back. */
#ifndef LAB3_TIME_SPLIT_H
#define LAB3_TIME_SPLIT_H

#include "matmult_driver.h"

/* Times dev (a matmult_gpuX_dev function) on m x k and k x n inputs already
 * on the device, and the copies around it from and to ordinary (pageable)
 * host memory, as matmult_gpuX does them; each the median of up to 5 runs
 * after one warm-up. Prints one line starting "# split" with milliseconds,
 * GB/s and GFLOP/s. With pinned set, also times the same copies from and to
 * page-locked host memory (the rate the link itself allows), reported as
 * pinned_h2d=GB/s and pinned_d2h=GB/s. The line ends with errors=N, the
 * elements of C x that differ from A (B x) for a random x after the last
 * timed run (common/bench/bench_check.h; 0 for a right product); a rate
 * that could not be measured prints as "-". Exits with a message if a CUDA call
 * fails. */
void time_split_report(const char *name, matmult_fn dev, int m, int n, int k, int pinned);

#endif
