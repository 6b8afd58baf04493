# Regenerates lab 2's mutants after a change to the reference (run from the
# repository root: python3 labs/lab2-openmp/mutants/make_mutants.py). Each
# mutant is a list of (file, old text, new text) edits of labs/lab2-openmp/solution.
import sys; sys.path.insert(0, "maintainer/mutants")
import mkpatch
def mutant(lab_ref, out, description, edits):
    """mkpatch.mutant, but several edits of one file compose: they are applied
    in turn, and mkpatch gets one whole-file edit per file."""
    merged = {}
    for fname, old, new in edits:
        src = merged.get(fname, open(f"{lab_ref}/{fname}").read())
        assert src.count(old) == 1, (out, fname, old)
        merged[fname] = src.replace(old, new)
    mkpatch.mutant(lab_ref, out, description,
                   [(f, open(f"{lab_ref}/{f}").read(), t) for f, t in merged.items()])

def gs_row(k_loop):
    """A Gauss-Seidel row written out where gauss_seidel_omp calls
    gauss_seidel_row (at that loop body's indentation), with k_loop as its
    loop over k: what the wrong orders below change."""
    return f"""                        size_t sj = poisson_side(N), si = sj * sj;
                        double h2 = poisson_h(N) * poisson_h(N);
                        {k_loop} {{
                            size_t c = poisson_index(N, i, j, k);
                            double v = poisson_jacobi_point(u, c, sj, si, h2 * f[c]);
                            norm2 += (v - u[c]) * (v - u[c]);
                            u[c] = v;
                        }}"""

R = "labs/lab2-openmp/solution"
O = "labs/lab2-openmp/mutants/"


def m(name, description, edits):
    """One mutant, labs/lab2-openmp/mutants/NAME.patch (as labs 6 and 7 write theirs)."""
    mutant(R, f"{O}{name}.patch", description, edits)

P = "poisson.c"; M = "mandel.c"

m("v2_shared_accumulator",
 "jacobi_omp_v2 sums the norm into the shared norm2 point by point with no reduction: a data race that loses updates, so it stops too early.",
 [(P, """            int T = omp_get_num_threads();
#pragma omp for schedule(static, 1) reduction(+ : norm2)
            for (int t = 0; t < T; t++)
                norm2 += jacobi_my_planes(N, f, src, dst);""",
"""#pragma omp for schedule(static)
            for (int i = 1; i <= N; i++)
                for (int j = 1; j <= N; j++)
                    for (int k = 1; k <= N; k++) {
                        size_t sj = poisson_side(N), si = sj * sj, c = poisson_index(N, i, j, k);
                        double v = poisson_jacobi_point(src, c, sj, si, poisson_h(N) * poisson_h(N) * f[c]);
                        norm2 += (v - src[c]) * (v - src[c]);
                        dst[c] = v;
                    }""")])

m("jacobi_answer_in_u_old",
 "jacobi swaps its pointers but never copies back, so after an odd number of sweeps the answer is left in u_old.\n"
 "hint: the answer left in the other buffer",
 [(P, """    if (src != u) /* an odd number of sweeps: the newest iterate is in u_old */
        memcpy(u, src, poisson_points(N) * sizeof *u);
""", "")])

m("jacobi_h_two_over_N",
 "The Jacobi sweeps use h = 2/N (the seed's spacing) instead of 2/(N+1).",
 [(P, """si = sj * sj;
    double h = poisson_h(N), h2""", """si = sj * sj;
    double h = 2.0 / N, h2""")])

m("init_radiator_in_floating_point",
 "poisson_init_omp decides the radiator with floating-point coordinates (-2/3 <= -1 + i h), which drops a plane of it when N+1 is a multiple of 3.",
 [(P, """f[c] = interior && poisson_in_radiator(N, i, j, k) ? POISSON_RADIATOR : 0.0;""",
"""double h = poisson_h(N), x = -1.0 + k * h, y = -1.0 + j * h, z = -1.0 + i * h;
                int radiator = x <= -3.0 / 8.0 && y <= -0.5 && -2.0 / 3.0 <= z && z <= 0.0;
                f[c] = interior && radiator ? POISSON_RADIATOR : 0.0;""")])

