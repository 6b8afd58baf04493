"""Regenerates lab 4's mutants from the reference (run from the kit's root:
    python3 labs/lab4-multigpu-jacobi/mutants/make_mutants.py
after changing a file of labs/lab4-multigpu-jacobi/solution/). A description's
line "requires: gpu" (or "requires: gpus 2") marks a mutant only a GPU host
(with that many GPUs) can catch; the offload ones are caught on any host
(GCC runs the target regions on the CPU without a GPU). caught_by names
the tests meant to catch each."""
import sys; sys.path.insert(0, 'maintainer/mutants')
from mkpatch import mutant
R = 'labs/lab4-multigpu-jacobi/solution'; M = 'labs/lab4-multigpu-jacobi/mutants'
# The student files (STUDENT_FILES of labs/lab4-multigpu-jacobi/lab.mk): a
# renamed file is a renamed name here.
GPU, PEER, NCCL, OFFLOAD = 'jacobi_gpu.cu', 'jacobi_peer.cu', 'jacobi_nccl.cu', 'jacobi_offload.c'


def between(fname, first, last):
    """The reference's lines from the one that starts with first to the
    next one that starts with last, both included: a mutant that replaces
    a whole body names its ends, not a copy of every line of it."""
    lines = open(f'{R}/{fname}').read().splitlines(keepends=True)
    (i,) = [n for n, line in enumerate(lines) if line.startswith(first)]
    j = next(n for n in range(i, len(lines)) if lines[n].startswith(last))
    return ''.join(lines[i:j + 1])


mutant(R, f'{M}/calls_gpu1_is_the_host_reference.patch',
  "jacobi_gpu1 runs the kit's sequential poisson_jacobi_reference on the host instead of a kernel: right bit for bit; the call rules fail its tests.\n"
  "requires: gpu",
  [(GPU, 'return run_sweeps("jacobi_gpu1", launch_gpu1, 1, N, tol, max_iter, f, u, u_old);',
   'return poisson_jacobi_reference(N, tol, max_iter, f, u, u_old);')],
  caught_by=['gpu1_sweeps', 'gpu_tolerance'])

mutant(R, f'{M}/calls_offload_is_the_host_reference.patch',
  "jacobi_offload offloads nothing: it calls the kit's sequential poisson_jacobi_reference on the host (tol = 0 passed as -1: lab 4 runs every sweep then, the kit's solver would stop at an exact fixed point). Right bit for bit; the call rules fail its tests (a forbidden call, and no GOMP_target* or __tgt_target_kernel call).",
  [(OFFLOAD, between(OFFLOAD, '    (void)f; /* h^2 f comes from', '        memcpy(u, src, n * sizeof *u);'),
   """    if (poisson_check_size(N))
        return -1;
    double t0 = wall_time();
    int it = poisson_jacobi_reference(N, tol > 0 ? tol : -1.0, max_iter, f, u, u_old);
    lab4_record_sweep_seconds(wall_time() - t0);
""")],
  caught_by=['offload_sweeps', 'offload_tolerance', 'hidden_offload_odd_sizes'])

mutant(R, f'{M}/early_exit.patch',
  "jacobi_nccl ends the program at once (exit(0)) on every rank: nothing is solved, yet every rank exits 0.\n"
  "Every NCCL end-to-end test must fail: the checker's ranks never report the end of their checks.\n"
  "requires: gpu",
  [(NCCL, '#include <math.h>\n',
   """#include <math.h>
#include <stdlib.h>
"""),
   (NCCL, """{
    (void)f;     /* the radiator is decided in the kernel */
""",
   """{
    if (N > 0)
        exit(0);
    (void)f;     /* the radiator is decided in the kernel */
""")],
  caught_by=['nccl_one_rank', 'nccl_two_ranks', 'nccl_three_and_four_ranks'])

mutant(R, f'{M}/gpu2_grid_drops_last_points.patch',
  "jacobi_gpu2's grid is N / 8 blocks per direction (the seed's integer division): the last N % 8 points of each direction are never updated.\n"
  "requires: gpu",
  [(GPU, 'dim3 grid((N + GPU2_BLOCK - 1) / GPU2_BLOCK, (N + GPU2_BLOCK - 1) / GPU2_BLOCK, (N + GPU2_BLOCK - 1) / GPU2_BLOCK);',
   'dim3 grid(N / GPU2_BLOCK, N / GPU2_BLOCK, N / GPU2_BLOCK);')],
  caught_by=['gpu2_sweeps', 'gpu_tolerance', 'hidden_gpu_odd_sizes'])

