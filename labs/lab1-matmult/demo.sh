#!/usr/bin/env bash
# make demo LAB=1: the lesson of lab 1 in one picture. The six loop orders
# of the triple loop and the blocked version, in GFLOP/s on one core,
# against single-threaded OpenBLAS DGEMM, over sizes whose footprint
# 8(mk+kn+mn) crosses the L1, L2 and (on small-cache hosts) L3 caches,
# drawn as lines: the same arithmetic, a factor of ten and more apart, and
# the cliffs where the arrays leave a cache.
#
# The figures are make bench LAB=1's (bench.sh at small sizes, one repeat:
# the same driver, timing and checks); n = 1024 only for OpenBLAS, mkn and
# the blocked version (the slow orders would take a minute there).
# Writes build/demo/lab1/loop_orders.png and index.html.
# shellcheck source=common/demo/demo_lib.sh
. "$(dirname "$0")/../../common/demo/demo_lib.sh"
demo_start 1 "Lab 1: loop order and blocking decide the speed (one core, against OpenBLAS)"
# bench.sh's two builds, made first: the demo's clock starts after them
demo_build "$DEMO_BENCH/opt"
demo_build "$DEMO_BENCH/O0" OPT=-O0
demo_bench BENCH_SIZES="16 32 64 128 256 512" BENCH_BIG_SIZES=1024 BENCH_O0_SIZES= BENCH_BLOCKS= \
    BENCH_BLOCK_N=16 BENCH_REPEATS=1 MFLOPS_MIN_T=0.05
csv=$DEMO_BENCH/bench.csv

# The figures read aloud, from the optimised build's right results.
awk -F, -v OFS= '
    $1 != "opt" || $9 != "ok" { next }
    { g[$2, $3] = $8 / 1000 }
    length($2) == 3 && $2 ~ /^[mnk]+$/ && $3 == 512 { if (fast == "" || $8 / 1000 > best) { best = $8 / 1000; fast = $2 }
                                     if (slow == "" || $8 / 1000 < worst) { worst = $8 / 1000; slow = $2 } }
    END {
        printf "n = 512: OpenBLAS %.1f GFLOP/s on one core\n", g["lib", 512]
        printf "fastest loop order %s %.1f GFLOP/s, slowest %s %.2f GFLOP/s: %.0f times apart, the same arithmetic\n", fast, best, slow, worst, best / worst
        printf "blocked (bs = 256) %.1f GFLOP/s = %.0f%% of OpenBLAS at n = 512\n", g["blk", 512], 100 * g["blk", 512] / g["lib", 512]
        if (("lib", 1024) in g) printf "n = 1024: OpenBLAS %.1f, blocked %.1f, mkn %.1f GFLOP/s\n", g["lib", 1024], g["blk", 1024], g["mkn", 1024]
    }' "$csv" | while IFS= read -r line; do demo_say "$line"; done

# The caches (per core, getconf) as vertical lines in kB.
l1=$(getconf LEVEL1_DCACHE_SIZE 2>/dev/null || echo 0)
l2=$(getconf LEVEL2_CACHE_SIZE 2>/dev/null || echo 0)
l3=$(getconf LEVEL3_CACHE_SIZE 2>/dev/null || echo 0)
gnuplot -e "csv='$csv'; out='$DEMO_OUT/loop_orders.png'; cpu='$(bench_cpu_name)'; l1=${l1:-0}/1024.; l2=${l2:-0}/1024.; l3=${l3:-0}/1024." \
    "$DEMO_STYLE" - <<'GP'
set datafile separator ","
set output out
set logscale x 2
set logscale y 10
set xlabel "memory footprint 8(mk + kn + mn) [kB]"
set ylabel "GFLOP/s, one core"
set title "lab 1: C = A B, six loop orders and blocked against OpenBLAS (".cpu.")"
set format y "%g"
cache(v, name) = sprintf("set arrow from %g, graph 0 to %g, graph 1 nohead dashtype 3 lw 2 lc rgb '#888888'; set label '%s' at %g, graph 0.95 offset 0.4, 0", v, v, name, v)
# (a cache beyond the sizes run is left out: L3 on most servers)
set xrange [4:65536]
if (l1 > 0 && l1 < 65536) eval cache(l1, "L1")
if (l2 > 0 && l2 < 65536) eval cache(l2, "L2")
if (l3 > 0 && l3 < 65536) eval cache(l3, "L3")
sel(v) = sprintf("< awk -F, '$9==\"ok\" && $1==\"opt\" && $2==\"%s\"' %s | sort -t, -k7,7n", v, csv)
plot sel("lib") using 7:($8/1000) with linespoints lw 5 lc rgb "black" pt 7 ps 1.5 title "OpenBLAS DGEMM", \
     sel("blk") using 7:($8/1000) with linespoints lw 4 pt 5 title "blocked, bs = 256", \
     for [v in "mkn kmn mnk nmk nkm knm"] sel(v) using 7:($8/1000) with linespoints pt 7 title v
GP
demo_page loop_orders.png
