#!/usr/bin/env bash
# make bench LAB=5 [IMPL=reference | SUBMISSION=DIR]
#
# On a GPU host (CUDA backend): the lecture's grid, 480 x 480 x 400 floats,
# 100 steps, on 2 and 4 compute ranks (mpirun -np 3 and 5; the ranks share
# the GPUs there are, rank r on GPU r mod count). Without a GPU (CPU
# backend): the same program at a small size, to show the path works; its
# figures say nothing about a GPU.
# lab5_bench times the overlapped pipeline (both exchanges), the
# serialized one phase by phase, and measures in the same run the device
# copy bandwidth, the kernel alone and an MPI ping-pong of one halo through
# pinned memory; it checks every variant's result against the serial
# reference before printing its figures (INVALID otherwise, and a non-zero
# exit). Writes build/bench/lab5/bench.csv, goals.txt and bench.png.
#
# Knobs: BENCH_SIZE="DX DY DZ", BENCH_STEPS, BENCH_REPEATS, BENCH_RANKS
# (the mpirun -np values), BENCH_BACKEND=cpu|cuda.
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=build/bench/lab5
gpus=$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU' || true)
if [ "${gpus:-0}" -gt 0 ]; then
    backend=${BENCH_BACKEND:-cuda} size=${BENCH_SIZE:-"480 480 400"} steps=${BENCH_STEPS:-100}
    repeats=${BENCH_REPEATS:-5} ranks=${BENCH_RANKS:-"3 5"}
else
    echo "no GPU here: the CPU backend at a small size (the path, not GPU figures)"
    backend=${BENCH_BACKEND:-cpu} size=${BENCH_SIZE:-"64 48 48"} steps=${BENCH_STEPS:-10}
    repeats=${BENCH_REPEATS:-3} ranks=${BENCH_RANKS:-"3 5"}
fi
src_args=()
[ -n "${SUBMISSION:-}" ] && src_args+=(SUBMISSION="$SUBMISSION")
[ -n "${IMPL:-}" ] && src_args+=(IMPL="$IMPL")
mkdir -p "$OUT"
echo "building lab 5 (${SUBMISSION:-${IMPL:-skeleton}}) ..."
make --no-print-directory -s -f common/mk/lab.mk LAB=5 BUILD="$OUT/build" "${src_args[@]}" all >/dev/null
MPIRUN=(mpirun --oversubscribe -x OMP_WAIT_POLICY=passive -x OMP_NUM_THREADS)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
# the server rank computes the serial reference with OpenMP; the compute
# ranks run one thread each (their stencil is the GPU's, or small)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(( $(nproc) > 4 ? $(nproc) - 4 : 1 ))}

{
    date -u '+%Y-%m-%d %H:%M UTC'
    if [ "${gpus:-0}" -gt 0 ]; then
        nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
    else
        echo "$(nproc) CPU cores, no GPU"
    fi
    mpirun --version 2>&1 | awk 'NR == 1'
} | tee "$OUT/machine.txt"

csv=$OUT/bench.csv
rm -f "$csv" "$OUT/goals.txt"
rc=0
for np in $ranks; do
    echo "== $((np - 1)) compute ranks (mpirun -np $np), $size, $steps steps, $backend backend"
    # shellcheck disable=SC2086 # size is three numbers, one word each
    if ! "${MPIRUN[@]}" -np "$np" "$OUT/build/lab5_bench" --size $size --steps "$steps" --repeats "$repeats" \
        --backend "$backend" --csv "$OUT/run-$np.csv" | tee "$OUT/run-$np.log"; then
        rc=1
    fi
    grep '^goal\|^INVALID' "$OUT/run-$np.log" | sed "s/^/np=$np: /" >>"$OUT/goals.txt" || true
    if [ -s "$OUT/run-$np.csv" ]; then
        if [ -s "$csv" ]; then tail -n +2 "$OUT/run-$np.csv" >>"$csv"; else cat "$OUT/run-$np.csv" >"$csv"; fi
    fi
done
echo "== goals"
cat "$OUT/goals.txt"
if ! command -v gnuplot >/dev/null; then
    echo "figures: $csv (no gnuplot here: no plot)"
elif gnuplot -e "csv='$csv'; out='$OUT/bench.png'; machine='$(sed -n 2p "$OUT/machine.txt")'" labs/lab5-cuda-mpi-stencil/bench.gp; then
    echo "plot: $OUT/bench.png; figures: $csv"
fi
exit $rc
