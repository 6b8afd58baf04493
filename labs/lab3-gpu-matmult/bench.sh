#!/usr/bin/env bash
# make bench LAB=3 [SUBMISSION=DIR]    (the sources as for make lab3: your files by default; on a GPU host)
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
# and those in BENCH_ALT_BUILDS (name:variant:flags, the flags separated
# by commas, e.g. gpu6_bk32:gpu6:-DGPU6_CUDA_CORES,-DG6_BK=32; for the reference,
# gpu5 with the Guide's square 16 x 16 tiles and with TILE_K = 32, and gpu6
# on the CUDA cores instead of the tensor cores).
#
# Every run's C is checked (against OpenBLAS up to n = 2048, by a
# random-vector product beyond; the product on device arrays too): a wrong
# result, or a rate above the GPU's FP64 peak (the CPU's for lib), shows
# INVALID instead of its figures and ratios and makes the benchmark exit
# with status 1 (common/bench/bench_lib.sh).
#
# Writes $BENCH_OUT/bench.csv, $BENCH_OUT/alternatives.csv, $BENCH_OUT/goals.txt and
# $BENCH_OUT/bench.png (gnuplot), and prints the goals of README.md as measured
# ratios. Knobs (environment): BENCH_QUICK=1 (small sizes, one repeat),
# BENCH_OUT, BENCH_SIZES, BENCH_GPU1_SIZES, BENCH_GPU4_COUNTS,
# BENCH_ALT_BUILDS, BENCH_ALT_N, BENCH_REPEATS, BENCH_GOAL_N, BENCH_RAW,
# MFLOPS_MIN_T.
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "$0")/../../common/bench/bench_lib.sh"
bench_setup 3

#          knob        BENCH_QUICK=1  full
bench_knob SIZES       "256 512"      "256 512 1024 2048 4096 8192"
bench_knob GPU1_SIZES  "32 64"        "32 64 128 256"
bench_knob GPU4_COUNTS 2              "2 4 8 16"
bench_knob ALT_BUILDS  "" \
    "gpu5_tile_k16:gpu5:-DGPU5_TILE_K=16 gpu5_tile_k32:gpu5:-DGPU5_TILE_K=32 gpu6_cuda_cores:gpu6:-DGPU6_CUDA_CORES"
bench_knob ALT_N       512            4096
bench_knob GOAL_N      512            4096
bench_knob REPEATS     1              3
export MFLOPS_MIN_T=${MFLOPS_MIN_T:-$(bench_quick 0.05 0.3)}
VARIANTS="lib gpu2 gpu3 gpu4 gpu5 gpu6 gpulib"

if [ "$(bench_gpu_count)" = 0 ]; then
    bench_no_gpu 3 "it measures GPU code, and nvidia-smi finds no GPU here" >&2
    exit 1
fi
echo "building lab 3 ($BENCH_SOURCE) ..."
bench_build "$BENCH_OUT/opt"
alts=()
for t in $GPU4_COUNTS; do alts+=("gpu4_$t:gpu4:-DGPU4_ELEMENTS=$t"); done
for a in $ALT_BUILDS; do alts+=("$a"); done
for a in "${alts[@]}"; do
    IFS=: read -r name _ flags <<<"$a"
    bench_build "$BENCH_OUT/$name" NVCC_OPT="-O3 ${flags//,/ }"
done

gpu=$(bench_gpu_name)
clock=$(bench_gpu_clock_mhz)
read -r fp64_vec fp64_tc < <(bench_gpu_fp64_per_sm_clock)
cpu=$(bench_cpu_name)
cpu_peak=$(awk -v p="$(bench_cpu_peak_gflops)" -v c="$(nproc)" 'BEGIN { print p * c }')
echo "GPU: $gpu (max SM clock $clock MHz); CPU: $cpu, $(nproc) threads for lib; median of $REPEATS; $(bench_date)"

