#!/usr/bin/env bash
# make bench LAB=4 [SUBMISSION=DIR]    (the sources as for make lab4: your files by default)
#
# On a GPU host: every stage at several N beside the device-to-device copy
# bandwidth measured in the same run (the limit a sweep that moves 16 bytes
# per point can reach) and the stencil-shaped copy (stencil_bound.cu: the same
# loads and stores as a Jacobi sweep, without its arithmetic: the limit of
# the access pattern, which a stencil cannot pass by much), then, with 2 or more GPUs, the peer bandwidth
# between GPU 0 and the others, the peer stage, and the NCCL stage on 1, 2
# and 4 GPUs for strong scaling (fixed N) and weak scaling (fixed N^3/P).
# Each figure is the median of BENCH_REPEATS timed runs after one warm-up,
# timing the sweeps alone (allocation and copies are in total_seconds).
# The warm-up is the check (lab4_bench.c): 3 sweeps from the start compared
# bit for bit with the kit's CPU Jacobi; a method whose result is wrong, or
# whose rate is above the GPU's FP64 peak, shows INVALID instead of its
# figures and ratios and makes the benchmark exit with status 1
# (common/bench/bench_lib.sh).
# Writes build/bench/lab4/bench.csv, topology.txt, bench_single.png and
# bench_scaling.png, and prints each goal as a measured ratio.
#
# Knobs: BENCH_SIZES, BENCH_STRONG_N, BENCH_WEAK_N (N for 1 GPU; P GPUs get
# N * P^(1/3)), BENCH_REPEATS, BENCH_SCALING_REPEATS (3: each NCCL run
# gathers the cube to rank 0), BENCH_POINTS (points x sweeps per run),
# BENCH_SINGLE=0 skips the one-GPU part, BENCH_QUICK=1 (small sizes, one
# repeat: the self-test's refusal check), BENCH_BUILD, BENCH_OUT.
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "$0")/../../common/bench/bench_lib.sh"
bench_setup 4

#          knob            BENCH_QUICK=1  full
bench_knob SIZES           "64 128"       "128 256 384 512 768 1024"
bench_knob SCALING_REPEATS 1              3
bench_knob STRONG_N        128            1024
bench_knob WEAK_N          96             645
bench_knob REPEATS         1              5
bench_knob POINTS          400000000      40000000000
export NCCL_NVLS_ENABLE=0 OMP_WAIT_POLICY=passive

gpus=$(bench_gpu_count)
if [ "$gpus" = 0 ]; then
    bench_no_gpu 4 "it measures GPUs, and nvidia-smi lists none here" >&2
    exit 2
fi
# BENCH_BUILD=DIR uses programs built elsewhere (e.g. with GCC 12's GPU
# offloading, which the GPU host's own GCC lacks).
if [ -n "${BENCH_BUILD:-}" ]; then
    B=$BENCH_BUILD/lab4_bench
else
    echo "building lab 4 ($BENCH_SOURCE) ..."
    bench_build "$BENCH_OUT/build"
    B=$BENCH_OUT/build/lab4_bench
fi
bench_mpirun NCCL_NVLS_ENABLE=0 OMP_WAIT_POLICY LD_LIBRARY_PATH

{
    bench_date
    nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
    nvidia-smi topo -m
} >"$BENCH_OUT/topology.txt" 2>&1
gpu=$(bench_gpu_name)
sms=$({ "$B" copy 16 1 || true; } | awk '$1 == "copy" { print $6 }')
gpu_peak=$(bench_gpu_fp64_peak_gflops "${sms:-0}" "$(bench_gpu_clock_mhz)")
echo "$gpus x $gpu ($sms SMs, FP64 peak $gpu_peak GFLOP/s); median of $REPEATS; topology in $BENCH_OUT/topology.txt"

