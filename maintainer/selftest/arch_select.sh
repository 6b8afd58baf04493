#!/usr/bin/env bash
# Self-test of the GPU architectures a build targets, and of what a build
# for the wrong GPU says (run by make test; needs no GPU).
#
# common/mk/cuda_arch.mk decides them: CUDA_ARCH when given, else the GPUs
# nvidia-smi lists, else course.conf's GPU_ARCHS. A stand-in nvidia-smi on
# PATH plays each host here, and make prints the flags it would give nvcc
# (lab 4's offload compilers too). Then lab 3's reference is built, and a
# stand-in for four calls of the CUDA runtime (preloaded) plays a GPU this
# build has no code for: every GPU test of make check is a SKIP with the
# build's one line, none crashes, and make bench's check and grading's
# refuse with it. The real thing, on a GPU host, is
# maintainer/gpu-host/arch_mismatch.sh.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh
suite_start arch_select bin

# smi OUTPUT [STATUS]: the stand-in nvidia-smi prints OUTPUT and exits STATUS.
smi() {
    printf '#!/bin/sh\nprintf "%s"\nexit %s\n' "$1" "${2:-0}" >"$OUT/bin/nvidia-smi"
    chmod +x "$OUT/bin/nvidia-smi"
}

# host [VAR=value...] COMMAND...: COMMAND on the host the stand-in plays,
# without the CUDA_ARCH of this suite's own caller.
host() { env -u CUDA_ARCH -u GPU_ARCHS PATH="$OUT/bin:$PATH" "$@"; }
# arch [VAR=value...]: what make decides under those settings, as
# "GENCODE | BUILT | WHY".
arch() {
    # shellcheck disable=SC2016 # $(...) in --eval is make's
    host "$@" make -s --no-print-directory -f common/mk/config.mk \
        --eval 'print: ; @echo "$(CUDA_GENCODE) | $(CUDA_BUILT) | $(CUDA_ARCH_WHY)"' print 2>&1
}

# expect WHAT GOT WANT: one line, ok when GOT is WANT.
expect() {
    [ "$2" = "$3" ] && pass "$1" || fail "$1: got '$2', expected '$3'"
}

