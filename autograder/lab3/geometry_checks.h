/* Lab 3's CPU-side tests of launch geometry: run a variant's index
 * arithmetic (matmult_gpuX_launch and matmult_gpuX_elements) for every
 * thread of its grid, on the CPU, and check that each element of C is
 * computed exactly once. Needs no GPU, so CI runs it. */
#ifndef LAB3_GEOMETRY_CHECKS_H
#define LAB3_GEOMETRY_CHECKS_H

#include "matmult_gpu.h"

typedef mm_launch (*mmg_launch_fn)(int m, int n);
typedef mm_elements (*mmg_elements_fn)(mm_dim3 block_idx, mm_dim3 thread_idx, mm_dim3 block_dim);

/* Fails the test at the first shape of C (m x n, awkward sizes from 1 x 1
 * to 67 x 1025) where the grid is empty or beyond CUDA's limits, a block
 * has more than 1024 threads, a thread computes a count of elements outside
 * [min_count, max_count], an element is computed twice, or none computes
 * it. name ("matmult_gpu3") goes into the messages. */
void mmg_check_geometry(const char *name, mmg_launch_fn launch, mmg_elements_fn elements, int min_count,
                        int max_count);

#endif
