#!/usr/bin/env bash
# make demo LAB=4 (on a GPU host): the lesson of lab 4 in one picture: the
# time of one Jacobi sweep of the NCCL stage at a fixed N on 1, 2 and 4
# GPUs (those the host has), against the ideal (the 1-GPU time / P), each
# bar split into the share of the GPUs' kernel time spent in NCCL's halo
# exchange kernels and the rest; read from the kit's tracer
# (common/trace/), preloaded into every rank.
# make timeline LAB=4: the timeline of the student's own NCCL stage
# instead, its last sweeps on 2 GPUs (1 where the host has one): one row a
# rank and stream, the sweep's kernels and NCCL's.
# The times are make bench LAB=4's (lab4_bench nccl under mpirun: the same
# program; it checks its first sweeps against the kit's CPU Jacobi bit for
# bit and the demo stops on a wrong one).
# Without a GPU: one line naming the way to one, exit 2.
# Writes build/demo/lab4/scaling.png (timeline.png) and index.html.
# shellcheck source=common/demo/demo_lib.sh
. "$(dirname "$0")/../../common/demo/demo_lib.sh"
if [ "${DEMO_MODE:-}" = timeline ]; then
    demo_start 4 "Lab 4: your NCCL stage's sweeps on a timeline"
else
    demo_start 4 "Lab 4: one Jacobi sweep on more GPUs, and what the halo exchange costs"
fi
demo_need_gpus 1
demo_trace_build
demo_build "$DEMO_BIN"
export NCCL_NVLS_ENABLE=0 OMP_WAIT_POLICY=passive
bench_mpirun NCCL_NVLS_ENABLE OMP_WAIT_POLICY LD_LIBRARY_PATH
gpus=$(bench_gpu_count)
N=512 sweeps=100 repeats=3

# solve P: lab4_bench nccl on P ranks, traced into DEMO_OUT/trace-P;
# prints "P seconds_per_sweep nccl_share" (the share of kernel time in
# NCCL's own kernels, ncclDevKernel_* or ncclKernel_* (mangled or not): a kernel
# of the student's named nccl_sweep is the sweep's), or fails the demo
solve() {
    local p=$1 out
    if ! out=$(demo_traced "$DEMO_OUT/trace-$p" "$p" "$DEMO_BIN/lab4_bench" nccl "$N" "$sweeps" "$repeats" 2>&1) ||
        ! awk '$1 == "check" && $6 == 0 { ok = 1 } END { exit !ok }' <<<"$out"; then
        printf '%s\n' "$out" >&2
        echo "make $DEMO_VERB LAB=4: lab4_bench nccl on $p GPU(s) failed or its check found a wrong result: no picture" >&2
        exit 1
    fi
    share=$(cat "$DEMO_OUT/trace-$p"/rank*/trace.*.csv | awk -F, '$1 == "kernel" { t = $3 - $2; all += t; if ($4 ~ /nccl(Dev)?Kernel/) nccl += t }
        END { printf "%.4f", (all > 0 ? nccl / all : 0) }')
    awk -v p="$p" -v s="$share" '$1 == "solve" { printf "%d %.6f %s\n", p, $6 / $5, s }' <<<"$out"
}

if [ "${DEMO_MODE:-}" = timeline ]; then
    p=$((gpus >= 2 ? 2 : 1))
    read -r _ per _ <<<"$(solve "$p")"
    demo_say "your NCCL stage, N = $N, $p GPU(s): $(awk -v t="$per" 'BEGIN { printf "%.3f", 1e3 * t }') ms a sweep"
    python3 common/demo/timeline.py "$DEMO_OUT/trace-$p" "$DEMO_OUT/timeline.png" \
        --title "lab 4: the last sweeps of jacobi_nccl, N = $N, on $p x $(bench_gpu_name)" \
        --panel "the last 4 sweeps=tail:$(awk -v t="$per" 'BEGIN { print 4e3 * t }')" | while IFS= read -r line; do demo_say "$line"; done
    demo_page timeline.png
    exit 0
fi

data=$DEMO_OUT/scaling.dat
echo "# GPUs seconds_per_sweep nccl_share_of_kernel_time" >"$data"
for p in 1 2 4; do
    [ "$p" -le "$gpus" ] && solve "$p" >>"$data"
done
awk -v n="$N" '$1 ~ /^[0-9]/ { if ($1 == 1) t1 = $2
        printf "%d GPU(s), N = %d: %.3f ms a sweep", $1, n, 1e3 * $2
        if ($1 > 1) printf " = %.0f%% of ideal scaling", 100 * t1 / ($1 * $2)
        # 0: no NCCL kernel in the trace: not measured, not "0%" (on 4 GPUs it read 0
        # because an unparenthesised "all > 0 ? ..." among the arguments of printf is output
        # redirection in awk: the share went to a file named 0)
        if ($1 > 1) printf ($3 > 0 ? "; NCCL kernels %.0f%% of the kernel time" : "; NCCL share not measured (the trace holds no NCCL kernel)"), 100 * $3
        printf "\n" }' "$data" | while IFS= read -r line; do demo_say "$line"; done
# for the maintainer, not the page: the tracer's own account of what CUPTI
# delivered and the launches it saw settles why
if awk '$1 ~ /^[0-9]/ && $1 > 1 && $3 == 0 { found = 1 } END { exit !found }' "$data"; then
    echo "no NCCL kernel in the trace: TRACE_DEBUG=1 make demo LAB=$DEMO_LAB writes the tracer's report, $DEMO_OUT/trace-P/rank*/debug.*.txt" >&2
fi

gnuplot -e "data='$data'; out='$DEMO_OUT/scaling.png'; gpu='$(bench_gpu_name)'; n=$N" "$DEMO_STYLE" - <<'GP'
set output out
set title sprintf("lab 4: one Jacobi sweep of N = %d (NCCL stage) on %s GPUs", n, gpu)
set xlabel "GPUs"
set ylabel "ms a sweep"
set style fill solid 0.8 border -1
set boxwidth 0.5 relative
set xtics ("1" 0, "2" 1, "4" 2)
set xrange [-0.6:2.6]
set key inside top right
stats data using 2 nooutput
t1 = STATS_max
set yrange [0:1.3e3 * t1]
col(p) = p == 1 ? 0 : p == 2 ? 1 : 2
plot data using (col($1)):(1e3 * $2) with boxes lc rgb "#1f77b4" title "the sweep's own kernels", \
     data using (col($1)):(1e3 * $2 * $3) with boxes lc rgb "#d62728" title "share in NCCL's halo exchange", \
     data using (col($1)):(1e3 * t1 / $1) with linespoints lw 4 lc rgb "black" pt 7 ps 1.5 title "ideal (1 GPU / P)"
GP
demo_page scaling.png
