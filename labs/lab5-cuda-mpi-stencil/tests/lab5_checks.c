/* Lab 5's test helpers (lab5_checks.h). */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "cuda_check.h"
#include "autograder.h"
#include "lab5_checks.h"
#include "wave.h"
#include "wave_gpu.h"
#include "wave_serial.h"

void l5_poison(float *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        a[i] = NAN;
}

double *l5_to_doubles(const float *a, size_t n)
{
    double *d = kit_alloc_doubles(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        d[i] = a[i];
    return d;
}

void l5_assert_planes(const float *expected, const float *got, int dimx, int dimy, int z0, int z1, const char *ctx)
{
    size_t plane = (size_t)dimx * dimy, n = plane * (size_t)(z1 - z0);
    double *e = l5_to_doubles(expected + (size_t)z0 * plane, n), *g = l5_to_doubles(got + (size_t)z0 * plane, n);
    /* grid [z - z0][y][x]; exact */
    ag_assert_grid_eq(e, g, (size_t)(z1 - z0), (size_t)dimy, (size_t)dimx, -1.0, "%s (planes %d.. of the region)",
                      ctx, z0);
    kit_free(e);
    kit_free(g);
}

void l5_assert_untouched(const float *got, int dimx, int dimy, int z0, int z1, const char *ctx)
{
    size_t plane = (size_t)dimx * dimy;
    for (size_t c = (size_t)z0 * plane; c < (size_t)z1 * plane; c++)
        ck_assert_msg(isnan(got[c]),
                      "%s: wrote %g at (x,y,z) = (%zu,%zu,%zu), a plane outside [4, nz-4) that it must leave alone",
                      ctx, got[c], c % dimx, c / dimx % dimy, c / plane);
}

void l5_fill_random(int dimx, int dimy, int nz, float *u0, float *vel)
{
    wave_fill(dimx, dimy, nz, u0, vel);
}

void l5_check_delta(l5_region_fn fn, const char *name, int dimx, int dimy, int nz, int x, int y, int z)
{
    size_t plane = (size_t)dimx * dimy, points = plane * nz;
    float *in = kit_alloc(points, sizeof(float)), *prev = kit_alloc(points, sizeof(float));
    float *vel = kit_alloc(points, sizeof(float)), *next = kit_alloc(points, sizeof(float));
    float *want = kit_alloc(points, sizeof(float));
    for (size_t c = 0; c < points; c++)
        in[c] = prev[c] = 0.0f, vel[c] = 1.0f, want[c] = 0.0f;
    size_t at = (size_t)x + (size_t)dimx * ((size_t)y + (size_t)dimy * z);
    in[at] = 1.0f;
    /* With vel = 1 and prev = 0, next = lap + 2 in. A point at distance i
     * along one axis sees the 1 in exactly one of its six neighbours at
     * distance i: lap = c0 * 0 + c_i * 1 = c_i. The point itself: lap = c0,
     * next = c0 + 2 (one float rounding, as the scheme's last addition). */
    want[at] = wave_coeff[0] + 2.0f;
    for (int i = 1; i <= WAVE_RADIUS; i++) {
        int d[6][3] = {{-i, 0, 0}, {i, 0, 0}, {0, -i, 0}, {0, i, 0}, {0, 0, -i}, {0, 0, i}};
        for (int k = 0; k < 6; k++) {
            int px = x + d[k][0], py = y + d[k][1], pz = z + d[k][2];
            if (px >= 0 && px < dimx && py >= 0 && py < dimy && pz >= 0 && pz < nz)
                want[(size_t)px + (size_t)dimx * ((size_t)py + (size_t)dimy * pz)] = wave_coeff[i];
        }
    }
    l5_poison(next, points);
    fn(next, in, prev, vel, dimx, dimy, nz);
    char ctx[200];
    snprintf(ctx, sizeof ctx, "%s, %d x %d x %d region, u = 1 at (x,y,z) = (%d,%d,%d) and 0 elsewhere, prev = 0, vel = 1",
             name, dimx, dimy, nz, x, y, z);
    l5_assert_planes(want, next, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS, ctx);
    l5_assert_untouched(next, dimx, dimy, 0, WAVE_RADIUS, ctx);
    l5_assert_untouched(next, dimx, dimy, nz - WAVE_RADIUS, nz, ctx);
    kit_free(in), kit_free(prev), kit_free(vel), kit_free(next), kit_free(want);
}

/* The lecture's three calls on a local array of S + 8 planes, next == prev
 * (d_output holds prev and receives next). */
static void stage_calls(l5_region_fn fn, float *out, const float *in, const float *vel, int dimx, int dimy, int S,
                        int interior_first)
{
    size_t p = (size_t)dimx * dimy;
    size_t left = 0, right = (size_t)(S - WAVE_RADIUS) * p, interior = WAVE_RADIUS * p;
    if (interior_first)
        fn(out + interior, in + interior, out + interior, vel + interior, dimx, dimy, S);
    fn(out + left, in + left, out + left, vel + left, dimx, dimy, WAVE_BOUNDARY_REGION);
    fn(out + right, in + right, out + right, vel + right, dimx, dimy, WAVE_BOUNDARY_REGION);
    if (!interior_first)
        fn(out + interior, in + interior, out + interior, vel + interior, dimx, dimy, S);
}

void l5_check_composition(l5_region_fn fn, const char *name, int dimx, int dimy, int S)
{
    int nz = S + 2 * WAVE_RADIUS;
    size_t p = (size_t)dimx * dimy, points = p * nz;
    float *in = kit_alloc(points, sizeof(float)), *vel = kit_alloc(points, sizeof(float));
    float *prev = kit_alloc(points, sizeof(float)), *one = kit_alloc(points, sizeof(float));
    float *staged = kit_alloc(points, sizeof(float)), *serial = kit_alloc(points, sizeof(float));
    l5_fill_random(dimx, dimy, nz, in, vel);
    /* a prev unlike u: the hash of the mirrored index */
    for (size_t c = 0; c < points; c++)
        prev[c] = in[points - 1 - c];
    char ctx[200];

    /* one call over the whole local array */
    l5_poison(one, points);
    fn(one, in, prev, vel, dimx, dimy, nz);
    for (size_t c = WAVE_RADIUS * p; c < (size_t)(S + WAVE_RADIUS) * p; c++)
        ck_assert_msg(!isnan(one[c]), "%s, S = %d, %d x %d: one call on the whole local array (%d planes) left (x,y,z) = "
                      "(%zu,%zu,%zu) unwritten (still the NaN it held before the call)",
                      name, S, dimx, dimy, nz, c % dimx, c / dimx % dimy, c / p);
    for (int order = 0; order < 2; order++) {
        memcpy(staged, prev, points * sizeof(float));
        stage_calls(fn, staged, in, vel, dimx, dimy, S, order);
        snprintf(ctx, sizeof ctx,
                 "%s, S = %d, %d x %d: the calls on planes (0,12), (S-4,12), (4,S) [%s] against one call on (0,S+8)",
                 name, S, dimx, dimy, order ? "interior first" : "interior last");
        l5_assert_planes(one, staged, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS, ctx);
    }

    /* the one call against the serial reference: with its 4 end planes of
     * in zero, the region is a whole grid of S planes */
    memset(in, 0, WAVE_RADIUS * p * sizeof(float));
    memset(in + (size_t)(S + WAVE_RADIUS) * p, 0, WAVE_RADIUS * p * sizeof(float));
    l5_poison(one, points);
    fn(one, in, prev, vel, dimx, dimy, nz);
    size_t own = WAVE_RADIUS * p;
    wave_serial_step(dimx, dimy, S, prev + own, in + own, vel + own, serial + own);
    snprintf(ctx, sizeof ctx, "%s, S = %d, %d x %d, zero end planes: one call against the kit's serial step", name, S,
             dimx, dimy);
    l5_assert_planes(serial, one, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS, ctx);
    kit_free(in), kit_free(vel), kit_free(prev), kit_free(one), kit_free(staged), kit_free(serial);
}

/* launch_kernel on copies of the arrays in device memory, for the region
 * checks above (the GPU tests). next's whole region goes up too, so that
 * planes the kernel must not write keep their NaN. */
void l5_gpu_region(float *next, const float *in, const float *prev, const float *vel, int dimx, int dimy, int nz)
{
    size_t bytes = (size_t)dimx * dimy * nz * sizeof(float);
    float *d[4];
    for (int k = 0; k < 4; k++)
        CUDA_CHECK(cudaMalloc((void **)&d[k], bytes));
    CUDA_CHECK(cudaMemcpy(d[0], next, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d[1], in, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d[3], vel, bytes, cudaMemcpyHostToDevice));
    /* next == prev: the kernel gets one array for both, as in the pipeline */
    float *d_prev = prev == next ? d[0] : d[2];
    if (prev != next)
        CUDA_CHECK(cudaMemcpy(d[2], prev, bytes, cudaMemcpyHostToDevice));
    launch_kernel(d[0], d[1], d_prev, d[3], dimx, dimy, nz, 0);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(next, d[0], bytes, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 4; k++)
        CUDA_CHECK(cudaFree(d[k]));
}

/* One float of a device array, read back. */
static float device_float(const float *d, size_t at)
{
    float v;
    CUDA_CHECK(cudaMemcpy(&v, d + at, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

void l5_check_gpu_index_past_2_31(void)
{
    /* 9 planes of 32768 x 16384: the one plane written, 4, starts at point
     * 4 * 2^29 = 2^31. Constant fields (memset byte patterns): in = vel =
     * c (one array, both read-only), next = prev = p (one array, as the
     * pipeline does); 2 x 19.3 GB of GPU memory. Every interior point of
     * plane 4 then has the same value, by the contract's order. */
    const int dimx = 32768, dimy = 16384, nz = 9;
    const size_t plane = (size_t)dimx * dimy, points = plane * nz;
    float *in, *next;
    CUDA_CHECK(cudaMalloc((void **)&in, points * sizeof(float)));
    CUDA_CHECK(cudaMalloc((void **)&next, points * sizeof(float)));
    CUDA_CHECK(cudaMemset(in, 0x3f, points * sizeof(float)));
    CUDA_CHECK(cudaMemset(next, 0x40, points * sizeof(float)));
    float c = device_float(in, 0), p = device_float(next, 0);
    float lap = wave_coeff[0] * c;
    for (int i = 1; i <= WAVE_RADIUS; i++)
        lap += wave_coeff[i] * (((((c + c) + c) + c) + c) + c);
    const float want = (c * lap + 2.0f * c) - p;
    launch_kernel(next, in, next, in, dimx, dimy, nz, 0);
    cudaError_t err = cudaDeviceSynchronize();
    ck_assert_msg(err == cudaSuccess,
                  "launch_kernel on 32768 x 16384 x 9 (plane 4, the one written, starts at point 2^31): %s (a 32-bit "
                  "index?)",
                  cudaGetErrorString(err));
    /* interior points of plane 4 (x and y at least 4 from the edges), and
     * the planes around it, which must keep p */
    static const int xs[4] = {4, 5000, 20000, 32763}, ys[4] = {4, 100, 9999, 16379};
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++) {
            size_t at = 4 * plane + (size_t)ys[b] * dimx + xs[a];
            float got = device_float(next, at);
            ck_assert_msg(got == want,
                          "launch_kernel on 32768 x 16384 x 9 (constant fields): point (x,y,z) = (%d,%d,4), index %zu "
                          "(past 2^31), is %.9g; expected %.9g (a 32-bit index?)",
                          xs[a], ys[b], at, got, want);
        }
    for (int z = 3; z <= 5; z += 2) {
        float got = device_float(next, z * plane + plane / 2);
        ck_assert_msg(got == p, "launch_kernel on 32768 x 16384 x 9 wrote plane %d (%.9g; it holds %.9g): only plane "
                      "4 is the region's (a 32-bit index?)", z, got, p);
    }
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(next));
}
