/* make bench's and make demo's check (common/bench/bench_lib.sh) that the
 * build holds code for this host's GPUs, built with the lab's flags:
 * prints the one line (gpu_image.h) and exits 3 when one lacks it; exits 0
 * with no GPU at all (the benchmark's own "no GPU" says that). */
#include <stdio.h>

#include "cuda/gpu_image.h"
#include "gpu.h"

int main(void)
{
    char why[512];
    int n = gpu_count_reason(why, (int)sizeof why);
    if (n <= 0 || gpu_image_reason(why, (int)sizeof why) >= n)
        return 0;
    printf("%s\n", why);
    return 3;
}
