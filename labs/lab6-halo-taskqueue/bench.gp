# Plots of bench.sh's CSVs: gnuplot -e "csv='...'; tl='...'; out='...'; title='...'" bench.gp
set terminal png size 1100,650
set datafile separator ","
set grid ytics

# 1. Time per iteration of every variant, per configuration, with the bound.
set output out."/bench.png"
set title "Lab 6: time per iteration (mean), ".title
set ylabel "microseconds per iteration"
set logscale y
set key below
set xtics rotate by -30
n = words(system(sprintf("awk -F, 'NR > 1 { k = $2\"_\"$4\"_\"$6\"_\"$7; if (!(k in s)) { s[k] = 1; print k } }' %s", csv)))
rows(variant) = sprintf("< awk -F, 'NR > 1 && $9 == \"%s\" && $17 == \"ok\" { k = $2\"_\"$4\"_\"$6\"_\"$7; if (!(k in s)) s[k] = ++c; print s[k]\",\"$10\",\"$2\" rank(s) \"$4\"x\"$5\" \"$6\"/\"$7 }' %s", variant, csv)
bound = sprintf("< awk -F, 'NR > 1 { k = $2\"_\"$4\"_\"$6\"_\"$7; if (!(k in s)) { s[k] = ++c; b = $15 > $16 ? $15 : $16; print s[k]\",\"b } }' %s", csv)
set xrange [0.5:n + 0.5]
plot rows("baseline nonblocking Waitall") using ($1 - 0.3):2:xtic(3) with points pt 5 ps 1.5 title "baseline NB Waitall", \
     rows("baseline nonblocking Testany") using ($1 - 0.2):2 with points pt 4 ps 1.5 title "baseline NB Testany", \
     rows("baseline blocking Waitall") using ($1 - 0.1):2 with points pt 7 ps 1.5 title "baseline BL Waitall", \
     rows("baseline blocking Testany") using ($1):2 with points pt 6 ps 1.5 title "baseline BL Testany", \
     rows("taskqueue lock nonblocking") using ($1 + 0.1):2 with points pt 9 ps 1.8 title "taskqueue lock NB", \
     rows("taskqueue lock blocking") using ($1 + 0.2):2 with points pt 8 ps 1.8 title "taskqueue lock BL", \
     rows("taskqueue channel nonblocking") using ($1 + 0.3):2 with points pt 11 ps 1.8 title "taskqueue channel NB", \
     rows("taskqueue channel blocking") using ($1 + 0.4):2 with points pt 10 ps 1.8 title "taskqueue channel BL", \
     bound using 1:2 with points pt 3 ps 3 lc rgb "black" title "bound: max(pack alone, MPI alone)"

# 2. One taskqueue iteration, per block (rank 0).
if (system("test -s ".tl." && echo y") eq "y") {
    set output out."/timeline.png"
    unset logscale y
    unset xtics
    set xtics
    set title "Lab 6: one taskqueue iteration, rank 0 (channel per block, non-blocking), ".title
    set xlabel "microseconds from the start of the iteration (launch)"
    set ylabel "block"
    set key below
    set autoscale x
    set yrange [-1:*]
    plot tl every ::1 using (0):1:3:(0) with vectors nohead lw 1 lc rgb "#bbbbbb" title "launch to block start (host backend only)", \
         tl every ::1 using 3:1:($4 - $3):(0) with vectors nohead lw 6 lc rgb "#4477aa" title "pack (host backend only)", \
         tl every ::1 using 6:1:($7 - $6):(0) with vectors nohead lw 3 lc rgb "#ee6677" title "send posted (task seen) to receive complete", \
         tl every ::1 using 6:1 with points pt 7 lc rgb "#228833" title "send posted", \
         tl every ::1 using 7:1 with points pt 5 lc rgb "#ccbb44" title "receive complete (block notified)", \
         tl every ::1 using 8:1 with points pt 9 ps 1.5 lc rgb "#aa3377" title "unpack starts (host backend only)"
}
