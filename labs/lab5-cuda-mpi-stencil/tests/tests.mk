# Lab 5's test programs (common/mk/lab.mk includes this after the lab's
# lab.mk; the variables are described there).
# Run by the tests under mpirun: the end-to-end runs, the halo exchange,
# the order of the pipeline (a logging backend) and the MPI call counts
# (a PMPI layer). Both it and the test binary carry the CUDA stream
# perturber of chaos schedules (autograder/cuda/cuda_tests.mk).
include autograder/cuda/cuda_tests.mk
TEST_PROGRAMS += lab5_mpi_check
# bad_configurations runs the lab's own driver with sizes it must refuse.
TEST_DRIVERS := wave
lab5_mpi_check_SRCS := $(TEST_DIR)/mpi/lab5_mpi_check.c $(TEST_DIR)/mpi/lab5_call_log.c \
                       $(TEST_DIR)/mpi/lab5_pmpi.c $(CHECKER_MPI_SRCS) $(CUDA_CHAOS_SRCS)
lab5_mpi_check_LDFLAGS := $(CHECKER_MPI_LDFLAGS) $(CUDA_CHAOS_LDFLAGS)
TEST_SRCS := $(wildcard $(TEST_DIR)/*.c) $(CUDA_CHAOS_SRCS) $(COMPUTE_SANITIZER_SRCS)
TEST_LD = $(LAB_LD) $(CUDA_CHAOS_LDFLAGS)
