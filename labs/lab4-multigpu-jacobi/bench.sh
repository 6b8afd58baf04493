#!/usr/bin/env bash
# make bench LAB=4 [IMPL=reference | SUBMISSION=DIR]
#
# On a GPU host: every stage at several N beside the device-to-device copy
# bandwidth measured in the same run (the limit a sweep that moves 16 bytes
# per point can reach), then, with 2 or more GPUs, the peer bandwidth
# between GPU 0 and the others, the peer stage, and the NCCL stage on 1, 2
# and 4 GPUs for strong scaling (fixed N) and weak scaling (fixed N^3/P).
# Each figure is the median of BENCH_REPEATS timed runs after one warm-up,
# timing the sweeps alone (allocation and copies are in total_seconds).
# Writes build/bench/lab4/bench.csv, topology.txt, bench_single.png and
# bench_scaling.png, and prints each goal as a measured ratio.
#
# Knobs: BENCH_SIZES, BENCH_STRONG_N, BENCH_WEAK_N (N for 1 GPU; P GPUs get
# N * P^(1/3)), BENCH_REPEATS, BENCH_SCALING_REPEATS (3: each NCCL run
# gathers the cube to rank 0), BENCH_POINTS (points x sweeps per run),
# BENCH_SINGLE=0 skips the one-GPU part.
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=build/bench/lab4
SIZES=${BENCH_SIZES:-"128 256 384 512 768 1024"}
SCALING_REPEATS=${BENCH_SCALING_REPEATS:-3}
STRONG_N=${BENCH_STRONG_N:-1024}
WEAK_N=${BENCH_WEAK_N:-645}
REPEATS=${BENCH_REPEATS:-5}
POINTS=${BENCH_POINTS:-40000000000}
export NCCL_NVLS_ENABLE=0 OMP_WAIT_POLICY=passive

gpus=$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU' || true)
if [ "${gpus:-0}" = 0 ]; then
    echo "make bench LAB=4 measures GPUs, and this machine has none (nvidia-smi lists no GPU)." >&2
    exit 2
fi
src_args=()
[ -n "${SUBMISSION:-}" ] && src_args+=(SUBMISSION="$SUBMISSION")
[ -n "${IMPL:-}" ] && src_args+=(IMPL="$IMPL")
mkdir -p "$OUT"
# BENCH_BUILD=DIR uses programs built elsewhere (e.g. with GCC 12's GPU
# offloading, which the GPU host's own GCC lacks).
if [ -n "${BENCH_BUILD:-}" ]; then
    B=$BENCH_BUILD/lab4_bench
else
    echo "building lab 4 (${SUBMISSION:-${IMPL:-skeleton}}) ..."
    make --no-print-directory -s -f common/mk/lab.mk LAB=4 BUILD="$OUT/build" "${src_args[@]}" all >/dev/null
    B=$OUT/build/lab4_bench
fi
MPIRUN=(mpirun --oversubscribe -x NCCL_NVLS_ENABLE=0 -x OMP_WAIT_POLICY -x LD_LIBRARY_PATH)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)

{
    date -u '+%Y-%m-%d %H:%M UTC'
    nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
    nvidia-smi topo -m
} >"$OUT/topology.txt" 2>&1
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "$gpus x $gpu; median of $REPEATS; topology in $OUT/topology.txt"

csv=$OUT/bench.csv
echo "kind,method,P,N,sweeps,seconds,min,max,total_seconds,glups,gbs16,gbs24,copy_gbs" >"$csv"
sweeps_for() { awk -v n="$1" -v p="$POINTS" 'BEGIN { s = int(p / (n^3)); if (s < 10) s = 10; if (s > 1000) s = 1000; print s }'; }
declare -A copy_bw
# solve KIND COPY_GBS CMD...: one method, appended to the CSV
solve() {
    local kind=$1 cbw=$2
    shift 2
    "$@" | awk -v k="$kind" -v c="$cbw" '$1 == "solve" { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", k, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, c }' |
        tee -a "$csv"
}

echo "== one GPU: every stage against the copy bandwidth"
[ "${BENCH_SINGLE:-1}" = 0 ] && SIZES=""
for n in $SIZES; do
    cbw=$("$B" copy "$n" "$REPEATS" | awk '{print $5}')
    copy_bw[$n]=$cbw
    echo "copy,cudaMemcpy,1,$n,1,,,,,,$cbw,,$cbw" | tee -a "$csv"
    s=$(sweeps_for "$n")
    for m in gpu2 gpu3; do solve single "$cbw" "$B" "$m" "$n" "$s" "$REPEATS"; done
    # the offload stage is far slower: fewer sweeps
    solve single "$cbw" "$B" offload "$n" $(( s / 10 > 2 ? s / 10 : 2 )) 3
