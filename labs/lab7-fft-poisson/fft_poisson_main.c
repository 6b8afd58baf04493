/* Lab 7's driver: runs the solver on the problems the tests use and prints
 * what a person wants to see (errors, the exact error, residuals, times).
 *
 *   fft_poisson mms BCS N [wx wy wz]   eigenmode solution on [0,pi]^3 (default w = 1 3 4)
 *   fft_poisson fold BCS N             exp(x/2) sin(y+1/2) cos(0.7z+0.2) on [0,1]^3, non-homogeneous faces
 *   fft_poisson slice BCS N FILE       the mms solution: its plane z = N/2 and its error, as columns x y u err
 *   fft_poisson radiator N             common's radiator problem: the direct solve against Jacobi
 *                                      (exit 1, INVALID, when the direct solve's residual is not
 *                                      below 1e-10 of max|f|: make bench times it)
 *
 * BCS: three letters from P, N, D for the x, y and z axes (e.g. NND). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cli.h"
#include "fft_poisson.h"
#include "fp_mms.h"
#include "poisson.h"
#include "timer.h"

static int usage(void)
{
    fprintf(stderr, "usage: fft_poisson mms BCS N [wx wy wz] | fold BCS N | slice BCS N FILE | radiator N\n"
                    "       BCS: three of P, N, D (x, y, z), e.g. NND\n");
    return 2;
}

static int parse_bcs(const char *s)
{
    if (strlen(s) != 3 || strspn(s, "PND") != 3) {
        fprintf(stderr, "fft_poisson: boundary types '%s': expected three letters of P, N, D\n", s);
        return -1;
    }
    return 0;
}

static int run_mms(const char *bcs, int N, const int w[3])
{
    fp_grid g = l7_grid(bcs, N, N, N, acos(-1.0));
    double oracle, linf, t = wall_time();
    double err = l7_eigenmode_error(fp_solve_serial, &g, w, &oracle, &linf);
    t = wall_time() - t;
    printf("%s N=%d w=(%d,%d,%d): RMS error %.6e (exact discrete error %.6e), max error %.3e, %.3f s\n", bcs, N, w[0],
           w[1], w[2], err, oracle, linf, t);
    return isfinite(err) ? 0 : 1;
}

static int run_slice(const char *bcs, int N, const int w[3], const char *file)
{
    fp_grid g = l7_grid(bcs, N, N, N, acos(-1.0));
    size_t n = fp_cells(&g);
    double *u = kit_alloc_doubles(n), *f = kit_alloc_doubles(n);
    l7_eigenmode(&g, w, 0, u, f);
    if (fp_solve_serial(&g, f) != 0)
        return 1;
    FILE *out = fopen(file, "w");
    if (!out) {
        perror(file);
        return 1;
    }
    fprintf(out, "# %s N=%d w=(%d,%d,%d), plane z index %d: x y u_h (u_h - u)\n", bcs, N, w[0], w[1], w[2], N / 2);
    for (int j = 0; j < N; j++) {
        for (int i = 0; i < N; i++) {
            size_t at = fp_index(&g, i, j, N / 2);
            fprintf(out, "%.6f %.6f %.10e %.10e\n", (i + 0.5) * fp_h(&g, 0), (j + 0.5) * fp_h(&g, 1), f[at],
                    f[at] - u[at]);
        }
        fprintf(out, "\n");
    }
    fclose(out);
    kit_free(u), kit_free(f);
    return 0;
}

static int run_radiator(int N)
{
    size_t n = poisson_points(N);
    double *u = kit_alloc_doubles(n), *f = kit_alloc_doubles(n), *ju = kit_alloc_doubles(n), *jo = kit_alloc_doubles(n);
    double t = wall_time();
    if (fp_radiator_solve(N, u) != 0) {
        printf("radiator N=%d: INVALID (failed: fp_radiator_solve returned an error)\n", N);
        return 1;
    }
    double t_direct = wall_time() - t;
    poisson_init(N, 0.0, f, ju);
    memcpy(jo, ju, n * sizeof *jo);
    t = wall_time();
    int sweeps = poisson_jacobi_reference(N, 1e-8, 1000000, f, ju, jo);
    double t_jacobi = wall_time() - t, diff = 0.0;
    for (size_t c = 0; c < n; c++)
        diff = fmax(diff, fabs(u[c] - ju[c]));
    double residual = poisson_residual_max(N, f, u), fmax_abs = 0.0;
    for (size_t c = 0; c < n; c++)
        fmax_abs = fmax(fmax_abs, fabs(f[c]));
    int right = residual < 1e-10 * fmax_abs;
    if (right)
        printf("radiator N=%d: direct (DST-I) %.4f s, residual %.2e; Jacobi to update norm 1e-8: %d sweeps, %.3f s, "
               "max |u_jacobi - u_direct| = %.2e\n",
               N, t_direct, residual, sweeps, t_jacobi, diff);
    else
        printf("radiator N=%d: INVALID (residual %.2e >= 1e-10 max|f|)\n", N, residual);
    kit_free(u), kit_free(f), kit_free(ju), kit_free(jo);
    return right ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    int N, w[3] = {1, 3, 4};
    if (!strcmp(argv[1], "radiator"))
        return cli_parse_int(argv[2], "N", 1, POISSON_MAX_N, &N) ? 2 : run_radiator(N);
    if (argc < 4 || parse_bcs(argv[2]) || cli_parse_int(argv[3], "N", 1, FP_MAX_N, &N))
        return usage();
    if (!strcmp(argv[1], "mms") || !strcmp(argv[1], "slice")) {
        if (!strcmp(argv[1], "mms") && argc == 7)
            for (int a = 0; a < 3; a++)
                if (cli_parse_int(argv[4 + a], "w", 0, 1000, &w[a]))
                    return 2;
        if (strchr(argv[2], 'P'))
            w[0] = w[1] = w[2] = 2; /* periodic on [0, pi] needs even w */
        return !strcmp(argv[1], "mms") ? run_mms(argv[2], N, w) : argc == 5 ? run_slice(argv[2], N, w, argv[4]) : usage();
    }
    if (!strcmp(argv[1], "fold")) {
        double linf, ghost, t = wall_time();
        double err = l7_fold_error(argv[2], N, N, N, &linf, &ghost);
        printf("%s N=%d non-homogeneous: RMS error %.6e, max error %.3e, discrete residual with ghosts %.2e, %.3f s\n",
               argv[2], N, err, linf, ghost, wall_time() - t);
        return isfinite(err) ? 0 : 1;
    }
    return usage();
}
