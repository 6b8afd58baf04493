/* Poisson grids for the tests: see grid.h. */
#include "grid.h"

#include <string.h>

#include "alloc.h"
#include "poisson.h"

ag_grid ag_grid_new(int N, double T0)
{
    ag_grid g = {N, poisson_points(N), NULL, NULL, NULL};
    g.f = kit_alloc_doubles(g.n);
    g.u = kit_alloc_doubles(g.n);
    g.u_old = kit_alloc_doubles(g.n);
    poisson_init(N, T0, g.f, g.u);
    memcpy(g.u_old, g.u, g.n * sizeof *g.u);
    return g;
}

ag_grid ag_grid_copy(const ag_grid *g)
{
    ag_grid c = *g;
    c.f = kit_alloc_doubles(g->n);
    c.u = kit_alloc_doubles(g->n);
    c.u_old = kit_alloc_doubles(g->n);
    memcpy(c.f, g->f, g->n * sizeof *g->f);
    memcpy(c.u, g->u, g->n * sizeof *g->u);
    memcpy(c.u_old, g->u_old, g->n * sizeof *g->u_old);
    return c;
}

void ag_grid_free(ag_grid *g)
{
    kit_free(g->f), kit_free(g->u), kit_free(g->u_old);
    g->f = g->u = g->u_old = NULL;
}
