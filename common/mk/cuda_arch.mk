# The GPU architectures nvcc builds every .cu for (the kit's, the
# skeleton's, the reference's, the student's: all through NVCCFLAGS).
# Included by config.mk.
#
#   CUDA_ARCH=sm_80, or a list (CUDA_ARCH="sm_80 sm_90"): those. compute_80
#       builds PTX alone, which the driver compiles for the GPU at load.
#   no CUDA_ARCH: the compute capabilities of the GPUs nvidia-smi lists
#       (9.0 -> sm_90), so that a build on the machine that runs it carries
#       only the code that machine needs;
#   none seen (a login node, CI, a sandbox without the GPUs): the course's
#       list, course.conf's GPU_ARCHS (KIT_COURSE names another file).
# Real code (sm_XX) for each, plus the PTX of the newest unless the list
# names PTX itself: a GPU newer than all of them still runs the build, as
# nvcc's own -arch=sm_XX does.
#
# Detected once per make run (:=): nvidia-smi is the one cost, and a
# recursive make detects again (the answer is the same).

comma := ,
empty :=
space := $(empty) $(empty)
GPU_ARCHS_DEFAULT := sm_75 sm_80 sm_86 sm_89 sm_90
ifeq ($(strip $(GPU_ARCHS)),)
GPU_ARCHS := $(strip $(shell sed -n 's/\#.*//; s/^[[:space:]]*GPU_ARCHS[[:space:]]*=//p' '$(or $(KIT_COURSE),course.conf)' 2>/dev/null | tail -n 1 | tr -d "\"'"))
GPU_ARCHS_FROM := course.conf's GPU_ARCHS
ifeq ($(GPU_ARCHS),)
GPU_ARCHS := $(GPU_ARCHS_DEFAULT)
GPU_ARCHS_FROM := the kit's default list
endif
else
GPU_ARCHS_FROM := GPU_ARCHS given
endif

# The GPUs seen, as sm_XX, each once (a failing nvidia-smi, or its
# "No devices were found", gives none).
ifeq ($(strip $(CUDA_ARCH)),)
CUDA_CAPS_SEEN := $(shell caps=$$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null) && \
    printf '%s\n' "$$caps" | awk '{ gsub(/[ \t\r]/, "") } /^[0-9]+\.[0-9]+$$/ { print }' | sort -u)
CUDA_ARCH_SEEN := $(foreach c,$(CUDA_CAPS_SEEN),sm_$(subst .,,$(c)))
ifneq ($(CUDA_ARCH_SEEN),)
override CUDA_ARCH := $(CUDA_ARCH_SEEN)
CUDA_ARCH_WHY := the GPUs seen: compute capability $(CUDA_CAPS_SEEN)
else
override CUDA_ARCH := $(GPU_ARCHS)
CUDA_ARCH_WHY := no GPU seen: $(GPU_ARCHS_FROM)
endif
else
CUDA_ARCH_WHY := CUDA_ARCH given
endif

CUDA_ARCH_BAD := $(filter-out sm_% compute_%,$(CUDA_ARCH))
ifneq ($(CUDA_ARCH_BAD),)
$(error CUDA_ARCH ($(CUDA_ARCH_WHY)): '$(CUDA_ARCH_BAD)' is no GPU architecture; write sm_80 (code for compute capability 8.0) or compute_80 (its PTX), one or a list)
endif

# The newest and the oldest of a list of numbers (100 after 90: make's sort
# is by the letter).
cuda_newest = $(lastword $(shell printf '%s\n' $(1) | sort -n))
cuda_oldest = $(firstword $(shell printf '%s\n' $(1) | sort -n))
cuda_nums = $(patsubst sm_%,%,$(patsubst compute_%,%,$(1)))

CUDA_SM  := $(filter sm_%,$(CUDA_ARCH))
CUDA_PTX := $(or $(filter compute_%,$(CUDA_ARCH)),compute_$(call cuda_newest,$(call cuda_nums,$(CUDA_SM))))
CUDA_GENCODE := $(foreach a,$(CUDA_SM),-gencode arch=compute_$(call cuda_nums,$(a))$(comma)code=$(a)) \
                $(foreach a,$(CUDA_PTX),-gencode arch=$(a)$(comma)code=$(a))
# Every architecture as real code, for the compilers that build nothing
# else (OpenMP offload, lab 4): compute_80 is sm_80 to them.
CUDA_SM_ALL := $(sort $(CUDA_SM) $(patsubst compute_%,sm_%,$(filter compute_%,$(CUDA_ARCH))))
# What a build says it built for, and the test programs' GPU probe
# (common/cuda/gpu_image.cu) in its message.
CUDA_BUILT := $(strip $(CUDA_SM) $(if $(CUDA_SM),+ )PTX $(CUDA_PTX))

# The self-test builds every lab many times: one architecture there (the
# GPU seen, else the newest of the course's list): the kit's own self-test.
CUDA_ARCH_SELFTEST = $(or $(CUDA_ARCH_SEEN),sm_$(call cuda_newest,$(call cuda_nums,$(filter sm_%,$(GPU_ARCHS)))))
