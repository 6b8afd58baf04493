# Lab 2 (openmp): what make builds. See common/mk/lab.mk for the variables.
STUDENT_FILES := poisson.c mandel.c
DRIVERS       := poisson mandelbrot copy_bandwidth
poisson_SRCS  := $(LAB_DIR)/poisson_main.c
mandelbrot_SRCS := $(LAB_DIR)/mandelbrot_main.c
copy_bandwidth_SRCS := $(LAB_DIR)/copy_bandwidth.c
# -ffp-contract=off after OPT's -ffp-contract=fast: the tests compare bit
# for bit with the kit's sequential code, so no fused multiply-adds.
LAB_CFLAGS    := -fopenmp -ffp-contract=off
LAB_LDLIBS    := -fopenmp
CHECK_ENV     := OMP_WAIT_POLICY=passive
# The tests link poisson.c and mandel.c built with AddressSanitizer and UBSan
# as well (common/mk/lab.mk): a read past a grid fails the test that made it.
SANITIZE      := address,undefined
