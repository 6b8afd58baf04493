# Lab 7 (fft-poisson): what make builds. See common/mk/lab.mk for the variables.
#
# The CPU stages use FFTW (r2r kinds and complex DFTs), OpenMP and MPI; the
# tests compare Thomas with LAPACK's dgtsv_ from OpenBLAS. The GPU stages
# use cuFFT and NCCL; their MPI set-up (one rank per GPU, the NCCL
# communicator) is lab 4's nccl_world.c, shared rather than copied.
STUDENT_FILES := fp_basics.c fp_serial.c fp_makhoul.c fp_radiator.c fp_mpi.c fp_cuda.cu fp_nccl.cu
DRIVERS       := fft_poisson lab7_mpi_check lab7_bench
lab7_bench_SRCS := $(LAB_DIR)/lab7_bench.c
fft_poisson_SRCS := $(LAB_DIR)/fft_poisson_main.c autograder/lab7/lab7_checks.c
# Run by the tests under mpirun (stage 4).
lab7_mpi_check_SRCS := autograder/lab7/mpi/lab7_mpi_check.c
LAB4_DIR      := labs/lab4-multigpu-jacobi
LAB_KIT_SRCS  := $(LAB_DIR)/fp_grid.c $(LAB_DIR)/fp_gpu_plan.cu $(LAB4_DIR)/nccl_world.c

MPI_CFLAGS := $(shell mpicc --showme:compile 2>/dev/null)
MPI_LIBS   := $(shell mpicc --showme:link 2>/dev/null)
LAB_CFLAGS := -fopenmp $(MPI_CFLAGS) -I$(CUDA_HOME)/include -I$(LAB4_DIR)
LAB_LDLIBS  = -lfftw3 -lopenblas $(CUDA_LIBS) -lcufft -lnvrtc -lnvJitLink -lnccl $(MPI_LIBS) -lm
LAB_LD      = $(CC) -fopenmp
# Two OpenMP threads for the tests, on any machine: the batch race is only
# visible with more than one.
# NCCL's NVLink multicast stays off on the kit's GPU hosts.
CHECK_ENV := $(CHECK_ENV) OMP_NUM_THREADS=2 NCCL_NVLS_ENABLE=0

.PHONY: bench demo
bench:
	$(LAB_DIR)/bench.sh

demo:
	$(LAB_DIR)/demo.sh

# nvcc takes seconds a file, and the self-test builds this lab once per
# mutant, most of which change no .cu file: an object is reused when the
# source, every header it may include and the command line are the same
# (keyed by their SHA-1; a cache that cannot be written is only not used).
CU_CACHE ?= build/cu-cache
define cached_cu_rule
$(BUILD)/student/$(1).o: $(BUILD)/student/$(1).cu
	@key=$$$$( { echo '$$(NVCC) $$(STUDENT_NVCCFLAGS)'; cat $$< $$(wildcard $(LAB_DIR)/*.h common/*.h); } | sha1sum | cut -c1-20); \
	if cp "$(CU_CACHE)/$(1)-$$$$key.o" $$@ 2>/dev/null; then echo "nvcc $(1).cu: unchanged, object reused"; \
	else echo "$$(NVCC) $$(STUDENT_NVCCFLAGS) -c $$< -o $$@" && $$(NVCC) $$(STUDENT_NVCCFLAGS) -c $$< -o $$@ && \
	{ mkdir -p $(CU_CACHE) && cp $$@ "$(CU_CACHE)/$(1)-$$$$key.o.tmp$$$$$$$$" && mv "$(CU_CACHE)/$(1)-$$$$key.o.tmp$$$$$$$$" "$(CU_CACHE)/$(1)-$$$$key.o"; } 2>/dev/null || true; fi
endef
$(foreach f,$(basename $(filter %.cu,$(STUDENT_FILES))),$(eval $(call cached_cu_rule,$(f))))
