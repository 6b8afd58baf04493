/* The kit's Poisson grids for labs 2 and 4's tests. */
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

#endif
