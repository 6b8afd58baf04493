# Lab 7's test programs (common/mk/lab.mk includes this after the lab's
# lab.mk; the variables are described there).
# Run by the tests under mpirun (stage 4 and the NCCL stage).
TEST_PROGRAMS += lab7_mpi_check
lab7_mpi_check_SRCS := $(TEST_DIR)/mpi/lab7_mpi_check.c $(CHECKER_MPI_SRCS)
lab7_mpi_check_LDFLAGS := $(CHECKER_MPI_LDFLAGS)
