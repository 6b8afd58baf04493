#!/usr/bin/env bash
# Lab 5 on a GPU host (1 or 2 GPUs): the tests, the lab's self-test with
# its GPU mutants, the benchmark and the demo, every log in OUTDIR (default
# build/gpu-host-lab5).
#
#   labs/lab5-cuda-mpi-stencil/gpu_host.sh [check] [selftest] [bench] [demo]
#
#   check     make lab5 IMPL=reference && make check (timed), then the
#             skeleton's make check (it must fail, scoring 0)
#   selftest  SELFTEST_LABS=5 SELFTEST_EXTRA=0 make test: reference,
#             skeleton and every mutant, the "# requires: gpu" ones included
#   bench     make bench LAB=5 IMPL=reference (the lecture's grid)
#   demo      make demo LAB=5 (PNGs of the mid-plane)
#
# The GPU hosts have no Check: as for lab 4, .gpudeps/ (gpu-host-deps.sh
# and the Debian packages it fetched, json-c included) is unpacked first.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${OUTDIR:-build/gpu-host-lab5}
mkdir -p "$OUTDIR"
[ -d .gpudeps ] && eval "$(sh .gpudeps/gpu-host-deps.sh unpack .gpudeps)"
export OMP_WAIT_POLICY=passive
phases=${*:-check selftest bench demo}
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
