# A timed entry's harness (the lab's tests/perf/HARNESS.c, named by its
# tests/perf.conf) linked with a build's student objects: grading times it
# in the sandbox, the class standing on the compute node.
#
#   make -f common/mk/lab.mk LAB=N BUILD=DIR KIT_BUILD=DIR [CUDA_ARCH=...] \
#        HARNESS=NAME PERF_OUT=FILE [PERF_DEVICE=1] perf-harness
#
# It links what is built and builds nothing: the student's objects are the
# graded ones (in grading, read-only). A device entry (PERF_DEVICE=1) takes
# only the objects of the student's .cu files: the harness calls the kernel
# launcher on device arrays, and the lab's host code is not what is timed.
# Included by common/mk/lab.mk after the lab's lab.mk and its tests.mk.
PERF_SRCS = $(TEST_DIR)/perf/$(HARNESS).c autograder/perf/perf_harness.c \
    $(if $(filter 1,$(PERF_DEVICE)),autograder/perf/perf_device.c)
PERF_OBJS = $(if $(filter 1,$(PERF_DEVICE)),$(addprefix $(BUILD)/student/,$(addsuffix .o,$(basename $(filter %.cu,$(STUDENT_FILES))))),$(STUDENT_OBJS))

.PHONY: perf-harness
perf-harness:
	@test -n "$(HARNESS)" && test -n "$(PERF_OUT)" || { echo "make perf-harness: HARNESS=NAME and PERF_OUT=FILE are needed" >&2; exit 2; }
	@test -f $(TEST_DIR)/perf/$(HARNESS).c || { echo "make perf-harness: lab $(LAB) has no harness $(TEST_DIR)/perf/$(HARNESS).c" >&2; exit 2; }
	$(CC) $(CSTD) -O2 $(WARN) $(LAB_CFLAGS) -I$(LAB_DIR) -Icommon -Iautograder/perf -o $(PERF_OUT) \
	    $(PERF_SRCS) $(PERF_OBJS) $(COMMON_LIB) $(LAB_LDLIBS) -lm