m("init_cold_face_at_y_plus_1",
 "poisson_init_omp puts the 0-degree face at y = +1 instead of y = -1.",
 [(P, "double v = interior ? T0 : poisson_boundary_value(N, i, j, k);",
      "double v = interior ? T0 : poisson_boundary_value(N, i, last - j, k);")])

m("gs_reads_only_old_values",
 "gauss_seidel reads every neighbour from a copy of the previous sweep: that is Jacobi, not Gauss-Seidel.",
 [(P, """    int it = 0;
    while (it < max_iter) {
        double norm2 = 0.0;
        for (int i = 1; i <= N; i++)
            for (int j = 1; j <= N; j++)
                norm2 += gauss_seidel_row(N, i, j, f, u);
        it++;
        if (sqrt(norm2) <= tol)
            break;
    }
    return it;""", """    int it = 0;
    double *old = malloc(poisson_points(N) * sizeof *u);
    while (it < max_iter) {
        memcpy(old, u, poisson_points(N) * sizeof *u);
        double norm2 = jacobi_planes(N, 1, N + 1, f, old, u);
        it++;
        if (sqrt(norm2) <= tol)
            break;
    }
    free(old);
    return it;"""),
  (P, "#include <math.h>\n", "#include <math.h>\n#include <stdlib.h>\n")])

m("gs_omp_red_black",
 "gauss_seidel_omp sweeps red points, then black points (red-black Gauss-Seidel): it converges, but not through the iterates of lexicographic Gauss-Seidel.",
 [(P, """#pragma omp for ordered(2) schedule(static, 1) reduction(+ : norm2)
            for (int i = 1; i <= N; i++)
                for (int j = 1; j <= N; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
                    norm2 += gauss_seidel_row(N, i, j, f, u);
#pragma omp ordered depend(source)
                }""", """for (int colour = 0; colour < 2; colour++) {
#pragma omp for schedule(static) reduction(+ : norm2)
                for (int i = 1; i <= N; i++)
                    for (int j = 1; j <= N; j++) {
""" + gs_row("for (int k = 1 + (i + j + 1 + colour) % 2; k <= N; k += 2)") + """
                    }
            }""")])

m("gs_omp_waits_for_wrong_row",
 "gauss_seidel_omp's wavefront waits for row (i-1, j-1) instead of (i-1, j), so a row may start while the row below it is still being updated and read a mix of old and new values.",
 [(P, "depend(sink : i - 1, j) depend(sink : i, j - 1)", "depend(sink : i - 1, j - 1) depend(sink : i, j - 1)")])

m("gs_omp_k_backwards",
 "gauss_seidel_omp updates each row from k = N down to 1, so it reads the new +x neighbour and the old -x one: not the Gauss-Seidel order.",
 [(P, """#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
                    norm2 += gauss_seidel_row(N, i, j, f, u);""", """#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
                    {
""" + gs_row("for (int k = N; k >= 1; k--)") + """
                    }""")])

m("jacobi_norm_squared_against_tol",
 "jacobi compares the squared norm of the update with tol, not the norm itself, so it stops at the wrong sweep.",
 [(P, """        double norm2 = jacobi_planes(N, 1, N + 1, f, src, dst);
        double *t = src;
        src = dst;
        dst = t;
        it++;
        if (sqrt(norm2) <= tol)""", """        double norm2 = jacobi_planes(N, 1, N + 1, f, src, dst);
        double *t = src;
        src = dst;
        dst = t;
        it++;
        if (norm2 <= tol)""")])

m("v1_one_sweep_too_many",
 "jacobi_omp_v1 loops while it <= max_iter: one sweep more than asked for.\n"
 "hint: one step ahead?",
 [(P, """    int it = 0;
    while (it < max_iter) {
        double norm2 = 0.0;
        /* The threads""", """    int it = 0;
    while (it <= max_iter) {
        double norm2 = 0.0;
        /* The threads""")])

m("gs_writes_boundary",
 "gauss_seidel's rows run to k = N+1, so they overwrite the boundary face x = +1.",
 [(P, """    for (int k = 1; k <= N; k++) {
        size_t c = row + (size_t)k;
        double v = poisson_jacobi_point(u, c, sj, si, h2 * f[c]);""", """    for (int k = 1; k <= N + 1; k++) {
        size_t c = row + (size_t)k;
        double v = poisson_jacobi_point(u, c, sj, si, h2 * f[c]);""")])

