# Lab 1 (matmult): what make builds. See common/mk/lab.mk for the variables.
STUDENT_FILES := matmult.c
DRIVERS       := matmult_c
matmult_c_SRCS := $(LAB_DIR)/matmult_c.c
LAB_LDLIBS    := -lopenblas
# The tests link matmult.c built with AddressSanitizer and UBSan as well
# (common/mk/lab.mk): a read past A, B or C fails the test that made it.
SANITIZE      := address,undefined

