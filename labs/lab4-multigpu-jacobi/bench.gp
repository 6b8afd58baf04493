# Plots of bench.sh's CSVs: gnuplot -e "csv='...'; out='...'; gpu='...'" bench.gp
set terminal png size 900,600
set datafile separator ","
set key bottom right
set grid

set output out."/bench_single.png"
set title "Lab 4: Jacobi on one GPU (".gpu."), GB/s counting 16 bytes per point and sweep"
set xlabel "N (interior points per direction)"
set ylabel "GB/s"
set yrange [0:*]
plot csv using (strcol(1) eq "copy" ? $4 : 1/0):13 with linespoints lw 2 title "device-to-device copy (the limit)", \
     csv using (strcol(1) eq "copy" ? $4 : 1/0):($13 * 0.9) with lines dt 2 title "90% of copy (the goal)", \
     csv using (strcol(1) eq "single" && strcol(2) eq "gpu3" ? $4 : 1/0):11 with linespoints title "gpu3", \
     csv using (strcol(1) eq "single" && strcol(2) eq "gpu2" ? $4 : 1/0):11 with linespoints title "gpu2", \
     csv using (strcol(1) eq "single" && strcol(2) eq "offload" ? $4 : 1/0):11 with linespoints title "offload"

if (system("test -s ".out."/scaling.csv && test $(wc -l < ".out."/scaling.csv) -gt 1 && echo y") eq "y\n" || \
    system("test $(wc -l < ".out."/scaling.csv 2>/dev/null || echo 0) -gt 1 && echo y") eq "y") {
    set output out."/bench_scaling.png"
    set title "Lab 4: scaling over GPUs (".gpu.")"
    set xlabel "GPUs (P)"
    set ylabel "parallel efficiency"
    set xrange [0.5:4.5]
    set yrange [0:1.1]
    set xtics 1
    sc = out."/scaling.csv"
    plot sc using (strcol(1) eq "strong" && strcol(2) eq "nccl" ? $3 : 1/0):5 with linespoints lw 2 title "NCCL, strong (N fixed)", \
         sc using (strcol(1) eq "weak" && strcol(2) eq "nccl" ? $3 : 1/0):5 with linespoints lw 2 title "NCCL, weak (N^3/P fixed)", \
         sc using (strcol(2) eq "peer" && strcol(1) eq "strong" ? $3 : 1/0):5 with points pt 7 ps 2 title "peer, strong", \
         sc using (strcol(2) eq "peer" && strcol(1) eq "weak" ? $3 : 1/0):5 with points pt 5 ps 2 title "peer, weak", \
         0.9 with lines dt 2 title "90%", 0.95 with lines dt 3 title "95%"
}
