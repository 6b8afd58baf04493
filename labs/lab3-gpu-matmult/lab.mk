# Lab 3 (gpu-matmult): what make builds. See common/mk/lab.mk for the variables.
STUDENT_FILES := matmult_gpu.cu matmult_gpu6.cu
# gpu6 is stage 7's challenge, not required of everyone.
OPTIONAL_FILES := matmult_gpu6.cu
DRIVERS       := matmult_gpu
matmult_gpu_SRCS := $(LAB_DIR)/matmult_gpu_driver.c $(LAB_DIR)/time_split.c
# The host-array entry points (given): your matmult_on_device with each _dev.
LAB_KIT_SRCS  := $(LAB_DIR)/matmult_gpu_host.c
# The driver and the tests are C and call the CUDA runtime's C API.
LAB_CFLAGS    := -I$(CUDA_HOME)/include
LAB_LDLIBS    := -lcublas $(CUDA_LIBS) -lopenblas
