# Plots of build/bench/lab1/bench.csv (called by bench.sh with csv, out, cpu).
# Only rows whose status (column 9) is ok: no point from a wrong result.
set datafile separator ","
set terminal png size 1400,600 font ",11"
set key outside right top
set logscale x 2
set logscale y 10
set grid
set xlabel "memory footprint 8(mk+kn+mn) [kB]"
set ylabel "Mflop/s (one core)"

# Per-core cache sizes in kB (getconf), as vertical lines.
if (l1 > 0) { set arrow from l1, graph 0 to l1, graph 1 nohead dashtype 3; set label "L1" at l1, graph 0.97 offset 0.3,0 }
if (l2 > 0) { set arrow from l2, graph 0 to l2, graph 1 nohead dashtype 3; set label "L2" at l2, graph 0.97 offset 0.3,0 }
if (l3 > 0) { set arrow from l3, graph 0 to l3, graph 1 nohead dashtype 3; set label "L3" at l3, graph 0.97 offset 0.3,0 }

set output out."/bench_sizes.png"
set multiplot layout 1,2 title "lab 1 matmult, ".cpu
variants = "lib nat mnk mkn nmk nkm kmn knm blk"
set title "optimised build (OPT=-O3 -march=native)"
plot for [v in variants] sprintf("< awk -F, '$9==\"ok\" && $1==\"opt\" && $2==\"%s\"' %s | sort -t, -k7,7n", v, csv) \
     using 7:8 with linespoints title v
set title "-O0 build"
plot for [v in variants] sprintf("< awk -F, '$9==\"ok\" && $1==\"O0\" && $2==\"%s\"' %s | sort -t, -k7,7n", v, csv) \
     using 7:8 with linespoints title v
unset multiplot

set output out."/bench_blocks.png"
set terminal png size 800,500 font ",11"
unset arrow
unset label
set title "matmult\\_blk against its block size, ".cpu
set xlabel "block size bs"
lib = system(sprintf("awk -F, '$9==\"ok\" && $1==\"bs-sweep\" && $2==\"lib\" {print $8}' %s", csv))
n = system(sprintf("awk -F, '$1==\"bs-sweep\" {print $3; exit}' %s", csv))
plot sprintf("< awk -F, '$9==\"ok\" && $1==\"bs-sweep\" && $2==\"blk\"' %s | sort -t, -k6,6n", csv) \
     using 6:8 with linespoints title sprintf("blk, m=n=k=%s", n), \
     (lib eq "" ? 1/0 : lib+0) with lines dashtype 2 title "OpenBLAS DGEMM (same run)"
