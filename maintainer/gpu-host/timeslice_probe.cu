/* Does this process have the GPU to itself? One GPU thread reads the GPU's
 * nanosecond clock (%globaltimer) in a loop for MS milliseconds and keeps
 * every gap between two reads longer than GAP_US: the times its context was
 * off the GPU.
 *
 *   timeslice_probe MS [GAP_US]      (default GAP_US 20)
 *
 * Alone, a loop iteration takes well under a microsecond and there are no
 * gaps. Started twice at once on one GPU without MPS, each copy sees the
 * other's time slices as gaps: their count, median and sum are the GPU's
 * time slicing between two processes, measured (why lab 5's and
 * lab 6's two ranks on one GPU lose what two GPUs keep). Under MPS both run
 * at once and the gaps go away. Prints one line; exit 1 on a CUDA error. */
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

enum { MAX_GAPS = 1 << 16 };

__device__ static unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* gaps[2i], gaps[2i+1]: the clock before and after the i-th gap */
__global__ void probe(unsigned long long run_ns, unsigned long long gap_ns, unsigned long long *gaps, int *count)
{
    unsigned long long t0 = global_ns(), last = t0, now = t0;
    int n = 0;
    while (now - t0 < run_ns) {
        now = global_ns();
        if (now - last > gap_ns) {
            if (n < MAX_GAPS) {
                gaps[2 * n] = last;
                gaps[2 * n + 1] = now;
            }
            n++;
        }
        last = now;
    }
    *count = n;
}

static int cmp_u64(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return (x > y) - (x < y);
}

#define CHECK(call)                                                                                 \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "timeslice_probe: %s: %s\n", #call, cudaGetErrorString(e_));            \
            return 1;                                                                               \
        }                                                                                           \
    } while (0)

int main(int argc, char **argv)
{
    char *end = NULL;
    long ms = argc > 1 ? strtol(argv[1], &end, 10) : 0;
    if (argc < 2 || argc > 3 || *end || ms < 1 || ms > 60000) {
        fprintf(stderr, "usage: timeslice_probe MS [GAP_US] (MS 1-60000)\n");
        return 2;
    }
    long gap_us = argc > 2 ? strtol(argv[2], &end, 10) : 20;
    if (argc > 2 && (*end || gap_us < 1)) {
        fprintf(stderr, "timeslice_probe: GAP_US must be a positive whole number of microseconds\n");
        return 2;
    }
    unsigned long long *d_gaps, *gaps = (unsigned long long *)malloc(2 * MAX_GAPS * sizeof *gaps);
    int *d_count, count = 0;
    CHECK(cudaMalloc(&d_gaps, 2 * MAX_GAPS * sizeof *d_gaps));
    CHECK(cudaMalloc(&d_count, sizeof *d_count));
    probe<<<1, 1>>>(1000000ull, 1000ull * gap_us, d_gaps, d_count); /* warm-up: 1 ms */
    CHECK(cudaDeviceSynchronize());
    probe<<<1, 1>>>(1000000ull * ms, 1000ull * gap_us, d_gaps, d_count);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&count, d_count, sizeof count, cudaMemcpyDeviceToHost));
    int kept = count < MAX_GAPS ? count : MAX_GAPS;
    CHECK(cudaMemcpy(gaps, d_gaps, 2 * kept * sizeof *gaps, cudaMemcpyDeviceToHost));

    /* gap lengths, and the runs between gaps (the process's own slices) */
    unsigned long long *len = (unsigned long long *)malloc((kept + 1) * sizeof *len);
    unsigned long long *run = (unsigned long long *)malloc((kept + 1) * sizeof *run);
    unsigned long long off = 0;
    for (int i = 0; i < kept; i++) {
        len[i] = gaps[2 * i + 1] - gaps[2 * i];
        off += len[i];
        if (i > 0)
            run[i - 1] = gaps[2 * i] - gaps[2 * i - 1];
    }
    qsort(len, kept, sizeof *len, cmp_u64);
    if (kept > 1)
        qsort(run, kept - 1, sizeof *run, cmp_u64);
    printf("timeslice_probe: %ld ms on the GPU clock, %d gaps > %ld us, off the GPU %.1f ms (%.0f%%)", ms, count,
           gap_us, off / 1e6, 100.0 * off / (1e6 * ms));
    if (kept > 0)
        printf(", gap median %.3f ms (shortest %.3f, longest %.3f)", len[kept / 2] / 1e6, len[0] / 1e6,
               len[kept - 1] / 1e6);
    if (kept > 1)
        printf(", own slice median %.3f ms", run[(kept - 1) / 2] / 1e6);
    printf("\n");
    free(len), free(run), free(gaps);
    return 0;
}