raw=${BENCH_RAW:-$(bench_scratch)}  # BENCH_RAW=file keeps the raw runs
: >"$raw"
# one BUILD TYPE N: one driver run ->
#   "STATUS mflops h2d_ms kernel_ms d2h_ms sms pinned_h2d_GBps pinned_d2h_GBps"
# (the worst of the driver's check and the split's check; failed if the
# driver stopped with an error)
one() {
    local build=$1 type=$2 n=$3 out
    out=$(MATMULT_SPLIT=$([ "$type" = gpulib ] && echo 2 || echo 1) MATMULT_COMPARE=$([ "$n" -le 2048 ] && echo 1 || echo 2) \
        "$BENCH_OUT/$build/matmult_gpu" "$type" "$n" "$n" "$n" 2>&1) || out=
    awk -v split_wanted="$([ "$type" = lib ] && echo 0 || echo 1)" '
        /# matmult_/ { mf = $2; err = $3 }
        /^# split/ { se = ""
                     for (i = 1; i <= NF; i++) { if ($i == "h2d") h = $(i+1); if ($i == "kernel") k = $(i+1)
                                                  if ($i == "d2h") d = $(i+1); sub(/,$/, "", $i); if ($i ~ /^sms=/) s = substr($i, 5)
                                                  if ($i ~ /^errors=/) se = substr($i, 8)
                                                  if ($i ~ /^pinned_h2d=/) ph = substr($i, 12); if ($i ~ /^pinned_d2h=/) pd = substr($i, 12) } }
        END { st = (err == "" || (split_wanted && se == "")) ? "failed" : (err + se > 0) ? "wrong:" (err + se) : "ok"
              print st, (mf == "" ? "-" : mf), (h == "" ? "-" : h), (k == "" ? "-" : k), (d == "" ? "-" : d), (s == "" ? "-" : s),
                    (ph == "" ? "-" : ph), (pd == "" ? "-" : pd) }' <<<"$out"
}

points=()
for n in $SIZES; do for v in $VARIANTS; do points+=("opt $v $n"); done; done
for n in $GPU1_SIZES; do points+=("opt gpu1 $n"); done
for a in "${alts[@]}"; do IFS=: read -r name v _ <<<"$a"; points+=("$name $v $ALT_N"); done
# measure BUILD TYPE N: a point's line, "BUILD TYPE N" and one's figures
measure() { echo "$1 $2 $3 $(one "$1" "$2" "$3")"; }
bench_run_points "$raw" measure

# Median of each column over the repeats of each point; derived rates; a
# rate above the peak marked; an invalid row keeps its status, not its
# figures.
summarise() {
    bench_medians 3 <"$raw" | awk -v OFS=, -v clock="$clock" -v cpu_peak="$cpu_peak" -v fv="$fp64_vec" -v ft="$fp64_tc" "$BENCH_AWK"'
        { st = $4; n = $3; n3 = n * n * n; h = $6; k = $7; d = $8
          gpu_peak = num($9) ? $9 * (ft > fv ? ft : fv) * clock / 1e3 : ""
          tot = num($5) ? $5 / 1000 : "-"; kern = num(k) && k > 0 ? 2 * n3 / k / 1e6 : "-"
          peak = $2 == "lib" ? cpu_peak : gpu_peak
          if (st == "ok" && num(peak) && ((num(tot) && tot > peak) || (num(kern) && kern > peak))) st = "peak"
          hb = num(h) && h > 0 ? 16 * n * n / h / 1e6 : "-"; db = num(d) && d > 0 ? 8 * n * n / d / 1e6 : "-"
          if (st != "ok") tot = kern = h = k = d = hb = db = $10 = $11 = "-"
          print $1, $2, $3, tot, kern, h, k, d, hb, db, $9, $10, $11, status_text(st) }'
}
header="build,variant,n,gflops_with_transfers,gflops_kernel,h2d_ms,kernel_ms,d2h_ms,h2d_GBps,d2h_GBps,sms,pinned_h2d_GBps,pinned_d2h_GBps,status"
csv=$BENCH_OUT/bench.csv
sweep=$BENCH_OUT/alternatives.csv
echo "$header" >"$csv"
echo "$header" >"$sweep"
summarise | awk -v csv="$csv" -v sweep="$sweep" -F, '{ print >>($1 == "opt" ? csv : sweep) }'
awk -F, "$BENCH_AWK"'
    FNR > 1 { show(sprintf("%-16s %-6s n=%-5s", $1, $2, $3), $14,
                   sprintf("%10s GFLOP/s with copies  %10s GFLOP/s product alone", fig($4, "%.1f"), fig($5, "%.1f"))) }' "$csv" "$sweep"

