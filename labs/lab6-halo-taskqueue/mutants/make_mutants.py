"""Regenerates lab 6's mutants from the reference (run from the kit's root:
    python3 labs/lab6-halo-taskqueue/mutants/make_mutants.py
after changing a file of labs/lab6-halo-taskqueue/solution/). A description's
line "requires: gpu" marks a mutant only a GPU host can catch."""
import sys; sys.path.insert(0, "maintainer/mutants")
from mkpatch import mutant
R = "labs/lab6-halo-taskqueue/solution"


def m(name, desc, edits, caught_by=()):
    mutant(R, f"labs/lab6-halo-taskqueue/mutants/{name}.patch", desc, edits, caught_by)



m("send_tag_not_block_id", "halo_send_block sends every block with tag 0, not its block id (receives are matched by tag = block id).",
  [("halo_baseline.c", "MPI_CHECK(MPI_Send(L->send_buf[block], (int)L->sizes[block], MPI_DOUBLE, L->send_to[block], block, C->comm));",
    "MPI_CHECK(MPI_Send(L->send_buf[block], (int)L->sizes[block], MPI_DOUBLE, L->send_to[block], 0, C->comm));"),
   ("halo_baseline.c", "MPI_CHECK(MPI_Isend(L->send_buf[block], (int)L->sizes[block], MPI_DOUBLE, L->send_to[block], block, C->comm,",
    "MPI_CHECK(MPI_Isend(L->send_buf[block], (int)L->sizes[block], MPI_DOUBLE, L->send_to[block], 0, C->comm,")])
m("ring_partners_asymmetric", "HALO_PAT_RING receives from the next rank, the one it also sends to: send and receive partners are not symmetric.",
  [("halo_config.c", """    case HALO_PAT_RING:
        *send_to = next;
        *recv_from = prev;""", """    case HALO_PAT_RING:
        *send_to = next;
        *recv_from = next;""")])
m("sentinel_without_iteration", "halo_msg_value leaves the iteration out of the sentinel: a stale buffer from the last iteration passes the unpack check.",
  [("halo_config.c", "return 1000.0 * (iteration + 1) + 100.0 * rank + block;", "(void)iteration;\n    return 1000.0 + 100.0 * rank + block;")])
m("strided_loop_skips_tail", "halo_pack_thread stops at the last multiple of nthreads: the tail of a buffer whose size is no multiple of the thread count is never packed.",
  [("halo_pack.c", "for (size_t i = (size_t)tid; i < n; i += (size_t)nthreads)", "for (size_t i = (size_t)tid; i < n / (size_t)nthreads * (size_t)nthreads; i += (size_t)nthreads)")])
m("unpack_check_skips_last", "halo_unpack_check's full check stops one element short: a wrong last element passes.",
  [("halo_pack.c", "for (size_t i = 0; i < n; i++)\n            wrong", "for (size_t i = 0; i + 1 < n; i++)\n            wrong")])
m("lock_with_plain_accesses", "tq_host_push_task takes the lock with a plain test and a plain store instead of an atomic compare-and-swap: two blocks can both enter, and a task is lost under contention (a data race ThreadSanitizer reports).",
  [("taskqueue.c", """    int expected = -1;
    while (!atomic_compare_exchange_weak_explicit(atomic_int_at(tq->lock), &expected, block, memory_order_acquire,
                                                  memory_order_relaxed)) {
        expected = -1;
        sched_yield(); /* 27 "blocks" on 2 cores: let the owner run */
    }""", """    while (*tq->lock != -1)
        sched_yield();
    *tq->lock = block;""")])
m("notify_overwrites_bits", "tq_cpu_notify stores the bits instead of ORing them in: a second notification wipes out the first.",
  [("taskqueue.c", "atomic_fetch_or_explicit(atomic_int_at(&tq->request[block]), bits, memory_order_release);",
    "atomic_store_explicit(atomic_int_at(&tq->request[block]), bits, memory_order_release);")])
m("channel_task_relaxed", "tq_host_push_task (channel per block) posts the task with a relaxed store: the CPU may read the block's pack before it is visible (a data race ThreadSanitizer reports).",
  [("taskqueue.c", "atomic_store_explicit(atomic_int_at(&tq->task_list[block]), 1, memory_order_release);",
    "atomic_store_explicit(atomic_int_at(&tq->task_list[block]), 1, memory_order_relaxed);")])
m("notify_wrong_bit", "halo_tq_iteration notifies a completed receive with TQ_BIT_H2D instead of TQ_BIT_RECV: the blocks wait forever.",
  [("halo_tq_loop.c", "tq_cpu_notify(tq, index, TQ_BIT_RECV);", "tq_cpu_notify(tq, index, TQ_BIT_H2D);")])
m("unpack_before_receive", "halo_tq_iteration releases a block for unpacking as soon as it has sent the block's data, before its receive has completed.",
  [("halo_tq_loop.c", """            halo_send_block(L, C, block, blocking);
            events++;""", """            halo_send_block(L, C, block, blocking);
            tq_cpu_notify(tq, block, TQ_BIT_RECV);
            events++;""")])
