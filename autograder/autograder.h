/* The kit's grading layer over Check.
 *
 * A lab's test file writes Check tests as usual (START_TEST ... END_TEST,
 * ck_assert_*) and registers each one with its points and visibility:
 *
 *   static void register_tests(ag_suite *s)       (test_labN.c)
 *   {
 *       ag_add(s, (ag_spec){.test = mnk_small_integer_sizes, .points = 2});
 *       ag_add(s, (ag_spec){.test = gpu2_sizes, .points = 3, .gpus = 1});
 *   }
 *   int main(int argc, char **argv) { return ag_main(argc, argv, register_tests); }
 *
 * (the lab's name comes from make: AG_LAB, runner.h).
 *
 * Tests that differ only in data are one body and a row each (AG_ROW,
 * runner.h); a test that only launches checker programs is a table of
 * them (AG_LAUNCHES, launch.h).
 *
 *   void ag_hidden_tests(ag_suite *s)              (hidden_labN.c)
 *   {
 *       ag_add(s, (ag_spec){.test = blk_huge_block, .points = 1, .hidden = 1});
 *   }
 *
 * The layer, one file per job, in autograder/runner/ (the lab's tests
 * include this header only):
 *   runner.h       the runner: ag_spec, ag_add, ag_main, tests kept for grading, a
 *                  table's row by name (ag_find_named); what it adds to
 *                  Check and the test binary's command line
 *   compare.h      array comparison (ag_assert_matrix_eq, _grid_eq),
 *                  ag_poison, ag_max_abs
 *   launch.h       checker programs run alone or under mpirun (ag_run_mpi,
 *                  ag_run_program, ag_run_mpi_refused)
 *   matmult.h      labs 1 and 3's matrix-product problems (ag_mm_*)
 *   grid.h         labs 2 and 4's Poisson grids (ag_grid_*), and an
 *                  iterative solver's grid compared, with "one step
 *                  behind?" when it is the reference one sweep off
 *   hints.h        the hints a failing line may carry (also linked into
 *                  the MPI checker programs)
 *   chaos.h        chaos schedules: the AG_CHAOS_SEED contract, and the
 *                  OpenMP thread count a test draws under it (ag_omp_threads)
 * and, inside the runner only (run.h: a run's four jobs, a file each):
 * plan (which tests, skips, the GPU probe, the time for hangs), run_test
 * (one test under Check), report (the lines, the score, results.json),
 * call_rules (calls.conf's verdicts), sanitizer_report. */
#ifndef KIT_GRADER_H
#define KIT_GRADER_H

#include "runner/chaos.h"
#include "runner/compare.h"
#include "runner/grid.h"
#include "runner/launch.h"
#include "runner/matmult.h"
#include "runner/runner.h"

#endif
