#!/usr/bin/env bash
# On a GPU host: a build for a later GPU than the host's is named as the
# build's fault, in one line, and costs the student nothing.
#
#   maintainer/gpu-host/arch_mismatch.sh [ARCH]   (default sm_100: later than sm_90)
#
# Builds lab 3's reference with CUDA_ARCH=ARCH and checks that make check
# shows every GPU test as SKIP with the build's one line ("this build is
# for ...; GPU 0 is ... (compute capability X.Y): run make lab3 again on
# this host, or give CUDA_ARCH=sm_XY"), no CRASH and no "must return to its
# caller", and that make bench's check and grading's reference check refuse
# with the same line. Then the default build (no CUDA_ARCH: the GPUs seen)
# names the host's architecture in its last line and passes every test one
# GPU allows. ARCH must be one the host's GPUs cannot run (no code of
# theirs, and PTX of a later one).
#
# Environment: OUT (default build/arch-mismatch; the device tool's $OUT):
# the logs and SUMMARY.txt. Needs what autograder/gpu-host/run needs
# (.gpudeps for Check and json-c). Exit status: 0 when every check holds,
# 1 when one does not, 2 when it cannot run (no GPU, a build that fails).
# ok and no return 0, so "check && ok ... || no ..." never runs both:
# shellcheck disable=SC2015
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
KIT=$PWD
ARCH=${1:-sm_100}
OUT=${OUT:-build/arch-mismatch}
case $OUT in /*) ;; *) OUT=$KIT/$OUT ;; esac
W=$KIT/build/arch-mismatch-work
rm -rf "$W"
mkdir -p "$OUT" "$W"
SUMMARY=$OUT/SUMMARY.txt
: >"$SUMMARY"
say() { echo "$*" | tee -a "$SUMMARY"; }
bad=0
ok() { say "ok      $*"; }
no() { say "FAILED  $*"; bad=1; }

# (Unpacked once: another run in the same environment may be using it.)
if [ -x autograder/gpu-host/run ] && ! pkg-config --exists check json-c 2>/dev/null; then
    exports=$(autograder/gpu-host/run env) || exit 2
    eval "$exports"
fi
unset CUDA_ARCH KIT_GPU_COUNT
nvidia-smi --query-gpu=index,name,compute_cap --format=csv,noheader >"$OUT/gpus.txt" 2>&1 || {
    say "no GPU here (nvidia-smi: $(head -n 1 "$OUT/gpus.txt"))"
    exit 2
}
say "GPUs: $(tr '\n' ';' <"$OUT/gpus.txt")"
cap=$(awk -F', ' 'NR == 1 { print $3 }' "$OUT/gpus.txt")
want_arch=sm_${cap/./}

B=$W/lab3-$ARCH
if ! make --no-print-directory -f common/mk/lab.mk LAB=3 IMPL=reference BUILD="$B" KIT_BUILD="$W/kit-$ARCH" \
    CUDA_ARCH="$ARCH" all >"$OUT/build-$ARCH.log" 2>&1; then
    say "lab 3's reference does not build for $ARCH (see build-$ARCH.log)"
    tail -n 20 "$OUT/build-$ARCH.log"
    exit 2
fi
say "$(tail -n 1 "$OUT/build-$ARCH.log")"
make --no-print-directory -f common/mk/lab.mk LAB=3 BUILD="$B" KIT_BUILD="$W/kit-$ARCH" CUDA_ARCH="$ARCH" check \
    >"$OUT/check-$ARCH.log" 2>&1
tail -n 2 "$OUT/check-$ARCH.log" | tee -a "$SUMMARY"

line_re="this build is for $ARCH [^;]*; GPU 0 is .* \\(compute capability $cap\\): run make lab3 again on this host, or give CUDA_ARCH=$want_arch"
gpu_tests=$("$B/test_lab3" --list | grep -c GPU)
skipped=$(grep -cE "^  SKIP +0/[0-9.]+ +[^ ]+( \\[hidden\\])?: $line_re\$" "$OUT/check-$ARCH.log")
[ "$gpu_tests" -gt 0 ] && [ "$skipped" = "$gpu_tests" ] &&
    ok "built for $ARCH: all $gpu_tests GPU tests SKIP with the one line" ||
    no "built for $ARCH: $skipped of $gpu_tests GPU tests SKIP with the one line (see check-$ARCH.log)"
if grep -qE 'CRASH|TIMEOUT|  FAIL |must return to its caller|no kernel image' "$OUT/check-$ARCH.log"; then
    no "built for $ARCH: a test crashed, failed or named the missing image itself (see check-$ARCH.log)"
else
    ok "built for $ARCH: no CRASH, no FAIL"
fi
grep -qE "^score: .*skipped, not passed: the build, not the code \\($line_re\\)\$" "$OUT/check-$ARCH.log" &&
    ok "built for $ARCH: the score line says once that the build skipped them" ||
    no "built for $ARCH: the score line: $(grep '^score: ' "$OUT/check-$ARCH.log")"
grep -qE '^100%: Checks: [0-9]+, Failures: 0, Errors: 0$' "$OUT/check-$ARCH.log" &&
    ok "built for $ARCH: Check counts no skipped test, and no failure" ||
    no "built for $ARCH: $(tail -n 1 "$OUT/check-$ARCH.log")"
why=$("$B/gpu_image_check")
rc=$?
[ "$rc" = 3 ] && [[ $why =~ ^$line_re$ ]] && ok "make bench's and make demo's check refuse: $why" ||
    no "gpu_image_check: status $rc, '$why'"
graded=$(cd instructor && PYTHONPATH=../autograder${PYTHONPATH:+:$PYTHONPATH} python3 -c "
from grading.lab import Lab
lab = Lab.__new__(Lab)
lab.ref_build = '$B'
print(lab.missing_gpu_code())" 2>&1)
[[ $graded =~ ^$line_re$ ]] && ok "make grade's check of the reference refuses with the line" ||
    no "make grade's check of the reference: '$graded'"

# The default: the GPUs seen.
D=$W/lab3-default
if ! make --no-print-directory -f common/mk/lab.mk LAB=3 IMPL=reference BUILD="$D" KIT_BUILD="$W/kit-default" all \
    >"$OUT/build-default.log" 2>&1; then
    no "lab 3's reference does not build for the GPUs seen (see build-default.log)"
    exit 1
fi
last=$(tail -n 1 "$OUT/build-default.log")
[[ $last == "lab3: CUDA built for $want_arch + PTX compute_${cap/./} (the GPUs seen: compute capability $cap)" ]] &&
    ok "the default build: $last" || no "the default build's last line: $last"
make --no-print-directory -f common/mk/lab.mk LAB=3 BUILD="$D" KIT_BUILD="$W/kit-default" check \
    >"$OUT/check-default.log" 2>&1
tail -n 2 "$OUT/check-default.log" | tee -a "$SUMMARY"
"$D/gpu_image_check" && ok "the default build holds code for every GPU here" || no "gpu_image_check refuses the default build"
if grep -qE '^  (FAIL|CRASH|TIMEOUT) |this build is for' "$OUT/check-default.log"; then
    no "the default build: a test failed, or was skipped for the build (see check-default.log)"
else
    ok "the default build: no test failed or was skipped for the build ($(grep -c '^  SKIP ' "$OUT/check-default.log") skipped otherwise)"
fi
exit "$bad"