g() { echo "-gencode arch=compute_$1,code=$2"; }
course=$(sed -n 's/#.*//; s/^GPU_ARCHS=//p' course.conf | tail -n 1)
read -ra course_list <<<"$course"
want_course=""
for a in "${course_list[@]}"; do want_course="$want_course$(g "${a#sm_}" "$a") "; done
newest=$(printf '%s\n' "${course_list[@]}" | sed 's/^sm_//' | sort -n | tail -n 1)

smi "" 9
expect "no nvidia-smi that works: course.conf's GPU_ARCHS ($course), plus PTX of the newest" "$(arch)" \
    "$want_course$(g "$newest" "compute_$newest") | $course + PTX compute_$newest | no GPU seen: course.conf's GPU_ARCHS"
smi "No devices were found\n" 6
expect "nvidia-smi without a GPU: course.conf's GPU_ARCHS" "$(arch | cut -d'|' -f3)" " no GPU seen: course.conf's GPU_ARCHS"
smi "8.0\n"
expect "a GPU of compute capability 8.0: sm_80 and its PTX" "$(arch)" \
    "$(g 80 sm_80) $(g 80 compute_80) | sm_80 + PTX compute_80 | the GPUs seen: compute capability 8.0"
smi "9.0\n8.6\n9.0\n"
expect "GPUs of 9.0, 8.6 and 9.0: each architecture once, PTX of the newest" "$(arch | cut -d'|' -f2)" \
    " sm_86 sm_90 + PTX compute_90 "
smi "12.0\n"
expect "compute capability 12.0: sm_120" "$(arch | cut -d'|' -f2)" " sm_120 + PTX compute_120 "
smi "8.0\n"
expect "CUDA_ARCH=sm_86 wins over the GPU seen" "$(arch CUDA_ARCH=sm_86)" \
    "$(g 86 sm_86) $(g 86 compute_86) | sm_86 + PTX compute_86 | CUDA_ARCH given"
expect "CUDA_ARCH, a list: the newest by its number (100 after 90)" "$(arch CUDA_ARCH='sm_90 sm_100' | cut -d'|' -f2)" \
    " sm_90 sm_100 + PTX compute_100 "
expect "CUDA_ARCH=compute_80: PTX alone" "$(arch CUDA_ARCH=compute_80)" \
    " $(g 80 compute_80) | PTX compute_80 | CUDA_ARCH given"
bad=$(arch CUDA_ARCH=80)
[[ $bad == *"'80' is no GPU architecture"* ]] && pass "CUDA_ARCH=80 is refused, naming it" ||
    fail "CUDA_ARCH=80: $bad"
smi "" 9
printf 'GPU_ARCHS="sm_80 sm_120" # a course of two\n' >"$OUT/course.conf"
expect "course.conf's GPU_ARCHS is read (KIT_COURSE: another course.conf)" \
    "$(arch KIT_COURSE="$OUT/course.conf" | cut -d'|' -f2)" " sm_80 sm_120 + PTX compute_120 "
printf 'STANDING_TOP=10\n' >"$OUT/course.conf"
expect "a course.conf without GPU_ARCHS: the kit's default list" \
    "$(arch KIT_COURSE="$OUT/course.conf" | cut -d'|' -f3)" " no GPU seen: the kit's default list"
if python3 -c "import sys; sys.path.insert(0, 'autograder'); from standing import course; course.settings()" 2>"$OUT/course.log"; then
    pass "the class standing reads course.conf with its GPU_ARCHS"
else
    fail "the class standing refuses course.conf: $(cat "$OUT/course.log")"
fi

# The self-test's own builds: one architecture.
# shellcheck disable=SC2016
selftest_arch() { host make -s --no-print-directory -f common/mk/config.mk --eval 'print: ; @echo $(CUDA_ARCH_SELFTEST)' print; }
expect "the self-test builds for the newest of GPU_ARCHS where it sees no GPU" "$(selftest_arch)" "sm_$newest"
smi "8.0\n"
expect "the self-test builds for the GPU it sees" "$(selftest_arch)" "sm_80"

# Every nvcc command line of a lab carries them, and lab 4's offload stage
# follows the same list.
smi "8.6\n"
host make -n --no-print-directory -f common/mk/lab.mk LAB=3 IMPL=reference BUILD="$OUT/n3" KIT_BUILD="$OUT/n3kit" \
    CU_CACHE= all >"$OUT/n3.log" 2>&1
nvcc_lines=$(grep -c '/nvcc ' "$OUT/n3.log")
no_arch=$(grep '/nvcc ' "$OUT/n3.log" | grep -vc -- '-gencode arch=compute_86,code=sm_86 -gencode arch=compute_86,code=compute_86')
[ "$nvcc_lines" -gt 2 ] && [ "$no_arch" = 0 ] &&
    pass "lab 3: each of its $nvcc_lines nvcc commands builds for the GPU seen (make -n)" ||
    fail "lab 3: $no_arch of $nvcc_lines nvcc commands lack the GPU seen's -gencode (make -n)"
# shellcheck disable=SC2016
offload() { host "$@" make -s --no-print-directory -f common/mk/lab.mk LAB=4 \
    --eval 'print: ; @echo $(OFFLOAD_FLAGS)' print 2>&1 | tail -n 1; }
smi "" 9
[[ $(offload OFFLOAD=clang) == *"--offload-arch=$(echo "$course" | tr ' ' ',') "* ]] &&
    pass "lab 4 offload, clang: --offload-arch lists GPU_ARCHS" || fail "lab 4 offload, clang: $(offload OFFLOAD=clang)"
oldest=$(printf '%s\n' "${course_list[@]}" | sort -t_ -k2n | head -n 1)
[[ $(offload OFFLOAD=gcc) == *"-misa=$oldest "* ]] &&
    pass "lab 4 offload, GCC: PTX of the oldest of GPU_ARCHS ($oldest), which the others compile at load" ||
    fail "lab 4 offload, GCC: $(offload OFFLOAD=gcc)"
smi "9.0\n"
[[ $(offload OFFLOAD=gcc) == *"-misa=sm_80 "* ]] &&
    pass "lab 4 offload, GCC, on a 9.0 GPU: sm_80, GCC's newest" || fail "lab 4 offload, GCC, 9.0: $(offload OFFLOAD=gcc)"

# ---- a build without code for the GPU (the runtime played) ----
if ! selftest_nvcc >/dev/null; then
    skip "a build for another GPU: no nvcc here to build lab 3"
    summary
    exit $?
fi
# shellcheck disable=SC2016
cuda_home=$(make -s --no-print-directory -f common/mk/config.mk --eval 'print: ; @echo $(CUDA_HOME)' print)
cat >"$OUT/fake_cudart.c" <<'EOF'
/* One GPU of compute capability 8.0 that a build has no code for
 * (FAKE_GPU_IMAGE=1: one it has). */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

cudaError_t cudaGetDeviceCount(int *n) { *n = 1; return cudaSuccess; }
cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : cudaErrorInvalidDevice; }
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *f)
{
    (void)a, (void)f;
    return getenv("FAKE_GPU_IMAGE") ? cudaSuccess : cudaErrorNoKernelImageForDevice;
}
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d)
{
    memset(p, 0, sizeof *p);
    strcpy(p->name, "NVIDIA Test GPU");
    p->major = 8, p->minor = 0;
    return d == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}
EOF
if ! gcc -shared -fPIC -I"$cuda_home/include" "$OUT/fake_cudart.c" -o "$OUT/fake_cudart.so" 2>"$OUT/fake.log"; then
    fail "the runtime's stand-in does not build: $(head -n 3 "$OUT/fake.log")"
    summary
    exit $?
