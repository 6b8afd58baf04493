# Lab 8 (axpy), the recipe's minimal lab: what make builds.
STUDENT_FILES := axpy.c
DRIVERS       := axpy_bench
axpy_bench_SRCS := $(LAB_DIR)/axpy_bench.c
