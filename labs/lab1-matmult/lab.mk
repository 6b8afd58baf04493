# Lab 1 (matmult): what make builds. See common/mk/lab.mk for the variables.
STUDENT_FILES := matmult.c
DRIVERS       := matmult_c
matmult_c_SRCS := $(LAB_DIR)/matmult_c.c
LAB_LDLIBS    := -lopenblas

.PHONY: bench
bench:
	$(LAB_DIR)/bench.sh