mutant(R, f'{M}/gpu3_float_radiator.patch',
  "jacobi_gpu3 tests the radiator in floating point (x = -1 + k h <= -3/8 ...), which puts whole planes on the wrong side for some N (47, 95).\n"
  "requires: gpu",
  [(GPU, '    double h2f = poisson_in_radiator(N, i, j, k) ? h2f_in : 0.0;\n',
   """    double h = poisson_h(N), x = -1.0 + k * h, y = -1.0 + j * h, z = -1.0 + i * h;
    double h2f = x <= -3.0 / 8.0 && y <= -0.5 && -2.0 / 3.0 <= z && z <= 0.0 ? h2f_in : 0.0;
""")],
  caught_by=['gpu3_sweeps', 'gpu_tolerance', 'hidden_gpu_odd_sizes'])

mutant(R, f'{M}/gpu3_ring_skips_boundary_row.patch',
  "jacobi_gpu3's ring kernel starts each chunk's columns from interior rows only: row N+1, the boundary, reads as 0 for one plane wherever it is the second row of a thread's pair (N = 257, not N = 700).\n"
  "requires: gpu",
  [(GPU, 'col[r + 1] = j <= N + 1 && k <= N + 1 ? u_old[(size_t)l0 * si + (size_t)j * sj + k] : 0.0;',
   'col[r + 1] = inside[r] ? u_old[(size_t)l0 * si + (size_t)j * sj + k] : 0.0;')],
  caught_by=['gpu3_sweeps', 'gpu_tolerance', 'gpu3_large_n', 'hidden_gpu_odd_sizes'])

mutant(R, f'{M}/gpu_int_byte_count.patch',
  "The device arrays' byte count is an int product: from N = 643 on it overflows (the seed's \"out of memory\" at N ~ 645).\n"
  "requires: gpu",
  [(GPU, 'size_t bytes = poisson_points(N) * sizeof(double);',
   'int bytes = (N + 2) * (N + 2) * (N + 2) * (int)sizeof(double);')],
  caught_by=['gpu3_large_n'])

mutant(R, f'{M}/gpu_norm_race.patch',
  "The block sums of the norm are added to the total with a plain += instead of atomicAdd: blocks that finish together lose each other's sums.\n"
  "requires: gpu",
  [(GPU, 'atomicAdd(norm2, v);',
   '*norm2 += v;')],
  caught_by=['gpu_tolerance', 'hidden_gpu_odd_sizes'])

mutant(R, f'{M}/nccl_answer_in_wrong_buffer.patch',
  "jacobi_nccl gathers the grid it would write next, not the one it wrote last: the answer is one sweep old.\n"
  "hint: the answer left in the other buffer\n"
  "requires: gpu",
  [(NCCL, 'CUDA_CHECK(cudaMemcpy(local, src, bytes, cudaMemcpyDeviceToHost));',
   'CUDA_CHECK(cudaMemcpy(local, dst, bytes, cudaMemcpyDeviceToHost));')],
  caught_by=['nccl_one_rank', 'nccl_two_ranks', 'nccl_three_and_four_ranks'])

mutant(R, f'{M}/nccl_halo_to_wrong_neighbour.patch',
  "jacobi_nccl sends its bottom plane, not its top plane, to the rank above (needs 2 GPUs to catch).\n"
  "requires: gpu\n"
  "requires: gpus 2",
  [(NCCL, 'NCCL_CHECK(ncclSend(dst + (size_t)count * plane, plane, ncclDouble, part.above, world->comm, halo));',
   'NCCL_CHECK(ncclSend(dst + plane, plane, ncclDouble, part.above, world->comm, halo));')],
  caught_by=['nccl_two_ranks', 'nccl_three_and_four_ranks'])

mutant(R, f'{M}/nccl_norm_on_one_rank.patch',
  "jacobi_nccl stops on its own rank's norm (no all-reduce): the ranks stop after different sweeps and the rest wait for ever (needs 2 GPUs to catch).\n"
  "requires: gpu\n"
  "requires: gpus 2",
  [(NCCL, '            NCCL_CHECK(ncclAllReduce(norm2, norm2, 1, ncclDouble, ncclSum, world->comm, halo));\n',
   '')],
  caught_by=['nccl_two_ranks', 'nccl_three_and_four_ranks'])

mutant(R, f'{M}/offload_answer_in_wrong_buffer.patch',
  "jacobi_offload never copies the answer back after an odd number of sweeps: it stays in u_old.",
  [(OFFLOAD, 'if (src != u) /* an odd number of sweeps: the answer is in u_old */',
   'if (src == u) /* an odd number of sweeps: the answer is in u_old */')],
  caught_by=['offload_sweeps', 'hidden_offload_odd_sizes'])

mutant(R, f'{M}/offload_drops_last_plane.patch',
  "jacobi_offload's loops stop one plane short: plane i = N is never updated.",
  [(OFFLOAD, """                for (int i = 1; i <= N; i++) {
#pragma omp parallel for schedule(static, 1) reduction(+ : norm2)
""",
   """                for (int i = 1; i < N; i++) {
#pragma omp parallel for schedule(static, 1) reduction(+ : norm2)
"""),
   (OFFLOAD, 'for (int i = 1; i <= N; i++) {',
   'for (int i = 1; i < N; i++) {')],
  caught_by=['offload_sweeps', 'offload_tolerance', 'hidden_offload_odd_sizes'])

