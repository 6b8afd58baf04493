/* Where jacobi_offload.c's target regions run on this host.
 *
 * offload_where.c is built by the same compiler, with the same flags, as the
 * student's jacobi_offload.c (lab.mk's OFFLOAD): where that compiler built
 * the target regions for the host only (OFFLOAD=host), or where its offload
 * runtime finds no usable GPU, they run on the host, and so do the
 * student's. A host run is a fine correctness check on a machine without a
 * GPU, but no GPU figure: the tests skip and the bench leaves out its
 * offload rows where a GPU exists and the offload stage cannot reach it. */
#ifndef LAB4_OFFLOAD_WHERE_H
#define LAB4_OFFLOAD_WHERE_H

/* 1 if a target region runs on a device, 0 if on the host (and -1 where
 * the tests could not load the stage: labs/lab4-multigpu-jacobi/tests/offload_loader.c). Starts the
 * offload runtime (and with it CUDA): call it in a process that does not
 * fork afterwards. */
int offload_runs_on_device(void);

#endif
