/* Lab 3 (gpu-matmult): hidden tests, for instructors. `make release` leaves
 * this file out of the student copy; the suite then runs without them. */
#include "lab3_checks.h"
#include "autograder.h"

/* C of 16400 x 16400 doubles is 2.15e9 bytes, past 2^31: a byte count kept
 * in an int overflows (the seed's bug), here for the host-side code that
 * every variant shares. k = 2 keeps the CPU's reference cheap. */
START_TEST(hidden_c_larger_than_2gib)
{
    const ag_mm_size s = {16400, 16400, 2};
    ag_mm_problem p;
    ag_mm_problem_make(&p, s, AG_MM_INTEGER, 900);
    l3_check_problem(l3_variant_named("matmult_gpu2"), &p);
    l3_check_problem(l3_variant_named("matmult_gpulib"), &p);
    ag_mm_problem_free(&p);
}
END_TEST

/* Vectors and lopsided shapes: one row, one column, k = 1, a long k. */
START_TEST(hidden_lopsided_shapes)
{
    static const ag_mm_size s[] = {{1, 300, 200}, {300, 1, 200}, {200, 300, 1}, {1, 1, 5000}, {513, 2, 1025}};
    for (int c = 0; c < 5; c++)
        for (int v = 0; v < l3_variant_count; v++)
            l3_check(&l3_variants[v], s[c], AG_MM_INTEGER, 1000 + (uint64_t)c);
}
END_TEST

/* Called twice in a row: the second call must compute C again, not return
 * what a reused device buffer happens to hold. */
START_TEST(hidden_called_twice)
{
    const ag_mm_size s = {45, 39, 23};
    for (int v = 0; v < l3_variant_count; v++) {
        l3_check(&l3_variants[v], s, AG_MM_INTEGER, 1100);
        l3_check(&l3_variants[v], s, AG_MM_INTEGER, 1101);
    }
}
END_TEST

void ag_hidden_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = hidden_c_larger_than_2gib, .points = 2, .hidden = 1, .gpus = 1, .timeout = 120});
    ag_add(s, (ag_spec){.test = hidden_lopsided_shapes, .points = 2, .hidden = 1, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){.test = hidden_called_twice, .points = 1, .hidden = 1, .gpus = 1, .timeout = 60});
}
