# Plots of build/bench/lab3/bench.csv (called by bench.sh with csv, sweep,
# out, gpu and peak, the FP64 CUDA-core peak in GFLOP/s; 0 leaves it out).
# Only rows whose status (column 14) is ok: no point from a wrong result.
set datafile separator ","
set terminal png size 1500,600 font ",11"
set output out."/bench.png"
set key right bottom
set logscale xy 2
set grid
set termoption noenhanced
set xlabel "m = n = k"
set format y "%g"

set multiplot layout 1,3 title "lab 3 gpu-matmult, ".gpu." (lib: OpenBLAS on all host cores)"
sel(v) = sprintf("< awk -F, '$14==\"ok\" && $1==\"opt\" && $2==\"%s\"' %s | sort -t, -k3,3n", v, csv)
variants = "gpu1 gpu2 gpu3 gpu4 gpu5 gpu6 gpulib"

set title "as called: copies to and from the device included"
set ylabel "GFLOP/s"
plot for [v in variants." lib"] sel(v) using 3:4 with linespoints title v

set title "the product alone (device arrays)"
plot for [v in variants] sel(v) using 3:5 with linespoints title v, \
     (peak > 0 ? peak : 1/0) with lines dashtype 2 title "FP64 peak, CUDA cores", \
     (peak > 0 ? 2 * peak : 1/0) with lines dashtype 3 title "FP64 peak, tensor cores"

set title "gpu4: elements per thread"
unset logscale
set logscale x 2
set xlabel "GPU4_ELEMENTS"
set ylabel "GFLOP/s (product alone)"
plot sprintf("< awk -F, 'NR>1 && $14==\"ok\" && $1 ~ /^gpu4_/ {sub(\"gpu4_\", \"\", $1); print $1\",\"$5}' %s | sort -t, -k1,1n", sweep) \
     using 1:2 with linespoints title sprintf("gpu4 at n = %s", system(sprintf("awk -F, 'NR==2 {print $3}' %s", sweep)))
unset multiplot
