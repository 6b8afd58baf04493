# The CUDA stream perturber of chaos schedules (cuda_stream_chaos.cu): a
# GPU lab's labs/labN-name/tests/tests.mk includes this, adds CUDA_CHAOS_SRCS to
# the test binary's sources (TEST_SRCS) and to its checker programs'
# <program>_SRCS, and CUDA_CHAOS_LDFLAGS to their links (TEST_LD,
# <program>_LDFLAGS). Outside chaos (no AG_CHAOS_SEED) it only passes the
# calls on.
CUDA_CHAOS_SRCS := autograder/cuda/cuda_stream_chaos.cu
# The calls it puts a sleeping kernel in front of: each reference to X goes
# to __wrap_X. __cudaLaunchKernel is what nvcc's <<<>>> calls since CUDA 13.
CUDA_CHAOS_WRAPPED := cudaLaunchKernel cudaLaunchKernelExC __cudaLaunchKernel cudaMemcpyAsync cudaMemcpy2DAsync \
    cudaMemcpy3DAsync cudaMemcpyPeerAsync cudaMemsetAsync cudaMemset2DAsync
CUDA_CHAOS_LDFLAGS := $(foreach f,$(CUDA_CHAOS_WRAPPED),-Wl,--wrap=$(f))

# The compute-sanitizer tests (compute_sanitizer.h): a lab adds
# COMPUTE_SANITIZER_SRCS to its TEST_SRCS. The tool is looked for in the
# toolkit the kit is built with first.
COMPUTE_SANITIZER_SRCS := autograder/cuda/compute_sanitizer.c
$(KIT_BUILD)/autograder/cuda/compute_sanitizer.o: KIT_CFLAGS += -DAG_CUDA_HOME='"$(CUDA_HOME)"'
