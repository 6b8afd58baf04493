#!/usr/bin/env bash
# make bench LAB=3 [IMPL=reference | SUBMISSION=DIR]      (on a GPU host)
#
# GFLOP/s of every variant at m = n = k = N, two ways: as matmult_gpuX runs
# (the copies of A, B and C between host and device inside every call) and
# the product alone on device arrays (matmult_gpuX_dev), beside cuBLAS DGEMM
# (gpulib) and OpenBLAS DGEMM on all host cores (lib), all in the same run.
# Each point is the median of BENCH_REPEATS runs of the driver (each run
# warms the device up first, then times; its split is itself the median of
# up to 5 calls), the runs of all variants interleaved so that a noisy
# moment hits them alike. Inputs are random reals, never constants (a GPU
# runs faster on constant data under its power limit). The copies are
# also timed through page-locked host memory, the rate the link allows.
# At one size (BENCH_ALT_N) it also measures other builds of the same
# source: gpu4 with each count of elements per thread (-DGPU4_ELEMENTS=...)
# and those in BENCH_ALT_BUILDS (name:variant:flags; for the reference,
# gpu5 with the Guide's square 16 x 16 tiles and with TILE_K = 32, and gpu6
# on the CUDA cores instead of the tensor cores).
#
# Writes $OUT/bench.csv, $OUT/alternatives.csv, $OUT/goals.txt and
# $OUT/bench.png (gnuplot), and prints the goals of README.md as measured
# ratios. Knobs (environment): BENCH_OUT, BENCH_SIZES, BENCH_GPU1_SIZES,
# BENCH_GPU4_COUNTS, BENCH_ALT_BUILDS, BENCH_ALT_N, BENCH_REPEATS,
# BENCH_GOAL_N, BENCH_RAW, MFLOPS_MIN_T.
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=${BENCH_OUT:-build/bench/lab3}
SIZES=${BENCH_SIZES:-"256 512 1024 2048 4096 8192"}
GPU1_SIZES=${BENCH_GPU1_SIZES:-"32 64 128 256"}
GPU4_COUNTS=${BENCH_GPU4_COUNTS:-"2 4 8 16"}
ALT_BUILDS=${BENCH_ALT_BUILDS:-"gpu5_tile_k16:gpu5:-DGPU5_TILE_K=16 gpu5_tile_k32:gpu5:-DGPU5_TILE_K=32 gpu6_cuda_cores:gpu6:-DGPU6_CUDA_CORES"}
ALT_N=${BENCH_ALT_N:-4096}
GOAL_N=${BENCH_GOAL_N:-4096}
REPEATS=${BENCH_REPEATS:-3}
export MFLOPS_MIN_T=${MFLOPS_MIN_T:-0.3}
VARIANTS="lib gpu2 gpu3 gpu4 gpu5 gpu6 gpulib"

if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "make bench LAB=3 measures GPU code: run it on a host with an NVIDIA GPU (nvidia-smi found none here)" >&2
    exit 1
fi
src_args=()
[ -n "${SUBMISSION:-}" ] && src_args+=(SUBMISSION="$SUBMISSION")
[ -n "${IMPL:-}" ] && src_args+=(IMPL="$IMPL")
mkdir -p "$OUT"
echo "building lab 3 (${SUBMISSION:-${IMPL:-skeleton}}) ..."
make --no-print-directory -s -f common/mk/lab.mk LAB=3 BUILD="$OUT/opt" "${src_args[@]}" all >/dev/null
alts=()
for t in $GPU4_COUNTS; do alts+=("gpu4_$t:gpu4:-DGPU4_ELEMENTS=$t"); done
for a in $ALT_BUILDS; do alts+=("$a"); done
for a in "${alts[@]}"; do
    IFS=: read -r name _ flags <<<"$a"
    make --no-print-directory -s -f common/mk/lab.mk LAB=3 BUILD="$OUT/$name" \
        NVCC_OPT="-O3 $flags" "${src_args[@]}" all >/dev/null
done

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
clock=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "GPU: $gpu (max SM clock $clock MHz); CPU: $cpu, $(nproc) threads for lib; median of $REPEATS; $(date -u '+%Y-%m-%d %H:%M UTC')"

