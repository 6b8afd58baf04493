# Lab 7 (fft-poisson): what make builds. See common/mk/lab.mk for the variables.
#
# The CPU stages use FFTW (r2r kinds and complex DFTs), OpenMP and MPI; the
# tests compare Thomas with LAPACK's dgtsv_ from OpenBLAS.
STUDENT_FILES := fp_basics.c fp_serial.c fp_makhoul.c fp_radiator.c fp_mpi.c
DRIVERS       := fft_poisson lab7_mpi_check
fft_poisson_SRCS := $(LAB_DIR)/fft_poisson_main.c autograder/lab7/lab7_checks.c
# Run by the tests under mpirun (stage 4).
lab7_mpi_check_SRCS := autograder/lab7/mpi/lab7_mpi_check.c
LAB_KIT_SRCS  := $(LAB_DIR)/fp_grid.c

MPI_CFLAGS := $(shell mpicc --showme:compile 2>/dev/null)
MPI_LIBS   := $(shell mpicc --showme:link 2>/dev/null)
LAB_CFLAGS := -fopenmp $(MPI_CFLAGS)
LAB_LDLIBS  = -lfftw3 -lopenblas $(MPI_LIBS) -lm
LAB_LD      = $(CC) -fopenmp
# Two OpenMP threads for the tests, on any machine: the batch race is only
# visible with more than one.
CHECK_ENV := $(CHECK_ENV) OMP_NUM_THREADS=2

.PHONY: bench demo
bench:
	$(LAB_DIR)/bench.sh

demo:
	$(LAB_DIR)/demo.sh
