"""Regenerates lab 3's mutants from the reference (run from the kit's root:
    python3 labs/lab3-gpu-matmult/mutants/make_mutants.py
after changing labs/lab3-gpu-matmult/solution/). A description's line
"requires: gpu" marks a mutant only a GPU host can catch (the launch
geometry ones are caught on any host: the tests read the launchers' grids);
caught_by names the tests meant to catch each."""
import sys; sys.path.insert(0, 'maintainer/mutants')
from mkpatch import mutant
R = 'labs/lab3-gpu-matmult/solution'; M = 'labs/lab3-gpu-matmult/mutants'
GPU = 'matmult_gpu.cu'  # the student's file
GPU6 = 'matmult_gpu6.cu'  # the optional challenge's

mutant(R, f'{M}/c_never_copied_back.patch',
  "The host side never copies C back from the device, so C keeps whatever it held.\n"
  "requires: gpu",
  [(GPU, '    CUDA_CHECK(cudaMemcpy(C, dC, bytes_c, cudaMemcpyDeviceToHost));\n',
   '')],
  caught_by=['gpu1_sizes', 'gpu2_sizes', 'gpu3_sizes', 'gpu4_sizes', 'gpu5_sizes', 'gpu6_sizes', 'gpulib_sizes', 'all_real_inputs'])

mutant(R, f'{M}/calls_gpu1_is_cublas.patch',
  "matmult_gpu1_dev calls matmult_gpulib_dev (cuBLAS does the product): right within the tests' tolerance; the call rules (only matmult_gpulib_dev may call cuBLAS) fail matmult_gpu1's tests.\n"
  "requires: gpu",
  [(GPU, """    gpu1_kernel<<<1, 1>>>(m, n, k, dA, dB, dC);
    CUDA_CHECK_LAUNCH();
""",
   '    matmult_gpulib_dev(m, n, k, dA, dB, dC);\n')],
  caught_by=['gpu1_sizes', 'all_real_inputs', 'hidden_lopsided_shapes', 'hidden_called_twice', 'dev_entry_points'])

mutant(R, f'{M}/gpu1_accumulates_into_c.patch',
  "matmult_gpu1 adds its sums to C on the device instead of storing them, so C is only right if the device buffer happened to hold zeros.\n"
  "requires: gpu",
  [(GPU, 'C[i * n + j] = s;',
   'C[i * n + j] += s;')],
  caught_by=['gpu1_sizes', 'all_real_inputs', 'hidden_called_twice'])

mutant(R, f'{M}/gpu2_floor_grid.patch',
  "matmult_gpu2_launch divides m and n by the block size rounding down, so partial blocks of C are never computed.",
  [(GPU, 'mm_launch L = {{blocks_for(n, GPU2_BLOCK), blocks_for(m, GPU2_BLOCK), 1}, {GPU2_BLOCK, GPU2_BLOCK, 1}};',
   'mm_launch L = {{(unsigned int)n / GPU2_BLOCK, (unsigned int)m / GPU2_BLOCK, 1}, {GPU2_BLOCK, GPU2_BLOCK, 1}};')],
  caught_by=['gpu2_geometry_covers_c'])

mutant(R, f'{M}/gpu2_launch_unchecked.patch',
  "matmult_gpu2_dev does not check its launch, so a launch that fails (too many blocks) returns a C that was never computed.\n"
  "requires: gpu",
  [(GPU, """    gpu2_kernel<<<cuda_dim(L.grid), cuda_dim(L.block)>>>(m, n, k, dA, dB, dC);
    CUDA_CHECK_LAUNCH();
}
""",
   """    gpu2_kernel<<<cuda_dim(L.grid), cuda_dim(L.block)>>>(m, n, k, dA, dB, dC);
}
""")],
  caught_by=['failed_launch_is_reported'])

mutant(R, f'{M}/gpu3_stride_on_wrong_axis.patch',
  "matmult_gpu3 halves the grid along the columns while its threads take two rows each (the seed's bug): half of C is never computed.",
  [(GPU, 'mm_launch L = {{blocks_for(n, GPU3_BLOCK), blocks_for(m, 2 * GPU3_BLOCK), 1}, {GPU3_BLOCK, GPU3_BLOCK, 1}};',
   'mm_launch L = {{blocks_for(n, 2 * GPU3_BLOCK), blocks_for(m, GPU3_BLOCK), 1}, {GPU3_BLOCK, GPU3_BLOCK, 1}};')],
  caught_by=['gpu3_geometry_covers_c'])

