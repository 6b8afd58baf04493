/* Lab 1 (matmult): hidden tests, for instructors. `make release` leaves this
 * file out of the student copy; the suite then runs without them. */
#include "grader.h"
#include "matmult_checks.h"

/* Larger and more lopsided shapes than the visible tests use. */
START_TEST(hidden_large_shapes)
{
    static const mm_size s[] = {{129, 257, 65}, {200, 1, 300}, {1, 300, 200}, {300, 200, 1}};
    for (int c = 0; c < 4; c++) {
        for (int v = 0; v < mm_variant_count; v++)
            mm_check(mm_variants[v].name, mm_variants[v].fn, 0, s[c], MM_INTEGER, 600 + (uint64_t)c);
        mm_check("matmult_blk", NULL, 48, s[c], MM_INTEGER, 600 + (uint64_t)c);
    }
}
END_TEST

/* bs equal to exactly one of the sizes: the off-by-one edge. */
START_TEST(hidden_blk_bs_equals_a_size)
{
    const mm_size s = {24, 40, 56};
    const int bss[] = {24, 40, 56, 23, 41, 55};
    for (int b = 0; b < 6; b++)
        mm_check("matmult_blk", NULL, bss[b], s, MM_INTEGER, 700 + (uint64_t)b);
}
END_TEST

/* Called twice on the same C: the second call must not add to the first. */
START_TEST(hidden_called_twice)
{
    const mm_size s = {9, 11, 13};
    for (int v = 0; v < mm_variant_count; v++) {
        mm_check(mm_variants[v].name, mm_variants[v].fn, 0, s, MM_INTEGER, 800);
        mm_check(mm_variants[v].name, mm_variants[v].fn, 0, s, MM_INTEGER, 800);
    }
}
END_TEST

void lab1_hidden_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = hidden_large_shapes, .points = 3, .hidden = 1});
    ag_add(s, (ag_spec){.test = hidden_blk_bs_equals_a_size, .points = 2, .hidden = 1});
    ag_add(s, (ag_spec){.test = hidden_called_twice, .points = 1, .hidden = 1});
}
