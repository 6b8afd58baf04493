#!/usr/bin/env bash
# make demo LAB=5: a point source spreading. The reference runs the wave
# from a Gaussian bump at the centre of a 128 x 128 x 96 grid (vel = 0.1
# everywhere: waves travel about sqrt(0.1) = 0.32 points a step) on 2
# compute ranks, and draws the mid-plane z = 48 after 0, 30, 60 and 120
# steps (build/demo/lab5/wave_<steps>.png). Each picture is a run of its
# own from the same start: the scheme is deterministic. With a GPU the
# compute ranks use the CUDA backend.
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "$0")/../../common/bench/bench_lib.sh"
demo_setup 5
backend=cpu
[ "$(bench_gpu_count)" -gt 0 ] && backend=cuda
bench_mpirun OMP_NUM_THREADS=1
for steps in 0 30 60 120; do
    "${BENCH_MPIRUN[@]}" -np 3 "$DEMO_BIN/wave" 128 128 96 "$steps" --init pulse --backend "$backend" --png "$DEMO_OUT/wave_$steps.png"
done
echo "pictures:" "$DEMO_OUT"/wave_*.png
