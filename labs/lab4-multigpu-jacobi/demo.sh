#!/usr/bin/env bash
# make demo LAB=4: the reference's fastest stage solves N = 100 to a
# tolerance of 1e-4 and draws the slice through the radiator
# (build/demo/lab4/poisson_gpu3_100.png); without a GPU the offload stage
# does it on the CPU, at N = 40.
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "$0")/../../common/bench/bench_lib.sh"
demo_setup 4
if [ "$(bench_gpu_count)" -gt 0 ]; then
    method=gpu3 N=100
else
    echo "no GPU here: the offload stage runs on the CPU instead, at a smaller N"
    method=offload N=40
fi
echo "N sweeps seconds Mflop/s GB/s GLUP/s total_seconds residual"
OMP_WAIT_POLICY=passive "$DEMO_BIN/poisson" "$method" "$N" 100000 1e-4 0 png "$DEMO_OUT/poisson_${method}_$N.png"
