# Plots of build/bench/lab2/bench.csv and mandel.csv (called by bench.sh
# with csv, mandel, out, cpu, big and tmax). Only rows whose status
# (column 10) is ok: no point from a wrong result.
set datafile separator ","
set terminal png size 1000,600 font ",11" noenhanced
set key outside right top
set grid
sel(cond) = sprintf("< awk -F, '$10 == \"ok\" && %s' %s | sort -t, -k3,3n -k4,4n", cond, csv)

# 1. Bandwidth against N: are the sweeps memory-bound, and how close to the
#    copy bandwidth measured in the same run do they come?
set output out."/bench_jacobi.png"
set title "lab 2: Jacobi, GB/s counting 24 bytes per point, ".tmax." thread(s)\n".cpu
set logscale x 2
set xlabel "N (interior points per direction; arrays (N+2)^3)"
set ylabel "GB/s"
copy1 = system(sprintf("awk -F, '$10==\"ok\" && $1==\"copy\" && $4==1 {print $8}' %s", csv)) + 0
copyt = system(sprintf("awk -F, '$10==\"ok\" && $1==\"copy\" && $4==%d {print $8}' %s", tmax, csv)) + 0
plot sel("$2==\"jacobi\"") using 3:8 with linespoints title "jacobi, 1 thread", \
     for [m in "omp_v1 omp_v2 omp_v3"] sel(sprintf("$2==\"%s\" && $4==%d", m, tmax)) using 3:8 with linespoints title m, \
     sel(sprintf("$2==\"gs_omp\" && $4==%d", tmax)) using 3:8 with linespoints title "gs_omp (wavefront)", \
     copyt with lines dashtype 2 lw 2 title sprintf("copy, %d threads (same run)", tmax), \
     copy1 with lines dashtype 3 title "copy, 1 thread"
unset logscale x

# 2. Against threads: Mflop/s of the Jacobi versions at a small N (where
#    v1's fork-join in every sweep shows) and at the large N, and the
#    wavefront's speed-up.
set output out."/bench_threads.png"
set terminal png size 1400,600 font ",11" noenhanced
set multiplot layout 1,2 title "lab 2: against threads, ".cpu
set xlabel "threads"
set xtics 1
set title sprintf("Jacobi Mflop/s (11 flops per point), N = 32 (thin) and N = %d (thick)", big)
set ylabel "Mflop/s"
plot for [m in "omp_v1 omp_v2 omp_v3"] sel(sprintf("$2==\"%s\" && $3==32", m)) using 4:7 with linespoints lw 1 title m." N=32", \
     for [m in "omp_v1 omp_v2 omp_v3"] sel(sprintf("$2==\"%s\" && $3==%d", m, big)) using 4:7 with linespoints lw 3 title m." N=".big
set title "gs_omp (wavefront): speed-up over its own 1-thread run"
set ylabel "speed-up"
gs(n) = system(sprintf("awk -F, '$10==\"ok\" && $2==\"gs_omp\" && $3==%d && $4==1 {print $6}' %s", n, csv)) + 0
plot for [n in "64 128 256"] sel(sprintf("$2==\"gs_omp\" && $3==%s", n)) using 4:(gs(n+0)/$6) with linespoints title "N=".n, \
     x with lines dashtype 2 title "ideal"
unset multiplot

# 3. Mandelbrot: the schedules.
set output out."/bench_mandel.png"
set terminal png size 900,600 font ",11" noenhanced
set title "lab 2: Mandelbrot speed-up by schedule (columns through the set cost more)\n".cpu
set ylabel "speed-up over 1 thread"
plot for [s in "static dynamic guided"] sprintf("< awk -F, '$1==\"%s\"' %s", s, mandel) using 2:4 with linespoints title s, \
     x with lines dashtype 2 title "ideal"
