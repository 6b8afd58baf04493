# Lab 1 (matmult): what make builds. See common/mk/lab.mk for the variables.
STUDENT_FILES := matmult.c
DRIVERS       := matmult_c
matmult_c_SRCS := $(LAB_DIR)/matmult_c.c
LAB_LDLIBS    := -lopenblas
# The tests link matmult.c built with AddressSanitizer and UBSan as well
# (common/mk/lab.mk): a read past A, B or C fails the test that made it.
SANITIZE      := address,undefined

# The lecture demo: the reference's variants side by side at one size, one
# core, against OpenBLAS (DEMO_N to change the size). bench.sh explains the
# OPENBLAS_CORETYPE fallback for CPUs that Debian's OpenBLAS does not know.
DEMO_N ?= 1024
.PHONY: demo
demo:
	@$(MAKE) --no-print-directory -s -f common/mk/lab.mk LAB=1 IMPL=$(or $(IMPL),reference) BUILD=build/demo/lab1 all >/dev/null
	@echo "lab 1 reference, m = n = k = $(DEMO_N), one core (kB, Mflop/s, wrong elements):"
	@core=$$(OPENBLAS_VERBOSE=2 MFLOPS_MAX_IT=1 MATMULT_COMPARE=0 build/demo/lab1/matmult_c lib 8 8 8 2>&1 | sed -n 's/^Core: //p'); \
	if [ "$$core" = Prescott ] && grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX; fi; \
	for t in lib blk mkn kmn nat mnk; do \
	    OPENBLAS_NUM_THREADS=1 MFLOPS_MIN_T=0.5 build/demo/lab1/matmult_c $$t $(DEMO_N) $(DEMO_N) $(DEMO_N) $$([ $$t = blk ] && echo 256); \
	done
