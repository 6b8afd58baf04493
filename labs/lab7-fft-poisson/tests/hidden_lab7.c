/* Lab 7 (fft-poisson): hidden tests, for instructors. `make release`
 * leaves this file out of the student copy; the suite then runs without
 * them. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "autograder.h"
#include "lab7_checks.h"

/* Grids one cell thick along an axis (a 1x1 Thomas system, a transform of
 * length 1) and lengths that differ per axis. */
START_TEST(hidden_thin_grids)
{
    static const struct {
        const char *bcs;
        int n[3];
    } cases[] = {{"DDD", {1, 1, 1}}, {"NDN", {1, 5, 1}}, {"DNP", {4, 1, 3}}, {"PDN", {3, 7, 1}}, {"NNN", {1, 1, 2}}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        fp_grid g = l7_grid(cases[c].bcs, cases[c].n[0], cases[c].n[1], cases[c].n[2], 1.0);
        g.L[0] = 0.7, g.L[2] = 2.5;
        size_t n = fp_cells(&g);
        double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n);
        l7_random(f, n, 900u + (unsigned)c);
        memcpy(u, f, n * sizeof *u);
        int rc = fp_solve_serial(&g, u);
        double res = fp_residual(&g, u, f);
        ck_assert_msg(rc == 0 && res < 1e-10, "fp_solve_serial, %s, %dx%dx%d cells, L = (0.7, 1, 2.5): returned %d, "
                      "residual %.3g (expected < 1e-10)", cases[c].bcs, g.n[0], g.n[1], g.n[2], rc, res);
        kit_free(f), kit_free(u);
    }
}
END_TEST

/* Folding on a non-cubic grid with every face non-zero: the discrete
 * equation with ghosts rebuilt from the face data. */
START_TEST(hidden_fold_non_cubic)
{
    static const char *cases[] = {"DND", "NDN", "PDN", "NNP", "DPD"};
    for (int c = 0; c < 5; c++) {
        double ghost;
        l7_fold_error(cases[c], 12, 9, 15, NULL, &ghost);
        ck_assert_msg(ghost < 1e-10, "%s, 12x9x15, non-homogeneous faces: max|stencil(u) - f|/max|f| with the ghost "
                      "cells of the face data = %.3g, expected < 1e-10", cases[c], ghost);
    }
}
END_TEST

void ag_hidden_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = hidden_thin_grids, .points = 1, .hidden = 1});
    ag_add(s, (ag_spec){.test = hidden_fold_non_cubic, .points = 1, .hidden = 1});
}
