#!/usr/bin/env bash
# Lab 6 on a GPU host (1 or 2 GPUs): the tests, the lab's self-test and the
# benchmark in one go, every log in OUTDIR (default build/gpu-host-lab6).
#
#   labs/lab6-halo-taskqueue/gpu_host.sh [check] [selftest] [bench]
#
#   check     make lab6 IMPL=reference && make check, then the skeleton's
#   selftest  SELFTEST_LABS=6 make test: reference, skeleton, every mutant
#             (the GPU ones too: their patches say "# requires: gpu")
#   bench     make bench LAB=6 IMPL=reference (CSV, plots, timeline)
#
# The GPU hosts have no Check: .gpudeps/ (see ../../.gpudeps/gpu-host-deps.sh
# and ../shared/GPU-HOST.md) stages Check and json-c.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUTDIR=${OUTDIR:-build/gpu-host-lab6}
mkdir -p "$OUTDIR"
[ -d .gpudeps ] && eval "$(sh .gpudeps/gpu-host-deps.sh unpack .gpudeps)"
export OMP_WAIT_POLICY=passive
phases=${*:-check selftest bench}
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
    nvidia-smi topo -m
    nvcc --version | tail -1
    mpirun --version 2>&1 | head -1
} 2>&1 | tee "$OUTDIR/host.txt"
rc=0
for phase in $phases; do
    case $phase in
    check)
        make lab6 IMPL=reference >"$OUTDIR/build-reference.log" 2>&1 || { echo "reference build failed (see $OUTDIR/build-reference.log)"; rc=1; }
        make check LAB=6 RESULTS="$OUTDIR/results-reference.json" 2>&1 | tee "$OUTDIR/check-reference.log"
        [ "${PIPESTATUS[0]}" = 0 ] || rc=1
        make lab6 >"$OUTDIR/build-skeleton.log" 2>&1 || { echo "skeleton build failed"; rc=1; }
        make check LAB=6 2>&1 | tail -3 | tee "$OUTDIR/check-skeleton.log"
        ;;
    selftest)
        SELFTEST_LABS=6 SELFTEST_EXTRA=0 make test 2>&1 | tee "$OUTDIR/selftest.log"
        [ "${PIPESTATUS[0]}" = 0 ] || rc=1
        ;;
    bench)
        IMPL=reference make bench LAB=6 2>&1 | tee "$OUTDIR/bench.log"
        [ "${PIPESTATUS[0]}" = 0 ] || rc=1
        cp build/bench/lab6/*.csv build/bench/lab6/*.png build/bench/lab6/machine.txt "$OUTDIR/" 2>/dev/null
        ;;
    *) echo "unknown phase $phase (check, selftest, bench)" >&2; exit 2 ;;
    esac
done
echo "logs in $OUTDIR"
exit $rc
