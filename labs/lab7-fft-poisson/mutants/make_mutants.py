"""Lab 7's mutants, regenerated from the current reference:
    python3 labs/lab7-fft-poisson/mutants/make_mutants.py
Each is a known mistake (most from the issue's list and the notes' pitfalls)
that the tests must catch."""
import os, sys
sys.path.insert(0, "maintainer/mutants")
from mkpatch import mutant

REF = "labs/lab7-fft-poisson/solution"
OUT = "labs/lab7-fft-poisson/mutants"


def m(name, what, edits, caught_by=()):
    mutant(REF, f"{OUT}/{name}.patch", what, edits, caught_by)


m("dirichlet_eigenvalue_no_offset", "The Dirichlet eigenvalue without its k+1 offset (RODFT10 index k is mode k+1).",
  [("fp_basics.c", "cos(pi * (k + 1) / n)", "cos(pi * k / n)")])
m("periodic_eigenvalue_k_pi", "The periodic eigenvalue with k pi/n instead of 2 k pi/n.",
  [("fp_basics.c", "cos(2.0 * pi * k / n)", "cos(pi * k / n)")])
m("normalised_by_n", "The r2r round trip divided by n instead of 2n.",
  [("fp_serial.c", "double scale = 1.0 / (fp_round_trip(g->bc[0], g->n[0]) * fp_round_trip(g->bc[1], g->n[1]));",
    "double scale = 1.0 / ((double)g->n[0] * g->n[1]);")])
m("dirichlet_corner_minus_2", "The Dirichlet corner of the z systems -2/h^2 instead of -3/h^2 (ghost 0 instead of -u_0).",
  [("fp_serial.c", "const double corner = g->bc[2] == FP_N ? off : -off;",
    "const double corner = g->bc[2] == FP_N ? off : 0.0;")])
m("neumann_high_face_sign", "Neumann data folded with the wrong sign at the high face (+g/h on both faces).",
  [("fp_basics.c", "f[at] += side ? -gv / h : gv / h;", "f[at] += gv / h;")])
m("singular_mode_divided_by_zero", "The singular mode of an all-periodic/Neumann problem divided by its zero eigenvalue.",
  [("fp_serial.c", "if (kx == 0 && ky == 0 && k == 0 && fp_singular(g))", "if (0)")])
m("singular_system_not_pinned", "The singular (0,0) z system of a Neumann z solved as it is (no pinned value).",
  [("fp_serial.c", "                        first[q] -= off; /* pins", "                        first[q] -= 0.0; /* pins")])
m("makhoul_inverse_paper_sign", "Makhoul's inverse with the paper's sign: exp(-i pi k/2n) instead of exp(+i pi k/2n).",
  [("fp_makhoul.c", "v[k] = 0.5 * cexp(I * pi * k", "v[k] = 0.5 * cexp(-I * pi * k")])
m("dst_not_reversed", "DST-II through the DCT without reading the result backwards.",
  [("fp_makhoul.c", "y[k] = c[n - 1 - k];", "y[k] = c[k];")])
m("thomas_drops_last_row", "Thomas's forward sweep stops before the last row.",
  [("fp_basics.c", "for (int i = 1; i < n; i++) {", "for (int i = 1; i < n - 1; i++) {")])
m("plan_for_x_length", "One FFT plan's length (nx) used for every axis.",
  [("fp_serial.c", "fftw_iodim line = {g->n[axis], stride[axis], stride[axis]};",
    "fftw_iodim line = {g->n[0], stride[axis], stride[axis]};")])
m("batch_buffers_shared", "The collapsed batch's line and work buffers shared by all threads (a race).",
  [("fp_serial.c", """#pragma omp parallel reduction(| : bad)
    {
        double *r = kit_alloc_doubles((size_t)LINES * nz), *gam = kit_alloc_doubles((size_t)LINES * nz);
""", """    double *r = kit_alloc_doubles((size_t)LINES * nz), *gam = kit_alloc_doubles((size_t)LINES * nz);
#pragma omp parallel reduction(| : bad)
    {
"""), ("fp_serial.c", """        kit_free(r);
        kit_free(gam);
    }
    return bad ? -1 : 0;""", """    }
    kit_free(r);
    kit_free(gam);
    return bad ? -1 : 0;""")])
m("transpose_swaps_communicators", "The transposes use the column communicator for x <-> y and the row one for y <-> z.",
  [("fp_mpi.c", "MPI_Comm comm = across_row ? d->row : d->col;", "MPI_Comm comm = across_row ? d->col : d->row;")])
m("unpack_wrong_chunk_stride", "The unpack reads peer q's block at q times a line length instead of q times the block size.",
  [("fp_mpi.c", "copy_box(&part, &part, recv + (size_t)q * block, &d->box[to], out);",
    "copy_box(&part, &part, recv + (size_t)q * (size_t)part.n[0], &d->box[to], out);")])
