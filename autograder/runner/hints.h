/* Hints for a wrong result whose numbers alone do not say what went wrong.
 *
 * Used by the tests (autograder/grader.c's array comparison, lab 2's
 * solvers through grid.h) and by the MPI checker programs of labs 4
 * and 5, which compare with their own code: so this file needs neither
 * Check nor MPI.
 *
 * - "another order of additions?": every wrong element is only a few
 *   rounding steps off (the right formula, its additions in another order
 *   than the one the kit prescribes, or contracted into fused
 *   multiply-adds);
 * - "one step behind?" / "one step ahead?": the result is, within the
 *   test's tolerance, the reference after one step (sweep, iteration,
 *   time step) fewer or more: a loop that counts one short or one too
 *   far, or the answer left in the other buffer of a swap. */
#ifndef KIT_HINTS_H
#define KIT_HINTS_H

#include <stddef.h>

/* Below these largest relative errors a wrong result is "the same
 * numbers": each wrong element against its expected value (doubles), far
 * below any wrong formula's error; or the largest error against the
 * largest expected value (a sum's rounding is of the size of its terms,
 * so an element near 0 may carry much more than its own size), for
 * doubles some 10^4 ulps and no more (a sum kept in a float, 10^9 ulps off,
 * is not another order), for floats (lab 5's wave) about 800 ulps, room for
 * a rounding difference that a few time steps carry on. */
#define AG_CLOSE_DOUBLE 1e-6
#define AG_CLOSE_DOUBLE_SCALE 1e-12
#define AG_CLOSE_FLOAT 1e-4

/* The hint for a wrong result whose largest relative error is worst_rel:
 * " (close but not equal everywhere: ... another order of additions?)"
 * when 0 < worst_rel < close, else "". */
const char *ag_order_hint(double worst_rel, double close);

/* The same for a wrong array (grader.c): worst_rel, the largest error of a
 * wrong element against its expected value; worst_err, the largest error;
 * scale, the largest |expected|; floats, whether every expected value is a
 * float (the numbers compared were floats, widened). */
const char *ag_order_hint_array(double worst_rel, double worst_err, double scale, int floats);

/* The largest |got - want| over n floats (or doubles), relative to the largest |want|
 * (infinite where got is NaN or infinite and want is not). */
double ag_worst_rel_float(const float *want, const float *got, size_t n);
double ag_worst_rel_double(const double *want, const double *got, size_t n);

/* Whether got equals want in every element: within tol (tol < 0: exactly,
 * -0 equal to +0); NaN equals nothing. */
int ag_equal_doubles(const double *want, const double *got, size_t n, double tol);
int ag_equal_floats(const float *want, const float *got, size_t n);

/* The hint for a result that should be the reference after `steps` steps
 * and equals it one step off: off = -1 (one step fewer; for steps = 1 the
 * start itself, which code that did nothing leaves too, so the hint says
 * that and not "one step behind"), +1 (one more), 0 (neither: "");
 * step names the step ("sweep", "time step", "iteration"). Written into
 * buf, returned. */
const char *ag_step_hint(int off, int steps, const char *step, char *buf, size_t cap);

#endif
