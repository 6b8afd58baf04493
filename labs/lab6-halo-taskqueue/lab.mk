# Lab 6 (halo-taskqueue): what make builds. See common/mk/lab.mk for the variables.
#
# Six student files: stages 1-4 in C (OpenMP for the host backend's blocks,
# MPI from mpicc's flags), stage 5 in CUDA. lab6_bench is make bench LAB=6's
# program (bench.sh).
STUDENT_FILES := halo_config.c halo_pack.c halo_baseline.c taskqueue.c halo_tq_loop.c halo_kernels.cu
DRIVERS       := lab6_bench
lab6_bench_SRCS     := $(LAB_DIR)/lab6_bench.c $(LAB_DIR)/halo_mpi_log.c
LAB_KIT_SRCS  := $(LAB_DIR)/halo_layer.c $(LAB_DIR)/backend_host.c $(LAB_DIR)/backend_cuda.c $(LAB_DIR)/halo_log.c

LAB_CFLAGS := -fopenmp -I$(CUDA_HOME)/include $(MPI_CFLAGS)
LAB_LDLIBS  = -fopenmp $(CUDA_LIBS) $(MPI_LIBS) -lpthread

# The tests and their MPI programs link the C files built with AddressSanitizer
# and UBSan as well (common/mk/lab.mk): a read past an array fails the test.
SANITIZE      := address,undefined

# The grading sandbox's limits (common/mk/lab.mk): the largest test runs
# 4 ranks, each with one OpenMP thread a halo block (27) in the host backend.
SANDBOX_RANKS   := 4
SANDBOX_THREADS := 27