csv=$BENCH_OUT/bench.csv
echo "kind,method,P,N,sweeps,seconds,min,max,total_seconds,glups,gbs16,gbs24,copy_gbs,status" >"$csv"
sweeps_for() { awk -v n="$1" -v p="$POINTS" 'BEGIN { s = int(p / (n^3)); if (s < 10) s = 10; if (s > 1000) s = 1000; print s }'; }
declare -A copy_bw
# solve KIND COPY_GBS METHOD P N CMD...: one method (its check, then its
# timing), a line on the screen and a row of the CSV. 11 flops per point
# and sweep (POISSON_FLOPS_PER_POINT) above the GPU's FP64 peak is no
# measurement.
solve() {
    local kind=$1 cbw=$2 m=$3 p=$4 n=$5 out
    shift 5
    out=$("$@" 2>&1) || true
    awk -v k="$kind" -v c="$cbw" -v m="$m" -v p="$p" -v n="$n" -v peak="$gpu_peak" -v inl2="${IN_L2:-0}" "$BENCH_AWK"'
        $1 == "check" { st = $6 == 0 ? "ok" : $6 > 0 ? "wrong:" $6 : "failed" }
        $1 == "solve" { for (i = 5; i <= 12; i++) f[i] = $i; solved = 1 }
        END { if (st == "" || !solved) st = (st == "" || st == "ok") ? "failed" : st
              if (st == "ok" && peak > 0 && num(f[9]) && f[9] * 11 > peak) st = "peak"
              if (st != "ok") for (i = 5; i <= 12; i++) f[i] = "-"
              printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", k, m, p, n, f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], c, status_text(st) >>csv
              r = inl2 ? "" : ratio(100 * f[11], c, "%.1f%%")
              show(sprintf("%-6s %-7s P=%s N=%-5s", k, m, p, n), st,
                   sprintf("%s s  %s GLUP/s  %s GB/s at 16 B/point%s", fig(f[6], "%.4f"), fig(f[10], "%.2f"), fig(f[11], "%.0f"),
                           inl2 ? " (the grid fits in the L2: the copy bounds nothing)" : r == "" ? "" : " = " r " of copy")) }' csv="$csv" <<<"$out"
}

# The offload stage built for the host only (no clang-16 or gcc-12 with GPU
# offloading here), or a runtime that finds no GPU, would time the CPU: said
# once, and its rows left out, never shown as GPU figures.
offload_where=$("$B" where 2>&1)
offload_rows=1
if [ "$offload_where" != "offload runs on the device" ]; then
    offload_rows=0
    echo "note: jacobi_offload.c's target regions do not run on the GPU here ($offload_where): the offload rows are left out"
fi

echo "== one GPU: every stage against the copy bandwidth"
[ "${BENCH_SINGLE:-1}" = 0 ] && SIZES=""
for n in $SIZES; do
    copy_line=$({ "$B" copy "$n" "$REPEATS" || true; })
    cbw=$(awk '{print $5}' <<<"$copy_line")
    # the two arrays of a sweep in the GPU's L2: no copy of device memory bounds it
    IN_L2=$(awk '{ print ($7 > 0 && 2 * $3 <= $7) ? 1 : 0 }' <<<"$copy_line")
    copy_bw[$n]=$cbw
    cst=ok
    case $cbw in '' | - ) cst="INVALID (failed)" cbw=- ;; esac
    echo "copy,cudaMemcpy,1,$n,1,,,,,,$cbw,,$cbw,$cst" >>"$csv"
    echo "copy   cudaMemcpy      N=$n  $([ "$cst" = ok ] && echo "$cbw GB/s" || echo "$cst")"
    s=$(sweeps_for "$n")
    solve single "$cbw" bound 1 "$n" "$B" bound "$n" "$s" "$REPEATS"
    for m in gpu2 gpu3; do solve single "$cbw" "$m" 1 "$n" "$B" "$m" "$n" "$s" "$REPEATS"; done
    # the offload stage is far slower: fewer sweeps
    [ "$offload_rows" = 1 ] && solve single "$cbw" offload 1 "$n" "$B" offload "$n" $(( s / 10 > 2 ? s / 10 : 2 )) 3
done
IN_L2=0
if [ -n "$SIZES" ]; then solve single "${copy_bw[128]:-}" gpu1 1 64 "$B" gpu1 64 2 3; fi

