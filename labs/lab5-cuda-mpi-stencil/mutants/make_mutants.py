"""Regenerates lab 5's mutants from the reference (run from the kit's root:
    python3 labs/lab5-cuda-mpi-stencil/mutants/make_mutants.py
after changing labs/lab5-cuda-mpi-stencil/solution/). Each is one mistake the
issue (and the lecture's errata) names; the header says which test catches
it where that is not obvious."""
import sys; sys.path.insert(0, 'maintainer/mutants')
from mkpatch import mutant
R = 'labs/lab5-cuda-mpi-stencil/solution'; M = 'labs/lab5-cuda-mpi-stencil/mutants'
CPU, GPU, SRV, EXC, CMP = 'stencil_cpu.c', 'stencil_gpu.cu', 'server.c', 'exchange.c', 'compute.c'

# --- stage 1 and 2: the stencil ---------------------------------------------
mutant(R, f'{M}/cpu_index_y_times_dimz.patch',
  "stencil_region_cpu indexes y * dimz (the lecture's y * dim.z) where it must be y * dimx: right only on cubes.\n"
  "The delta test on a 13 x 11 x 20 region catches it.",
  [(CPU, 'size_t n = (size_t)z * plane + (size_t)y * dimx + x;', 'size_t n = (size_t)z * plane + (size_t)y * nz + x;')])
mutant(R, f'{M}/cpu_lap_plus_centre.patch',
  "stencil_region_cpu starts the Laplacian at coeff[0] + in[n] (the lecture's erratum 8), not coeff[0] * in[n].",
  [(CPU, 'float lap = wave_coeff[0] * in[n];', 'float lap = wave_coeff[0] + in[n];')])
mutant(R, f'{M}/cpu_neighbours_wrap_in_x.patch',
  "stencil_region_cpu reads x neighbours past the row's end from the next row (no bounds check in x: the lecture's kernel).",
  [(CPU, 'float left = at(pz, x - i, y, dimx, dimy), right = at(pz, x + i, y, dimx, dimy);',
         'float left = in[n - i], right = in[n + i];')])
mutant(R, f'{M}/gpu_index_y_times_dimz.patch',
  "the CUDA kernel indexes y * dimz (the lecture's y * dim.z) where it must be y * dimx.\nrequires: gpu",
  [(GPU, 'size_t n = (size_t)x + (size_t)dimx * ((size_t)y + (size_t)dimy * z0);',
         'size_t n = (size_t)x + (size_t)y * (z_end + WAVE_RADIUS) + plane * z0;')])
mutant(R, f'{M}/gpu_writes_halo_planes.patch',
  "the CUDA launcher covers the whole region, halo planes included (no region contract: the lecture's launch).\n"
  "requires: gpu",
  [(GPU, 'wave_propagation<<<grid, block, 0, stream>>>(next, in, prev, vel, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS);',
         'wave_propagation<<<grid, block, 0, stream>>>(next, in, prev, vel, dimx, dimy, 0, nz);')])

mutant(R, f'{M}/cpu_shared_row_buffer.patch',
  "stencil_region_cpu copies each row, zero-padded, into one buffer that all OpenMP threads share: a race.\n"
  "Right on 1 thread; on several, a thread reads the row another thread copied in meanwhile.",
  [(CPU, '#include "wave.h"\n', '#include <stdlib.h>\n\n#include "wave.h"\n'),
   (CPU, """#pragma omp parallel for collapse(2) schedule(static)
""", """    float *row = malloc(((size_t)dimx + 2 * WAVE_RADIUS) * sizeof *row); /* one row, zero-padded in x */
    if (!row)
        return;
#pragma omp parallel for collapse(2) schedule(static)
"""),
   (CPU, """            const float *pz = in + (size_t)z * plane; /* plane z of the region */
""", """            const float *pz = in + (size_t)z * plane; /* plane z of the region */
            for (int x = -WAVE_RADIUS; x < dimx + WAVE_RADIUS; x++)
                row[x + WAVE_RADIUS] = x >= 0 && x < dimx ? pz[x + (size_t)dimx * y] : 0.0f;
"""),
   (CPU, 'float left = at(pz, x - i, y, dimx, dimy), right = at(pz, x + i, y, dimx, dimy);',
         'float left = row[WAVE_RADIUS + x - i], right = row[WAVE_RADIUS + x + i];'),
   (CPU, """                next[n] = (vel[n] * lap + 2.0f * in[n]) - prev[n];
            }
        }
""", """                next[n] = (vel[n] * lap + 2.0f * in[n]) - prev[n];
            }
        }
    free(row);
""")],
  caught_by=['stencil_threads'])