# The goals, as ratios measured in this run, from right results only.
# Peaks: SMs x this GPU's FP64 flops an SM does a clock on its CUDA cores
# and its tensor cores (bench_gpu_fp64_per_sm_clock) x the maximum SM clock
# nvidia-smi reports.
awk -F, -v n="$GOAL_N" -v clock="$clock" -v gpu="$gpu" -v sizes="$SIZES" -v fv="$fp64_vec" -v ft="$fp64_tc" "$BENCH_AWK"'
    $1 == "opt" { st[$2, $3] = $14; tot[$2, $3] = $4; kern[$2, $3] = $5; h[$2, $3] = $6; d[$2, $3] = $8
                  if (num($11)) sms = $11; ph[$2, $3] = $12; pd[$2, $3] = $13 }
    END {
        vec = sms * fv * clock / 1e3; tc = sms * ft * clock / 1e3   # GFLOP/s
        lib = kern["gpulib", n]
        printf "at %d^3 on %s (%s SMs; FP64 peak %s TFLOP/s on CUDA cores, %s on tensor cores):\n", n, gpu, (sms == "" ? "-" : sms),
               fig(sms == "" ? "-" : vec / 1e3, "%.1f"), tc > 0 ? fig(tc / 1e3, "%.1f") : "none (no FP64 tensor cores)"
        printf "  %-7s %14s %16s %9s %10s %10s\n", "variant", "kernel TFLOP/s", "with copies", "%cuBLAS", "%FP64-CUDA", "%FP64-TC"
        split("gpu2 gpu3 gpu4 gpu5 gpu6 gpulib", vs, " ")
        for (i = 1; i <= 6; i++) { v = vs[i]; if (!((v, n) in st)) continue
            if (st[v, n] != "ok") { printf "  %-7s %s\n", v, st[v, n]; continue }
            printf "  %-7s %14s %16s %9s %10s %10s\n", v, fig(kern[v, n] / 1e3, "%.2f"), fig(tot[v, n] / 1e3, "%.2f"),
                   ratio(100 * kern[v, n], lib, "%.1f%%"), ratio(100 * kern[v, n], vec, "%.1f%%"), ratio(100 * kern[v, n], tc, "%.1f%%") }
        if (("lib", n) in st) printf "  %-7s %14s %16s   (OpenBLAS, all host cores)\n", "lib", "", st["lib", n] == "ok" ? fig(tot["lib", n] / 1e3, "%.2f") : st["lib", n]
        # The bound of gpu5 itself: one element per thread, each warp FMA waits for
        # 3 shared-memory wavefronts (32 doubles of B are two, the broadcast of A
        # one) of the one per clock an SM serves: 32/3 FMA a clock, 1/6 of the
        # FP64 CUDA cores of sm_90 (README, "The goals"); where those do fewer
        # (2 an SM on a GeForce-class GPU), they are the bound.
        b5 = sms * clock / 1e3 * 64 / 3; if (vec < b5) b5 = vec
        r5 = st["gpu5", n] == "ok" ? ratio(100 * kern["gpu5", n], b5, "%.1f%%") : ""
        r6 = st["gpu6", n] == "ok" ? ratio(100 * kern["gpu6", n], lib, "%.1f%%") : ""
        printf "  goal gpu5 >= 80%% of its bound (shared memory, or the FP64 CUDA cores where slower: %s TFLOP/s): %s; goal gpu6 >= 40%% of cuBLAS: %s\n",
               fig(sms == "" ? "-" : b5 / 1e3, "%.2f"), (r5 == "" ? "-" : r5), (r6 == "" ? "-" : r6)
        if (st["gpulib", n] == "ok" && num(h["gpulib", n]) && num(d["gpulib", n])) {
            b = 2 * n * n * n / (h["gpulib", n] + d["gpulib", n]) / 1e6
            printf "  gpulib with copies %s TFLOP/s = %s of the bound the copies alone set, %s TFLOP/s (goal >= 80%%)\n",
                   fig(tot["gpulib", n] / 1e3, "%.2f"), ratio(100 * tot["gpulib", n], b, "%.1f%%"), fig(b / 1e3, "%.2f")
            printf "    copies from pageable memory: h2d %s GB/s, d2h %s GB/s\n", fig(16 * n * n / h["gpulib", n] / 1e6, "%.2f"), fig(8 * n * n / d["gpulib", n] / 1e6, "%.2f")
            if (num(ph["gpulib", n]) && num(pd["gpulib", n]) && ph["gpulib", n] > 0 && pd["gpulib", n] > 0) {
                bp = 2 * n * n * n / (16 * n * n / ph["gpulib", n] + 8 * n * n / pd["gpulib", n])
                printf "    page-locked: h2d %s GB/s, d2h %s GB/s; bound %s TFLOP/s, of which gpulib reaches %s\n", fig(ph["gpulib", n], "%.2f"),
                       fig(pd["gpulib", n], "%.2f"), fig(bp / 1e3, "%.2f"), ratio(100 * tot["gpulib", n], bp, "%.1f%%") }
        }
        ns = split(sizes, sz, " "); cross = ""
        for (i = 1; i <= ns; i++) if (cross == "" && st["gpulib", sz[i]] == "ok" && st["lib", sz[i]] == "ok" && tot["gpulib", sz[i]] > tot["lib", sz[i]]) cross = sz[i]
        printf "  gpulib with copies is faster than lib from n = %s on (sizes run: %s)\n", cross == "" ? "(none)" : cross, sizes
    }' "$csv" | bench_goals | tee "$BENCH_OUT/goals.txt"