if [ "$gpus" -ge 2 ]; then
    echo "== peer bandwidth (cudaMemcpyPeer, 1 GiB, one way)"
    "$B" peerbw 1024 "$REPEATS" | tee "$BENCH_OUT/peer_bandwidth.txt"
    cbw=$({ "$B" copy "$STRONG_N" "$REPEATS" || true; } | awk '{print $5}')
    s=$(sweeps_for "$STRONG_N")
    echo "== strong scaling at N = $STRONG_N ($s sweeps)"
    for p in 1 2 4; do
        [ "$p" -le "$gpus" ] || continue
        solve strong "$cbw" nccl "$p" "$STRONG_N" "${BENCH_MPIRUN[@]}" -np "$p" "$B" nccl "$STRONG_N" "$s" "$SCALING_REPEATS"
    done
    solve strong "$cbw" peer 2 "$STRONG_N" "$B" peer "$STRONG_N" "$s" "$SCALING_REPEATS"
    echo "== weak scaling: N^3 / P fixed at $WEAK_N^3"
    for p in 1 2 4; do
        [ "$p" -le "$gpus" ] || continue
        n=$(awk -v n="$WEAK_N" -v p="$p" 'BEGIN { printf "%d", n * p^(1/3) + 0.5 }')
        solve weak "$cbw" nccl "$p" "$n" "${BENCH_MPIRUN[@]}" -np "$p" "$B" nccl "$n" "$(sweeps_for "$WEAK_N")" "$SCALING_REPEATS"
        if [ "$p" = 2 ]; then solve weak "$cbw" peer 2 "$n" "$B" peer "$n" "$(sweeps_for "$WEAK_N")" "$SCALING_REPEATS"; fi
    done
fi

echo "== goals (right results only)"
awk -F, '
    $14 != "ok" { next }
    $1 == "single" && $2 == "bound" { bound[$4] = $11 }
    $1 == "single" && $2 == "gpu3" && $4 >= 512 && $13 + 0 > 0 { r = $11 / $13; printf "gpu3 N=%d: %.0f GB/s at 16 B/point = %.1f%% of the copy bandwidth %.0f GB/s (goal >= 90%%, or the bound below)\n", $4, $11, 100 * r, $13
        if (bound[$4] + 0 > 0) printf "gpu3 N=%d: %.1f%% of the stencil-shaped bound %.0f GB/s (%.1f%% of copy) (goal: gpu3 >= 95%% of the stencil-shaped bound)\n", $4, 100 * $11 / bound[$4], bound[$4], 100 * bound[$4] / $13 }
    $1 == "strong" && $2 == "nccl" { t[$3] = $6 }
    $1 == "strong" && $2 == "peer" { tp = $6 }
    $1 == "weak" && $2 == "nccl" { g[$3] = $10 }
    $1 == "weak" && $2 == "peer" { gp = $10 }
    END {
        for (p = 2; p <= 4; p *= 2) if (t[1] && t[p]) printf "nccl strong scaling, %d GPUs: %.1f%% (goal >= 90%% on 4)\n", p, 100 * t[1] / (p * t[p])
        if (t[1] && tp) printf "peer strong scaling, 2 GPUs: %.1f%%\n", 100 * t[1] / (2 * tp)
        for (p = 2; p <= 4; p *= 2) if (g[1] && g[p]) printf "nccl weak scaling, %d GPUs: %.1f%% (goal >= 95%%)\n", p, 100 * g[p] / (p * g[1])
        if (g[1] && gp) printf "peer weak scaling, 2 GPUs: %.1f%%\n", 100 * gp / (2 * g[1])
    }' "$csv" | bench_goals | tee "$BENCH_OUT/goals.txt"

# efficiency per P: strong t1 / (P tP), weak (GLUP/s_P / P) / GLUP/s_1
awk -F, 'BEGIN { print "kind,method,P,N,efficiency" }
    $14 != "ok" { next }
    ($1 == "strong" || $1 == "weak") && $2 == "nccl" && $3 == 1 { base[$1] = $1 == "strong" ? $6 : $10 }
    ($1 == "strong" || $1 == "weak") { row[++n] = $0 }
    END { for (i = 1; i <= n; i++) { split(row[i], f, ","); if (!base[f[1]]) continue
          e = f[1] == "strong" ? base["strong"] / (f[3] * f[6]) : f[10] / (f[3] * base["weak"])
          printf "%s,%s,%s,%s,%.4f\n", f[1], f[2], f[3], f[4], e } }' "$csv" >"$BENCH_OUT/scaling.csv"

if ! command -v gnuplot >/dev/null; then
    echo "wrote $csv and $BENCH_OUT/scaling.csv (no gnuplot here: no plots)"
elif gnuplot -e "csv='$csv'; out='$BENCH_OUT'; gpu='$gpus x $gpu'" labs/lab4-multigpu-jacobi/bench.gp 2>"$BENCH_OUT/gnuplot.log"; then
    echo "plots: $BENCH_OUT/bench_single.png${gpus:+ $BENCH_OUT/bench_scaling.png} (INVALID rows left out)"
else
    echo "wrote $csv; gnuplot could not draw every plot (no valid rows?): $BENCH_OUT/gnuplot.log"
fi
bench_finish "$csv"
