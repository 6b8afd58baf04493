# Lab 5 (cuda-mpi-stencil): what make builds. See common/mk/lab.mk for the variables.
#
# The student's five files: the CPU stencil (OpenMP), the CUDA kernel, the
# data server, the halo exchange and the compute process. The results must
# equal the kit's serial reference bit for bit, so no contraction anywhere:
# gcc -ffp-contract=off (after OPT's =fast, so it wins), nvcc -fmad=false.
STUDENT_FILES := stencil_cpu.c stencil_gpu.cu server.c exchange.c compute.c
DRIVERS       := wave lab5_bench
wave_SRCS     := $(LAB_DIR)/wave_main.c
lab5_bench_SRCS := $(LAB_DIR)/lab5_bench.c
# wave_serial.c: the serial reference the tests, the MPI checker and the
# benchmark compare with.
LAB_KIT_SRCS  := $(LAB_DIR)/wave_kit.c $(LAB_DIR)/backend_cpu.c $(LAB_DIR)/backend_cuda.cu $(LAB_DIR)/wave_serial.c

LAB_CFLAGS := -fopenmp -ffp-contract=off -I$(CUDA_HOME)/include $(MPI_CFLAGS)
NVCC_OPT   := -O3 -fmad=false
LAB_LDLIBS  = -fopenmp $(CUDA_LIBS) $(MPI_LIBS)

# The MPI tests start several ranks on a 2-core machine: one OpenMP thread
# each, and polite waiting.
CHECK_ENV := $(CHECK_ENV) OMP_NUM_THREADS=1
# The tests and their MPI programs link the C files built with AddressSanitizer
# and UBSan as well (common/mk/lab.mk): a read past an array fails the test.
SANITIZE      := address,undefined

# The grading sandbox's limits (common/mk/lab.mk): the largest test runs
# 5 ranks (a data server and 4 compute ranks).
SANDBOX_RANKS   := 5
SANDBOX_THREADS := 32
