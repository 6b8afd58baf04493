#!/usr/bin/env bash
# make demo LAB=7: the lesson of lab 7 in one picture, two panels:
#   - left: the radiator problem of labs 2 and 4 solved directly (the FFT
#     solver's DST-I, fp_radiator_solve) and by Jacobi run until its update
#     is below 1e-8 (common's reference Jacobi), the seconds of each
#     against N: the same answer (the two differ by the figure printed
#     beside each point), one in milliseconds, the other growing as N^5;
#   - right: a solution: the plane z = pi/2 of the NN-NN-DD eigenmode
#     problem at N = 64 (fft_poisson slice).
# The timings are make bench LAB=7's radiator rows (fft_poisson radiator:
# the same program; it checks the direct solve's residual and exits 1,
# INVALID, when it is not small).
# Writes build/demo/lab7/direct_vs_jacobi.png and index.html.
# shellcheck source=common/demo/demo_lib.sh
. "$(dirname "$0")/../../common/demo/demo_lib.sh"
demo_start 7 "Lab 7: a direct FFT solve against Jacobi on the same problem"
demo_build "$DEMO_BIN"
export OMP_WAIT_POLICY=passive

times=$DEMO_OUT/radiator.dat
echo "# N direct_s jacobi_s sweeps max_difference residual" >"$times"
for n in 16 24 32 40 48; do
    if ! line=$("$DEMO_BIN/fft_poisson" radiator "$n" 2>&1); then
        printf '%s\n' "$line" >&2
        echo "make demo LAB=7: the direct solve at N = $n is wrong or failed: no picture" >&2
        exit 1
    fi
    # radiator N=..: direct (DST-I) T s, residual R; Jacobi to update norm 1e-8: S sweeps, T s, max |...| = D
    awk -v n="$n" '{ for (i = 1; i <= NF; i++) { if ($i == "(DST-I)") d = $(i + 1); if ($i == "residual") r = $(i + 1)
                                                if ($i == "sweeps,") { s = $(i - 1); j = $(i + 1) } }
                     sub(/[,;]$/, "", r); print n, d, j, s, $NF, r }' <<<"$line" >>"$times"
done
awk '$1 ~ /^[0-9]/ { last = $0 } END { split(last, f, " ")
        printf "N = %d: the direct solve takes %.4f s; Jacobi takes %.2f s (%d sweeps), %.0f times longer\n", f[1], f[2], f[3], f[4], f[3] / f[2]
        printf "they agree to %.1e (Jacobi stopped at an update of 1e-8); the direct residual is %.1e\n", f[5], f[6] }' "$times" |
    while IFS= read -r line; do demo_say "$line"; done
growth=$(awk '$1 ~ /^[0-9]/ { n[++k] = $1; j[k] = $3 } END { printf "%.1f", log(j[k] / j[k - 1]) / log(n[k] / n[k - 1]) }' "$times")
demo_say "Jacobi's time grows as N^$growth between the last two sizes (N^3 points x N^2 sweeps)"

"$DEMO_BIN/fft_poisson" slice NND 64 "$DEMO_OUT/slice.dat" >/dev/null

gnuplot -e "times='$times'; slice='$DEMO_OUT/slice.dat'; out='$DEMO_OUT/direct_vs_jacobi.png'; cpu='$(bench_cpu_name)'" \
    "$DEMO_STYLE" - <<'GP'
set output out
set multiplot layout 1,2 title "lab 7 on ".cpu
set title "the radiator problem: seconds to the same answer"
set logscale xy
set xlabel "N (N^3 points)"
set ylabel "seconds"
set format y "%g"
set xrange [12:60]
set xtics (16, 24, 32, 40, 48)
set key below
stats times using 3 nooutput
set yrange [*:10 * STATS_max]
plot times using 1:3 with linespoints pt 7 ps 1.5 title "Jacobi to an update of 1e-8", \
     times using 1:3:(sprintf("%.0e", $5)) with labels offset 0,1.2 font ",14" title "(beside: max |u_Jacobi - u_direct|)", \
     times using 1:2 with linespoints lw 5 lc rgb "black" pt 5 ps 1.5 title "direct (FFT, DST-I)"
unset logscale
set title "a solution: u_h on z = pi/2 (NN-NN-DD, N = 64)"
set xlabel "x"
set ylabel "y"
set xrange [0:pi]
set yrange [0:pi]
set xtics autofreq
unset key
set view map
set size ratio -1
splot slice using 1:2:3 with pm3d notitle
unset multiplot
GP
demo_page direct_vs_jacobi.png
