/* Lab 5: the CPU backend of device.h. "Device" memory is host memory, each
 * call does its work at once (so a stream never runs beside another), and
 * the kernel is the student's stencil_region_cpu. With it the overlapped
 * pipeline runs, and is tested, on a machine without a GPU; it cannot show
 * a race between streams (the logging backend of the tests checks the
 * order of the calls instead). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "device.h"
#include "wave.h"

static void cpu_init(int rank) { (void)rank; }
static void cpu_finish(void) {}

/* Memory a GPU hands out holds whatever was there; NaN makes a value that
 * is read before anything was written show in the result. */
static void *cpu_alloc(size_t bytes)
{
    size_t floats = (bytes + sizeof(float) - 1) / sizeof(float);
    float *p = kit_alloc(floats ? floats : 1, sizeof(float));
    for (size_t i = 0; i < floats; i++)
        p[i] = NAN;
    return p;
}

static void cpu_free(void *p) { kit_free(p); }
static void cpu_zero(void *p, size_t bytes) { memset(p, 0, bytes); }

static void cpu_memcpy(void *dst, const void *src, size_t bytes, dev_copy_kind kind)
{
    (void)kind;
    memcpy(dst, src, bytes);
}

static void cpu_memcpy_async(void *dst, const void *src, size_t bytes, dev_copy_kind kind, int stream)
{
    (void)stream;
    cpu_memcpy(dst, src, bytes, kind);
}

static void cpu_launch(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy, int nz,
                       int stream)
{
    (void)stream;
    stencil_region_cpu(next, in, prev, vel, dimx, dimy, nz);
}

static void cpu_stream_sync(int stream) { (void)stream; }
static void cpu_sync(void) {}

/* One line per job, in device.h's order: set-up, memory (host memory is
 * plain memory here too), copies, the stencil, the waits. */
const dev_backend dev_cpu = {
    .name = "cpu", .init = cpu_init, .finish = cpu_finish,
    .alloc = cpu_alloc, .free = cpu_free, .alloc_host = cpu_alloc, .free_host = cpu_free,
    .zero = cpu_zero, .memcpy = cpu_memcpy, .memcpy_async = cpu_memcpy_async,
    .launch = cpu_launch,
    .stream_sync = cpu_stream_sync, .sync = cpu_sync,
};
