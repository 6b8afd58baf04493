/* Lab 8 (axpy), the recipe's minimal lab: its tests. */
#include "alloc.h"
#include "axpy.h"
#include "autograder.h"

/* y = a x + y against the sum written here; y[n], one past the end, must
 * keep its value. */
static void check(size_t n, double a)
{
    double *x = kit_alloc_doubles(n + 1), *y = kit_alloc_doubles(n + 1), *want = kit_alloc_doubles(n + 1);
    for (size_t i = 0; i < n; i++)
        x[i] = (double)i, y[i] = 1.0, want[i] = 1.0 + a * (double)i;
    y[n] = want[n] = 7.25;
    axpy(n, a, x, y);
    ag_assert_matrix_eq(want, y, 1, n + 1, -1.0, "axpy with n = %zu, a = %g", n, a);
    kit_free(x), kit_free(y), kit_free(want);
}

START_TEST(axpy_sizes)
{
    for (size_t n = 1; n < 40; n += 3)
        check(n, 2.0);
}
END_TEST

START_TEST(axpy_negative_a) { check(17, -0.5); }
END_TEST

static void register_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = axpy_sizes, .points = 2});
    ag_add(s, (ag_spec){.test = axpy_negative_a, .points = 1});
}

int main(int argc, char **argv) { return ag_main(argc, argv, register_tests); }
