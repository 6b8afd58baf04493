# Lab 7's benchmark plot: time against N, each solver beside its bound.
# gnuplot -e "csv='build/bench/lab7/bench.csv'; out='build/bench/lab7/bench.png'" bench.gp
set terminal pngcairo size 900,600 noenhanced
set output out
set datafile separator ","
set logscale xy
set xlabel "N (N^3 cells)"
set ylabel "seconds (median)"
set key top left
set grid
set title "lab 7: the FFT Poisson solver and its bounds, measured in one run"
plot csv using (strcol(1) eq "cpu" ? $2 : NaN):3 with linespoints title "CPU solve (fp_solve_serial)", \
     csv using (strcol(1) eq "cpu" ? $2 : NaN):6 with linespoints title "FFTW alone (same transforms)", \
     csv using (strcol(1) eq "gpu" ? $2 : NaN):3 with linespoints title "GPU solve (on the device)", \
     csv using (strcol(1) eq "gpu" ? $2 : NaN):6 with linespoints title "cuFFT alone (same batches)"
