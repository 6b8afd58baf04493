#!/usr/bin/env bash
# make demo LAB=5: a point source spreading. The reference runs the wave
# from a Gaussian bump at the centre of a 128 x 128 x 96 grid (vel = 0.1
# everywhere: waves travel about sqrt(0.1) = 0.32 points a step) on 2
# compute ranks, and draws the mid-plane z = 48 after 0, 30, 60 and 120
# steps (build/demo/lab5/wave_<steps>.png). Each picture is a run of its
# own from the same start: the scheme is deterministic. With a GPU the
# compute ranks use the CUDA backend.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=build/demo/lab5
mkdir -p "$OUT"
make --no-print-directory -s -f common/mk/lab.mk LAB=5 IMPL="${IMPL:-reference}" BUILD="$OUT/build" all >/dev/null
gpus=$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU' || true)
backend=cpu
[ "${gpus:-0}" -gt 0 ] && backend=cuda
MPIRUN=(mpirun --oversubscribe -np 3 -x OMP_NUM_THREADS=1)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
for steps in 0 30 60 120; do
    "${MPIRUN[@]}" "$OUT/build/wave" 128 128 96 "$steps" --init pulse --backend "$backend" --png "$OUT/wave_$steps.png"
done
echo "pictures:" "$OUT"/wave_*.png
