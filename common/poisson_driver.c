#include "poisson_driver.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "bench/bench_check.h"
#include "cli.h"
#include "poisson.h"
#include "poisson_io.h"
#include "timer.h"

static void usage(const char *prog, const poisson_method *m, int count)
{
    fprintf(stderr,
            "usage: %s METHOD N max_iter tol T0 [output [file]]\n"
            "  N         interior points per direction (1 .. %d); arrays are (N+2)^3\n"
            "  max_iter  at most this many sweeps (>= 0)\n"
            "  tol       stop when the Frobenius norm of the update is <= tol; 0 runs max_iter sweeps\n"
            "  T0        start value of the interior points\n"
            "  output    none (default), binary, vtk or png; file defaults to poisson_METHOD_N.EXT\n"
            "  METHOD:\n",
            prog, POISSON_MAX_N);
    for (int i = 0; i < count; i++)
        fprintf(stderr, "    %-10s %s\n", m[i].name, m[i].about ? m[i].about : "");
    fprintf(stderr, "  prints: N sweeps seconds Mflop/s GB/s GLUP/s total_seconds residual # poisson_METHOD\n");
}

/* POISSON_CHECK=1: solve the same problem again with the kit's sequential
 * reference (common/poisson.h) and print how many elements of u differ from
 * it, bit for bit (the kit fixes the expression and its order, so every
 * correct method gives the same bits), and both sweep counts. */
static void check_against_reference(const poisson_method *m, int N, double tol, int max_iter, double T0, int sweeps,
                                    const double *u)
{
    size_t n = poisson_points(N);
    double *f = kit_alloc_doubles(n), *r = kit_alloc_doubles(n), *r_old = NULL;
    poisson_init(N, T0, f, r);
    int jacobi_style = m->jacobi || (m->staged && m->staged_needs_u_old);
    int ref_sweeps;
    if (jacobi_style) {
        r_old = kit_alloc_doubles(n);
        memcpy(r_old, r, n * sizeof *r);
        ref_sweeps = poisson_jacobi_reference(N, tol, max_iter, f, r, r_old);
    } else {
        ref_sweeps = poisson_gauss_seidel_reference(N, tol, max_iter, f, r);
    }
    printf("# check poisson_%s: wrong=%ld sweeps=%d reference_sweeps=%d (u against the kit's sequential %s, bit for "
           "bit)\n",
           m->name, bench_count_bit_differences(u, r, n), sweeps, ref_sweeps,
           jacobi_style ? "Jacobi" : "Gauss-Seidel");
    kit_free(f);
    kit_free(r);
    kit_free(r_old);
}

static const char *const output_kinds[] = {"none", "binary", "vtk", "png"};
static const char *const output_ext[] = {"", "bin", "vtk", "png"};

static int write_output(int kind, const char *file, const char *method, int N, const double *u)
{
    if (kind == 0)
        return 0;
    char name[512];
    if (!file) {
        snprintf(name, sizeof name, "poisson_%s_%d.%s", method, N, output_ext[kind]);
        file = name;
    }
    int rc = kind == 1 ? poisson_write_binary(file, N, u)
           : kind == 2 ? poisson_write_vtk(file, N, u)
                       : poisson_write_png(file, N, u, method);
    if (rc == 0)
        fprintf(stderr, "wrote %s\n", file);
    return rc;
}

int poisson_driver_main(int argc, char **argv, const poisson_method *methods, int count)
{
    const poisson_method *m = NULL;
    for (int i = 0; argc > 1 && i < count; i++)
        if (!strcmp(argv[1], methods[i].name))
            m = &methods[i];
    if (argc < 6 || argc > 8 || !m) {
        if (argc > 1 && !m)
            fprintf(stderr, "error: unknown METHOD '%s'\n", argv[1]);
        usage(argv[0], methods, count);
        return 2;
    }
    int N, max_iter, kind = 0, check;
    double tol, T0;
    if (cli_parse_int(argv[2], "N (interior points per direction)", 1, POISSON_MAX_N, &N) ||
        cli_parse_int(argv[3], "max_iter", 0, 1 << 30, &max_iter) ||
        cli_parse_double(argv[4], "tol", 0.0, 1e300, &tol) ||
        cli_parse_double(argv[5], "T0 (start temperature)", -1e300, 1e300, &T0) ||
        cli_env_int("POISSON_CHECK", 0, 0, 1, &check)) {
        usage(argv[0], methods, count);
        return 2;
    }
    if (argc > 6) {
        kind = -1;
        for (int k = 0; k < 4; k++)
            if (!strcmp(argv[6], output_kinds[k]))
                kind = k;
        if (kind < 0) {
            fprintf(stderr, "error: output must be none, binary, vtk or png, got '%s'\n", argv[6]);
            usage(argv[0], methods, count);
            return 2;
        }
    }
    const char *file = argc > 7 ? argv[7] : NULL;

    int jacobi_style = m->jacobi || (m->staged && m->staged_needs_u_old);
    size_t n = poisson_points(N);
    double *f = kit_alloc_doubles(n), *u = kit_alloc_doubles(n);
    double *u_old = jacobi_style ? kit_alloc_doubles(n) : NULL;
    if (m->init) {
        m->init(N, T0, f, u, u_old);
    } else {
        poisson_init(N, T0, f, u);
        if (u_old)
            memcpy(u_old, u, n * sizeof *u);
    }

    int sweeps;
    double t0 = wall_time(), t_solve, t_total;
    if (m->staged) {
        void *state = m->staged->setup(N, f, u, u_old);
        if (!state)
            return 1;
        double t1 = wall_time();
        sweeps = m->staged->solve(state, N, tol, max_iter);
        t_solve = wall_time() - t1;
        if (sweeps < 0 || m->staged->finish(state, N, u) != 0) {
            fprintf(stderr, "error: method %s failed\n", m->name);
            return 1;
        }
        t_total = wall_time() - t0;
    } else {
        sweeps = m->jacobi ? m->jacobi(N, tol, max_iter, f, u, u_old) : m->gauss_seidel(N, tol, max_iter, f, u);
        t_solve = t_total = wall_time() - t0;
        if (m->sweep_seconds && m->sweep_seconds() >= 0)
            t_solve = m->sweep_seconds();
    }
    if (sweeps < 0) {
        fprintf(stderr, "error: method %s failed\n", m->name);
        return 1;
    }

    double points = (double)N * N * N * sweeps;
    double flops = m->flops_per_point > 0 ? m->flops_per_point : POISSON_FLOPS_PER_POINT;
    char f1[32], f2[32], f3[32];
    printf("%d %d %.6f %s %s %s %.6f %.3g # poisson_%s\n", N, sweeps, t_solve,
           bench_fig(f1, "%.1f", bench_rate(points * flops / 1e6, t_solve)),
           bench_fig(f2, "%.2f", bench_rate(points * m->bytes_per_point / 1e9, t_solve)),
           bench_fig(f3, "%.4f", bench_rate(points / 1e9, t_solve)), t_total, poisson_residual_max(N, f, u), m->name);
    if (check)
        check_against_reference(m, N, tol, max_iter, T0, sweeps, u);
    fflush(stdout);
    if (m->bytes_per_point_alt > 0)
        fprintf(stderr, "GB/s counting %g bytes per point: %s\n", m->bytes_per_point_alt,
                bench_fig(f1, "%.2f", bench_rate(points * m->bytes_per_point_alt / 1e9, t_solve)));

    int rc = write_output(kind, file, m->name, N, u);
    kit_free(f);
    kit_free(u);
    kit_free(u_old);
    return rc;
}
