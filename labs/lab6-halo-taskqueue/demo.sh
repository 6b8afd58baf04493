#!/usr/bin/env bash
# make demo LAB=6 (and make timeline LAB=6, the same of the student's own
# code): the lesson of lab 6 in one picture, two panels:
#   - top: the time of an iteration of each variant, the four baselines
#     (pack every block, then MPI, then unpack) and the four taskqueues
#     (each block's halo handed to MPI as soon as it is packed), against
#     the bound max(pack alone, MPI alone) and the serial sum of the two;
#   - bottom: one taskqueue iteration on a timeline, a row a block: its
#     pack, its wait in the queue, its send, its halo in flight, its
#     unpack, so the sends are seen to start while later blocks still pack.
# The figures and the timeline are lab6_bench's (make bench's program,
# the thesis's protocol at one configuration: it checks every element of
# every timed iteration and exits 1 on a wrong one; its timeline comes from
# the lab's own event log, halo_log.c: lab6_bench's MPI wrappers,
# halo_mpi_log.c, come before the kit's tracer's, which sees no MPI call
# of it). With a GPU: the CUDA backend, Table 4.1's 9 blocks of 128
# threads; without: the host backend (OpenMP threads as blocks), 2 ranks.
# Writes build/demo/lab6/taskqueue.png and index.html.
# shellcheck source=common/demo/demo_lib.sh
. "$(dirname "$0")/../../common/demo/demo_lib.sh"
demo_start 6 "Lab 6: each block's halo leaves as soon as it is packed"
demo_build "$DEMO_BIN"
export OMP_WAIT_POLICY=passive
bench_mpirun OMP_WAIT_POLICY LD_LIBRARY_PATH
gpus=$(bench_gpu_count)
if [ "$gpus" -gt 0 ]; then
    np=$((gpus >= 2 ? 2 : 1)) args=(cuda 9 1 1 "$([ "$gpus" -ge 2 ] && echo pair || echo self)" 128)
    where="CUDA backend, $np x $(bench_gpu_name)"
else
    np=2 args=(host 9 1 10 pair 32)
    where="host backend (no GPU): OpenMP threads as blocks on $(demo_host)"
fi
if ! out=$("${BENCH_MPIRUN[@]}" -np "$np" "$DEMO_BIN/lab6_bench" "${args[@]}" 13 3 3 "$DEMO_OUT/blocks.csv" 2>&1) ||
    [ ! -s "$DEMO_OUT/blocks.csv" ]; then
    printf '%s\n' "$out" | grep -E 'INVALID|error' >&2 || printf '%s\n' "$out" | tail -n 20 >&2
    echo "make $DEMO_VERB LAB=6: lab6_bench failed or found a wrong result: no picture" >&2
    exit 1
fi
# variant, median us, bound (max of pack and MPI alone), pack alone, MPI alone
variants=$DEMO_OUT/variants.dat
printf '%s\n' "$out" | awk -F, '$1 == "csv" && $18 == "ok" { printf "%d \"%s\" %s %s %s\n", n++, $10, $13, ($16 > $17 ? $16 : $17), $16 + $17 }' >"$variants"
awk '{ v = $0; sub(/^[0-9]+ "/, "", v); sub(/".*/, "", v); t[v] = $(NF - 2); b = $(NF - 1); s = $NF
       if (v ~ /^baseline/ && (best_b == "" || t[v] < best_b)) { best_b = t[v]; nb = v }
       if (v ~ /^taskqueue/ && (best_t == "" || t[v] < best_t)) { best_t = t[v]; nt = v } }
     END { printf "best baseline (%s): %.0f us an iteration; best taskqueue (%s): %.0f us, %.2fx faster\n", nb, best_b, nt, best_t, best_b / best_t
           printf "bound max(pack alone, MPI alone) %.0f us; done one after the other, %.0f us\n", b, s }' "$variants" |
    while IFS= read -r line; do demo_say "$line"; done
demo_say "$where"

gnuplot -e "variants='$variants'; blocks='$DEMO_OUT/blocks.csv'; out='$DEMO_OUT/taskqueue.png'; where='$where'" "$DEMO_STYLE" - <<'GP'
set output out
set terminal pngcairo size 1600,1200
set multiplot layout 2,1 title "lab 6, ".where
set title "one iteration, each variant (median)"
set style fill solid 0.8 border -1
set boxwidth 0.6
set ylabel "us"
set yrange [0:*]
set xtics rotate by -20 font ",14"
stats variants using 4 nooutput
bound = STATS_max
stats variants using 5 nooutput
serial = STATS_max
set key below horizontal
plot variants using 1:3:xtic(2) with boxes lc rgb "#1f77b4" notitle, \
     bound with lines lw 3 dashtype 2 lc rgb "black" title "bound: max(pack alone, MPI alone)", \
     serial with lines lw 3 dashtype 3 lc rgb "#d62728" title "pack alone + MPI alone"
set title "one taskqueue iteration, a row a block (channel per block, non-blocking sends)"
set datafile separator ","
set xtics norotate font ",18"
set xlabel "us from the iteration's start"
set ylabel "block"
set yrange [-0.6:*]
set ytics 1
set style fill solid 1.0 noborder
set key below horizontal
plot blocks every ::1 using (($3 + $4) / 2):1:(($4 - $3) / 2):(0.35) with boxxyerror lc rgb "#2ca02c" title "pack", \
     blocks every ::1 using (($4 + $5) / 2):1:(($5 - $4) / 2):(0.35) with boxxyerror lc rgb "#bcbd22" title "in the queue", \
     blocks every ::1 using (($5 + $6) / 2):1:(($6 - $5) / 2):(0.35) with boxxyerror lc rgb "#9467bd" title "send", \
     blocks every ::1 using (($6 + $7) / 2):1:(($7 - $6) / 2):(0.12) with boxxyerror lc rgb "#7f7f7f" title "halo in flight", \
     blocks every ::1 using (($7 + $8) / 2):1:(($8 - $7) / 2):(0.35) with boxxyerror lc rgb "#ff7f0e" title "unpack"
unset multiplot
GP
demo_page taskqueue.png
