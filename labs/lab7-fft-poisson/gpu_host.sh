#!/usr/bin/env bash
# Lab 7 on a GPU host: the tests, the skeleton, the GPU mutants and the
# benchmark in one go, every log in OUTDIR (default build/gpu-host-lab7).
#
#   labs/lab7-fft-poisson/gpu_host.sh [native] [skeleton] [mutants] [bench]
#
#   native    make lab7 IMPL=reference && make check (every test this host allows)
#   skeleton  make lab7 && make check: must fail every test (score 0)
#   mutants   the mutants marked "# requires: gpu", each built from the
#             reference and run against the GPU tests: each must lose points
#             (those that need 2 GPUs are skipped on a 1-GPU host)
#   bench     make bench LAB=7 IMPL=reference (CPU, 1 GPU, 2 GPUs where present)
#
# The GPU hosts have no Check: .gpudeps/ (see lab 4's gpu_host.sh) stages
# Check and json-c, unpacked here as lab 4 does.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${OUTDIR:-build/gpu-host-lab7}
mkdir -p "$OUTDIR"
[ -d .gpudeps ] && eval "$(sh .gpudeps/gpu-host-deps.sh unpack .gpudeps)"
export NCCL_NVLS_ENABLE=0 OMP_WAIT_POLICY=passive
phases=${*:-native skeleton mutants bench}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
    mpirun --version 2>&1 | head -1
} 2>&1 | tee "$OUTDIR/host.txt"

if [[ " $phases " == *" native "* ]]; then
    echo "== reference: make lab7 IMPL=reference && make check"
    { make lab7 IMPL=reference >/dev/null && make check LAB=7; } 2>&1 | tee "$OUTDIR/check-reference.log"
fi
if [[ " $phases " == *" skeleton "* ]]; then
    echo "== skeleton: make lab7 && make check (must fail, score 0)"
    { make lab7 >/dev/null && make check LAB=7; } 2>&1 | tail -3 | tee "$OUTDIR/check-skeleton.log"
fi
if [[ " $phases " == *" mutants "* ]]; then
    echo "== GPU mutants"
    make --no-print-directory -f common/mk/lab.mk LAB=7 kit >/dev/null 2>&1
    for p in autograder/mutants/lab7/*.patch; do
        grep -q '^# requires: gpu' "$p" || continue
        m=$(basename "$p" .patch)
        need=$(sed -n 's/^# requires: gpus\{0,1\} *\([0-9]*\).*/\1/p' "$p" | sort -n | tail -1)
        if [ "$gpus" -lt "${need:-1}" ]; then
            echo "skip    mutant $m needs ${need:-1} GPUs"
            continue
        fi
        d=build/gpu-mutants-lab7/$m
        rm -rf "$d" && mkdir -p "$d/src" && cp -r reference/lab7-fft-poisson/. "$d/src/"
        patch -s -p1 -d "$d/src" <"$p"
        if ! make --no-print-directory -f common/mk/lab.mk LAB=7 BUILD="$d" SUBMISSION="$d/src" all >"$d/build.log" 2>&1; then
            echo "FAILED  mutant $m does not build (see $d/build.log)"
            continue
        fi
        NCCL_NVLS_ENABLE=0 timeout 900 "$d/test_lab7" >"$d/check.log" 2>&1
        score=$(sed -n 's/^score: //p' "$d/check.log")
        if grep -qE '^  (FAIL|CRASH|TIMEOUT)' "$d/check.log"; then
            echo "ok      mutant $m caught ($score): $(grep -E '^  (FAIL|CRASH|TIMEOUT)' "$d/check.log" | head -1 | cut -c1-200)"
        else
            echo "FAILED  mutant $m NOT caught ($score)"
        fi
    done 2>&1 | tee "$OUTDIR/mutants.log"
fi
if [[ " $phases " == *" bench "* ]]; then
    echo "== make bench LAB=7 IMPL=reference"
    IMPL=reference make bench LAB=7 2>&1 | tee "$OUTDIR/bench.log"
    cp build/bench/lab7/bench.csv build/bench/lab7/bench.png "$OUTDIR/" 2>/dev/null || true
fi
