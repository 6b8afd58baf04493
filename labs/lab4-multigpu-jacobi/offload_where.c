/* Built with the offload compiler and flags of jacobi_offload.c: see
 * offload_where.h. */
#include <omp.h>

#include "offload_where.h"

int offload_runs_on_device(void)
{
    int on_host = 1;
#pragma omp target map(from : on_host)
    on_host = omp_is_initial_device();
    return !on_host;
}