m("mandel_wrong_scale",
 "mandel scales y by 3.5/width instead of 3.5/height: wrong for every image that is not square.",
 [(M, "scale_y = 3.5 / height", "scale_y = 3.5 / width")])

m("mandel_set_gets_max_iter",
 "mandel stores max_iter, not 0, for points in the set.",
 [(M, "img[(size_t)px * height + py] = iter == max_iter ? 0 : iter;", "img[(size_t)px * height + py] = iter;")])


m("mandel_shared_pixel_counter",
 "mandel counts its pixels with one counter shared by all threads (img[pos++]): each thread's columns land in the wrong place.",
 [(M, "    double scale_x = 3.5 / width, scale_y = 3.5 / height;", "    double scale_x = 3.5 / width, scale_y = 3.5 / height;\n    size_t pos = 0;"),
  (M, "img[(size_t)px * height + py] = iter == max_iter ? 0 : iter;", "img[pos++] = iter == max_iter ? 0 : iter;")])

m("gs_sweeps_planes_downward",
 "gauss_seidel sweeps the planes from i = N down to 1, so each point reads the new +z neighbour and the old -z one: it converges to the same answer, but not through lexicographic Gauss-Seidel's iterates.",
 [(P, """        for (int i = 1; i <= N; i++)
            for (int j = 1; j <= N; j++)
                norm2 += gauss_seidel_row(N, i, j, f, u);""", """        for (int i = N; i >= 1; i--)
            for (int j = 1; j <= N; j++)
                norm2 += gauss_seidel_row(N, i, j, f, u);""")])

# Their '# caught by:' header lines are added by hand after the
# description (maintainer/mutants/mkpatch.py keeps an existing one).
m("gs_omp_wavefront_blocks",
 "gauss_seidel_omp's doacross loop has schedule(static): each thread gets a block of planes and waits for the thread before it to finish its block, so the wavefront is right bit for bit but never runs two threads at once.",
 [(P, "#pragma omp for ordered(2) schedule(static, 1) reduction(+ : norm2)",
      "#pragma omp for ordered(2) schedule(static) reduction(+ : norm2)")])

m("mandel_schedule_fixed",
 "mandel's loop has schedule(dynamic, 1) written in, not schedule(runtime): right images, but OMP_SCHEDULE no longer chooses the schedule, as the assignment asks.",
 [(M, "#pragma omp parallel for schedule(runtime)", "#pragma omp parallel for schedule(dynamic, 1)")])

# Ordering mutants: races that chaos schedules are for. On a
# 2-core host they are caught by the quiet run already (the tests run more
# threads than cores), so their headers do not say "chaos: needed".
m("v2_sweep_nowait",
 "jacobi_omp_v2's sweep loop has nowait: the thread that swaps the arrays and decides the stop does so before the other threads have added their share of the norm (a missing barrier), so it may stop early.",
 [(P, "#pragma omp for schedule(static, 1) reduction(+ : norm2)\n            for (int t = 0; t < T; t++)",
   "#pragma omp for schedule(static, 1) reduction(+ : norm2) nowait\n            for (int t = 0; t < T; t++)")])

m("mandel_shared_column",
 "mandel computes each column into one scratch buffer shared by all threads, then copies it into the image: a thread copies another thread's column when both run at once.",
 [(M, """    double scale_x = 3.5 / width, scale_y = 3.5 / height;
""", """    double scale_x = 3.5 / width, scale_y = 3.5 / height;
    int *column = malloc((size_t)height * sizeof *column);
    if (!column)
        return;
"""), (M, "            img[(size_t)px * height + py] = iter == max_iter ? 0 : iter;\n        }\n    }\n",
      "            column[py] = iter == max_iter ? 0 : iter;\n        }\n        for (int py = 0; py < height; py++)\n            img[(size_t)px * height + py] = column[py];\n    }\n    free(column);\n"),
  (M, "#include <stddef.h>\n", "#include <stddef.h>\n#include <stdlib.h>\n")])