raw=${BENCH_RAW:-$(mktemp)}  # BENCH_RAW=file keeps the raw runs
: >"$raw"
# one BUILD TYPE N: one driver run ->
#   "mflops errors h2d_ms kernel_ms d2h_ms sms pinned_h2d_GBps pinned_d2h_GBps"
one() {
    local build=$1 type=$2 n=$3 out
    out=$(MATMULT_SPLIT=$([ "$type" = gpulib ] && echo 2 || echo 1) MATMULT_COMPARE=$([ "$n" -le 2048 ] && echo 1 || echo 0) \
        "$OUT/$build/matmult_gpu" "$type" "$n" "$n" "$n")
    echo "$out" | awk '
        /# matmult_/ { mf = $2; err = $3 }
        /^# split/ { for (i = 1; i <= NF; i++) { if ($i == "h2d") h = $(i+1); if ($i == "kernel") k = $(i+1);
                                                  if ($i == "d2h") d = $(i+1); sub(/,$/, "", $i); if ($i ~ /^sms=/) s = substr($i, 5)
                                                  if ($i ~ /^pinned_h2d=/) ph = substr($i, 12); if ($i ~ /^pinned_d2h=/) pd = substr($i, 12) } }
        END { print mf, err, (h == "" ? "-" : h), (k == "" ? "-" : k), (d == "" ? "-" : d), (s == "" ? "-" : s),
                    (ph == "" ? "-" : ph), (pd == "" ? "-" : pd) }'
}