mutant(R, f'{M}/gpu4_tail_rows_dropped.patch',
  "matmult_gpu4_launch counts rows in whole groups of GPU4_ELEMENTS (m / T rounded down), dropping the last rows for some m.",
  [(GPU, 'mm_launch L = {{blocks_for(n, GPU4_BLOCK), blocks_for(m, (long long)GPU4_ELEMENTS * GPU4_BLOCK), 1},',
   'mm_launch L = {{blocks_for(n, GPU4_BLOCK), blocks_for(m / GPU4_ELEMENTS, GPU4_BLOCK), 1},')],
  caught_by=['gpu4_geometry_covers_c'])

mutant(R, f'{M}/gpu5_floor_grid.patch',
  "matmult_gpu5_launch uses the Programming Guide's dimGrid(n / 16, m / 16), which needs multiples of 16.",
  [(GPU, 'mm_launch L = {{blocks_for(n, TILE), blocks_for(m, TILE), 1}, {TILE, TILE, 1}};',
   'mm_launch L = {{(unsigned int)n / TILE, (unsigned int)m / TILE, 1}, {TILE, TILE, 1}};')],
  caught_by=['gpu5_geometry_covers_c'])

mutant(R, f'{M}/gpu5_missing_syncthreads.patch',
  "matmult_gpu5 has no __syncthreads() between loading a tile and using it: threads read shared memory that others have not written yet.\n"
  "requires: gpu",
  [(GPU, '        __syncthreads(); /* the whole tile is loaded */\n',
   '')],
  caught_by=['gpu5_sizes', 'all_real_inputs', 'hidden_lopsided_shapes', 'gpu5_racecheck'])

mutant(R, f'{M}/gpu5_partial_tile_unchecked.patch',
  "matmult_gpu5 loads the last, partial tile of A and B without bounds checks (the Guide's loads), so elements past the end of a row or of B enter the sums.\n"
  "requires: gpu",
  [(GPU, """            As[ty][q] = (e.row < m && l0 + q < k) ? A[(size_t)e.row * k + l0 + q] : 0.0;
#pragma unroll
        for (int q = ty; q < TILE_K; q += TILE)
            Bs[q][tx] = (l0 + q < k && e.col < n) ? B[(size_t)(l0 + q) * n + e.col] : 0.0;
""",
   """            As[ty][q] = e.row < m ? A[(size_t)e.row * k + l0 + q] : 0.0;
#pragma unroll
        for (int q = ty; q < TILE_K; q += TILE)
            Bs[q][tx] = e.col < n ? B[(size_t)(l0 + q) * n + e.col] : 0.0;
""")],
  caught_by=['gpu5_sizes', 'all_real_inputs', 'hidden_lopsided_shapes'])

mutant(R, f'{M}/gpu6_drops_k_tail.patch',
  "matmult_gpu6 runs only over whole tiles of k, dropping the last k % 16 terms of every sum (in both kernels: which one runs depends on the GPU).\n"
  "requires: gpu",
  [(GPU6, 'const int tiles = (k + BK - 1) / BK;',
   'const int tiles = k / BK;'),
   (GPU6, 'const int tiles = (k + G6_BK - 1) / G6_BK;',
   'const int tiles = k / G6_BK;')],
  caught_by=['gpu6_sizes', 'all_real_inputs', 'hidden_lopsided_shapes'])

mutant(R, f'{M}/gpulib_a_and_b_swapped.patch',
  "matmult_gpulib passes A and B to cublasDgemm in row-major order, forgetting that cuBLAS is column-major.\n"
  "requires: gpu",
  [(GPU, 'CUBLAS_CHECK(cublasDgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dB, n, dA, k, &zero, dC, n));',
   'CUBLAS_CHECK(cublasDgemm(cublas_handle(), CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, k, dB, n, &zero, dC, m));')],
  caught_by=['gpulib_sizes', 'all_real_inputs', 'hidden_lopsided_shapes'])

mutant(R, f'{M}/int_byte_count_overflows.patch',
  "The host side keeps the byte count of C in an int, which overflows once C passes 2 GiB (m = n = 16400).\n"
  "requires: gpu",
  [(GPU, 'size_t bytes_c = (size_t)m * n * sizeof(double);',
   'int bytes_c = m * n * sizeof(double);')],
  caught_by=['hidden_c_larger_than_2gib'])

