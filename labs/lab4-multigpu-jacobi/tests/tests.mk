# Lab 4's test programs (common/mk/lab.mk includes this after the lab's
# lab.mk; the variables are described there).
# Run by the tests under mpirun (CPU halo exchange and the NCCL stage).
# Both it and the test binary carry the CUDA stream perturber of chaos
# schedules (autograder/cuda/cuda_tests.mk).
include autograder/cuda/cuda_tests.mk
TEST_PROGRAMS += lab4_mpi_check
lab4_mpi_check_SRCS := $(TEST_DIR)/mpi/lab4_mpi_check.c $(CHECKER_MPI_SRCS) $(CUDA_CHAOS_SRCS)
lab4_mpi_check_LDFLAGS := $(CHECKER_MPI_LDFLAGS) $(CUDA_CHAOS_LDFLAGS)
TEST_SRCS := $(wildcard $(TEST_DIR)/*.c) $(CUDA_CHAOS_SRCS) $(COMPUTE_SANITIZER_SRCS)

# The tests load the offload stage at run time, in the forked test that
# calls it (offload_loader.c): LLVM's offload runtime starts
# CUDA as the program starts, and a CUDA context does not survive the fork
# of every test, GPU tests included. So the test binary is linked without it
# and without OpenMP, and the stage goes into a shared library beside it,
# with its own position-independent copy of the kit's common code.
LAB_CFLAGS        += -fPIC
OFFLOAD_LIB       := $(BUILD)/libjacobi_offload.so
TEST_STUDENT_OBJS  = $(filter-out %/jacobi_offload.o,$(STUDENT_OBJS))
TEST_LD            = $(CC) $(CUDA_CHAOS_LDFLAGS)
EXTRA_TARGETS     += $(OFFLOAD_LIB)
$(OFFLOAD_LIB): $(BUILD)/student/jacobi_offload.o $(OFFLOAD_WHERE) $(KIT_BUILD)/libkitcommon.a
	$(OFFLOAD_CC) $(OFFLOAD_FLAGS) $(OFFLOAD_SOFLAGS) -shared -Wl,-Bsymbolic -Wl,--no-undefined -o $@ $^ -lm
$(BUILD)/test_lab$(LAB) $(BUILD)/test_lab$(LAB)_sanitizer: | $(OFFLOAD_LIB)
