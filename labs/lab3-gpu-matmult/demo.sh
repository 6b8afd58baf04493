#!/usr/bin/env bash
# make demo LAB=3 (on a GPU host): the lesson of lab 3 in one picture: one
# bar a stage, gpu1 to gpu6 and cuBLAS, in GFLOP/s of the product alone
# (device arrays) and as called (the copies to and from the host
# included), against the GPU's roof: its FP64 peak on the CUDA cores and
# on the tensor cores (SMs x clock), and the bound the copies set, the
# product's bytes at the page-locked copy rate measured in the same run.
# OpenBLAS on all host cores is the line to beat. gpu1 (one thread) runs
# at n = 128, the others at n = 2048.
# The figures are make bench LAB=3's (bench.sh at one size, one repeat,
# without the alternative builds: the same driver, timings and checks).
# Without a GPU: one line naming the way to one, exit 2.
# Writes build/demo/lab3/stages.png and index.html.
# shellcheck source=common/demo/demo_lib.sh
. "$(dirname "$0")/../../common/demo/demo_lib.sh"
demo_start 3 "Lab 3: from gpu1 to cuBLAS, each stage against the GPU's roof"
demo_need_gpus 1
N=2048
demo_build "$DEMO_BENCH/opt"  # bench.sh's build, made first: the clock starts after it
demo_bench BENCH_SIZES=$N BENCH_GPU1_SIZES=128 BENCH_GPU4_COUNTS= BENCH_ALT_BUILDS= BENCH_GOAL_N=$N \
    BENCH_REPEATS=1 MFLOPS_MIN_T=0.05
csv=$DEMO_BENCH/bench.csv
clock=$(bench_gpu_clock_mhz)

# index, stage, GFLOP/s of the product alone, as called; the roof's lines
bars=$DEMO_OUT/stages.dat
read -r fp64_vec fp64_tc < <(bench_gpu_fp64_per_sm_clock)
awk -F, -v n="$N" -v clock="$clock" -v fv="$fp64_vec" -v ft="$fp64_tc" -v bars="$bars" -v OFS=' ' '
    $14 != "ok" { next }
    $11 ~ /^[0-9]/ { sms = $11 }
    $2 == "gpu1" || $3 == n { k[$2] = $5; t[$2] = $4; at[$2] = $3 }
    $2 == "gpulib" && $3 == n { ph = $12; pd = $13 }
    END {
        split("gpu1 gpu2 gpu3 gpu4 gpu5 gpu6 gpulib", v, " ")
        for (i = 1; i <= 7; i++) if (v[i] in k)
            print i - 1, "\"" (v[i] == "gpulib" ? "cuBLAS" : v[i]) (at[v[i]] != n ? " (n=" at[v[i]] ")" : "") "\"", k[v[i]], t[v[i]] >bars
        vec = sms * fv * clock / 1e3
        link = (ph > 0 && pd > 0) ? 2 * n * n * n / (16 * n * n / ph + 8 * n * n / pd) : 0
        print vec, sms * ft * clock / 1e3, link, t["lib"] + 0
    }' "$csv" >"$DEMO_OUT/roof.txt"
read -r peak tc link lib <"$DEMO_OUT/roof.txt"
awk -v n="$N" '{ gsub(/"/, "", $2); r[$2] = $3; c[$2] = $4 }
    END { printf "n = %d: cuBLAS %.0f GFLOP/s on device arrays, %.0f with the copies\n", n, r["cuBLAS"], c["cuBLAS"]
          for (i = 2; i <= 6; i++) if (("gpu" i) in r) printf "gpu%d: %.0f GFLOP/s = %.1f%% of cuBLAS\n", i, r["gpu" i], 100 * r["gpu" i] / r["cuBLAS"] }' "$bars" |
    while IFS= read -r line; do demo_say "$line"; done
demo_say "the roof: FP64 peak $(printf '%.0f' "$peak") GFLOP/s on the CUDA cores, $(printf '%.0f' "$tc") on the tensor cores; the copies bound a call at $(printf '%.0f' "$link"); OpenBLAS on the host $(printf '%.0f' "$lib")"

gnuplot -e "bars='$bars'; out='$DEMO_OUT/stages.png'; gpu='$(bench_gpu_name)'; n=$N; peak=$peak; tc=$tc; link=$link; lib=$lib" \
    "$DEMO_STYLE" - <<'GP'
set output out
set title sprintf("lab 3 on %s: C = A B, n = %d, FP64", gpu, n)
set logscale y 10
set format y "%g"
set ylabel "GFLOP/s"
set style fill solid 0.8 border -1
set boxwidth 0.38
set xrange [-0.6:6.6]
set key below
if (tc > 0) set yrange [*:3 * tc]
line(y, name) = sprintf("set arrow from graph 0, first %g to graph 1, first %g nohead lw 1 dashtype 2; set label '%s' at graph 0.01, first %g front offset 0,0.6 font ',16'", y, y, name, y)
if (peak > 0) eval line(peak, sprintf("FP64 peak, CUDA cores %.0f", peak))
if (tc > 0) eval line(tc, sprintf("FP64 peak, tensor cores %.0f", tc))
if (link > 0) eval line(link, sprintf("bound of the host copies %.0f", link))
if (lib > 0) eval line(lib, sprintf("OpenBLAS, all host cores %.0f", lib))
plot bars using ($1 - 0.2):3:xtic(2) with boxes lc rgb "#1f77b4" title "product alone (device arrays)", \
     bars using ($1 + 0.2):4 with boxes lc rgb "#ff7f0e" title "as called (copies included)"
GP
demo_page stages.png
