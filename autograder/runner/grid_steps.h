/* Grid comparison for iterative solvers that says "one step behind?"
 * (hints.h) when the result is the reference after one step fewer or more.
 * For Check tests; the reference one step off is computed only when the
 * result is wrong. */
#ifndef KIT_GRID_STEPS_H
#define KIT_GRID_STEPS_H

#include <stddef.h>

/* The reference after `steps` steps (0: the start), into out. */
typedef void (*ag_steps_fn)(const void *arg, int steps, double *out);

/* ag_assert_grid_eq (grader.h) of got against expected, the reference
 * after `steps` steps; when they differ, got is also compared, within the
 * same tol, with reference(arg, steps - 1) and reference(arg, steps + 1),
 * and the message says when it equals one. step names a step ("sweep"). */
void ag_assert_grid_steps(const double *expected, const double *got, size_t n0, size_t n1, size_t n2, double tol,
                          int steps, const char *step, ag_steps_fn reference, const void *arg,
                          const char *context_fmt, ...) __attribute__((format(printf, 11, 12)));

#endif
