/* The kit's Poisson grids for labs 2 and 4's tests, and an iterative
 * solver's grid compared so that the message says "one step behind?"
 * (hints.h) when the result is the reference after one step fewer or more
 * (the reference one step off is computed only when the result is wrong). */
#ifndef KIT_GRADER_GRID_H
#define KIT_GRADER_GRID_H

#include <stddef.h>

/* The kit's Poisson problem (labs 2 and 4): f, u and u_old of (N+2)^3
 * doubles (common/poisson.h), set up with poisson_init(N, T0), and u_old a
 * copy of u. */
typedef struct {
    int N;
    size_t n; /* (N+2)^3 */
    double *f, *u, *u_old;
} ag_grid;

ag_grid ag_grid_new(int N, double T0);
ag_grid ag_grid_copy(const ag_grid *g);
void ag_grid_free(ag_grid *g);

/* The reference after `steps` steps (0: the start), into out. */
typedef void (*ag_steps_fn)(const void *arg, int steps, double *out);

/* ag_assert_grid_eq (compare.h) of got against expected, the reference
 * after `steps` steps; when they differ, got is also compared, within the
 * same tol, with reference(arg, steps - 1) and reference(arg, steps + 1),
 * and the message says when it equals one. step names a step ("sweep"). */
void ag_assert_grid_steps(const double *expected, const double *got, size_t n0, size_t n1, size_t n2, double tol,
                          int steps, const char *step, ag_steps_fn reference, const void *arg,
                          const char *context_fmt, ...) __attribute__((format(printf, 11, 12)));

#endif
