#!/usr/bin/env bash
# make demo LAB=2: the lesson of lab 2 in one picture, two panels:
#   - left: the speed-up of Jacobi (omp_v3) and of the wavefront
#     Gauss-Seidel (gs_omp) over the threads this host has, against the
#     ideal (P) and the copy bound: the speed-up Jacobi would reach if it
#     ran at the copy bandwidth measured with as many threads
#     (copy_bandwidth.c, 16 bytes a point), so that a memory-bound sweep
#     is seen to stop where the memory does;
#   - right: the wavefront's order: the step at which each row (i, j) of
#     Gauss-Seidel can be updated with the lab's doacross schedule (planes
#     dealt to 4 threads round robin, row (i, j) after (i-1, j) and
#     (i, j-1)): the diagonals, the filling and the draining.
# The figures are make bench LAB=2's (bench.sh at small sizes, one
# repeat: the same programs, timings and checks); the arrays at N = 128
# (17 MB each) are larger than most L2 caches.
# Writes build/demo/lab2/speedup.png and index.html.
# shellcheck source=common/demo/demo_lib.sh
. "$(dirname "$0")/../../common/demo/demo_lib.sh"
demo_start 2 "Lab 2: threads speed Jacobi up only as far as the memory lets them"
N=128 GS_N=64
demo_build "$DEMO_BIN"
demo_bench BENCH_BIN="$DEMO_BIN" BENCH_SIZES= BENCH_BIG_N=$N BENCH_GS_SIZES=$GS_N BENCH_MANDEL="256 256 100" BENCH_COPY_MIB=64 \
    BENCH_REPEATS=1 BENCH_WORK=3e7
csv=$DEMO_BENCH/bench.csv

# threads, Jacobi speed-up, Gauss-Seidel speed-up, copy bound (speed-up),
# from right results only
speedup=$DEMO_OUT/speedup.dat
awk -F, -v n="$N" -v gs="$GS_N" '
    $10 != "ok" { next }
    $1 == "copy" { copy[$4] = $8; t[$4] = 1 }
    $1 == "poisson" && $2 == "omp_v3" && $3 == n { jt[$4] = $6; jb[$4] = $8; t[$4] = 1 }
    $1 == "poisson" && $2 == "gs_omp" && $3 == gs { gt[$4] = $6; t[$4] = 1 }
    END { print "# threads jacobi_speedup gs_speedup copy_bound_speedup jacobi_GBs copy_GBs"
          for (p in t) printf "%d %s %s %s %s %s\n", p, (jt[p] > 0 && jt[1] > 0) ? jt[1] / jt[p] : "-",
                              (gt[p] > 0 && gt[1] > 0) ? gt[1] / gt[p] : "-",
                              (copy[p] > 0 && jb[1] > 0) ? copy[p] / jb[1] : "-", (p in jb) ? jb[p] : "-", (p in copy) ? copy[p] : "-" }' "$csv" |
    sort -n >"$speedup"
awk -v n="$N" -v gs="$GS_N" "$BENCH_AWK"'
    $1 !~ /^[0-9]/ { next }
    { last = $0 }
    END { split(last, f, " ")
          printf "Jacobi (omp_v3, N = %d) on %d threads: %s than on 1, at %.1f GB/s; the copy runs at %.1f GB/s with %d threads\n", n, f[1], speed(f[2]), f[5], f[6], f[1]
          printf "the copy bound: at best, Jacobi runs %s than its 1-thread self here (%.0f%% of it reached)\n", speed(f[4]), 100 * f[5] / f[6]
          printf "Gauss-Seidel wavefront (gs_omp, N = %d) on %d threads: %s than on 1\n", gs, f[1], speed(f[3]) }' "$speedup" |
    while IFS= read -r line; do demo_say "$line"; done

# The wavefront's steps: with T threads, plane i on thread i mod T; row
# (i, j) is done one step after the later of (i-1, j), (i, j-1) and, for
# j = 0, the thread's previous plane i - T.
wave=$DEMO_OUT/wavefront.dat
awk -v n=12 -v T=4 'BEGIN {
    for (i = 0; i < n; i++) { for (j = 0; j < n; j++) {
        s = 0
        if (i > 0 && f[i - 1, j] > s) s = f[i - 1, j]
        if (j > 0 && f[i, j - 1] > s) s = f[i, j - 1]
        if (j == 0 && i >= T && f[i - T, n - 1] > s) s = f[i - T, n - 1]
        f[i, j] = s + 1
        print j, i, f[i, j], i % T }
        print "" } }' >"$wave"

gnuplot -e "speedup='$speedup'; wave='$wave'; out='$DEMO_OUT/speedup.png'; cpu='$(bench_cpu_name), $(bench_cores) cores'" \
    "$DEMO_STYLE" - <<'GP'
set output out
set multiplot layout 1,2 title "lab 2 on ".cpu
set title "speed-up over 1 thread"
set xlabel "threads"
set ylabel "speed-up"
set key below
stats speedup using 1 nooutput
set xrange [0.8:STATS_max + 0.2]
set yrange [0:*]
set xtics 1
plot x with lines dashtype 2 lc rgb "#888888" title "ideal (P)", \
     speedup using 1:4 with linespoints lw 5 lc rgb "black" pt 7 title "copy bound", \
     speedup using 1:2 with linespoints pt 5 ps 1.5 title "Jacobi omp_v3", \
     speedup using 1:3 with linespoints pt 9 ps 1.5 title "Gauss-Seidel wavefront"
set title "the wavefront: step of row (i, j), 4 threads"
unset key
set xlabel "row j"
set ylabel "plane i (colour: its thread)"
set xrange [-0.5:11.5]
set yrange [-0.5:11.5]
set xtics 1
set ytics 1
set size ratio -1
unset grid
set palette defined (0 "#fde0c5", 1 "#c6e2f5", 2 "#d5f0c8", 3 "#eadcf5")
set cbrange [0:3]
unset colorbox
plot wave using 1:2:4 with image, wave using 1:2:(sprintf("%d", $3)) with labels font ",13"
unset multiplot
GP
demo_page speedup.png
