/* Lab 5 (cuda-mpi-stencil): hidden tests, for instructors. `make release`
 * leaves this file out of the student copy; the suite then runs without
 * them. */
#include "autograder.h"
#include "lab5_checks.h"
#include "wave.h"

/* Shapes the visible tests do not use: a 1 x 1 column (every x and y
 * neighbour outside), 9-plane slabs, 7 x 5 planes for 12 steps. */
static const ag_launch hidden_odd_shapes[] = {
    {"lab5_mpi_check", 4, "nonblocking:1x1x27:3,10 sendrecv:7x5x27:12 sendrecv:5x3x27:2", 120},
    {NULL},
};

/* The region contract at sizes a GPU block does not divide. */
START_TEST(hidden_gpu_odd_regions)
{
    l5_check_composition(l5_gpu_region, "launch_kernel", 33, 9, 13);
    l5_check_delta(l5_gpu_region, "launch_kernel", 1, 1, 12, 0, 0, 6);
    l5_check_delta(l5_gpu_region, "launch_kernel", 33, 9, 40, 32, 8, 30);
}
END_TEST

/* A compute rank's local array past 2^31 bytes: 16 planes of 8192 x 4100
 * floats = 2,149,580,800 B (S = 8 on 2 compute ranks; each message, 12
 * planes, stays below 2^31 bytes). A byte count in int breaks here (no
 * index in elements does yet: 537 M points). 0 steps: distribution and
 * collection at that size, the answer the start itself. At the lecture's
 * size (480 x 480 x 400 floats, 368.6 MB on the server) nothing passes
 * 2^31 bytes; the lecture's erratum 15 (process * num_points in 32 bits)
 * bites from 47 compute ranks. About 15 GB of host and 13 GB of GPU
 * memory. */
static const ag_launch hidden_gpu_large_slab[] = {
    {"lab5_mpi_check", 3, "--backend cuda --watchdog 300 sendrecv:8192x4100x16:0", 400},
    {NULL},
};

/* A point index past 2^31 (lab5_checks.h): hidden_gpu_large_slab's 537 M
 * points stay below it, so a kernel's 32-bit index passes everything
 * else. */
START_TEST(hidden_gpu_index_past_2_31) { l5_check_gpu_index_past_2_31(); }
END_TEST

void ag_hidden_tests(ag_suite *s)
{
    ag_add(s, (ag_spec){AG_LAUNCHES(hidden_odd_shapes), .points = 1, .hidden = 1, .timeout = 150});
    ag_add(s, (ag_spec){.test = hidden_gpu_odd_regions, .points = 1, .hidden = 1, .gpus = 1, .timeout = 60});
    ag_add(s, (ag_spec){AG_LAUNCHES(hidden_gpu_large_slab), .points = 1, .hidden = 1, .gpus = 1, .timeout = 450});
    ag_add(s, (ag_spec){.test = hidden_gpu_index_past_2_31, .points = 1, .hidden = 1, .gpus = 1, .timeout = 120});
}
