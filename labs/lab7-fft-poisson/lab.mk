# Lab 7 (fft-poisson): what make builds. See common/mk/lab.mk for the variables.
#
# The CPU stages use FFTW (r2r kinds and complex DFTs), OpenMP and MPI; the
# tests compare Thomas with LAPACK's dgtsv_ from OpenBLAS. The GPU stages
# use cuFFT and NCCL; their MPI set-up (one rank per GPU, the NCCL
# communicator) is common/nccl/nccl_world.c, which lab 4 uses too.
STUDENT_FILES := fp_basics.c fp_serial.c fp_makhoul.c fp_radiator.c fp_mpi.c fp_cuda.cu fp_cuda_fused.cu fp_nccl.cu
# The fused solve is stage 6's ungraded challenge.
OPTIONAL_FILES := fp_cuda_fused.cu
DRIVERS       := fft_poisson lab7_bench
lab7_bench_SRCS := $(LAB_DIR)/lab7_bench.c
fft_poisson_SRCS := $(LAB_DIR)/fft_poisson_main.c
# fp_mms.c: the manufactured solutions, for the driver and the tests.
LAB_KIT_SRCS  := $(LAB_DIR)/fp_grid.c $(LAB_DIR)/fp_gpu_plan.cu $(LAB_DIR)/fp_mms.c common/nccl/nccl_world.c

LAB_CFLAGS := -fopenmp $(MPI_CFLAGS) -I$(CUDA_HOME)/include
LAB_LDLIBS  = -lfftw3 -lopenblas $(CUDA_LIBS) -lcufft -lnvrtc -lnvJitLink -lnccl $(MPI_LIBS) -lm
LAB_LD      = $(CC) -fopenmp
# Two OpenMP threads for the tests, on any machine: the batch race is only
# visible with more than one.
# NCCL's NVLink multicast stays off on the kit's GPU hosts.
CHECK_ENV := $(CHECK_ENV) OMP_NUM_THREADS=2 NCCL_NVLS_ENABLE=0
# The tests and their MPI programs link the C files built with AddressSanitizer
# and UBSan as well (common/mk/lab.mk): a read past an array fails the test.
SANITIZE      := address,undefined

# The grading sandbox's limits (common/mk/lab.mk): the largest test runs
# 4 ranks.
SANDBOX_RANKS   := 4
SANDBOX_THREADS := 32