mutant(R, f'{M}/peer_halo_only_first_sweep.patch',
  "jacobi_peer copies the halo planes after the first sweep only: from the second sweep on each half reads a stale neighbour plane.\n"
  "requires: gpu",
  [(PEER, '            size_t to = p == 0 ? 0 : (size_t)other->part.count + 1;\n',
   """            size_t to = p == 0 ? 0 : (size_t)other->part.count + 1;
            if (it == 0)
""")],
  caught_by=['peer_halves_on_one_gpu', 'peer_two_gpus_test'])

# An answer remembered by address, size, sweep count and a sample
# of the start: right on every first call, wrong on a new start in the same
# arrays (l4_check_fresh).
mutant(R, f'{M}/offload_remembers_answer.patch',
  "jacobi_offload remembers its last answer by the address of u, N, max_iter and u's first interior point, and gives it back when they come again:\n"
  "a new start in the same arrays that agrees at that point gets the old grid.",
  [(OFFLOAD, """    size_t n = poisson_points(N), sj = poisson_side(N), si = sj * sj;
    int plane = N * N; /* interior points of a plane: fits an int (N <= POISSON_MAX_N) */
""", """    size_t n = poisson_points(N), sj = poisson_side(N), si = sj * sj;
    int plane = N * N; /* interior points of a plane: fits an int (N <= POISSON_MAX_N) */
    static const double *seen_u;
    static int seen_N = -1, seen_max_iter, seen_it;
    static double seen_sample, *seen_answer;
    const double sample = u[poisson_index(N, 1, 1, 1)];
    if (seen_answer && u == seen_u && N == seen_N && max_iter == seen_max_iter && tol == 0 && sample == seen_sample) {
        memcpy(u, seen_answer, n * sizeof *u);
        return seen_it;
    }
"""),
   (OFFLOAD, """    if (src != u) /* an odd number of sweeps: the answer is in u_old */
        memcpy(u, src, n * sizeof *u);
    return it;""", """    if (src != u) /* an odd number of sweeps: the answer is in u_old */
        memcpy(u, src, n * sizeof *u);
    free(seen_answer);
    if ((seen_answer = malloc(n * sizeof *u)))
        memcpy(seen_answer, u, n * sizeof *u);
    seen_u = u, seen_N = N, seen_max_iter = max_iter, seen_it = it, seen_sample = sample;
    return it;"""),
   (OFFLOAD, "#include <math.h>\n", "#include <math.h>\n#include <stdlib.h>\n")],
  caught_by=['offload_sweeps'])

# Chaos schedules: a wait that a quiet GPU never needs. The
# norm's zeroing on the halo stream is done long before the bulk's sweep
# starts, unless the CUDA stream perturber (autograder/cuda/) puts a sleep
# in front of it: then the bulk's share of the norm is added first and
# zeroed after, and the run stops early.
mutant(R, f'{M}/peer_bulk_skips_started_wait.patch',
  "jacobi_peer's bulk stream does not wait for the halo stream's start of the sweep (the event 'started'): the bulk\n"
  "sweep may add its norm before the halo stream zeroes it, and the norm it loses stops the run early. Quiet GPUs\n"
  "zero it first; under chaos (a sleep before the zeroing) the tolerance check loses.\n"
  "requires: gpu\n"
  "chaos: needed",
  [(PEER, "            CUDA_CHECK(cudaStreamWaitEvent(me->bulk, me->started, 0));\n", "")],
  caught_by=['peer_halves_on_one_gpu'])

# Memcheck alone (autograder/cuda/compute_sanitizer.h): the column kernel's
# planes left over read the plane above one step ahead of its use, and the
# last step's read, never used, lies a plane past the array where the
# chunk ends at plane N. The answer is right wherever that memory is
# mapped (the allocation's slack, or a neighbouring grid).
mutant(R, f'{M}/gpu3_reads_plane_past_array.patch',
  "jacobi_gpu3's column kernel reads the plane above one step ahead of its use in the planes left over: the last step of the last chunk\n"
  "reads plane N+2, one past the array, and never uses it. Every grid is right where that memory is mapped; compute-sanitizer's\n"
  "memcheck names the read.\n"
  "requires: gpu",
  [(GPU, """        for (; l < l1; l++, c += si) { /* the planes left over */
            double above = u_old[c + si];
""", """        double above = u_old[c + si];
        for (; l < l1; l++, c += si) { /* the planes left over */
            double next_above = u_old[c + 2 * si];
"""),
   (GPU, "            z[1] = above;\n", "            z[1] = above;\n            above = next_above;\n")],
  caught_by=['gpu_memcheck'])
