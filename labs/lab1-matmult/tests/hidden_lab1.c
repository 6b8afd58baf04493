/* Lab 1 (matmult): hidden tests, for instructors. `make release` leaves this
 * file out of the student copy; the suite then runs without them. */
#include "alloc.h"
#include "autograder.h"
#include "lab1_checks.h"

/* Larger and more lopsided shapes than the visible tests use. */
START_TEST(hidden_large_shapes)
{
    static const ag_mm_size s[] = {{129, 257, 65}, {200, 1, 300}, {1, 300, 200}, {300, 200, 1}};
    for (int c = 0; c < 4; c++) {
        for (int v = 0; v < l1_variant_count; v++)
            l1_check(l1_variants[v].name, l1_variants[v].fn, 0, s[c], AG_MM_INTEGER, 600 + (uint64_t)c);
        l1_check("matmult_blk", NULL, 48, s[c], AG_MM_INTEGER, 600 + (uint64_t)c);
    }
}
END_TEST

/* bs equal to exactly one of the sizes: the off-by-one edge. */
START_TEST(hidden_blk_bs_equals_a_size)
{
    const ag_mm_size s = {24, 40, 56};
    const int bss[] = {24, 40, 56, 23, 41, 55};
    for (int b = 0; b < 6; b++)
        l1_check("matmult_blk", NULL, bss[b], s, AG_MM_INTEGER, 700 + (uint64_t)b);
}
END_TEST

/* Called twice on the same C: the second call finds the first one's
 * (finite) result in C and must overwrite it, not add to it. The NaN of
 * the other tests cannot see this: code that clears only NaN, or only on
 * its first call, passes them. */
START_TEST(hidden_called_twice)
{
    const ag_mm_size s = {9, 11, 13};
    ag_mm_problem p;
    ag_mm_problem_make(&p, s, AG_MM_INTEGER, 800);
    double *C = kit_alloc_doubles(p.sc);
    for (int v = 0; v <= l1_variant_count; v++) {
        const char *name = v < l1_variant_count ? l1_variants[v].name : "matmult_blk";
        l1_fn fn = v < l1_variant_count ? l1_variants[v].fn : NULL;
        ag_poison(C, p.sc);
        l1_check_problem(name, fn, 4, &p, C);
        l1_check_problem(name, fn, 4, &p, C); /* C now holds the product */
    }
    kit_free(C);
    ag_mm_problem_free(&p);
}
END_TEST

void ag_hidden_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = hidden_large_shapes, .points = 3, .hidden = 1});
    ag_add(s, (ag_spec){.test = hidden_blk_bs_equals_a_size, .points = 2, .hidden = 1});
    ag_add(s, (ag_spec){.test = hidden_called_twice, .points = 1, .hidden = 1});
}
