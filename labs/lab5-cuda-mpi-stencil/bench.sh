#!/usr/bin/env bash
# make bench LAB=5 [SUBMISSION=DIR]    (the sources as for make lab5: your files by default)
#
# On a GPU host (CUDA backend): the lecture's grid, 480 x 480 x 400 floats,
# 100 steps, on 2 and 4 compute ranks (mpirun -np 3 and 5; the ranks share
# the GPUs there are, rank r on GPU r mod count). Without a GPU (CPU
# backend): the same program at a small size, to show the path works; its
# figures say nothing about a GPU.
# lab5_bench times the overlapped pipeline and the serialized one phase by
# phase, each with both exchanges, and measures in the same run the device
# copy bandwidth, the kernel alone, and between two compute ranks through
# the pipeline's pinned buffers an MPI ping-pong of one halo (one way at a
# time) and an osu_bibw-style exchange of one halo each way at once (the
# exchange's bound); it checks every variant's result against the serial
# reference bit for bit before printing its figures. A wrong result, a
# kernel above the copy bandwidth or a run that fails shows INVALID in
# place of the figures, and the benchmark exits 1 (common/bench/bench_lib.sh).
# Writes build/bench/lab5/bench.csv (a status column), goals.txt and bench.png.
#
# Knobs: BENCH_SIZE="DX DY DZ", BENCH_STEPS, BENCH_REPEATS, BENCH_RANKS
# (the mpirun -np values), BENCH_BACKEND=cpu|cuda, BENCH_QUICK=1 (a small
# grid, one repeat, 2 compute ranks: the self-test's refusal check),
# BENCH_OUT.
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "$0")/../../common/bench/bench_lib.sh"
bench_setup 5

if [ "$BENCH_QUICK" = 1 ]; then
    q_size="32 24 24" q_steps=4 q_repeats=1 q_ranks=3
fi
gpus=$(bench_gpu_count)
if [ "$gpus" -gt 0 ]; then
    backend=${BENCH_BACKEND:-cuda} size=${BENCH_SIZE:-${q_size:-"480 480 400"}} steps=${BENCH_STEPS:-${q_steps:-100}}
    repeats=${BENCH_REPEATS:-${q_repeats:-5}} ranks=${BENCH_RANKS:-${q_ranks:-"3 5"}}
else
    bench_no_gpu 5 "no GPU here: the CPU backend at a small size (the path, not GPU figures)"
    backend=${BENCH_BACKEND:-cpu} size=${BENCH_SIZE:-${q_size:-"64 48 48"}} steps=${BENCH_STEPS:-${q_steps:-10}}
    repeats=${BENCH_REPEATS:-${q_repeats:-3}} ranks=${BENCH_RANKS:-${q_ranks:-"3 5"}}
fi
echo "building lab 5 ($BENCH_SOURCE) ..."
bench_build "$BENCH_OUT/build"
# The server rank computes the serial reference with OpenMP, on the cores
# the compute ranks leave it (they wait in MPI meanwhile, polling): set per
# rank count below, unless OMP_NUM_THREADS is given. (-x passes the value
# the variable has when mpirun starts.)
user_threads=${OMP_NUM_THREADS:-}
export OMP_NUM_THREADS=${user_threads:-1}
bench_mpirun OMP_WAIT_POLICY=passive OMP_NUM_THREADS LD_LIBRARY_PATH
# Unbound: Open MPI binds each rank to one core or socket by default, and
# the server rank's OpenMP threads would then share it. On a 16-core GPU
# host the serial check of 480x480x400, 100 steps, took 50.6 s bound and
# 42.4 s unbound with the former serial reference, whose every
# neighbour read tested the grid's edges; wave_serial.c now pads the grid
# with zeros, vectorises the loop over x and walks tiles that stay in L2.
BENCH_MPIRUN+=(--bind-to none)

{
    bench_date
    if [ "$gpus" -gt 0 ]; then
        nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
    else
        echo "$(bench_cores) CPU cores, no GPU"
    fi
    mpirun --version 2>&1 | awk 'NR == 1'
} | tee "$BENCH_OUT/machine.txt"

# The header of lab5_bench's rows (it appends them to the CSV)
csv=$BENCH_OUT/bench.csv
echo "variant,backend,ranks,dimx,dimy,dimz,steps,step_ms,glups,boundary_ms,d2h_ms,exchange_ms,h2d_ms,interior_ms,copy_gbs,kernel_gbs,pingpong_gbs,bibw_gbs,status" >"$csv"
: >"$BENCH_OUT/goals.txt"
read -r dx dy dz <<<"$size"
# shellcheck disable=SC2086 # ranks is a list of numbers
runs=$(bench_count $ranks)
bench_step_start
for np in $ranks; do
    echo "== $((np - 1)) compute ranks (mpirun -np $np), $size, $steps steps, $backend backend"
    rows=$(wc -l <"$csv")
    cores=$(bench_cores)
    OMP_NUM_THREADS=${user_threads:-$((cores > np - 1 ? cores - (np - 1) : 1))}
    # shellcheck disable=SC2086 # size is three numbers, one word each
    if ! "${BENCH_MPIRUN[@]}" -np "$np" "$BENCH_OUT/build/lab5_bench" --size $size --steps "$steps" --repeats "$repeats" \
        --backend "$backend" --csv "$csv" >"$BENCH_OUT/run-$np.log" 2>&1; then
        # a run that stopped without saying which result was wrong
        awk -F, -v r="$rows" 'NR > r && $NF != "ok" { bad = 1 } END { exit !bad }' "$csv" ||
            echo "run,$backend,$np,$dx,$dy,$dz,$steps,-,-,-,-,-,-,-,-,-,-,-,INVALID (failed)" >>"$csv"
    fi
    cat "$BENCH_OUT/run-$np.log"
    awk -v np="$np" '/^goal/ { print "np=" np ": " $0 }' "$BENCH_OUT/run-$np.log" >>"$BENCH_OUT/goals.txt"
    bench_step "$runs" "np=$np"
done
echo "== goals (right results only)"
bench_goals <"$BENCH_OUT/goals.txt"
awk -F, 'NR == 1 || $NF == "ok"' "$csv" >"$BENCH_OUT/plotted.csv"
if ! command -v gnuplot >/dev/null; then
    echo "figures: $csv (no gnuplot here: no plot)"
elif gnuplot -e "csv='$BENCH_OUT/plotted.csv'; out='$BENCH_OUT/bench.png'; machine='$(sed -n 2p "$BENCH_OUT/machine.txt")'" \
    labs/lab5-cuda-mpi-stencil/bench.gp 2>"$BENCH_OUT/gnuplot.log"; then
    echo "plot: $BENCH_OUT/bench.png (INVALID rows left out); figures: $csv"
else
    echo "figures: $csv; gnuplot could not draw the plot (no valid rows?): $BENCH_OUT/gnuplot.log"
fi
bench_finish "$csv"
