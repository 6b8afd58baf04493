# Lab 3's test binary (common/mk/lab.mk includes this after the lab's
# lab.mk; the variables are described there).
# Under chaos (AG_CHAOS_SEED) the CUDA stream perturber delays some of the
# copies and launches on their streams (autograder/cuda/cuda_tests.mk):
# a product that returns before its work is ordered before C's copy shows.
include autograder/cuda/cuda_tests.mk
TEST_SRCS := $(wildcard $(TEST_DIR)/*.c) $(CUDA_CHAOS_SRCS) $(COMPUTE_SANITIZER_SRCS)
TEST_LD = $(LAB_LD) $(CUDA_CHAOS_LDFLAGS)