awk -F, -v lib="$(awk -F, -v n="$ALT_N" '$1 == "opt" && $2 == "gpulib" && $3 == n && $14 == "ok" { print $5 }' "$csv")" "$BENCH_AWK"'
    NR > 1 { r = ratio(100 * $5, lib, "%.1f%%")
             show(sprintf("  build %-16s %-6s n=%d:", $1, $2, $3), $14, fig($5 / 1e3, "%.2f") " TFLOP/s" (r == "" ? "" : " = " r " of cuBLAS")) }' "$sweep" | tee -a "$BENCH_OUT/goals.txt"

if command -v gnuplot >/dev/null; then
    sms=$(awk -F, 'NR > 1 && $11 != "" && $11 != "-" { print $11; exit }' "$csv")
    peak=$(awk -v s="${sms:-0}" -v c="${clock:-0}" -v f="${fp64_vec:-0}" 'BEGIN { print s * f * c / 1e3 }')
    if gnuplot -e "csv='$csv'; sweep='$sweep'; out='$BENCH_OUT'; gpu='$gpu'; peak=$peak" labs/lab3-gpu-matmult/bench.gp 2>"$BENCH_OUT/gnuplot.log"; then
        echo "wrote $csv, $sweep and $BENCH_OUT/bench.png (INVALID rows left out)"
    else
        echo "wrote $csv and $sweep; gnuplot could not draw every plot (no valid rows?): $BENCH_OUT/gnuplot.log"
    fi
else
    echo "wrote $csv and $sweep; no gnuplot here: plot them elsewhere with"
    echo "  gnuplot -e \"csv='bench.csv'; sweep='alternatives.csv'; out='.'; gpu='$gpu'; peak=0\" labs/lab3-gpu-matmult/bench.gp"
fi
bench_finish "$csv" "$sweep"
