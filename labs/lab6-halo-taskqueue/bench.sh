#!/usr/bin/env bash
# make bench LAB=6 [SUBMISSION=DIR]    (the sources as for make lab6: your files by default)
#
# The thesis's protocol (13 iterations, 3 warm-up, 5 repetitions; mean,
# deviation, median) for the four baseline and the four taskqueue variants,
# beside the bound measured in the same run (the pack alone and the MPI
# exchange alone: max of the two). lab6_bench checks every element of every
# timed iteration and prints INVALID instead of a figure it cannot trust.
#
# On a GPU host: the CUDA backend, 1 GPU (one rank sending to itself) and
# 2 ranks in pairs (Table 4.1's pattern): on 2 GPUs with 2 or more, else
# both ranks on the one GPU (rank r takes GPU r mod count), where their two
# persistent kernels share it; 9 and 27 blocks of 128 threads,
# Table 4.1 and 10 x Table 4.1 ("very large"), and the thesis's "very small"
# (4 blocks of 16 threads, 1/1000).
# Without a GPU: the host backend (OpenMP threads as blocks, a modelled
# 200 us launch), 2 ranks, small sizes: the protocol and the checks at
# work, not GPU figures.
#
# Writes build/bench/lab6/bench.csv, bench.png (time per iteration of each
# variant and the bound), timeline.csv and timeline.png (one taskqueue
# iteration, per block). A wrong result, a time under half the bound or a
# run that fails shows INVALID in place of the figures (the CSV's status
# column says why) and the benchmark exits 1 (common/bench/bench_lib.sh).
# Knobs: BENCH_ITERS, BENCH_WARMUP, BENCH_REPS, BENCH_QUICK=1 (4 iterations,
# 1 warm-up, 1 repetition, one configuration: the self-test's refusal
# check), BENCH_OUT.
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "$0")/../../common/bench/bench_lib.sh"
bench_setup 6

[ "$BENCH_QUICK" = 1 ] && q_iters=4 q_warmup=1 q_reps=1
ITERS=${BENCH_ITERS:-${q_iters:-13}}
WARMUP=${BENCH_WARMUP:-${q_warmup:-3}}
REPS=${BENCH_REPS:-${q_reps:-5}}
export OMP_WAIT_POLICY=passive
echo "building lab 6 ($BENCH_SOURCE) ..."
bench_build "$BENCH_OUT/build"
B=$BENCH_OUT/build/lab6_bench
bench_mpirun OMP_WAIT_POLICY LD_LIBRARY_PATH

gpus=$(bench_gpu_count)
csv=$BENCH_OUT/bench.csv
echo "backend,ranks,pattern,blocks,threads,num,den,bytes,variant,mean_us,sd_us,median_us,speedup_vs_best_baseline,vs_bound,pack_alone_us,mpi_alone_us,status,chained_pct,max_run" >"$csv"
{
    bench_date
    mpirun --version 2>/dev/null | awk 'NR == 1'
    if [ "$gpus" -gt 0 ]; then nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader; nvidia-smi topo -m; else lscpu | awk 'NR <= 20'; fi
} >"$BENCH_OUT/machine.txt" 2>&1

# run NP BACKEND BLOCKS NUM DEN PATTERN THREADS [TIMELINE]: one
# configuration; a run that fails without an INVALID row gets one
run() {
    local np=$1 log rows
    shift
    echo
    if ! log=$("${BENCH_MPIRUN[@]}" -np "$np" "$B" "$1" "$2" "$3" "$4" "$5" "$6" "$ITERS" "$WARMUP" "$REPS" ${7:+"$7"} 2>&1); then
        rows=$(printf '%s\n' "$log" | awk -F, '/^csv,/ && $18 != "ok" { n++ } END { print n + 0 }')
        [ "$rows" -gt 0 ] || log+=$'\n'"csv,$1,$np,$5,$2,$6,$3,$4,,run,,,,,,,,INVALID (failed),,"
    fi
    printf '%s\n' "$log" | awk '!/^csv,/'
    printf '%s\n' "$log" | sed -n 's/^csv,//p' >>"$csv"
    bench_step "$runs" "np=$np $1 $2:$3/$4:$5"
}
# the runs below: 1 and 2 ranks, 4 sizes each (1 in quick mode); without a GPU 2 (1)
if [ "$gpus" -gt 0 ]; then runs=$([ "$BENCH_QUICK" = 1 ] && echo 2 || echo 8); else runs=$([ "$BENCH_QUICK" = 1 ] && echo 1 || echo 2); fi
bench_step_start

if [ "$gpus" -gt 0 ]; then
    gpu=$(bench_gpu_name)
    echo "$gpus x $gpu; $ITERS iterations, $WARMUP warm-up, $REPS repetitions; machine in $BENCH_OUT/machine.txt"
    for np in 1 2; do
        pat=$([ "$np" = 1 ] && echo self || echo pair)
        [ "$np" -gt "$gpus" ] && echo && echo "== $np ranks in pairs on the one GPU (not the thesis's 2 GPUs)"
        if [ "$BENCH_QUICK" = 1 ]; then run "$np" cuda 9 1 1 "$pat" 128; continue; fi
        run "$np" cuda 4 1 1000 "$pat" 16
        run "$np" cuda 9 1 1 "$pat" 128
        tl=""   # the timeline from the largest run of ranks this host allows
        [ "$np" = "$((gpus < 2 ? 1 : 2))" ] && tl=$BENCH_OUT/timeline.csv
        run "$np" cuda 27 1 1 "$pat" 128 ${tl:+"$tl"}
        run "$np" cuda 27 10 1 "$pat" 128
    done
    title="$gpus x $gpu"
else
    bench_no_gpu 6 "no GPU here: the host backend (OpenMP threads as blocks), 2 ranks, small sizes; not GPU figures"
    run 2 host 9 1 10 pair 32 "$BENCH_OUT/timeline.csv"
    [ "$BENCH_QUICK" = 1 ] || run 2 host 27 1 100 pair 32
    title="host backend on $(bench_cores) CPU cores (no GPU)"
fi

echo
echo "goals (right results only, measured in this run):"
awk -f <(printf '%s' "$BENCH_AWK") -f labs/lab6-halo-taskqueue/goals.awk "$csv" | bench_goals | tee "$BENCH_OUT/goals.txt"

if ! command -v gnuplot >/dev/null; then
    echo "gnuplot not found: no plots (the CSVs are in $BENCH_OUT)"
elif gnuplot -e "csv='$csv'; tl='$BENCH_OUT/timeline.csv'; out='$BENCH_OUT'; title='$title'" labs/lab6-halo-taskqueue/bench.gp \
    2>"$BENCH_OUT/gnuplot.log"; then
    echo && echo "plots: $BENCH_OUT/bench.png $BENCH_OUT/timeline.png (INVALID rows left out)"
else
    echo "gnuplot could not draw every plot (no valid rows?): $BENCH_OUT/gnuplot.log"
fi
echo "CSV: $csv"
bench_finish "$csv"