fi
# The self-test's architecture (lib.sh), given, as a course would give it.
B=$OUT/lab3
if ! make --no-print-directory -f common/mk/lab.mk LAB=3 IMPL=reference BUILD="$B" KIT_BUILD="$OUT/kit3" all >"$OUT/build.log" 2>&1; then
    fail "lab 3's reference does not build for $CUDA_ARCH (see $OUT/build.log)"
    summary
    exit $?
fi
expect "lab 3's build names what it built for, in its last line" "$(tail -n 1 "$OUT/build.log")" \
    "lab3: CUDA built for $KIT_CUDA_BUILT (CUDA_ARCH given)"
line="this build is for $KIT_CUDA_BUILT; GPU 0 is an NVIDIA Test GPU (compute capability 8.0): run make lab3 again on this host, or give CUDA_ARCH=sm_80"

LD_PRELOAD=$OUT/fake_cudart.so KIT_GPU_COUNT=1 make --no-print-directory -f common/mk/lab.mk LAB=3 BUILD="$B" \
    KIT_BUILD="$OUT/kit3" check >"$OUT/check.log" 2>&1
gpu_tests=$("$B/test_lab3" --list | grep -c GPU)
skipped=$(grep -cF "  SKIP        0/" "$OUT/check.log")
with_line=$(grep -cF ": $line" "$OUT/check.log")
if [ "$gpu_tests" -gt 0 ] && [ "$skipped" = "$gpu_tests" ] && [ "$with_line" = "$gpu_tests" ]; then
    pass "make check on a GPU the build has no code for: its $gpu_tests GPU tests are SKIP, each with the build's line"
else
    fail "make check on a GPU without code: $skipped SKIP and $with_line with the line, of $gpu_tests GPU tests (see $OUT/check.log)"
fi
if grep -qE 'CRASH|TIMEOUT|FAIL |must return to its caller' "$OUT/check.log"; then
    fail "make check on a GPU without code: a test crashed or failed (see $OUT/check.log)"
else
    pass "make check on a GPU without code: no CRASH, no FAIL"
fi
score=$(grep '^score: ' "$OUT/check.log")
[[ $score == *"skipped, not passed: the build, not the code ($line)"* && $score != *"on a cluster"* ]] &&
    pass "its score line says once that the build, not the code, skipped them" || fail "its score line: $score"
grep -qE '^100%: Checks: [1-9][0-9]*, Failures: 0, Errors: 0$' "$OUT/check.log" &&
    pass "the skipped tests are not counted as checks; the CPU tests pass" ||
    fail "Check's summary: $(tail -n 1 "$OUT/check.log")"

why=$(LD_PRELOAD=$OUT/fake_cudart.so KIT_GPU_COUNT=1 "$B/gpu_image_check")
rc=$?
[ "$rc" = 3 ] && [ "$why" = "$line" ] && pass "make bench's and make demo's check: the line, and status 3" ||
    fail "gpu_image_check: status $rc, '$why'"
refusal=$(LD_PRELOAD=$OUT/fake_cudart.so KIT_GPU_COUNT=1 bash -c \
    ". common/bench/bench_lib.sh; bench_gpu_image '$B' 'make bench LAB=3'; echo ran on" 2>&1)
expect "make bench refuses in one line" "$refusal" "make bench LAB=3: $line"
FAKE_GPU_IMAGE=1 LD_PRELOAD=$OUT/fake_cudart.so KIT_GPU_COUNT=1 "$B/gpu_image_check" >/dev/null &&
    pass "gpu_image_check passes a GPU the build has code for" || fail "gpu_image_check refuses a GPU with code"
KIT_GPU_COUNT=0 "$B/gpu_image_check" >/dev/null &&
    pass "gpu_image_check leaves a host without GPUs to the benchmark's own words" || fail "gpu_image_check: no GPU"
graded=$(cd instructor && LD_PRELOAD=$OUT/fake_cudart.so KIT_GPU_COUNT=1 PYTHONPATH=../autograder${PYTHONPATH:+:$PYTHONPATH} python3 -c "
from grading.lab import Lab
lab = Lab.__new__(Lab)
lab.ref_build = '$B'
print(lab.missing_gpu_code())" 2>&1)
expect "make grade's reference check finds the line" "$graded" "$line"

# A build for other architectures compiles its .cu again (make -n, last:
# it leaves the build stamped for those).
again=$(make -n --no-print-directory -f common/mk/lab.mk LAB=3 IMPL=reference BUILD="$B" KIT_BUILD="$OUT/kit3" \
    CUDA_ARCH=sm_100 all 2>&1 | grep -c '/nvcc .*code=sm_100')
same=$(make -n --no-print-directory -f common/mk/lab.mk LAB=3 IMPL=reference BUILD="$B" KIT_BUILD="$OUT/kit3" \
    CUDA_ARCH=sm_100 all 2>&1 | grep -c '/nvcc ')
[ "$again" -gt 2 ] && [ "$again" = "$same" ] && pass "a build for another CUDA_ARCH compiles each .cu again ($again)" ||
    fail "a build for another CUDA_ARCH: $again of $same nvcc commands for sm_100"
summary
