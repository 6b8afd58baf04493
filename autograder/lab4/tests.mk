# Lab 4's test programs (common/mk/lab.mk includes this after the lab's
# lab.mk; the variables are described there).
# Run by the tests under mpirun (CPU halo exchange and the NCCL stage).
TEST_PROGRAMS += lab4_mpi_check
lab4_mpi_check_SRCS := $(TEST_DIR)/mpi/lab4_mpi_check.c $(CHECKER_MPI_SRCS)
lab4_mpi_check_LDFLAGS := $(CHECKER_MPI_LDFLAGS)

# The tests load the offload stage at run time, in the forked test that
# calls it (offload_loader.c): LLVM's offload runtime starts
# CUDA as the program starts, and a CUDA context does not survive the fork
# of every test, GPU tests included. So the test binary is linked without it
# and without OpenMP, and the stage goes into a shared library beside it,
# with its own position-independent copy of the kit's common code.
LAB_CFLAGS        += -fPIC
OFFLOAD_LIB       := $(BUILD)/libjacobi_offload.so
TEST_STUDENT_OBJS  = $(filter-out %/jacobi_offload.o,$(STUDENT_OBJS))
TEST_LD            = $(CC)
EXTRA_TARGETS     += $(OFFLOAD_LIB)
$(OFFLOAD_LIB): $(BUILD)/student/jacobi_offload.o $(OFFLOAD_WHERE) $(KIT_BUILD)/libkitcommon.a
	$(OFFLOAD_CC) $(OFFLOAD_FLAGS) $(OFFLOAD_SOFLAGS) -shared -Wl,-Bsymbolic -Wl,--no-undefined -o $@ $^ -lm
$(BUILD)/test_lab$(LAB): | $(OFFLOAD_LIB)