mutant(R, f'{M}/gpu_index_32_bit.patch',
  "the CUDA kernel computes its point index in int: right until a region passes 2^31 points.\n"
  "hidden_gpu_large_slab's 537 M points stay below; hidden_gpu_index_past_2_31 writes plane 4 of 32768 x 16384 x 9.\n"
  "requires: gpu",
  [(GPU, 'size_t n = (size_t)x + (size_t)dimx * ((size_t)y + (size_t)dimy * z0);',
         'int n = x + dimx * (y + dimy * z0);')],
  caught_by=['hidden_gpu_index_past_2_31'])
mutant(R, f'{M}/gpu_missing_syncthreads.patch',
  "the CUDA kernel reads its shared-memory tile without a __syncthreads() after the threads wrote it:\n"
  "a thread reads neighbours that other warps have not stored yet.\nrequires: gpu",
  [(GPU, '''        __syncthreads();

        /* the next plane's loads''', '''
        /* the next plane's loads''')],
  caught_by=['gpu_delta', 'gpu_composition', 'gpu_e2e', 'hidden_gpu_odd_regions'])

# Memcheck alone (autograder/cuda/compute_sanitizer.h): the loads of the
# next plane on the last plane too, never used; the last plane of in they
# read lies one plane past the region.
mutant(R, f'{M}/gpu_prefetch_past_region.patch',
  "the CUDA kernel loads the next plane's values on its last plane too (z < z1 for z + 1 < z1): in's plane nz, one past\n"
  "the region, is read and never used. Every answer is right where that memory is mapped; compute-sanitizer's memcheck\n"
  "names the read.\nrequires: gpu",
  [(GPU, '        if (z + 1 < z1) {\n', '        if (z < z1) {\n')],
  caught_by=['gpu_memcheck'])

# --- stage 3: the server ------------------------------------------------------
mutant(R, f'{M}/plan_internal_gets_one_halo.patch',
  "distribution_plan gives an internal rank only its left halo (S + 4 planes), like an edge rank.",
  [(SRV, 'plan->nplanes = S + WAVE_RADIUS * (has_left + has_right);', 'plan->nplanes = S + WAVE_RADIUS * (has_left || has_right);')])
mutant(R, f'{M}/velocity_shifted_four_planes.patch',
  "data_server sends the velocity from global plane rank*S, 4 planes after the input's start (erratum 10).\n"
  "Internal ranks' velocity is shifted by 4 planes, and the last rank's message runs 4 planes past the array.",
  [(SRV, '''            MPI_CHECK(MPI_Send(fields[f] + (size_t)plan.src_plane * plane, mpi_count((size_t)plan.nplanes * plane),''',
         '''            size_t start = f == 0 ? (size_t)plan.src_plane : (size_t)r * (dimz / ncomp);
            MPI_CHECK(MPI_Send(fields[f] + start * plane, mpi_count((size_t)plan.nplanes * plane),''')])

# --- stage 4: the exchange ------------------------------------------------------
mutant(R, f'{M}/halo_to_wrong_neighbour.patch',
  "exchange_halos sends the left boundary to the right neighbour (and the right boundary to the left).",
  [(EXC, '''    MPI_CHECK(MPI_Sendrecv(h->left_boundary, h->count, MPI_FLOAT, left, tag, h->right_halo, h->count, MPI_FLOAT,''',
         '''    MPI_CHECK(MPI_Sendrecv(h->right_boundary, h->count, MPI_FLOAT, left, tag, h->right_halo, h->count, MPI_FLOAT,'''),
   (EXC, '''    MPI_CHECK(MPI_Sendrecv(h->right_boundary, h->count, MPI_FLOAT, right, tag, h->left_halo, h->count, MPI_FLOAT,''',
         '''    MPI_CHECK(MPI_Sendrecv(h->left_boundary, h->count, MPI_FLOAT, right, tag, h->left_halo, h->count, MPI_FLOAT,''')])

