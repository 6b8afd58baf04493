# Toolchain and flags shared by every lab (included by the top-level Makefile
# and by lab.mk). Override any of these on the make command line.

CC        := gcc
CSTD      := -std=c17
WARN      := -Wall -Wextra
# Flags for the student's files; the benchmarks also build with OPT=-O0.
# -std=c17 (ISO C) quietly turns off fused multiply-add contraction, which
# halves the peak of any floating-point kernel; -ffp-contract=fast turns it
# back on. Labs that promise results bitwise equal to a reference built
# elsewhere (a GPU, another summation order) put -ffp-contract=off in their
# LAB_CFLAGS, which come later on the command line and win.
OPT       ?= -O3 -march=native -ffp-contract=fast
# Flags for the kit's own code (drivers, tests, common): fixed, so that a
# student's OPT never changes what the grader itself does.
KIT_OPT   := -O2 -g
# A command every compile of a C or CUDA file goes through, where the
# environment names one: ccache, which the kit's own test suite sets so
# that the many copies of the kit it builds share their objects. Not in the
# grading sandbox, whose environment holds none; nor where it is not
# installed (the course's image, a cluster's node).
COMPILER_LAUNCHER ?=
COMPILER_LAUNCHER := $(if $(COMPILER_LAUNCHER),$(if $(shell command -v $(firstword $(COMPILER_LAUNCHER))),$(COMPILER_LAUNCHER)))

CHECK_CFLAGS := $(shell pkg-config --cflags check json-c 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check json-c 2>/dev/null)

# CUDA: nvcc from PATH, else CUDA_HOME, else /usr/local/cuda.
NVCC_ON_PATH := $(shell command -v nvcc 2>/dev/null)
CUDA_HOME    ?= $(if $(NVCC_ON_PATH),$(patsubst %/bin/nvcc,%,$(NVCC_ON_PATH)),/usr/local/cuda)
NVCC         := $(CUDA_HOME)/bin/nvcc
NVCC_OPT     ?= -O3
NVCCFLAGS     = $(NVCC_OPT) $(CUDA_GENCODE) -std=c++17 -Xcompiler -Wall,-Wextra
include common/mk/cuda_arch.mk
CUDA_LIBS     = -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart -lstdc++

# MPI, for the labs that use it (their LAB_CFLAGS and LAB_LDLIBS), from
# Open MPI's compiler wrapper; empty where MPI is not installed.
MPI_CFLAGS := $(shell mpicc --showme:compile 2>/dev/null)
MPI_LIBS   := $(shell mpicc --showme:link 2>/dev/null)

# Run the tests with single-threaded BLAS and polite OpenMP threads: Check
# forks every test, and neither a spinning OpenMP pool nor OpenBLAS threads
# should fight the tests for the CI machine's two cores.
CHECK_ENV ?= OPENBLAS_NUM_THREADS=1 OMP_WAIT_POLICY=passive

SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
