# Lab 4 (multigpu-jacobi): what make builds. See common/mk/lab.mk for the variables.
#
# Four student files, four toolchains: jacobi_offload.c with GCC 12's nvptx
# offloading (where gcc-12-offload-nvptx is installed; elsewhere the target
# regions are built for the host alone), the .cu files with nvcc
# -fmad=false and the C side with -ffp-contract=off (results bitwise equal
# to the CPU reference), MPI from mpicc's flags, NCCL from the CUDA toolkit.
STUDENT_FILES := jacobi_offload.c jacobi_gpu.cu jacobi_peer.cu jacobi_nccl.cu
DRIVERS       := poisson lab4_bench lab4_mpi_check
poisson_SRCS  := $(LAB_DIR)/poisson_lab4.c
lab4_bench_SRCS := $(LAB_DIR)/lab4_bench.c
# Run by the tests under mpirun (CPU halo exchange and the NCCL stage).
lab4_mpi_check_SRCS := autograder/lab4/mpi/lab4_mpi_check.c
LAB_KIT_SRCS  := $(LAB_DIR)/nccl_world.c $(LAB_DIR)/lab4_timing.c

MPI_CFLAGS := $(shell mpicc --showme:compile 2>/dev/null)
MPI_LIBS   := $(shell mpicc --showme:link 2>/dev/null)
LAB_CFLAGS := -ffp-contract=off -I$(CUDA_HOME)/include $(MPI_CFLAGS)
NVCC_OPT   := -O3 -fmad=false
LAB_LDLIBS  = $(CUDA_LIBS) -lnccl $(MPI_LIBS)

OFFLOAD_CC ?= gcc-12
OFFLOAD_NVPTX := $(shell test -x "$$($(OFFLOAD_CC) -print-file-name=accel/nvptx-none/mkoffload 2>/dev/null)" && echo yes)
ifeq ($(OFFLOAD_NVPTX),yes)
# sm_80 PTX (GCC 12's default sm_35 is refused by CUDA 13's ptxas; the driver
# JIT-compiles sm_80 PTX for an sm_90 GPU). No contraction on the device
# either, and no host-only hardening code in offloaded functions.
OFFLOAD_FLAGS := -fopenmp -foffload=nvptx-none -foffload-options=nvptx-none="-misa=sm_80 -ffp-contract=off" \
                 -fcf-protection=none -fno-stack-protector
# mkoffload's table is not position-independent: link a plain executable.
OFFLOAD_LDFLAGS := -no-pie
else
OFFLOAD_CC    := $(CC)
OFFLOAD_FLAGS := -fopenmp -foffload=disable
$(info note: no gcc-12 with nvptx offloading here; jacobi_offload.c's target regions are built for the host only)
endif
$(BUILD)/student/jacobi_offload.o: CC := $(OFFLOAD_CC)
$(BUILD)/student/jacobi_offload.o: STUDENT_CFLAGS += $(OFFLOAD_FLAGS)
LAB_LD = $(OFFLOAD_CC) $(OFFLOAD_FLAGS) $(OFFLOAD_LDFLAGS)

# NCCL's NVLink multicast stays off on the kit's GPU hosts.
CHECK_ENV := $(CHECK_ENV) NCCL_NVLS_ENABLE=0

.PHONY: bench demo
bench:
	$(LAB_DIR)/bench.sh

demo:
	$(LAB_DIR)/demo.sh