m("no_reset_between_iterations", "halo_tq_iteration never calls tq_reset: the next iteration starts with last iteration's notifications and queue position.",
  [("halo_tq_loop.c", "    tq_reset(tq); /* the kernel is over: nothing races with the reset */\n", "")])
m("testany_index_assumed_in_order", "halo_tq_iteration notifies the blocks in the order receives were posted (0, 1, 2, ...) instead of the index MPI_Testany returned.",
  [("halo_tq_loop.c", "    int nb = L->num_blocks, events = 0;", "    int nb = L->num_blocks, events = 0, received = 0;"),
   ("halo_tq_loop.c", "tq_cpu_notify(tq, index, TQ_BIT_RECV);", "tq_cpu_notify(tq, received++, TQ_BIT_RECV);")])
m("testany_order_not_recorded", "halo_waitall_via_testany records the loop counter, not the index MPI_Testany returned: the order of completion is lost.",
  [("halo_baseline.c", "        order[i] = index;", "        order[i] = i;")])
m("send_before_pack_finished", "halo_baseline_iteration sends before waiting for the pack kernel: the buffers go out half packed.",
  [("halo_baseline.c", """    if (be->synchronize())  /* the packed data is in host memory only now */
        return -1;
    for (int b = 0; b < nb; b++)
        halo_send_block(L, C, b, blocking);""", """    for (int b = 0; b < nb; b++)
        halo_send_block(L, C, b, blocking);
    if (be->synchronize())
        return -1;""")])
m("loop_stops_after_tasks", "halo_tq_iteration counts only the tasks (num_blocks events), not the receives too: it can leave before every block was notified.",
  [("halo_tq_loop.c", "    while (events < 2 * nb) {", "    while (events < nb) {")])
m("memcpy_query_while_packing", "memcpy_state_needs_query also asks about blocks that are packing (state 1), where no copy is in flight: a costly cudaStreamQuery per pass for nothing.",
  [("taskqueue.c", "    return state == 0 || state == 3;", "    return state == 0 || state == 1 || state == 3;")])
m("guard_always_fits", "halo_cuda_tq_fits says every launch fits: a persistent kernel with more blocks than can be resident would be launched and hang.\nrequires: gpu",
  [("halo_kernels.cu", "    return blocks <= resident;", "    return 1;")])
m("gpu_read_always_samples", "GPU_global_Read checks one sampled element per thread even when the full check is asked for.\nrequires: gpu",
  [("halo_kernels.cu", "    if (p.full) {\n        for", "    if (0) {\n        for")])
m("device_words_not_reset", "halo_cuda_launch_tq does not reset the queue's tail before each launch: from the second iteration on, tasks go past the end of task_list.\nrequires: gpu",
  [("halo_kernels.cu", "    CUDA_CHECK(cudaMemsetAsync(tq->tail, 0, sizeof(int), stream));\n", "")])

m("gpu_flag_spin_hoisted", "The kernel's wait for the CPU's notification spins on a plain load of request[b] with an empty body:\n"
  "the compiler may keep the first value in a register (nvcc -O3's PTX: one load, then a branch to itself), so the\n"
  "block never sees the bit and the iteration hangs.\nrequires: gpu",
  [("halo_kernels.cu", """        while (!(load_acquire_sys(&p.request[b]) & bit))
            __nanosleep(200); /* polite to the PCIe link the CPU polls too */""", """        while (!(p.request[b] & bit)) {
        }""")],
  caught_by=["gpu_taskqueue_self", "gpu_two_ranks"])

# --- memory orders x86 and ThreadSanitizer cannot see -------------------------
m("lock_taken_relaxed", "tq_host_push_task takes the lock with a relaxed compare-and-swap (acquire in the contract):\n"
  "on a weakly ordered machine a block may see a stale tail; x86 and ThreadSanitizer see nothing wrong.",
  [("taskqueue.c", "block, memory_order_acquire,\n", "block, memory_order_relaxed,\n")],
  caught_by=["taskqueue_memory_orders"])
m("wait_reads_relaxed", "tq_host_wait reads the notification bits with a relaxed load (acquire in the contract).",
  [("taskqueue.c", "!(atomic_load_explicit(atomic_int_at(&tq->request[block]), memory_order_acquire) & bit)",
    "!(atomic_load_explicit(atomic_int_at(&tq->request[block]), memory_order_relaxed) & bit)")],
  caught_by=["taskqueue_thread_sanitizer", "taskqueue_memory_orders"])

# --- arithmetic that hides the order of operations ---------------------------
m("scaled_divides_first", "halo_scaled_array_size divides before it multiplies (n / den * num): right whenever den divides n,\n"
  "as it does for every 1/den and num/1 workload, and for 3/7 of block 9; 3/9 of block 1 comes out 4998, not 5000.",
  [("halo_config.c", "size_t scaled = n * (size_t)num / (size_t)den;", "size_t scaled = n / (size_t)den * (size_t)num;")],
  caught_by=["sizes_table41"])

