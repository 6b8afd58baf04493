#!/usr/bin/env bash
# make demo LAB=5 (and make timeline LAB=5, the same of the student's own
# code): the lesson of lab 5 in one picture, a timeline. lab5_bench (make
# bench's program) runs the pipeline on 2 compute ranks and the data
# server, each rank traced by the kit's tracer (common/trace/): one row per
# rank and stream, kernels, copies and MPI calls as bars on one clock. Two
# of its runs, one above the other on the same scale:
#   - serialized: every device call waited for at once, so the boundary
#     kernels, the copies, the exchange and the interior follow each other;
#   - overlapped: the pipeline as written, the interior kernel on its
#     stream while the halos travel (MPI_Sendrecv exchange both times).
# With a GPU: the CUDA backend, kernels and copies on their streams. On a
# CPU host (the CPU backend, no CUPTI rows): the MPI rows alone, the gaps
# between them the compute.
# lab5_bench checks every run's result against the serial reference, bit
# for bit, and exits 1 on a wrong one: then no picture.
# Writes build/demo/lab5/timeline.png and index.html (make timeline:
# build/timeline/lab5/).
# shellcheck source=common/demo/demo_lib.sh
. "$(dirname "$0")/../../common/demo/demo_lib.sh"
demo_start 5 "Lab 5: halo exchange overlapped with the interior, seen on a timeline"
demo_trace_build
demo_build "$DEMO_BIN"

if [ "$(bench_gpu_count)" -gt 0 ]; then
    backend=cuda size="240 240 200" steps=20
else
    backend=cpu size="64 48 48" steps=10
fi
read -r dx dy dz <<<"$size"
export OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive
bench_mpirun OMP_WAIT_POLICY OMP_NUM_THREADS LD_LIBRARY_PATH
BENCH_MPIRUN+=(--bind-to none)
runs=$DEMO_OUT/runs.csv
: >"$runs"
# lab5_bench's runs: the warm-up (run 0), then overlap-sendrecv (1),
# overlap-nonblocking (2), serialized (3), serialized-nonblocking (4)
if ! demo_traced "$DEMO_OUT/trace" 3 "$DEMO_BIN/lab5_bench" --size "$dx" "$dy" "$dz" --steps "$steps" --repeats 1 \
    --backend "$backend" --csv "$runs" >"$DEMO_OUT/run.log" 2>&1; then
    grep -E 'INVALID|error' "$DEMO_OUT/run.log" >&2 || tail -n 20 "$DEMO_OUT/run.log" >&2
    echo "make $DEMO_VERB LAB=5: lab5_bench failed or found a wrong result: no picture (log: $DEMO_OUT/run.log)" >&2
    exit 1
fi
# step_ms and the serialized phases, from right results only
awk -F, -v b="$backend" -v size="$dx x $dy x $dz" -v steps="$steps" '
    $19 != "ok" { next }
    { step[$1] = $8 }
    $1 == "serialized" { split($10 " " $11 " " $12 " " $13 " " $14, ph, " ") }
    END { printf "%s backend, 2 compute ranks and a server, %s points, %d steps\n", b, size, steps
          printf "a step takes %.3f ms serialized, %.3f ms overlapped (%.0f%% of it)\n", step["serialized"], step["overlap-sendrecv"],
                 100 * step["overlap-sendrecv"] / step["serialized"]
          printf "serialized, a step: boundary %s ms, copy out %s, exchange %s, copy in %s, interior %s\n", ph[1], ph[2], ph[3], ph[4], ph[5] }' \
    "$runs" | while IFS= read -r line; do demo_say "$line"; done
if [ "$(awk -F, '$19 == "ok"' "$runs" | wc -l)" -lt 4 ]; then
    echo "make $DEMO_VERB LAB=5: lab5_bench reported fewer than 4 right runs: no picture (log: $DEMO_OUT/run.log)" >&2
    exit 1
fi

python3 common/demo/timeline.py "$DEMO_OUT/trace" "$DEMO_OUT/timeline.png" \
    --title "lab 5: $steps steps of the wave, $backend backend, on $(demo_host)$([ "$backend" = cpu ] && echo ' (MPI rows alone: no GPU)')" \
    --panel "serialized: every device call waited for=run:3" --panel "overlapped: the pipeline as written=run:1" \
    --name 0="compute 0" --name 1="compute 1" --name 2="server" | while IFS= read -r line; do demo_say "$line"; done
demo_page timeline.png
