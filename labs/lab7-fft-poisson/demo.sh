#!/usr/bin/env bash
# make demo LAB=7: the reference solver's second-order convergence and one
# solution, as pictures (gnuplot PNGs in build/demo/lab7/):
#   convergence.png  RMS error against N for three boundary combinations
#                    (the eigenmode problems of the paper's Tables 3, 4 and
#                    6 on [0,pi]^3), log-log, with a slope -2 line;
#   slice.png        the plane z = pi/2 of the NN-NN-DD solution at N = 64
#                    and its error (u_h - u).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=build/demo/lab7
mkdir -p "$OUT"
make --no-print-directory -s -f common/mk/lab.mk LAB=7 IMPL="${IMPL:-reference}" BUILD="$OUT/build" all >/dev/null
bin=$OUT/build/fft_poisson
export OMP_WAIT_POLICY=passive

data=$OUT/convergence.dat
echo "# N rms_DDD rms_NND rms_NNN" >"$data"
for n in 8 16 32 64 128; do
    row="$n"
    for c in "DDD 1 3 4" "NND 1 2 3" "NNN 1 3 6"; do
        # shellcheck disable=SC2086 # c is four words: the case and its three arguments
        set -- $c
        line=$("$bin" mms "$1" "$n" "$2" "$3" "$4")
        echo "$line"
        row="$row $(echo "$line" | sed -n 's/.*RMS error \([0-9.e+-]*\).*/\1/p')"
    done
    echo "$row" >>"$data"
done
"$bin" slice NND 64 "$OUT/slice.dat"

gnuplot <<GP
set terminal pngcairo size 800,600 noenhanced
set output "$OUT/convergence.png"
set logscale xy
set xlabel "N (N^3 cells)"
set ylabel "RMS error"
set grid
set key bottom left
set title "lab 7: second order (eigenmode solutions on [0,pi]^3)"
plot "$data" using 1:2 with linespoints title "DD-DD-DD w=(1,3,4)", \
     "$data" using 1:3 with linespoints title "NN-NN-DD w=(1,2,3)", \
     "$data" using 1:4 with linespoints title "NN-NN-NN w=(1,3,6)", \
     12.0 * x**-2 with lines dashtype 2 lc rgb "black" title "slope -2"
set output "$OUT/slice.png"
set terminal pngcairo size 1200,500 noenhanced
unset logscale
set multiplot layout 1,2
set view map
set size ratio -1
set xlabel "x"
set ylabel "y"
set title "u_h on z = pi/2 (NN-NN-DD, N = 64)"
splot "$OUT/slice.dat" using 1:2:3 with pm3d notitle
set title "u_h - u on z = pi/2"
splot "$OUT/slice.dat" using 1:2:4 with pm3d notitle
unset multiplot
GP
echo "pictures: $OUT/convergence.png $OUT/slice.png"