# --- requests never completed ------------------------------------------------
m("isends_never_waited", "halo_baseline_iteration never waits for its non-blocking sends: their requests stay pending.\n"
  "Other MPI calls drive them to the receiver all the same; the checker fails requests left pending at its end.",
  [("halo_baseline.c", """    if (!blocking)
        MPI_CHECK(MPI_Waitall(nb, C->send_req, MPI_STATUSES_IGNORE));
""", "")],
  caught_by=["baseline_two_ranks", "baseline_four_ranks", "hidden_self_and_three_ranks", "gpu_baseline", "gpu_two_ranks"])

# --- every stage: a run that ends before the checks --------------------------
m("early_exit", "The MPI stages end the program at once (MPI_Finalize, then _exit(0)) and the task queue's reset exits 0:\n"
  "nothing is exchanged, yet every process exits 0. Every test that runs a checker program must fail.",
  [("halo_baseline.c", "#include \"mpi_check.h\"\n", "#include \"mpi_check.h\"\n#include <unistd.h>\n"),
   ("halo_baseline.c", "int halo_waitall_via_testany(int n, MPI_Request *reqs, int *order)\n{\n",
    "int halo_waitall_via_testany(int n, MPI_Request *reqs, int *order)\n{\n    if (reqs) {\n        MPI_Finalize();\n        _exit(0);\n    }\n"),
   ("halo_baseline.c", "int halo_baseline_iteration(halo_layer *L, halo_comm *C, int iteration, int blocking, int testany)\n{\n",
    "int halo_baseline_iteration(halo_layer *L, halo_comm *C, int iteration, int blocking, int testany)\n{\n"
    "    if (L->num_blocks > 0) {\n        MPI_Finalize();\n        _exit(0);\n    }\n"),
   ("halo_tq_loop.c", "#include \"mpi_check.h\"\n", "#include \"mpi_check.h\"\n#include <unistd.h>\n"),
   ("halo_tq_loop.c", "int halo_tq_iteration(halo_layer *L, halo_comm *C, taskqueue *tq, int iteration, int blocking)\n{\n",
    "int halo_tq_iteration(halo_layer *L, halo_comm *C, taskqueue *tq, int iteration, int blocking)\n{\n"
    "    if (tq) {\n        MPI_Finalize();\n        _exit(0);\n    }\n"),
   ("taskqueue.c", "#include <sched.h>\n", "#include <sched.h>\n#include <stdlib.h>\n"),
   ("taskqueue.c", "void tq_reset(taskqueue *tq)\n{\n", "void tq_reset(taskqueue *tq)\n{\n    if (tq->num_blocks > 1)\n        exit(0);\n")],
  caught_by=["testany_order", "baseline_two_ranks", "baseline_four_ranks", "taskqueue_one_thread",
             "notification_bits", "taskqueue_27_threads",
             "taskqueue_thread_sanitizer", "taskqueue_two_ranks", "taskqueue_four_ranks", "hidden_self_and_three_ranks",
             "gpu_baseline", "gpu_taskqueue_self", "gpu_two_ranks"])

# A read one past an array, its value never used: only the tests'
# AddressSanitizer build (SANITIZE in labs/lab6-halo-taskqueue/lab.mk) sees it.
m("unpack_check_reads_one_past",
  "halo_unpack_check's full check loads the next element ahead of its use: the last load reads recv_buf[n], one past the buffer.\n"
  "The value is never used, so every count is right; AddressSanitizer stops the test.",
  [("halo_pack.c", """        for (size_t i = 0; i < n; i++)
            wrong += !(recv_buf[i] == expected); /* NaN counts as wrong */""",
    """        double next = recv_buf[0];
        for (size_t i = 0; i < n; i++) {
            double v = next;
            next = recv_buf[i + 1];
            wrong += !(v == expected); /* NaN counts as wrong */
        }""")],
  caught_by=["unpack_check_catches"])

# Ordering (chaos schedules): right only while MPI buffers a send.
m("irecvs_posted_after_sends",
  "halo_baseline_iteration sends every block before it posts the receives: a blocking send waits for a receive that\n"
  "the partner posts only after its own sends. Eager blocks (the small cases) go out all the same; rendezvous ones,\n"
  "or sends that chaos makes MPI_Ssend, wait for ever.",
  [("halo_baseline.c", """    halo_post_irecvs(L, C); /* while the pack runs */
    if (be->synchronize())  /* the packed data is in host memory only now */
        return -1;
    for (int b = 0; b < nb; b++)
        halo_send_block(L, C, b, blocking);
""", """    if (be->synchronize()) /* the packed data is in host memory only now */
        return -1;
    for (int b = 0; b < nb; b++)
        halo_send_block(L, C, b, blocking);
    halo_post_irecvs(L, C); /* what comes back: after ours are out */
""")],
  caught_by=["baseline_two_ranks", "baseline_four_ranks", "hidden_self_and_three_ranks"])