m("mpi_mean_on_one_rank", "The distributed solver removes each rank's own mean of f instead of the global one.",
  [("fp_mpi.c", "    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_SUM, d->comm));\n    return s / (double)fp_cells(&d->g);",
    "    return s / (double)cells;")])
m("gpu_post_forward_no_conjugate",
  "The GPU's forward post kernel reads V_k for k > n/2 from the half spectrum without conjugating it.\nrequires: gpu",
  [("fp_cuda.cu", "vy = 2 * kk <= n ? S[kk].y : -S[n - kk].y;", "vy = 2 * kk <= n ? S[kk].y : S[n - kk].y;")])
m("gpu_thomas_scale_first_row_only",
  "The GPU's Thomas kernel normalises only the first element of each system.\nrequires: gpu",
  [("fp_cuda.cu", "prev = (a[k * nsys + s] * Z.scale - off * prev) / aux;", "prev = (a[k * nsys + s] - off * prev) / aux;")],
  caught_by=["gpu_solve_equals_serial", "gpu_eigenmodes_and_order", "nccl_one_rank"])
m("gpu_fused_store_no_conjugate",
  "The fused solver's store callback makes coefficient n-k from V_k without conjugating it.\nrequires: gpu",
  [("fp_cuda_fused.cu", "if (twin) put(line, stride, n, bc, tw, n - k, S.x, -S.y);", "if (twin) put(line, stride, n, bc, tw, n - k, S.x, S.y);")],
  caught_by=["gpu_solve_equals_serial", "gpu_eigenmodes_and_order"])
m("gpu_fused_thomas_scale_first_row_only",
  "The fused solver's Thomas kernel normalises only the first element of each system.\nrequires: gpu",
  [("fp_cuda.cu", "prev = (Z.scale * a[k * nsys + s] - off * prev) / aux;", "prev = (a[k * nsys + s] - off * prev) / aux;")],
  caught_by=["gpu_solve_equals_serial", "gpu_eigenmodes_and_order"])
m("nccl_unpack_from_wrong_box",
  "The NCCL transposes unpack the part of the peer's destination box, not of its source box (nothing from others).\n"
  "requires: gpu\nrequires: gpus 2",
  [("fp_nccl.cu", """        fp_box theirs = fp_pencil_box(&W.g, W.pr, W.pc, qr, qc, from);
        fp_box part = fp_box_intersect(&theirs, &W.box[to]);""", """        fp_box theirs = fp_pencil_box(&W.g, W.pr, W.pc, qr, qc, to);
        fp_box part = fp_box_intersect(&theirs, &W.box[to]);""")])

m("dist_boxes_r_c_swapped", "fp_dist_init computes the pencils' boxes with r and c swapped: right on the ranks where r = c only.\n"
  "Those ranks go on into the transposes while the others fail the layout check: the kit's watchdog must end\n"
  "the job within seconds (every rank waiting in a collective), not at the test's time limit.",
  [("fp_mpi.c", "d->box[p] = fp_pencil_box(g, pr, pc, d->r, d->c, (fp_pencil)p);",
    "d->box[p] = fp_pencil_box(g, pr, pc, d->c, d->r, (fp_pencil)p);")],
  caught_by=["mpi_two_ranks", "mpi_four_ranks"])

m("gpu_gather_missing_syncthreads", "The GPU's gather_tiles reads its shared-memory tile with no __syncthreads() after the\n"
  "threads stored it: a thread reads an element another warp has not written yet.\nrequires: gpu",
  [("fp_cuda.cu", """        }
    __syncthreads();
    for (int r = threadIdx.y; r < TILE; r += ROWS)
        if (x0 + r < G.d[0] && c0 + tx < G.n) {
            size_t l""", """        }
    for (int r = threadIdx.y; r < TILE; r += ROWS)
        if (x0 + r < G.d[0] && c0 + tx < G.n) {
            size_t l""")],
  caught_by=["gpu_transforms", "gpu_solve_equals_serial", "gpu_eigenmodes_and_order"])


# --- what the answers do not show: ignored input, refused input --------------
m("fold_bc_reads_periodic_faces", "fp_fold_bc folds face data given for a periodic axis, as if Neumann (the contract: ignored).\n"
  "Every answer test passes NULL faces there.",
  [("fp_basics.c", """        if (g->bc[a] == FP_P)
            continue;
        /* the face's two axes""", """        /* the face's two axes""")],
  caught_by=["contract_periodic_faces_ignored"])
m("solve_serial_skips_grid_check", "fp_solve_serial never calls fp_grid_check: a bad grid is solved (or crashes), not refused with -1.",
  [("fp_serial.c", """    if (fp_grid_check(g) != 0)
        return -1;
    size_t n = fp_cells(g);""", """    size_t n = fp_cells(g);""")],
  caught_by=["contract_bad_grids_refused"])

