#!/usr/bin/env bash
# make demo LAB=6 (and make timeline LAB=6, the same of the student's own
# code): the lesson of lab 6 in one picture, a timeline. lab6_bench (make
# bench's program, the thesis's protocol at one configuration: it checks
# every element of every timed iteration and exits 1 on a wrong one) runs
# on 2 ranks, each traced by the kit's tracer (common/trace/): one row per
# rank and stream, kernels, copies and MPI calls as bars on one clock. Its
# last two iterations, one above the other on the same scale:
#   - baseline: the pack, then every block's send, then the unpack;
#   - taskqueue: one kernel, each block's halo sent as soon as it is packed,
#     so the sends and the receives happen while later blocks still pack.
# The figures read aloud: the best baseline and the best taskqueue of make
# bench's variants against the bound max(pack alone, MPI alone); and, from
# the lab's own event log (halo_log.c, lab6_bench's TIMELINE.csv), how many
# blocks' halos left before the last block was packed: which block a send
# is, and when the host backend's threads pack, no tracer sees (no CUDA
# kernel, no MPI call). With a GPU: the CUDA backend, Table 4.1's 9 blocks
# of 128 threads; without: the host backend (OpenMP threads as blocks), 2
# ranks, and the timeline's MPI rows alone (the gaps between them the pack).
# Writes build/demo/lab6/timeline.png and index.html (make timeline:
# build/timeline/lab6/).
# shellcheck source=common/demo/demo_lib.sh
. "$(dirname "$0")/../../common/demo/demo_lib.sh"
demo_start 6 "Lab 6: a baseline iteration and a taskqueue iteration on one clock"
demo_trace_build
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
if ! out=$(demo_traced "$DEMO_OUT/trace" "$np" "$DEMO_BIN/lab6_bench" "${args[@]}" 13 3 3 "$DEMO_OUT/blocks.csv" 2>&1) ||
    [ ! -s "$DEMO_OUT/blocks.csv" ]; then
    printf '%s\n' "$out" | grep -E 'INVALID|error' >&2 || printf '%s\n' "$out" | tail -n 20 >&2
    echo "make $DEMO_VERB LAB=6: lab6_bench failed or found a wrong result: no picture" >&2
    exit 1
fi
# variant, median us, bound (max of pack and MPI alone), pack alone, MPI alone
variants=$DEMO_OUT/variants.dat
printf '%s\n' "$out" | awk -F, '$1 == "csv" && $18 == "ok" { printf "%d \"%s\" %s %s %s\n", n++, $10, $13, ($16 > $17 ? $16 : $17), $16 + $17 }' >"$variants"
awk "$BENCH_AWK"'{ v = $0; sub(/^[0-9]+ "/, "", v); sub(/".*/, "", v); t[v] = $(NF - 2); b = $(NF - 1); s = $NF
       if (v ~ /^baseline/ && (best_b == "" || t[v] < best_b)) { best_b = t[v]; nb = v }
       if (v ~ /^taskqueue/ && (best_t == "" || t[v] < best_t)) { best_t = t[v]; nt = v } }
     END { printf "medians of the timed iterations: best baseline (%s) %.0f us an iteration; best taskqueue (%s) %.0f us, %s\n", nb, best_b, nt, best_t, speed(best_b / best_t)
           printf "bound max(pack alone, MPI alone) %.0f us; done one after the other, %.0f us\n", b, s }' "$variants" |
    while IFS= read -r line; do demo_say "$line"; done
# the event log's taskqueue iteration (rank 0): sends before the last pack
# (the CUDA backend logs no pack: its sends alone)
awk -F, 'NR > 1 { n++; if ($4 != "" && $4 > packed) packed = $4; if (first == "" || $6 < first) first = $6; s[n] = $6 }
    END { if (packed != "") { for (i = 1; i <= n; i++) early += s[i] < packed
              printf "taskqueue, rank 0: the first halo left %.0f us into the iteration; %d of %d blocks\047 halos left before the last block was packed (%.0f us)\n", first, early, n, packed }
          else printf "taskqueue, rank 0: the first halo left %.0f us into the iteration\n", first }' "$DEMO_OUT/blocks.csv" |
    while IFS= read -r line; do demo_say "$line"; done
demo_say "$where"

python3 common/demo/timeline.py "$DEMO_OUT/trace" "$DEMO_OUT/timeline.png" \
    --title "lab 6, $([ "$gpus" -gt 0 ] && echo "$where" || echo "host backend (no GPU): the MPI rows alone, the blocks' threads pack in the gaps")" \
    --panel "one traced baseline iteration: pack every block, then send them (non-blocking, MPI_Waitall)=run:-3" \
    --panel "one traced taskqueue iteration: a block's send waits for its channel to say packed=run:-1" |
    while IFS= read -r line; do demo_say "$line"; done
demo_page timeline.png
