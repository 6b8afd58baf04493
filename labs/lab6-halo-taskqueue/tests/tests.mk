# Lab 6's test programs (common/mk/lab.mk includes this after the lab's
# lab.mk; the variables are described there):
#   lab6_mpi_check        the tests' MPI program (run under mpirun by ag_run_mpi)
#   lab6_tq_stress        the task queue under many threads at once
#   lab6_tq_stress_tsan   the same, built with ThreadSanitizer from your taskqueue.c
#   lab6_tq_orders        the memory orders your taskqueue.c asks for
TEST_PROGRAMS += lab6_mpi_check lab6_tq_stress
# The test binary carries the compute-sanitizer tests (autograder/cuda/cuda_tests.mk).
include autograder/cuda/cuda_tests.mk
TEST_SRCS := $(wildcard $(TEST_DIR)/*.c) $(COMPUTE_SANITIZER_SRCS)
lab6_mpi_check_SRCS := $(TEST_DIR)/mpi/lab6_mpi_check.c $(LAB_DIR)/halo_mpi_log.c $(CHECKER_MPI_SRCS)
lab6_mpi_check_LDFLAGS := $(CHECKER_MPI_LDFLAGS)
lab6_tq_stress_SRCS := $(TEST_DIR)/stress/lab6_tq_stress.c $(CHECKER_SRCS)

# The stress test again, under ThreadSanitizer: your taskqueue.c and the
# harness alone (no OpenMP, MPI or CUDA, which TSan cannot see into). The
# program is a script that runs it with address-space randomisation off
# where it can: GCC 12-13's TSan stops at start-up on kernels that
# randomise with 32 bits (vm.mmap_rnd_bits = 32, e.g. Ubuntu 24.04's).
TSAN_BIN := $(BUILD)/lab6_tq_stress_tsan
# The memory orders your taskqueue.c asks for, read as it runs: built with
# orders/tq_order_probe.h, which logs every C11 atomic.
ORDERS_BIN := $(BUILD)/lab6_tq_orders
EXTRA_TARGETS += $(TSAN_BIN) $(ORDERS_BIN)
$(ORDERS_BIN): $(BUILD)/student/taskqueue.c $(TEST_DIR)/orders/lab6_tq_orders.c $(CHECKER_SRCS) \
               $(TEST_DIR)/orders/tq_order_probe.h $(LAB_DIR)/halo.h
	$(CC) $(CSTD) -O1 $(WARN) -I$(LAB_DIR) -Icommon -Iautograder -I$(TEST_DIR)/orders \
	    -include $(TEST_DIR)/orders/tq_order_probe.h $(filter %.c,$^) -o $@
$(TSAN_BIN).bin: $(BUILD)/student/taskqueue.c $(TEST_DIR)/stress/lab6_tq_stress.c $(CHECKER_SRCS) $(LAB_DIR)/halo.h
	$(CC) $(CSTD) -O1 -g -fsanitize=thread $(WARN) -I$(LAB_DIR) -Icommon -Iautograder $(filter %.c,$^) -o $@ -lpthread
$(TSAN_BIN): $(TSAN_BIN).bin
	printf '%s\n' '#!/bin/sh' 'bin="$$0.bin"' \
	    'if setarch "$$(uname -m)" -R true 2>/dev/null; then exec setarch "$$(uname -m)" -R "$$bin" "$$@"; fi' \
	    'exec "$$bin" "$$@"' >$@
	chmod +x $@
