/* Lab 7: the parts of the contract (fft_poisson.h) that no solution's
 * answer shows: input the functions must ignore, and the errors they must
 * return. A solver that reads face data of a periodic axis, or runs on a
 * grid it should refuse, can pass every test of the answers. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "autograder.h"
#include "lab7_checks.h"
#include "poisson.h"

/* fp_fold_bc: "periodic axes are ignored". Face data given for every face
 * of a grid with periodic axes must fold exactly as NULL does for those
 * axes: f bit for bit the same. */
START_TEST(contract_periodic_faces_ignored)
{
    static const char *cases[3] = {"PDN", "NPP", "PPP"};
    for (int c = 0; c < 3; c++) {
        fp_grid g = {{6, 5, 4}, {1.0, 1.5, 0.8}, {FP_P, FP_P, FP_P}};
        for (int a = 0; a < 3; a++)
            g.bc[a] = cases[c][a] == 'D' ? FP_D : cases[c][a] == 'N' ? FP_N : FP_P;
        size_t n = fp_cells(&g);
        double *f_all = kit_alloc_doubles(n), *f_some = kit_alloc_doubles(n), *faces[3][2];
        l7_random(f_all, n, 11u + (unsigned)c);
        memcpy(f_some, f_all, n * sizeof *f_all);
        fp_bcdata all = {{{0}}}, some = {{{0}}};
        for (int a = 0; a < 3; a++) {
            int p = a == 0 ? 1 : 0, q = a == 2 ? 1 : 2;
            for (int side = 0; side < 2; side++) {
                faces[a][side] = kit_alloc_doubles((size_t)g.n[p] * g.n[q]);
                l7_random(faces[a][side], (size_t)g.n[p] * g.n[q], 100u + 10u * (unsigned)a + (unsigned)side);
                all.face[a][side] = faces[a][side];
                some.face[a][side] = g.bc[a] == FP_P ? NULL : faces[a][side];
            }
        }
        double *f0 = kit_alloc_doubles(n);
        memcpy(f0, f_all, n * sizeof *f0);
        fp_fold_bc(&g, &all, f_all);
        fp_fold_bc(&g, &some, f_some);
        size_t changed = 0;
        for (size_t i = 0; i < n; i++)
            changed += f_some[i] != f0[i];
        ck_assert_msg(changed > 0 || c == 2,
                      "fp_fold_bc on a %s grid of 6 x 5 x 4 changed nothing, though its D and N faces hold data",
                      cases[c]);
        kit_free(f0);
        ag_assert_grid_eq(f_some, f_all, (size_t)g.n[2], (size_t)g.n[1], (size_t)g.n[0], -1.0,
                          "fp_fold_bc on a %s grid of 6 x 5 x 4 with face data on every face (index [k][j][i]): the "
                          "periodic axes' face data must be ignored, as if NULL",
                          cases[c]);
        for (int a = 0; a < 3; a++)
            kit_free(faces[a][0]), kit_free(faces[a][1]);
        kit_free(f_all), kit_free(f_some);
    }
}
END_TEST

/* fp_solve_serial "returns -1 for a bad grid (fp_grid_check)", and
 * fp_radiator_solve "-1 for a bad N", without touching the array (whose
 * size the bad grid cannot give); and 0 for the good grid next to them. */
START_TEST(contract_bad_grids_refused)
{
    static const struct {
        fp_grid g;
        const char *why;
    } bad[] = {
        {{{0, 4, 4}, {1, 1, 1}, {FP_D, FP_D, FP_D}}, "nx = 0"},
        {{{4, -3, 4}, {1, 1, 1}, {FP_D, FP_D, FP_D}}, "ny = -3"},
        {{{4, 4, FP_MAX_N + 1}, {1, 1, 1}, {FP_D, FP_D, FP_D}}, "nz = FP_MAX_N + 1"},
        {{{4, 4, 4}, {1, 0, 1}, {FP_D, FP_D, FP_D}}, "Ly = 0"},
        {{{4, 4, 4}, {1, 1, -2}, {FP_N, FP_N, FP_D}}, "Lz = -2"},
        {{{4, 4, 4}, {INFINITY, 1, 1}, {FP_P, FP_D, FP_D}}, "Lx = inf"},
        {{{4, 4, 4}, {1, NAN, 1}, {FP_D, FP_D, FP_D}}, "Ly = NaN"},
        {{{4, 4, 4}, {1, 1, 1}, {FP_D, (fp_bc)7, FP_D}}, "bc of y = 7 (no such boundary)"},
    };
    /* the refusals' messages (fp_grid_check's, poisson_check_size's) are
     * right, and would only clutter the report: stderr off meanwhile */
    fflush(stderr);
    int saved_stderr = dup(STDERR_FILENO), devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0)
        dup2(devnull, STDERR_FILENO);
    double *f = kit_alloc_doubles(64);
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        for (int i = 0; i < 64; i++)
            f[i] = i;
        int rc = fp_solve_serial(&bad[c].g, f);
        ck_assert_msg(rc == -1, "fp_solve_serial on a bad grid (%s) returned %d; expected -1", bad[c].why, rc);
        for (int i = 0; i < 64; i++)
            ck_assert_msg(f[i] == i, "fp_solve_serial on a bad grid (%s) returned -1 but changed f[%d] to %g",
                          bad[c].why, i, f[i]);
    }
    kit_free(f);
    static const int bad_n[3] = {0, -1, POISSON_MAX_N + 1};
    double u[8] = {0};
    for (int c = 0; c < 3; c++) {
        int rc = fp_radiator_solve(bad_n[c], u);
        ck_assert_msg(rc == -1, "fp_radiator_solve(N=%d) returned %d; expected -1 (a bad N)", bad_n[c], rc);
    }
    if (saved_stderr >= 0)
        dup2(saved_stderr, STDERR_FILENO), close(saved_stderr);
    if (devnull >= 0)
        close(devnull);
    /* the good ones: solved */
    fp_grid good = {{4, 4, 4}, {1, 1, 1}, {FP_D, FP_D, FP_D}};
    double rhs[64], sol[64];
    l7_random(rhs, 64, 7u);
    memcpy(sol, rhs, sizeof sol);
    int rc = fp_solve_serial(&good, sol);
    ck_assert_msg(rc == 0 && fp_residual(&good, sol, rhs) < 1e-10,
                  "fp_solve_serial on a good 4 x 4 x 4 DDD grid returned %d, residual %.3g (expected 0 and < 1e-10)", rc,
                  rc == 0 ? fp_residual(&good, sol, rhs) : NAN);
    double *w = kit_alloc_doubles(poisson_points(3));
    rc = fp_radiator_solve(3, w);
    ck_assert_msg(rc == 0, "fp_radiator_solve(N=3) returned %d; expected 0", rc);
    kit_free(w);
}
END_TEST

void lab7_contract_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){.test = contract_periodic_faces_ignored, .points = 1});
    ag_add(s, (ag_spec){.test = contract_bad_grids_refused, .points = 1});
}
