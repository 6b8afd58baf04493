# Lab 4 (multigpu-jacobi): what make builds. See common/mk/lab.mk for the variables.
#
# Four student files, four toolchains: jacobi_offload.c with an OpenMP
# offloading compiler (OFFLOAD, below; where none is installed the target
# regions are built for the host alone), the .cu files with nvcc
# -fmad=false and the C side with -ffp-contract=off (results bitwise equal
# to the CPU reference), MPI from mpicc's flags, NCCL from the CUDA toolkit.
STUDENT_FILES := jacobi_offload.c jacobi_gpu.cu jacobi_peer.cu jacobi_nccl.cu
DRIVERS       := poisson lab4_bench
poisson_SRCS  := $(LAB_DIR)/poisson_lab4.c
# The benchmark with its stencil-shaped copy (stencil_bound.cu: the bound a
# Jacobi sweep of this layout can reach, timed beside the copy).
lab4_bench_SRCS := $(LAB_DIR)/lab4_bench.c $(LAB_DIR)/stencil_bound.cu
LAB_KIT_SRCS  := common/nccl/nccl_world.c $(LAB_DIR)/lab4_timing.c

LAB_CFLAGS := -ffp-contract=off -I$(CUDA_HOME)/include $(MPI_CFLAGS)
NVCC_OPT   := -O3 -fmad=false
LAB_LDLIBS  = $(CUDA_LIBS) -lnccl $(MPI_LIBS)

# The offload stage's compiler: OFFLOAD=clang (Debian 12's clang-16 with
# libomp-16-dev: LLVM's CUDA offload runtime and its device library for
# each architecture of CUDA_ARCH, common/mk/cuda_arch.mk),
# OFFLOAD=gcc (gcc-12-offload-nvptx) or OFFLOAD=host (no GPU code). By
# default the first of clang, gcc that is installed, else host: on a machine
# without either (the GPU hosts' own GCC) the target regions run on the host.
# clang first: the reference (a team per plane) runs at 54-59% of the copy
# with it (MEASURED.md); GCC 12's nvptx code runs a collapsed loop at 45 GB/s and needs
# teams/threads/simd nesting to reach 469-527 (README, stage 1).
OFFLOAD ?= $(or $(OFFLOAD_HAVE_CLANG),$(OFFLOAD_HAVE_GCC),host)
OFFLOAD_HAVE_CLANG := $(shell d="$$(clang-16 -print-resource-dir 2>/dev/null)/../../" && \
    for a in $(CUDA_SM_ALL); do test -f "$$d/libomptarget-nvptx-$$a.bc" || exit; done && echo clang)
OFFLOAD_HAVE_GCC := $(shell test -x "$$(gcc-12 -print-file-name=accel/nvptx-none/mkoffload 2>/dev/null)" && echo gcc)
ifeq ($(OFFLOAD),clang)
# No contraction on the device either (-ffp-contract=off reaches it): the
# results equal the CPU's bit for bit.
OFFLOAD_CC    := clang-16
OFFLOAD_FLAGS := -fopenmp --offload-arch=$(subst $(space),$(comma),$(CUDA_SM_ALL)) -Wno-unknown-cuda-version
OFFLOAD_LDFLAGS :=
else ifeq ($(OFFLOAD),gcc)
# PTX of one architecture (GCC builds no more), the newest of GCC 12's ISAs
# that is not newer than any of CUDA_ARCH: the driver JIT-compiles it for
# each of them and any later GPU (GCC 12's default sm_35 is refused by
# CUDA 13's ptxas). No contraction asked for on the
# device either (GCC's PTX still leaves sum + h^2 f to ptxas, which fuses
# it), and no host-only hardening code in offloaded functions.
OFFLOAD_CC    := gcc-12
OFFLOAD_GCC_ISA := $(shell for i in 80 75 70 53 35 30; do [ "$$i" -le "$(call cuda_oldest,$(call cuda_nums,$(CUDA_SM_ALL)))" ] && \
    { echo "sm_$$i"; break; }; done)
OFFLOAD_FLAGS := -fopenmp -foffload=nvptx-none -foffload-options=nvptx-none="-misa=$(or $(OFFLOAD_GCC_ISA),sm_30) -ffp-contract=off" \
                 -fcf-protection=none -fno-stack-protector
# mkoffload's table is not position-independent: link a plain executable,
# and let the tests' shared library (below) carry its text relocations.
OFFLOAD_LDFLAGS := -no-pie
OFFLOAD_SOFLAGS := -Wl,-z,notext
else ifeq ($(OFFLOAD),host)
OFFLOAD_CC    := $(CC)
OFFLOAD_FLAGS := -fopenmp -foffload=disable
OFFLOAD_LDFLAGS :=
$(info note: no clang-16 or gcc-12 with GPU offloading here; jacobi_offload.c's target regions are built for the host only)
else
$(error OFFLOAD must be clang, gcc or host, not '$(OFFLOAD)')
endif
$(BUILD)/student/jacobi_offload.o: CC := $(OFFLOAD_CC)
$(BUILD)/student/jacobi_offload.o $(BUILD)/offload_where.o: $(CUDA_STAMP)
$(BUILD)/student/jacobi_offload.o: STUDENT_CFLAGS += $(OFFLOAD_FLAGS)
LAB_LD = $(OFFLOAD_CC) $(OFFLOAD_FLAGS) $(OFFLOAD_LDFLAGS)

# Where the target regions really run (offload_where.h): a probe built by
# the same compiler with the same flags, in this build's folder (another
# build may use another OFFLOAD).
OFFLOAD_WHERE := $(BUILD)/offload_where.o
$(OFFLOAD_WHERE): $(LAB_DIR)/offload_where.c $(LAB_DIR)/offload_where.h
	@mkdir -p $(@D)
	$(OFFLOAD_CC) $(CSTD) -O2 $(WARN) -fPIC -I$(LAB_DIR) $(OFFLOAD_FLAGS) -c $< -o $@
$(BUILD)/lab4_bench: $(OFFLOAD_WHERE)

# NCCL's NVLink multicast stays off on the kit's GPU hosts.
CHECK_ENV := $(CHECK_ENV) NCCL_NVLS_ENABLE=0

# The grading sandbox's limits (common/mk/lab.mk): the largest test runs
# 4 ranks.
SANDBOX_RANKS   := 4
SANDBOX_THREADS := 32
