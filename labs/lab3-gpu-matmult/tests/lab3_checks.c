#include "lab3_checks.h"

#include <stdlib.h>

const l3_variant l3_variants[] = {
    {"matmult_gpu1", matmult_gpu1, matmult_gpu1_dev},       {"matmult_gpu2", matmult_gpu2, matmult_gpu2_dev},
    {"matmult_gpu3", matmult_gpu3, matmult_gpu3_dev},       {"matmult_gpu4", matmult_gpu4, matmult_gpu4_dev},
    {"matmult_gpu5", matmult_gpu5, matmult_gpu5_dev},       {"matmult_gpu6", matmult_gpu6, matmult_gpu6_dev},
    {"matmult_gpulib", matmult_gpulib, matmult_gpulib_dev},
};
const int l3_variant_count = (int)(sizeof l3_variants / sizeof l3_variants[0]);

/* ag_mm_check's calling convention: arg is the variant. */
static void call_host(int m, int n, int k, const double *A, const double *B, double *C, const void *arg)
{
    ((const l3_variant *)arg)->host(m, n, k, A, B, C);
}

void l3_check_problem(const l3_variant *v, const ag_mm_problem *p)
{
    ag_mm_check(p, call_host, v, NULL, v->name);
}

void l3_check_fresh(const l3_variant *v, ag_mm_size size, ag_mm_inputs inputs, uint64_t seed)
{
    ag_mm_check_fresh(size, inputs, seed, call_host, v, v->name);
}

void l3_check(const l3_variant *v, ag_mm_size size, ag_mm_inputs inputs, uint64_t seed)
{
    ag_mm_problem p;
    ag_mm_problem_make(&p, size, inputs, seed);
    l3_check_problem(v, &p);
    ag_mm_problem_free(&p);
}

/* ---- launch geometry, on the CPU ------------------------------------------- */
/* Shapes of C where a floor-divided grid, a stride on the wrong axis or a
 * tail of fewer rows than a thread computes each lose elements. */
static const int shapes[][2] = {
    {1, 1},    {1, 17},  {17, 1},  {15, 16}, {16, 16}, {17, 17}, {31, 33},
    {33, 95},  {100, 129}, {257, 31}, {1000, 3}, {3, 1000}, {67, 1025},
};

static void check_one_shape(const char *name, l3_launch_fn launch, l3_elements_fn elements, int m, int n,
                            int min_count, int max_count)
{
    const mm_launch L = launch(m, n);
    const mm_dim3 g = L.grid, b = L.block;
    if (!(g.x && g.y && g.z && b.x && b.y && b.z))
        ck_abort_msg("%s_launch(m=%d, n=%d) gives grid (%u,%u,%u) and block (%u,%u,%u): no dimension may be 0", name,
                     m, n, g.x, g.y, g.z, b.x, b.y, b.z);
    const unsigned long long per_block = (unsigned long long)b.x * b.y * b.z;
    if (per_block > 1024)
        ck_abort_msg("%s_launch(m=%d, n=%d): a block of (%u,%u,%u) = %llu threads; CUDA allows at most 1024", name, m, n,
                     b.x, b.y, b.z, per_block);
    if (g.y > 65535 || g.z > 65535 || g.x > 2147483647u)
        ck_abort_msg("%s_launch(m=%d, n=%d): grid (%u,%u,%u) exceeds CUDA's limits (2^31-1, 65535, 65535)", name, m, n,
                     g.x, g.y, g.z);
    const unsigned long long threads = (unsigned long long)g.x * g.y * g.z * per_block;
    if (threads > 64ull * (unsigned long long)m * n + 4096)
        ck_abort_msg("%s_launch(m=%d, n=%d) starts %llu threads for %d elements of C: far more than it needs", name, m,
                     n, threads, m * n);

    unsigned char *hits = calloc((size_t)m * n, 1);
    ck_assert_ptr_nonnull(hits);
    mm_dim3 bi, ti;
    for (bi.z = 0; bi.z < g.z; bi.z++)
        for (bi.y = 0; bi.y < g.y; bi.y++)
            for (bi.x = 0; bi.x < g.x; bi.x++)
                for (ti.z = 0; ti.z < b.z; ti.z++)
                    for (ti.y = 0; ti.y < b.y; ti.y++)
                        for (ti.x = 0; ti.x < b.x; ti.x++) {
                            const mm_elements e = elements(bi, ti, b);
                            if (e.count < min_count || e.count > max_count)
                                ck_abort_msg("%s_elements: thread (%u,%u,%u) of block (%u,%u,%u) computes %d "
                                             "elements; this variant computes %d%s per thread",
                                             name, ti.x, ti.y, ti.z, bi.x, bi.y, bi.z, e.count, min_count,
                                             max_count > min_count ? " or more" : "");
                            for (int s = 0; s < e.count; s++) {
                                const long long r = e.row + (long long)s * e.row_step;
                                const long long c = e.col + (long long)s * e.col_step;
                                if (r < 0 || r >= m || c < 0 || c >= n)
                                    continue;
                                if (hits[r * n + c]++)
                                    ck_abort_msg("%s, m=%d n=%d: C[%lld][%lld] is computed twice, the second time "
                                                 "by thread (%u,%u,%u) of block (%u,%u,%u)",
                                                 name, m, n, r, c, ti.x, ti.y, ti.z, bi.x, bi.y, bi.z);
                            }
                        }
    for (size_t i = 0; i < (size_t)m * n; i++)
        if (!hits[i]) {
            free(hits);
            ck_abort_msg("%s, m=%d n=%d: no thread computes C[%zu][%zu]; grid (%u,%u,%u), block (%u,%u,%u). Does "
                         "the grid round up, and does it shrink along the axis where a thread's elements lie?",
                         name, m, n, i / (size_t)n, i % (size_t)n, g.x, g.y, g.z, b.x, b.y, b.z);
        }
    free(hits);
}

void l3_check_geometry(const char *name, l3_launch_fn launch, l3_elements_fn elements, int min_count,
                        int max_count)
{
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        check_one_shape(name, launch, elements, shapes[s][0], shapes[s][1], min_count, max_count);
}
