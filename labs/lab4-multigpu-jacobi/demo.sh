#!/usr/bin/env bash
# make demo LAB=4: the reference's fastest stage solves N = 100 to a
# tolerance of 1e-4 and draws the slice through the radiator
# (build/demo/lab4/poisson_gpu3_100.png); without a GPU the offload stage
# does it on the CPU, at N = 40.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=build/demo/lab4
mkdir -p "$OUT"
make --no-print-directory -s -f common/mk/lab.mk LAB=4 IMPL="${IMPL:-reference}" BUILD="$OUT/build" all >/dev/null
gpus=$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU' || true)
if [ "${gpus:-0}" -gt 0 ]; then
    method=gpu3 N=100
else
    echo "no GPU here: the offload stage runs on the CPU instead, at a smaller N"
    method=offload N=40
fi
echo "N sweeps seconds Mflop/s GB/s GLUP/s total_seconds residual"
OMP_WAIT_POLICY=passive "$OUT/build/poisson" "$method" "$N" 100000 1e-4 0 png "$OUT/poisson_${method}_$N.png"
