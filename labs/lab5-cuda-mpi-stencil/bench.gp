# Lab 5's benchmark plot (bench.sh): per rank count, the step time of each
# variant, and the serialized step's phases stacked beside it.
# Called with csv, out and machine set (gnuplot -e).
set terminal png size 1000,600
set output out
set datafile separator ','
set title sprintf("lab 5: one step of the wave stencil (%s)", machine) noenhanced
set ylabel 'ms per step'
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set key outside right top
set xtics rotate by -20 noenhanced
# columns: 1 variant, 3 ranks, 8 step_ms, 10-14 phases (of the serialized rows:
# serialized and serialized-nonblocking)
plot csv every ::1 using (strcol(1)[1:10] eq 'serialized' ? column(10) : 0):xtic(sprintf('%s, np=%d', strcol(1), column(3))) title 'boundary', \
     '' every ::1 using (strcol(1)[1:10] eq 'serialized' ? column(11) : 0) title 'D2H', \
     '' every ::1 using (strcol(1)[1:10] eq 'serialized' ? column(12) : 0) title 'exchange', \
     '' every ::1 using (strcol(1)[1:10] eq 'serialized' ? column(13) : 0) title 'H2D', \
     '' every ::1 using (strcol(1)[1:10] eq 'serialized' ? column(14) : 0) title 'interior', \
     '' every ::1 using (strcol(1)[1:10] eq 'serialized' ? 0 : column(8)) title 'step (overlapped)'