# --- stage 5: the compute process ------------------------------------------------
mutant(R, f'{M}/barrier_mismatch.patch',
  "compute_process keeps the lecture's barrier after the steps (line 49), which the server never calls (erratum 6).\n"
  "The server waits for rank 0's planes while rank 0 waits at the barrier: a deadlock, ended as FAIL TIMEOUT.",
  [(CMP, '''    /* After the last swap the newest step is in d_input. */''',
         '''    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* "wait for previous communications" */
    /* After the last swap the newest step is in d_input. */''')])
mutant(R, f'{M}/answer_in_wrong_buffer.patch',
  "compute_process sends d_output after the steps: the step before the last (swap parity; right only for 0 steps).\n"
  "hint: one step behind?",
  [(CMP, 'dev_memcpy(dev, h_input, d_input, num_bytes, DEV_D2H);', 'dev_memcpy(dev, h_input, d_output, num_bytes, DEV_D2H);')])
mutant(R, f'{M}/outer_halos_not_zeroed.patch',
  "compute_process leaves the pinned halo buffers uninitialised (erratum 12).\n"
  "An edge rank copies garbage (the CPU backend's NaN) into its outer halo every step.",
  [(CMP, '''    memset(h.left_halo, 0, halo_bytes);
    memset(h.right_halo, 0, halo_bytes);
''', '')])
mutant(R, f'{M}/interior_after_exchange.patch',
  "compute_process launches the interior after the exchange: right numbers, no overlap (the order test catches it).",
  [(CMP, '''        if (mode == WAVE_SENDRECV)
            launch_region(dev, d_output, d_input, d_vel, plane, WAVE_RADIUS, S, dimx, dimy, DEV_STREAM_INTERIOR);
''', ''),
   (CMP, '''            exchange_halos(&h, left, right, i);
''', '''            exchange_halos(&h, left, right, i);
            launch_region(dev, d_output, d_input, d_vel, plane, WAVE_RADIUS, S, dimx, dimy, DEV_STREAM_INTERIOR);
''')])
mutant(R, f'{M}/exchange_before_copy_done.patch',
  "compute_process sends the boundary planes without waiting for their copy to the host.\n"
  "A race on a GPU; the order test catches it on the CPU.",
  [(CMP, '''        dev_stream_sync(dev, DEV_STREAM_BOUNDARY);
''', '')])
mutant(R, f'{M}/device_sync_before_exchange.patch',
  "compute_process waits for the whole device (dev_sync) instead of the boundary stream before the exchange:\n"
  "the results are right, but the exchange waits for the interior, so nothing overlaps.",
  [(CMP, """        dev_stream_sync(dev, DEV_STREAM_BOUNDARY);
        /* 4. the exchange, tag = step */""", """        dev_sync(dev);
        /* 4. the exchange, tag = step */""")],
  caught_by=['overlap_order', 'gpu_e2e', 'gpu_two_gpus'])
mutant(R, f'{M}/int_byte_count.patch',
  "compute_process keeps the local array's byte count in an int (the lecture's errata 2 and 15).\n"
  "It wraps once a slab passes 2^31 bytes (hidden_gpu_large_slab: 16 planes of 8192 x 4100 floats, 0 steps).\nrequires: gpu",
  [(CMP, 'const size_t num_bytes = num_points * sizeof(float);', 'const int num_bytes = num_points * sizeof(float);')])
mutant(R, f'{M}/halo_depth_three.patch',
  "compute_process exchanges halos 3 planes deep: the stencil's radius is 4.",
  [(CMP, 'const size_t halo_points = plane * WAVE_RADIUS, halo_bytes = halo_points * sizeof(float);',
         'const size_t halo_points = plane * (WAVE_RADIUS - 1), halo_bytes = halo_points * sizeof(float);')])
