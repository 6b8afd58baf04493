#!/usr/bin/env bash
# Lab 5 on a GPU host (1 or 2 GPUs): the tests, the mutants only a GPU can
# catch, the benchmark and the demo, every log in OUTDIR (default
# build/gpu-host-lab5).
#
#   labs/lab5-cuda-mpi-stencil/gpu_host.sh [check] [mutants] [selftest] [bench] [demo]
#
#   check     make lab5 IMPL=reference && make check (timed), then the
#             skeleton's make check (it must fail, scoring 0)
#   mutants   the "# requires: gpu" mutants (CI has caught the others),
#             each built and run through the whole suite, JOBS (3) at once;
#             each must score below the reference
#   selftest  SELFTEST_LABS=5 SELFTEST_EXTRA=0 make test: reference,
#             skeleton and all mutants, one after another (long: each suite
#             starts CUDA on several ranks)
#   bench     make bench LAB=5 IMPL=reference (the lecture's grid)
#   demo      make demo LAB=5 (PNGs of the mid-plane)
# Default: check mutants bench demo.
#
# The GPU hosts have no Check: as for lab 4, .gpudeps/ (gpu-host-deps.sh
# and the Debian packages it fetched, json-c included) is unpacked first.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${OUTDIR:-build/gpu-host-lab5}
mkdir -p "$OUTDIR"
[ -d .gpudeps ] && eval "$(sh .gpudeps/gpu-host-deps.sh unpack .gpudeps)"
export OMP_WAIT_POLICY=passive
phases=${*:-check mutants bench demo}
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
    nproc
    mpirun --version 2>&1 | head -1
    command -v nvcc mpicc
} 2>&1 | tee "$OUTDIR/host.txt"

if [[ " $phases " == *" check "* ]]; then
    echo "== reference: make lab5 IMPL=reference && make check"
    make lab5 IMPL=reference >"$OUTDIR/build-reference.log" 2>&1 || tail -20 "$OUTDIR/build-reference.log"
    t0=$(date +%s)
    timeout 900 make check LAB=5 2>&1 | tee "$OUTDIR/check-reference.log"
    echo "make check took $(($(date +%s) - t0)) s" | tee -a "$OUTDIR/check-reference.log"
    echo "== skeleton: make lab5 && make check (must fail)"
    make lab5 >"$OUTDIR/build-skeleton.log" 2>&1 || tail -20 "$OUTDIR/build-skeleton.log"
    timeout 900 make check LAB=5 2>&1 | grep -E '^(score|[0-9]+%)' | tee "$OUTDIR/check-skeleton.log"
fi
if [[ " $phases " == *" mutants "* ]]; then
    echo "== the mutants only a GPU can catch"
    ref=$(sed -n 's/^score: \([0-9.]*\)\/.*/\1/p' "$OUTDIR/check-reference.log" 2>/dev/null | tail -1)
    make --no-print-directory -f common/mk/lab.mk LAB=5 kit >"$OUTDIR/kit.log" 2>&1
    one_mutant() { # name: build it, run the suite, print the verdict
        local m=$1 d=build/gpu-mutant-lab5/$1
        rm -rf "$d" && mkdir -p "$d/src" && cp -r reference/lab5-cuda-mpi-stencil/. "$d/src/"
        patch -s -p1 -d "$d/src" <"autograder/mutants/lab5/$m.patch" || { echo "FAILED  mutant $m: the patch does not apply"; return; }
        make --no-print-directory -f common/mk/lab.mk LAB=5 BUILD="$d" SUBMISSION="$d/src" all >"$d/build.log" 2>&1 ||
            { echo "FAILED  mutant $m does not build (see $d/build.log)"; return; }
        timeout 900 make --no-print-directory -f common/mk/lab.mk LAB=5 BUILD="$d" check >"$d/check.log" 2>&1
        local score=$(sed -n 's/^score: \([0-9.]*\/[0-9.]*\).*/\1/p' "$d/check.log" | tail -1)
        if [ -n "$score" ] && [ -n "$REF" ] && awk -v a="${score%/*}" -v b="$REF" 'BEGIN { exit !(a < b) }'; then
            echo "ok      mutant $m caught ($score, reference $REF): $(grep -E '^  (FAIL|CRASH|TIMEOUT)' "$d/check.log" | head -2 | cut -c1-200 | tr '\n' ' ')"
        else
            echo "FAILED  mutant $m NOT caught (${score:-no score}, reference ${REF:-?})"
        fi
    }
    export -f one_mutant
    export REF=$ref
    grep -l '^# requires: gpu' autograder/mutants/lab5/*.patch | xargs -n1 basename | sed 's/\.patch$//' |
        xargs -P "${JOBS:-3}" -I{} bash -c 'one_mutant {}' 2>&1 | tee "$OUTDIR/mutants.log"
fi
if [[ " $phases " == *" selftest "* ]]; then
    echo "== lab 5 self-test (reference, skeleton, mutants)"
    SELFTEST_LABS=5 SELFTEST_EXTRA=0 timeout 1800 make test 2>&1 | tee "$OUTDIR/selftest.log"
fi
if [[ " $phases " == *" bench "* ]]; then
    echo "== benchmark"
    IMPL=reference timeout 1200 labs/lab5-cuda-mpi-stencil/bench.sh 2>&1 | tee "$OUTDIR/bench.log"
    cp build/bench/lab5/*.csv build/bench/lab5/*.png build/bench/lab5/*.txt "$OUTDIR/" 2>/dev/null
fi
if [[ " $phases " == *" demo "* ]]; then
    echo "== demo"
    timeout 600 labs/lab5-cuda-mpi-stencil/demo.sh 2>&1 | tee "$OUTDIR/demo.log"
    cp build/demo/lab5/*.png "$OUTDIR/" 2>/dev/null
fi
true