# Work remembered across calls, and work left running past the call.
mutant(R, f'{M}/on_device_keeps_inputs_by_address.patch',
  "The host side keeps its device copies of A and B and skips the copies when the same host arrays and shape come again:\n"
  "new contents in the same arrays are multiplied as the old ones (GPU MODE's object-identity caching).\n"
  "requires: gpu",
  [(GPU, '''    double *dA, *dB, *dC;
    keep_freed_memory_in_pool();
    CUDA_CHECK(cudaMallocAsync((void **)&dA, bytes_a, 0));
    CUDA_CHECK(cudaMallocAsync((void **)&dB, bytes_b, 0));
    CUDA_CHECK(cudaMallocAsync((void **)&dC, bytes_c, 0));
    CUDA_CHECK(cudaMemcpy(dA, A, bytes_a, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, B, bytes_b, cudaMemcpyHostToDevice));
    product(m, n, k, dA, dB, dC);
    CUDA_CHECK(cudaMemcpy(C, dC, bytes_c, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFreeAsync(dA, 0));
    CUDA_CHECK(cudaFreeAsync(dB, 0));
    CUDA_CHECK(cudaFreeAsync(dC, 0));''', '''    static const double *kept_A, *kept_B;
    static double *dA, *dB;
    static int kept_m, kept_n, kept_k;
    double *dC;
    keep_freed_memory_in_pool();
    if (!dA || A != kept_A || B != kept_B || m != kept_m || n != kept_n || k != kept_k) {
        if (dA) {
            CUDA_CHECK(cudaFree(dA));
            CUDA_CHECK(cudaFree(dB));
        }
        CUDA_CHECK(cudaMalloc((void **)&dA, bytes_a));
        CUDA_CHECK(cudaMalloc((void **)&dB, bytes_b));
        CUDA_CHECK(cudaMemcpy(dA, A, bytes_a, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(dB, B, bytes_b, cudaMemcpyHostToDevice));
        kept_A = A, kept_B = B, kept_m = m, kept_n = n, kept_k = k;
    }
    CUDA_CHECK(cudaMallocAsync((void **)&dC, bytes_c, 0));
    product(m, n, k, dA, dB, dC);
    CUDA_CHECK(cudaMemcpy(C, dC, bytes_c, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFreeAsync(dC, 0));''')],
  caught_by=['gpu1_sizes', 'gpu2_sizes', 'gpu3_sizes', 'gpu4_sizes', 'gpu5_sizes', 'gpu6_sizes', 'gpulib_sizes'])

mutant(R, f'{M}/gpu5_own_stream_no_wait.patch',
  "matmult_gpu5_dev launches on a non-blocking stream of its own and returns without waiting: the copy of C back\n"
  "(legacy default stream) does not wait for it, and a timer that waited only for the default stream would stop before the kernel ends.\n"
  "requires: gpu",
  # (CUDA_CHECK_LAUNCH waits for the whole device: the mutant checks the launch only)
  [(GPU, '''    mm_launch L = matmult_gpu5_launch(m, n);
    gpu5_kernel<<<cuda_dim(L.grid), cuda_dim(L.block)>>>(m, n, k, dA, dB, dC);
    CUDA_CHECK_LAUNCH();''', '''    mm_launch L = matmult_gpu5_launch(m, n);
    static cudaStream_t side;
    if (!side)
        CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
    gpu5_kernel<<<cuda_dim(L.grid), cuda_dim(L.block), 0, side>>>(m, n, k, dA, dB, dC);
    CUDA_CHECK(cudaGetLastError());''')],
  caught_by=['gpu5_sizes', 'all_real_inputs', 'dev_entry_points'])

# A GPU fault costs its own tests only: every test runs in a
# process of its own (the runner forks each, CK_FORK), with its own CUDA
# context, so the tests after gpu2's run on a healthy device. On a GPU host,
# `autograder/gpu-host/run check 3 SUBMISSION=DIR` with this patch applied
# shows gpu2_sizes, all_real_inputs and dev_entry_points lost, the other
# variants' tests passed.
mutant(R, f'{M}/gpu2_illegal_address.patch',
  "gpu2_kernel's first thread writes through a null pointer: an illegal address, which ends the CUDA context of its process.\n"
  "requires: gpu",
  [(GPU, """__global__ void gpu2_kernel(int m, int n, int k, const double *A, const double *B, double *C)
{
""", """__global__ void gpu2_kernel(int m, int n, int k, const double *A, const double *B, double *C)
{
    if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0)
        *(volatile double *)(C - C) = 1.0;
""")],
  caught_by=['gpu2_sizes'])