mutant(R, f'{M}/right_boundary_wrong_offset.patch',
  "compute_process copies the right boundary from the right stage-1 region's start (plane S-4), not plane S.",
  [(CMP, 'const size_t right_boundary_offset = (size_t)S * plane;',
         'const size_t right_boundary_offset = (size_t)(S - WAVE_RADIUS) * plane;')])
mutant(R, f'{M}/halos_into_input.patch',
  "compute_process copies the received halos into d_input (overwritten by the swap's prev) instead of d_output.",
  [(CMP, 'dev_memcpy_async(dev, d_output, h.left_halo, halo_bytes, DEV_H2D, DEV_STREAM_BOUNDARY);',
         'dev_memcpy_async(dev, d_input, h.left_halo, halo_bytes, DEV_H2D, DEV_STREAM_BOUNDARY);'),
   (CMP, 'dev_memcpy_async(dev, d_output + right_halo_offset, h.right_halo, halo_bytes, DEV_H2D, DEV_STREAM_BOUNDARY);',
         'dev_memcpy_async(dev, d_input + right_halo_offset, h.right_halo, halo_bytes, DEV_H2D, DEV_STREAM_BOUNDARY);')])
mutant(R, f'{M}/prev_uninitialised.patch',
  "compute_process never initialises d_output, the first step's prev (the lecture's cudaMalloc'd d_output).",
  [(CMP, '''    dev_memcpy(dev, d_output, h_input, num_bytes, DEV_H2D);
''', '')])

# --- requests never completed --------------------------------------------------
mutant(R, f'{M}/sends_never_waited.patch',
  "exchange_halos_finish waits for the two receives only: the two MPI_Isend requests are never completed.\n"
  "Below MPI's eager limit the data arrives all the same; the checker fails requests left pending at its end.",
  [(EXC, 'MPI_CHECK(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));', 'MPI_CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));')],
  caught_by=['e2e_three_ranks', 'e2e_four_ranks', 'e2e_five_ranks', 'halo_exchange', 'overlap_order', 'hidden_odd_shapes'])

# --- the exchange's order (chaos schedules): right only while MPI buffers ---
mutant(R, f'{M}/exchange_sends_before_receives.patch',
  "exchange_halos sends both boundaries with MPI_Send, then receives both halos with MPI_Recv: every rank sends first.\n"
  "Small halos go out eagerly and it works; a standard-mode send may wait for its receive (chaos makes it MPI_Ssend)\n"
  "and then ranks 0 and 1 wait for each other. The call rules (exchange_halos requires MPI_Sendrecv) see it first.",
  [(EXC, """    MPI_CHECK(MPI_Sendrecv(h->left_boundary, h->count, MPI_FLOAT, left, tag, h->right_halo, h->count, MPI_FLOAT,
                           right, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_Sendrecv(h->right_boundary, h->count, MPI_FLOAT, right, tag, h->left_halo, h->count, MPI_FLOAT,
                           left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));""",
    """    MPI_CHECK(MPI_Send(h->left_boundary, h->count, MPI_FLOAT, left, tag, MPI_COMM_WORLD));
    MPI_CHECK(MPI_Send(h->right_boundary, h->count, MPI_FLOAT, right, tag, MPI_COMM_WORLD));
    MPI_CHECK(MPI_Recv(h->right_halo, h->count, MPI_FLOAT, right, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_Recv(h->left_halo, h->count, MPI_FLOAT, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));""")],
  caught_by=['e2e_three_ranks', 'e2e_four_ranks', 'e2e_five_ranks', 'halo_exchange', 'overlap_order', 'hidden_odd_shapes'])
