# Plots of bench.sh's CSVs: gnuplot -e "csv='...'; out='...'; gpu='...'" bench.gp
set terminal png size 900,600
set datafile separator ","
set key bottom right
set grid
# Only rows whose status (column 14) is ok: no point from a wrong result.
rows(kind, method) = sprintf("< awk -F, '$14 == \"ok\" && $1 == \"%s\" && $2 == \"%s\"' %s", kind, method, csv)

set output out."/bench_single.png"
set title "Lab 4: Jacobi on one GPU (".gpu."), GB/s counting 16 bytes per point and sweep"
set xlabel "N (interior points per direction)"
set ylabel "GB/s"
set logscale y
plot rows("copy", "cudaMemcpy") using 4:13 with linespoints lw 2 title "device-to-device copy (the limit)", \
     rows("copy", "cudaMemcpy") using 4:($13 * 0.9) with lines dt 2 title "90% of copy (the goal)", \
     rows("single", "bound") using 4:11 with linespoints dt 4 title "stencil-shaped copy (the stencil's limit)", \
     rows("single", "gpu3") using 4:11 with linespoints lw 2 title "gpu3", \
     rows("single", "gpu2") using 4:11 with linespoints title "gpu2", \
     rows("single", "offload") using 4:11 with linespoints title "offload (GCC 12 nvptx)"
unset logscale y

sc = out."/scaling.csv"
if (system("test $(cat ".sc." 2>/dev/null | wc -l) -gt 1 && echo y") eq "y") {
    set output out."/bench_scaling.png"
    set title "Lab 4: scaling over GPUs (".gpu.")"
    set xlabel "GPUs (P)"
    set ylabel "parallel efficiency"
    set xrange [0.5:4.5]
    set yrange [0:1.1]
    set xtics 1
    set key bottom left
    srows(kind, method) = sprintf("< awk -F, '$1 == \"%s\" && $2 == \"%s\"' %s", kind, method, sc)
    plot srows("strong", "nccl") using 3:5 with linespoints lw 2 title "NCCL, strong (N fixed)", \
         srows("weak", "nccl") using 3:5 with linespoints lw 2 title "NCCL, weak (N^3/P fixed)", \
         srows("strong", "peer") using 3:5 with points pt 7 ps 2 title "peer, strong", \
         srows("weak", "peer") using 3:5 with points pt 5 ps 2 title "peer, weak", \
         0.9 with lines dt 2 title "90%", 0.95 with lines dt 3 title "95%"
}