# --- a run that ends before the checks ----------------------------------------
m("early_exit", "The distributed solvers and the transpose end the program at once, MPI_Finalize through its PMPI\n"
  "name (past any wrapper) then _exit(0): every rank exits 0 and mpirun too, with nothing solved.\n"
  "Only the ranks' missing reports of the end of their checks show it.",
  [("fp_mpi.c", "#include <string.h>\n", "#include <string.h>\n#include <unistd.h>\n"),
   ("fp_mpi.c", "int fp_transpose(const fp_dist *d, fp_pencil from, fp_pencil to, const double *in, double *out)\n{\n",
    "int fp_transpose(const fp_dist *d, fp_pencil from, fp_pencil to, const double *in, double *out)\n{\n"
    "    if (d->g.n[0] > 0) {\n        PMPI_Finalize();\n        _exit(0);\n    }\n"),
   ("fp_mpi.c", "int fp_solve_mpi(const fp_dist *d, double *a)\n{\n",
    "int fp_solve_mpi(const fp_dist *d, double *a)\n{\n    if (d->g.n[0] > 0) {\n        PMPI_Finalize();\n        _exit(0);\n    }\n"),
   ("fp_nccl.cu", "double *a)\n{\n", "double *a)\n{\n    if (pr > 0)\n        exit(0);\n")],
  caught_by=["mpi_one_rank", "mpi_two_ranks", "mpi_four_ranks", "nccl_one_rank", "nccl_two_ranks"])

# --- an answer remembered across calls -----------------------------------------
m("solve_serial_remembers_answer",
  "fp_solve_serial remembers its last answer by the array's address, the grid and a sample of f (its first value),\n"
  "and gives it back when they come again: a new f that agrees there gets the old solution.",
  [("fp_serial.c", "#include <stddef.h>\n", "#include <stddef.h>\n#include <stdlib.h>\n#include <string.h>\n"),
   ("fp_serial.c", """    size_t n = fp_cells(g);
    fp_box all = fp_whole(g);
    if (fp_singular(g))
        subtract(f, n, mean(f, n));
    fp_transform(g, &all, 0, 0, f);""", """    size_t n = fp_cells(g);
    static const double *seen_f;
    static fp_grid seen_g;
    static double seen_sample, *seen_u;
    const double sample = f[0];
    if (seen_u && f == seen_f && !memcmp(g, &seen_g, sizeof *g) && sample == seen_sample) {
        memcpy(f, seen_u, n * sizeof *f);
        return 0;
    }
    fp_box all = fp_whole(g);
    if (fp_singular(g))
        subtract(f, n, mean(f, n));
    fp_transform(g, &all, 0, 0, f);"""),
   ("fp_serial.c", """    if (fp_singular(g))
        subtract(f, n, mean(f, n));
    return rc;""", """    if (fp_singular(g))
        subtract(f, n, mean(f, n));
    free(seen_u);
    if ((seen_u = malloc(n * sizeof *f)))
        memcpy(seen_u, f, n * sizeof *f);
    seen_f = f, seen_g = *g, seen_sample = sample;
    return rc;""")],
  caught_by=["residual_all_boundaries"])

# --- a read one past an array, its value never used ---------------------------
m("idct_reads_one_past_y",
  "fp_idct2_via_fft loads y[n - k] before it tests k == 0: at k = 0 it reads y[n], one past y, and throws the value away.\n"
  "Every answer is right; only the tests' AddressSanitizer build sees the read.",
  [("fp_makhoul.c", "        double ynk = k == 0 ? 0.0 : y[n - k]; /* Y_n = 0 */\n",
    "        double ynk = y[n - k]; /* Y_n = 0 */\n        if (k == 0)\n            ynk = 0.0;\n")],
  caught_by=["idct2_inverse"])
# Ordering mutant: caught by batch_threads quiet and under chaos
# (3 of 3 runs each on a 2-core host), so no "chaos: needed".
m("batch_pivots_shared", "The z stage's Thomas pivots (inv, one per line of a batch) shared by all threads: a thread divides by another's pivots when both run at once (a race).",
  [("fp_serial.c", """#pragma omp parallel reduction(| : bad)
    {
        double *r""", """    double inv[LINES];
#pragma omp parallel reduction(| : bad)
    {
        double *r"""),
   ("fp_serial.c", "double b[LINES], first[LINES], last[LINES], inv[LINES];", "double b[LINES], first[LINES], last[LINES];")],
  caught_by=("batch_threads",))

# Memcheck alone (autograder/cuda/compute_sanitizer.h): idct_reads_one_past_y
# on the GPU, where no AddressSanitizer looks.
m("gpu_inverse_reads_one_past_line",
  "The GPU's pre_inverse_value loads line[n - k] of a Neumann line before it tests k == 0: at k = 0 it reads line[n],\n"
  "the next line's first value or, for the last line, one past the buffer, and throws it away. Every answer is right\n"
  "where that memory is mapped; compute-sanitizer's memcheck names the read.\nrequires: gpu",
  [("fp_cuda.cu", "        ynk = k == 0 ? 0.0 : line[n - k];\n",
    "        ynk = line[n - k];\n        if (k == 0)\n            ynk = 0.0;\n")],
  caught_by=["gpu_memcheck"])