done
[ -n "$SIZES" ] && solve single "${copy_bw[128]:-}" "$B" gpu1 64 2 3

if [ "$gpus" -ge 2 ]; then
    echo "== peer bandwidth (cudaMemcpyPeer, 1 GiB, one way)"
    "$B" peerbw 1024 "$REPEATS" | tee "$OUT/peer_bandwidth.txt"
    cbw=$("$B" copy "$STRONG_N" "$REPEATS" | awk '{print $5}')
    s=$(sweeps_for "$STRONG_N")
    echo "== strong scaling at N = $STRONG_N ($s sweeps)"
    for p in 1 2 4; do
        [ "$p" -le "$gpus" ] || continue
        solve strong "$cbw" "${MPIRUN[@]}" -np "$p" "$B" nccl "$STRONG_N" "$s" "$SCALING_REPEATS"
    done
    solve strong "$cbw" "$B" peer "$STRONG_N" "$s" "$SCALING_REPEATS"
    echo "== weak scaling: N^3 / P fixed at $WEAK_N^3"
    for p in 1 2 4; do
        [ "$p" -le "$gpus" ] || continue
        n=$(awk -v n="$WEAK_N" -v p="$p" 'BEGIN { printf "%d", n * p^(1/3) + 0.5 }')
        solve weak "$cbw" "${MPIRUN[@]}" -np "$p" "$B" nccl "$n" "$(sweeps_for "$WEAK_N")" "$SCALING_REPEATS"
        if [ "$p" = 2 ]; then solve weak "$cbw" "$B" peer "$n" "$(sweeps_for "$WEAK_N")" "$SCALING_REPEATS"; fi
    done
fi

echo "== goals"
awk -F, '
    $1 == "single" && $2 == "gpu3" && $4 >= 512 { r = $11 / $13; printf "gpu3 N=%d: %.0f GB/s at 16 B/point = %.1f%% of the copy bandwidth %.0f GB/s (goal >= 90%%)\n", $4, $11, 100 * r, $13 }
    $1 == "strong" && $2 == "nccl" { t[$3] = $6 }
    $1 == "strong" && $2 == "peer" { tp = $6 }
    $1 == "weak" && $2 == "nccl" { g[$3] = $10 }
    $1 == "weak" && $2 == "peer" { gp = $10 }
    END {
        for (p = 2; p <= 4; p *= 2) if (t[1] && t[p]) printf "nccl strong scaling, %d GPUs: %.1f%% (goal >= 90%% on 4)\n", p, 100 * t[1] / (p * t[p])
        if (t[1] && tp) printf "peer strong scaling, 2 GPUs: %.1f%%\n", 100 * t[1] / (2 * tp)
        for (p = 2; p <= 4; p *= 2) if (g[1] && g[p]) printf "nccl weak scaling, %d GPUs: %.1f%% (goal >= 95%%)\n", p, 100 * g[p] / (p * g[1])
        if (g[1] && gp) printf "peer weak scaling, 2 GPUs: %.1f%%\n", 100 * gp / (2 * g[1])
    }' "$csv" | tee "$OUT/goals.txt"

# efficiency per P: strong t1 / (P tP), weak (GLUP/s_P / P) / GLUP/s_1
awk -F, 'BEGIN { print "kind,method,P,N,efficiency" }
    ($1 == "strong" || $1 == "weak") && $2 == "nccl" && $3 == 1 { base[$1] = $1 == "strong" ? $6 : $10 }
    ($1 == "strong" || $1 == "weak") { row[++n] = $0 }
    END { for (i = 1; i <= n; i++) { split(row[i], f, ","); if (!base[f[1]]) continue
          e = f[1] == "strong" ? base["strong"] / (f[3] * f[6]) : f[10] / (f[3] * base["weak"])
          printf "%s,%s,%s,%s,%.4f\n", f[1], f[2], f[3], f[4], e } }' "$csv" >"$OUT/scaling.csv"

gnuplot -e "csv='$csv'; out='$OUT'; gpu='$gpus x $gpu'" labs/lab4-multigpu-jacobi/bench.gp && echo "plots: $OUT/bench_single.png${gpus:+ $OUT/bench_scaling.png}"