mutant(R, f'{M}/recv_posted_after_send_wait.patch',
  "exchange_halos_start waits for its two MPI_Isend before it posts the two MPI_Irecv: each rank's sends wait for\n"
  "receives that its neighbours post only after their own sends completed. Eager halos complete alone; rendezvous\n"
  "ones, or sends that chaos makes MPI_Issend, never do. The call rules (no MPI_Wait* in exchange_halos_start) see\n"
  "it in the visible tests; hidden_odd_shapes (eager halos, no call rule) only under chaos.",
  [(EXC, """    MPI_CHECK(MPI_Irecv(h->left_halo, h->count, MPI_FLOAT, left, tag, MPI_COMM_WORLD, &req[0]));
    MPI_CHECK(MPI_Irecv(h->right_halo, h->count, MPI_FLOAT, right, tag, MPI_COMM_WORLD, &req[1]));
    MPI_CHECK(MPI_Isend(h->left_boundary, h->count, MPI_FLOAT, left, tag, MPI_COMM_WORLD, &req[2]));
    MPI_CHECK(MPI_Isend(h->right_boundary, h->count, MPI_FLOAT, right, tag, MPI_COMM_WORLD, &req[3]));""",
    """    MPI_CHECK(MPI_Isend(h->left_boundary, h->count, MPI_FLOAT, left, tag, MPI_COMM_WORLD, &req[2]));
    MPI_CHECK(MPI_Isend(h->right_boundary, h->count, MPI_FLOAT, right, tag, MPI_COMM_WORLD, &req[3]));
    MPI_CHECK(MPI_Waitall(2, req + 2, MPI_STATUSES_IGNORE)); /* the boundaries are gone: free to reuse */
    MPI_CHECK(MPI_Irecv(h->left_halo, h->count, MPI_FLOAT, left, tag, MPI_COMM_WORLD, &req[0]));
    MPI_CHECK(MPI_Irecv(h->right_halo, h->count, MPI_FLOAT, right, tag, MPI_COMM_WORLD, &req[1]));""")],
  caught_by=['e2e_three_ranks', 'e2e_four_ranks', 'e2e_five_ranks', 'halo_exchange', 'overlap_order', 'hidden_odd_shapes'])

# --- every stage: a run that ends before the checks -----------------------------
mutant(R, f'{M}/early_exit.patch',
  "data_server and compute_process end the program at once (MPI_Finalize, then exit(0)): nothing is computed,\n"
  "yet every rank exits 0. Every end-to-end test must fail: the checker's ranks never report the end of their checks.",
  [(SRV, '''void data_server(int dimx, int dimy, int dimz, const float *input, const float *velocity, float *output)
{
''', '''void data_server(int dimx, int dimy, int dimz, const float *input, const float *velocity, float *output)
{
    if (dimx > 0) {
        MPI_Finalize();
        exit(0);
    }
'''), (SRV, '#include <string.h>\n', '#include <stdlib.h>\n#include <string.h>\n'),
   (CMP, '''void compute_process(int dimx, int dimy, int dimz, int nreps, const dev_backend *dev, wave_exchange mode)
{
''', '''void compute_process(int dimx, int dimy, int dimz, int nreps, const dev_backend *dev, wave_exchange mode)
{
    if (dimx > 0) {
        MPI_Finalize();
        exit(0);
    }
'''), (CMP, '#include <string.h>\n', '#include <stdlib.h>\n#include <string.h>\n')],
  caught_by=['e2e_three_ranks', 'e2e_four_ranks', 'e2e_five_ranks', 'overlap_order', 'hidden_odd_shapes', 'gpu_e2e',
             'gpu_two_gpus', 'hidden_gpu_large_slab'])

# Chaos schedules: the kernel leaves the stream it was given.
# The backend's streams are non-blocking, so nothing orders the legacy
# default stream's kernel before the boundary planes' copy to the host; the
# CUDA stream perturber (autograder/cuda/) makes the kernel start late.
mutant(R, f'{M}/gpu_launch_ignores_stream.patch',
  "launch_kernel launches on the legacy default stream, not on the stream it is given: the backend's non-blocking\n"
  "streams do not wait for it, so the boundary planes may be copied to the host before the kernel wrote them.\n"
  "requires: gpu\n"
  "chaos: needed",
  [(GPU, "    wave_propagation<<<grid, block, 0, stream>>>(next, in, prev, vel, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS);\n",
   "    (void)stream;\n"
   "    wave_propagation<<<grid, block>>>(next, in, prev, vel, dimx, dimy, WAVE_RADIUS, nz - WAVE_RADIUS);\n")],
  caught_by=['gpu_e2e'])
