#!/usr/bin/env bash
# Self-test (run by make test): every .cu of the GPU labs (skeleton,
# reference) and of the kit compiles (-c) with the default toolkit's nvcc
# for each architecture of the course's list (course.conf's GPU_ARCHS, or
# the kit's default), with the flags its lab's build gives it. A build
# without a GPU targets that whole list, so a fast path that needs a newer
# GPU than one of them, outside its __CUDA_ARCH__ test, breaks a course's
# build: this names the file, the architecture and nvcc's first error.
#
# Each file is compiled once for all the architectures (-gencode each), one
# front end for all of them; only a file that fails is compiled again, once
# per architecture, to name the ones that fail. CUDA_ARCHS_JOBS files at
# once (default 2: CI's cores, shared with the self-test's other runs).
set -u
cd "$(dirname "$0")/../.." || exit 2
. maintainer/selftest/lib.sh
suite_start cuda_archs

if ! nvcc=$(selftest_nvcc); then
    fail "cuda_archs: nvcc not found (PATH, CUDA_HOME, /usr/local/cuda): the CUDA sources were not compiled"
    exit 1
fi
read -ra archs <<<"$(course_gpu_archs)"
version=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
jobs=${CUDA_ARCHS_JOBS:-2}
[ "$jobs" -gt "$(nproc)" ] && jobs=$(nproc)
cu_arch_matrix "CUDA $version" "$nvcc" "$OUT" "$jobs" "${archs[@]}"
