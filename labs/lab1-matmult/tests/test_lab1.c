/* Lab 1 (matmult): the visible tests. Run them with `make lab1 && make check`.
 *
 * Integer inputs make every loop order exact, so those tests compare
 * exactly; one test uses real inputs and a stated tolerance. Sizes have
 * m, n and k all different, because a square test cannot tell m from n, and
 * C is filled with NaN before every call, because a function that forgets to
 * zero C would otherwise pass on a fresh, zeroed allocation. Each variant
 * is also called twice on the same arrays and shape with new contents
 * (l1_check_fresh): an answer remembered by address and shape is wrong. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "autograder.h"
#include "lab1_checks.h"

/* Vectors, the seed's own 2x2 and 3x2 shapes, and shapes with m != n != k. */
static const ag_mm_size sizes[] = {
    {1, 1, 1}, {1, 7, 1}, {7, 1, 1}, {1, 1, 7}, {2, 2, 2}, {3, 3, 2},
    {3, 5, 7}, {7, 5, 3}, {17, 13, 11}, {31, 37, 29}, {64, 64, 64}, {100, 50, 75},
};
static const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);

/* One test per loop order (lib_sizes, nat_sizes, ... knm_sizes: the
 * variant's name without "matmult_"), all one body; the row is the
 * variant. */
START_TEST(variant_sizes)
{
    const l1_variant *v = ag_test_arg();
    for (int s = 0; s < nsizes; s++)
        l1_check(v->name, v->fn, 0, sizes[s], AG_MM_INTEGER, 100 + (uint64_t)s);
    l1_check_fresh(v->name, v->fn, 0, sizes[8], AG_MM_INTEGER, 150);
}
END_TEST

/* The seed's own check: As Bs = Cs and Ans Bns = Cns, written out. */
START_TEST(seed_examples)
{
    const double As[] = {1, 2, 2, 4}, Bs[] = {2, 2, 2, 2}, Cs[] = {6, 6, 12, 12};
    const double Ans[] = {1, 2, 2, 4, 3, 6}, Bns[] = {2, 2, 2, 2, 2, 2};
    const double Cns[] = {6, 6, 6, 12, 12, 12, 18, 18, 18};
    double C[9];
    for (int v = 0; v < l1_variant_count; v++) {
        ag_poison(C, 9);
        l1_variants[v].fn(2, 2, 2, As, Bs, C);
        ag_assert_matrix_eq(Cs, C, 2, 2, -1.0, "%s on the seed's 2x2 example", l1_variants[v].name);
        ag_poison(C, 9);
        l1_variants[v].fn(3, 3, 2, Ans, Bns, C);
        ag_assert_matrix_eq(Cns, C, 3, 3, -1.0, "%s on the seed's 3x2 times 2x3 example", l1_variants[v].name);
    }
}
END_TEST

/* Block sizes that divide nothing, divide some sizes, or are 1. */
START_TEST(blk_block_sizes)
{
    static const int bss[] = {1, 2, 3, 7, 16, 64};
    for (int b = 0; b < 6; b++)
        for (int s = 0; s < nsizes; s++)
            l1_check("matmult_blk", NULL, bss[b], sizes[s], AG_MM_INTEGER, 200 + (uint64_t)s);
}
END_TEST

/* Ragged edges: sizes that are not multiples of bs, and bs larger than one
 * dimension only. */
START_TEST(blk_ragged_edges)
{
    static const struct {
        ag_mm_size size;
        int bs;
    } cases[] = {
        {{17, 13, 11}, 4}, {{17, 13, 11}, 5}, {{40, 5, 40}, 8}, {{5, 40, 40}, 8},
        {{40, 40, 5}, 8},  {{33, 65, 17}, 16}, {{70, 3, 90}, 32},
    };
    for (int c = 0; c < 7; c++)
        l1_check("matmult_blk", NULL, cases[c].bs, cases[c].size, AG_MM_INTEGER, 300 + (uint64_t)c);
    l1_check_fresh("matmult_blk", NULL, 5, cases[0].size, AG_MM_INTEGER, 350);
}
END_TEST

/* bs at least every size: one block, which must give exactly what mkn gives. */
START_TEST(blk_block_larger_than_matrix)
{
    static const ag_mm_size s[] = {{3, 5, 7}, {17, 13, 11}, {31, 37, 29}};
    for (int c = 0; c < 3; c++) {
        l1_check("matmult_blk", NULL, 1000, s[c], AG_MM_INTEGER, 400 + (uint64_t)c);
        l1_check("matmult_mkn", matmult_mkn, 0, s[c], AG_MM_INTEGER, 400 + (uint64_t)c);
    }
}
END_TEST

/* Real inputs: every variant within 1e-12 k max|A| max|B| of the plain
 * product. This is where a float accumulator shows. */
START_TEST(all_real_inputs)
{
    static const ag_mm_size s[] = {{67, 53, 64}, {19, 241, 31}};
    for (int c = 0; c < 2; c++) {
        for (int v = 0; v < l1_variant_count; v++)
            l1_check(l1_variants[v].name, l1_variants[v].fn, 0, s[c], AG_MM_REAL, 500 + (uint64_t)c);
        l1_check("matmult_blk", NULL, 16, s[c], AG_MM_REAL, 500 + (uint64_t)c);
    }
}
END_TEST

static void register_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = seed_examples, .points = 1});
    for (int v = 0; v < l1_variant_count; v++) {
        static char names[64][32]; /* 8 rows, matmult.h's loop orders; the suite keeps the pointers */
        snprintf(names[v], sizeof names[v], "%s_sizes", l1_variants[v].name + strlen("matmult_"));
        ag_add(s, (ag_spec){.test = variant_sizes, .name = names[v], .arg = &l1_variants[v], .points = 2});
    }
    ag_add(s, (ag_spec){.test = blk_block_sizes, .points = 3});
    ag_add(s, (ag_spec){.test = blk_ragged_edges, .points = 3});
    ag_add(s, (ag_spec){.test = blk_block_larger_than_matrix, .points = 2});
    ag_add(s, (ag_spec){.test = all_real_inputs, .points = 3});
}

int main(int argc, char **argv)
{
    return ag_main(argc, argv, register_tests);
}
