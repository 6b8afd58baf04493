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

# 2. One taskqueue iteration, per block (rank 0), from rank 0's event log
# (timeline.csv: block, bytes, started, packed, task, sent, received,
# unpack, in us from the launch; all of rank 0's clock). A bar joins two
# events of one block on this rank that cannot happen in the other order;
# the receive is the partner's message, its own clock's work, and may
# complete before this rank's block even starts (the ranks are not in step):
# a point, never a bar's end. A bar whose end was logged before its start
# (its events overwritten by a second iteration, say) is not drawn but
# marked, and counted in the picture.
if (system("test -s ".tl." && echo y") eq "y") {
    set output out."/timeline.png"
    unset logscale y
    unset xtics
    set xtics
    set title "Lab 6: one taskqueue iteration, rank 0 (channel per block, non-blocking), ".title
    set xlabel "microseconds from the start of the iteration (launch), rank 0's clock"
    set ylabel "block"
    set key below
    set autoscale x
    set yrange [-1:*]
    # bars(s, e, placed): "block,start,end" of the bars from column s (0: the
    # launch) to column e where both were logged; placed 1: those that end
    # at or after their start, 0: the others
    bars(s, e, placed) = sprintf("< awk -F, -v s=%d -v e=%d -v placed=%d 'NR > 1 && (s == 0 || $s != \"\") && $e != \"\" { a = s ? $s : 0; if (($e + 0 >= a + 0) == placed) print $1 \",\" a \",\" $e }' %s", s, e, placed, tl)
    unplaced_rows = sprintf("awk -F, 'NR > 1 { split(\"0:3 3:4 4:6 7:8\", bar, \" \"); for (i = 1; i <= 4; i++) { split(bar[i], se, \":\"); s = se[1]; e = se[2]; a = s ? $s : 0; if ((s == 0 || $s != \"\") && $e != \"\" && $e + 0 < a + 0) print $1 \",\" a } }' %s", tl)
    unplaced = "< ".unplaced_rows
    nbad = int(system(unplaced_rows." | wc -l"))
    if (nbad > 0) {
        set label 1 sprintf("%d bar(s) not placed: their end was logged before their start (marked x at the start)", nbad) at graph 0.01, graph 0.97 left front textcolor rgb "#cc3311"
    } else {
        unset label 1
    }
    plot bars(0, 3, 1) using 2:1:($3 - $2):(0) with vectors nohead lw 1 lc rgb "#bbbbbb" title "launch to block start (host backend only)", \
         bars(3, 4, 1) using 2:1:($3 - $2):(0) with vectors nohead lw 6 lc rgb "#4477aa" title "pack (host backend only)", \
         bars(4, 6, 1) using 2:1:($3 - $2):(0) with vectors nohead lw 3 lc rgb "#ee6677" title "packed to send posted: the hand-off to MPI (host backend only)", \
         bars(7, 8, 1) using 2:1:($3 - $2):(0) with vectors nohead lw 1 dt 2 lc rgb "#aa3377" title "receive complete to unpack (host backend only)", \
         tl every ::1 using 6:1 with points pt 7 lc rgb "#228833" title "send posted", \
         tl every ::1 using 7:1 with points pt 5 lc rgb "#ccbb44" title "receive complete (the partner's block: may come before this block starts)", \
         tl every ::1 using 8:1 with points pt 9 ps 1.5 lc rgb "#aa3377" title "unpack starts (host backend only)", \
         unplaced using 2:1 with points pt 2 ps 2 lc rgb "#cc3311" title (nbad > 0 ? "bar not placed (end logged before start)" : "")
}
