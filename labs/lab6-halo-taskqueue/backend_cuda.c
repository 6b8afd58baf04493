/* Lab 6: the CUDA backend (given): your halo_kernels.cu behind the backend
 * interface, so that the baseline and the event loop run unchanged on it. */
#include "halo.h"

/* One line per job: the device (and the wait for it), shared memory, the
 * taskqueue's arrays, the launches. */
const halo_backend halo_cuda_backend = {
    .name = "cuda", .init = halo_cuda_init, .synchronize = halo_cuda_synchronize,
    .alloc_shared = halo_cuda_alloc_shared, .free_shared = halo_cuda_free_shared,
    .tq_init = halo_cuda_tq_init, .tq_free = halo_cuda_tq_free,
    .launch_pack = halo_cuda_launch_pack, .launch_unpack = halo_cuda_launch_unpack, .launch_tq = halo_cuda_launch_tq,
};