points=()
for n in $SIZES; do for v in $VARIANTS; do points+=("opt $v $n"); done; done
for n in $GPU1_SIZES; do points+=("opt gpu1 $n"); done
for a in "${alts[@]}"; do IFS=: read -r name v _ <<<"$a"; points+=("$name $v $ALT_N"); done
total=$((${#points[@]} * REPEATS))
done_=0
for r in $(seq "$REPEATS"); do
    for p in "${points[@]}"; do
        read -r build type n <<<"$p"
        echo "$build $type $n $(one "$build" "$type" "$n")" >>"$raw"
        done_=$((done_ + 1))
        [ $((done_ % 25)) = 0 ] && echo "  $done_/$total runs"
    done
done

# Median of each column over the repeats of each point.
summarise() {
    sort -k1,1 -k2,2 -k3,3n "$raw" | awk -v OFS=, '
        function med(s,   n, v, i, j, t) {
            n = split(s, v, " "); if (v[1] == "-") return ""
            for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
        function flush(   n3) {
            if (key == "") return
            split(key, f, " "); n3 = f[3] * f[3] * f[3]
            h = med(H); k = med(K); d = med(D)
            print f[1], f[2], f[3], med(MF) / 1000, (k == "" ? "" : 2 * n3 / k / 1e6), h, k, d,
                  (h == "" ? "" : 16 * f[3] * f[3] / h / 1e6), (d == "" ? "" : 8 * f[3] * f[3] / d / 1e6), err, sms,
                  med(PH), med(PD)
        }
        { kk = $1 " " $2 " " $3
          if (kk != key) { flush(); key = kk; MF = H = K = D = PH = PD = sms = ""; err = 0 }
          MF = MF " " $4; H = H " " $6; K = K " " $7; D = D " " $8; PH = PH " " $10; PD = PD " " $11
          if ($5 > err) err = $5; if ($9 != "-") sms = $9 }
        END { flush() }'
}
header="build,variant,n,gflops_with_transfers,gflops_kernel,h2d_ms,kernel_ms,d2h_ms,h2d_GBps,d2h_GBps,errors,sms,pinned_h2d_GBps,pinned_d2h_GBps"
csv=$OUT/bench.csv
echo "$header" >"$csv"
summarise | grep '^opt,' >>"$csv"
sweep=$OUT/alternatives.csv
echo "$header" >"$sweep"
summarise | grep -v '^opt,' >>"$sweep"
[ -n "${BENCH_RAW:-}" ] || rm -f "$raw"

# The goals, as ratios measured in this run. Peaks: SMs x per-SM rate of
# sm_90 (64 FP64 FMA per clock on the CUDA cores, twice that on the tensor
# cores) x the maximum SM clock nvidia-smi reports.
awk -F, -v n="$GOAL_N" -v clock="$clock" -v gpu="$gpu" -v sizes="$SIZES" '
    $1 == "opt" { tot[$2, $3] = $4; kern[$2, $3] = $5; h[$2, $3] = $6; d[$2, $3] = $8; if ($12 != "") sms = $12
                  ph[$2, $3] = $13; pd[$2, $3] = $14 }
    END {
        vec = sms * 128 * clock / 1e3; tc = 2 * vec   # GFLOP/s
        lib = kern["gpulib", n]
        printf "at %d^3 on %s (%d SMs; FP64 peak %.1f TFLOP/s on CUDA cores, %.1f on tensor cores):\n", n, gpu, sms, vec / 1e3, tc / 1e3
        printf "  %-7s %14s %16s %9s %10s %10s\n", "variant", "kernel TFLOP/s", "with copies", "%cuBLAS", "%FP64-CUDA", "%FP64-TC"
        split("gpu2 gpu3 gpu4 gpu5 gpu6 gpulib", vs, " ")
        for (i = 1; i <= 6; i++) { v = vs[i]; if (kern[v, n] == "") continue
            printf "  %-7s %14.2f %16.2f %8.1f%% %9.1f%% %9.1f%%\n", v, kern[v, n] / 1e3, tot[v, n] / 1e3,
                   100 * kern[v, n] / lib, 100 * kern[v, n] / vec, 100 * kern[v, n] / tc }
        printf "  %-7s %14s %16.2f   (OpenBLAS, all host cores)\n", "lib", "", tot["lib", n] / 1e3
        printf "  goal gpu5 >= 10%% of cuBLAS: %.1f%%; goal gpu6 >= 40%%: %.1f%%\n", 100 * kern["gpu5", n] / lib, 100 * kern["gpu6", n] / lib
        b = 2 * n * n * n / (h["gpulib", n] + d["gpulib", n]) / 1e6
        printf "  gpulib with copies %.2f TFLOP/s = %.1f%% of the bound the copies alone set, %.2f TFLOP/s (goal >= 80%%)\n", tot["gpulib", n] / 1e3, 100 * tot["gpulib", n] / b, b / 1e3
        printf "    copies from pageable memory: h2d %.2f GB/s, d2h %.2f GB/s\n", 16 * n * n / h["gpulib", n] / 1e6, 8 * n * n / d["gpulib", n] / 1e6
        if (ph["gpulib", n] > 0) { bp = 2 * n * n * n / (16 * n * n / ph["gpulib", n] + 8 * n * n / pd["gpulib", n])
            printf "    page-locked: h2d %.2f GB/s, d2h %.2f GB/s; bound %.2f TFLOP/s, of which gpulib reaches %.1f%%\n", ph["gpulib", n], pd["gpulib", n], bp / 1e3, 100 * tot["gpulib", n] / bp }
        ns = split(sizes, sz, " "); cross = ""
        for (i = 1; i <= ns; i++) if (cross == "" && tot["gpulib", sz[i]] > tot["lib", sz[i]]) cross = sz[i]
        printf "  gpulib with copies is faster than lib from n = %s on (sizes run: %s)\n", cross == "" ? "(none)" : cross, sizes
    }' "$csv" | tee "$OUT/goals.txt"
awk -F, -v lib="$(awk -F, -v n="$ALT_N" '$1 == "opt" && $2 == "gpulib" && $3 == n { print $5 }' "$csv")" '
    NR > 1 { printf "  build %-16s %-6s n=%d: %.2f TFLOP/s%s\n", $1, $2, $3, $5 / 1e3, (lib > 0 ? sprintf(" = %.1f%% of cuBLAS", 100 * $5 / lib) : "") }' "$sweep" | tee -a "$OUT/goals.txt"
awk -F, 'FNR > 1 && $11 > 0 { print "WARNING: " $11 " wrong elements in " $2 " at n=" $3; bad = 1 } END { exit bad }' "$csv" "$sweep" || true

if command -v gnuplot >/dev/null; then
    sms=$(awk -F, 'NR > 1 && $12 != "" { print $12; exit }' "$csv")
    peak=$(awk -v s="${sms:-0}" -v c="${clock:-0}" 'BEGIN { print s * 128 * c / 1e3 }')
    gnuplot -e "csv='$csv'; sweep='$sweep'; out='$OUT'; gpu='$gpu'; peak=$peak" labs/lab3-gpu-matmult/bench.gp
    echo "wrote $csv, $sweep and $OUT/bench.png"
else
    echo "wrote $csv and $sweep; no gnuplot here: plot them elsewhere with"
    echo "  gnuplot -e \"csv='bench.csv'; sweep='alternatives.csv'; out='.'; gpu='$gpu'; peak=0\" labs/lab3-gpu-matmult/bench.gp"
fi
