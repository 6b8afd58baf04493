#!/usr/bin/env bash
# Issue 29's open measurements in one short run on a GPU host (one H100 or
# H200, 16 cores: about 4 minutes), every result as text under OUT:
#
#   maintainer/gpu-host/overlap_timelines.sh [lab5] [lab6] [lab7] [timeline]  (default: all four)
#
#   lab5  make bench LAB=5 IMPL=reference (2 and 4 compute ranks, the
#         lecture's grid): the serial check's time per rank count, the
#         exchange against the ping-pong and against the bound of two
#         Sendrecv in series, the overlap ratios, the kernel against copy
#   lab6  the pair pattern (Table 4.1) with 2 ranks on one GPU: lab6_bench
#         at the bench's four sizes; the 9-block case again under Nsight
#         Systems (one session over both processes: kernels, copies, MPI,
#         the GPU's context switches where it may trace them), summed up by
#         timeline.py; and the 9- and 27-block cases under MPS (both
#         processes' kernels on the GPU at once), the daemon started with
#         private folders and stopped at the end
#   lab7  the mutant gpu_gather_missing_syncthreads against gpu_transforms,
#         LAB7_RUNS times (default 5), and the reference's gpu_transforms
#         once (it must pass), with the time each run took
#   timeline  for hosts without nsys: the GPU's time slicing between two
#         processes, measured (trace/timeslice_probe.cu alone, two at once,
#         two under MPS), and a trace of both ranks of lab 6's 9-block pair
#         case and of lab 5's bench with 2 compute ranks, each on one GPU
#         plainly and under MPS (trace/cuda_mpi_trace.c: every kernel and
#         copy from CUPTI, every MPI call, one clock), summed up and drawn by
#         timeline.py; the traces themselves come back in OUT
#
# Environment: OUT (default build/issue29; the device tool's $OUT), NSYS
# (the nsys program, default: found on PATH, in CUDA_HOME/bin or under
# /opt/nvidia), LAB5_REPEATS (default 3), LAB6_REPS (default 5), LAB7_RUNS,
# MPS=0 (no MPS run). Needs what autograder/gpu-host/run needs (.gpudeps
# for Check and json-c). Without a GPU it still runs every step it can
# (lab 5 on its CPU backend, lab 6 on its host backend, lab 7's GPU test
# skipped), to try the script itself; no figure from such a run is a GPU
# figure. Exit status: 0 when every part ran (whatever it measured), 1 when
# a part failed, 2 on bad arguments.
#
# The whole script is one { ... } block, so that bash reads all of it before
# running any: editing the file while a run is under way cannot change it.
{
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
KIT=$PWD

usage() { sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2; }
parts=${*:-lab5 lab6 lab7 timeline}
for p in $parts; do
    case $p in lab5 | lab6 | lab7 | timeline) ;; *) echo "error: unknown part '$p'" >&2; usage ;; esac
done
want() { [[ " $parts " == *" $1 "* ]]; }

OUT=${OUT:-build/issue29}
case $OUT in /*) ;; *) OUT=$KIT/$OUT ;; esac
W=$KIT/build/issue29-work
LAB5_REPEATS=${LAB5_REPEATS:-3} LAB6_REPS=${LAB6_REPS:-5} LAB7_RUNS=${LAB7_RUNS:-5} MPS=${MPS:-1}
mkdir -p "$OUT" "$W"
SUMMARY=$OUT/SUMMARY.txt
: >"$SUMMARY"
say() { echo "$*" | tee -a "$SUMMARY"; }
failed=0
start=$(date +%s)
stamp() { echo "[$(($(date +%s) - start)) s] $*"; }

# Check and json-c from .gpudeps, as autograder/gpu-host/run sets them up
exports=$(autograder/gpu-host/run env) || exit 2
eval "$exports"
export OMP_WAIT_POLICY=passive NCCL_NVLS_ENABLE=0
# shellcheck source=common/bench/bench_lib.sh
. common/bench/bench_lib.sh
GPUS=$(bench_gpu_count)
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}

find_nsys() {
    local c
    for c in "${NSYS:-}" "$(command -v nsys 2>/dev/null)" "$CUDA_HOME/bin/nsys" /opt/nvidia/nsight-systems*/*/bin/nsys \
        /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/nsight-systems*/bin/nsys; do
        [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
    done
    return 1
}
NSYS_BIN=$(find_nsys) || NSYS_BIN=""
MPS_BIN=$(command -v nvidia-cuda-mps-control 2>/dev/null || true)

{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    echo "git: $(git log -1 --format='%h %s' 2>/dev/null | cut -c1-100)"
    nvidia-smi --query-gpu=index,name,memory.total,driver_version,compute_mode --format=csv,noheader 2>&1
    echo "$(bench_cores) cores: $(bench_cpu_name)"
    mpirun --version 2>&1 | awk 'NR == 1'
    echo "nsys: ${NSYS_BIN:-not found} ${NSYS_BIN:+($("$NSYS_BIN" --version 2>&1 | awk 'NR == 1'))}"
    echo "nvidia-cuda-mps-control: ${MPS_BIN:-not found}"
} >"$OUT/host.txt" 2>&1
gpu_name=$( [ "$GPUS" -gt 0 ] && bench_gpu_name || echo "no GPU")
say "issue 29 run: $(sed -n 1p "$OUT/host.txt"), $GPUS GPU(s) ($gpu_name), $(bench_cores) cores, parts: $parts"

# ---- builds: the three labs at once, each with a share of the cores ----
jobs=$(( $(bench_cores) / 4 > 0 ? $(bench_cores) / 4 : 1 ))
build() { # NAME ARGS...: make -f common/mk/lab.mk ARGS all, log in $W/build-NAME.log
    local name=$1
    shift
    make --no-print-directory -j"$jobs" -f common/mk/lab.mk "$@" all >"$W/build-$name.log" 2>&1 ||
        { echo "build $name failed:"; tail -n 15 "$W/build-$name.log"; return 1; }
}
L7MUT=gpu_gather_missing_syncthreads
# The mutant: its own kit folder, so that it builds beside the reference
L7MUT_ARGS=(LAB=7 SUBMISSION="$W/lab7-mutant-src" BUILD="$W/lab7-mutant" KIT_BUILD="$W/kit-lab7-mutant")
build_lab7_mutant() {
    # the patched copy, into the mutant's folder file by file where it
    # differs: a run again leaves the others' times alone, so that make
    # check does not take them for edits since the build
    local f new=$W/lab7-mutant-new
    rm -rf "$new"
    cp -r labs/lab7-fft-poisson/solution "$new"
    patch -s -p1 -d "$new" <"labs/lab7-fft-poisson/mutants/$L7MUT.patch" ||
        { echo "the patch $L7MUT does not apply"; return 1; }
    mkdir -p "$W/lab7-mutant-src"
    for f in "$new"/*; do
        cmp -s "$f" "$W/lab7-mutant-src/${f##*/}" || cp "$f" "$W/lab7-mutant-src/"
    done
    build lab7-mutant "${L7MUT_ARGS[@]}" || return 1
    # built from these files just now (make relinks nothing when an earlier
    # run built the same contents): make check's stale-source guard compares times
    touch "$W/lab7-mutant/test_lab7"
}
stamp "building: $parts"
pids=()
# lab 5 into the folder its bench uses (build/bench/lab5/build), so that make bench finds it built
{ want lab5 || want timeline; } && { build lab5 LAB=5 IMPL=reference BUILD=build/bench/lab5/build >"$W/build-lab5.out" 2>&1 & pids+=($!); }
{ want lab6 || want timeline; } && { build lab6 LAB=6 IMPL=reference BUILD="$W/lab6" >"$W/build-lab6.out" 2>&1 & pids+=($!); }
want lab7 && { build lab7-reference LAB=7 IMPL=reference BUILD="$W/lab7-reference" >"$W/build-lab7.out" 2>&1 & pids+=($!); }
want lab7 && { build_lab7_mutant >"$W/build-lab7-mutant.out" 2>&1 & pids+=($!); }
for p in "${pids[@]}"; do wait "$p" || failed=1; done
cat "$W"/build-*.out 2>/dev/null | tee -a "$SUMMARY"
stamp "built"

# ---- lab 5 ----
if want lab5; then
    stamp "lab 5: make bench (repeats $LAB5_REPEATS)"
    BENCH_REPEATS=$LAB5_REPEATS timeout 300 make --no-print-directory bench LAB=5 IMPL=reference >"$OUT/lab5-bench.log" 2>&1 ||
        { say "lab 5: the bench failed or found a wrong result (exit $?): lab5-bench.log"; failed=1; }
    for f in bench.csv goals.txt machine.txt bench.png; do
        [ -f "build/bench/lab5/$f" ] && cp "build/bench/lab5/$f" "$OUT/lab5-$f"
    done
    say "== lab 5 (reference, $(bench_gpu_count) GPU(s); ranks share them)"
    for log in build/bench/lab5/run-*.log; do
        [ -f "$log" ] || continue
        np=${log##*run-} np=${np%.log}
        sed -n "s/^goal serial check: /np=$np: serial check: /p" "$log" | tee -a "$SUMMARY"
    done
    [ -f build/bench/lab5/goals.txt ] && tee -a "$SUMMARY" <build/bench/lab5/goals.txt
    grep -h INVALID build/bench/lab5/bench.csv 2>/dev/null | tee -a "$SUMMARY"
fi

# ---- MPS: both processes' kernels on the GPU at once ----
# mps_start LOG: the control daemon with private folders (exported, for
# bench_mpirun to pass on); 1 where it is missing or does not start.
# mps_stop CONTROL_LOG: quits it and keeps its log.
mps_start() {
    [ -n "$MPS_BIN" ] || { echo "no nvidia-cuda-mps-control on this host" >>"$1"; return 1; }
    export CUDA_MPS_PIPE_DIRECTORY=$W/mps-pipe CUDA_MPS_LOG_DIRECTORY=$W/mps-log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    "$MPS_BIN" -d >>"$1" 2>&1 || { unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY; return 1; }
    trap 'echo quit | "$MPS_BIN" >/dev/null 2>&1' EXIT
}
mps_stop() {
    echo quit | "$MPS_BIN" >/dev/null 2>&1
    trap - EXIT
    cp "$CUDA_MPS_LOG_DIRECTORY"/control.log "$1" 2>/dev/null
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
}

# ---- lab 6 ----
# lab6_bench's rows (its output's csv, lines) against lab 6's goals
lab6_ratios() { sed -n 's/^csv,//p' | awk -f <(printf '%s' "$BENCH_AWK") -f labs/lab6-halo-taskqueue/goals.awk; }
if want lab6; then
    B6=$W/lab6/lab6_bench
    be=cuda
    [ "$GPUS" -gt 0 ] || be=host
    bench_mpirun OMP_WAIT_POLICY LD_LIBRARY_PATH
    # ITERS WARMUP REPS: the thesis's protocol, as bench.sh
    # pair SECONDS: one configuration (cfg) on 2 ranks, under a time limit
    pair() { timeout "$1" "${BENCH_MPIRUN[@]}" -np 2 "$B6" "$be" "${cfg[@]}" 13 3 "$LAB6_REPS"; }
    stamp "lab 6: the pair pattern, 2 ranks on one GPU ($be backend)"
    : >"$OUT/lab6-pair.log"
    for c in "4 1 1000 pair 16" "9 1 1 pair 128" "27 1 1 pair 128" "27 10 1 pair 128"; do
        read -r -a cfg <<<"$c"
        [ "$be" = host ] && cfg[2]=$((cfg[2] * 100)) cfg[4]=32 # the host backend: small sizes (bench.sh's)
        pair 120 >>"$OUT/lab6-pair.log" 2>&1 || { echo "lab6_bench $c failed (exit $?)" >>"$OUT/lab6-pair.log"; failed=1; }
    done
    say "== lab 6, pair pattern, 2 ranks on one GPU (the best taskqueue against the best baseline)"
    lab6_ratios <"$OUT/lab6-pair.log" | tee -a "$SUMMARY"

    cfg=(9 1 1 pair 128)
    [ "$be" = host ] && cfg=(9 1 100 pair 32)
    if [ -z "$NSYS_BIN" ]; then
        say "lab 6 nsys: no nsys on this host (looked on PATH, in $CUDA_HOME/bin and /opt/nvidia): no timeline"
    else
        stamp "lab 6: the 9-block pair case under nsys"
        rm -f "$W/lab6-pair".*
        # One session over mpirun follows both ranks: one timeline, one
        # clock. No CPU sampling (it needs perf events a host may refuse),
        # no OS runtime trace (the event loops poll: a trace of every call).
        # The GPU's context switches need root and the MPI trace a known
        # MPI: a host that refuses either gets a second try with CUDA alone.
        # shellcheck disable=SC2054 # the commas are nsys's
        base=(profile --sample=none --cpuctxsw=none --force-overwrite=true -o "$W/lab6-pair")
        # shellcheck disable=SC2054
        full=(--trace=cuda,mpi --mpi-impl=openmpi --gpuctxsw=true)
        if ! timeout 150 "$NSYS_BIN" "${base[@]}" "${full[@]}" "${BENCH_MPIRUN[@]}" -np 2 "$B6" "$be" "${cfg[@]}" 13 3 1 \
            >"$OUT/lab6-nsys-profile.log" 2>&1; then
            echo "-- again with --trace=cuda alone --" >>"$OUT/lab6-nsys-profile.log"
            timeout 150 "$NSYS_BIN" "${base[@]}" --trace=cuda "${BENCH_MPIRUN[@]}" -np 2 "$B6" "$be" "${cfg[@]}" 13 3 1 \
                >>"$OUT/lab6-nsys-profile.log" 2>&1 || { say "lab 6: nsys profile failed: lab6-nsys-profile.log"; failed=1; }
        fi
        rep=""
        for f in "$W"/lab6-pair.nsys-rep "$W"/lab6-pair.qdrep; do [ -f "$f" ] && rep=$f && break; done
        if [ -n "$rep" ]; then
            timeout 120 "$NSYS_BIN" stats --force-export=true -r cuda_gpu_kern_sum -r cuda_gpu_mem_time_sum -r cuda_api_sum \
                -r mpi_event_sum "$rep" >"$OUT/lab6-nsys-stats.txt" 2>&1 ||
                echo "(nsys stats ended with $?: some report names may differ in this version)" >>"$OUT/lab6-nsys-stats.txt"
            [ -f "$W/lab6-pair.sqlite" ] || timeout 120 "$NSYS_BIN" export --type sqlite --force-overwrite=true \
                -o "$W/lab6-pair.sqlite" "$rep" >>"$OUT/lab6-nsys-stats.txt" 2>&1
            if python3 common/trace/timeline.py "$W/lab6-pair.sqlite" >"$OUT/lab6-nsys-summary.txt" 2>&1; then
                say "lab 6 nsys summary (lab6-nsys-summary.txt):"
                sed -n '/^== kernels named/,/^== all kernels/p' "$OUT/lab6-nsys-summary.txt" | sed '$d' | tee -a "$SUMMARY"
                awk '/^== GPU context switches/ { on = 1 } on && n++ < 8' "$OUT/lab6-nsys-summary.txt" | tee -a "$SUMMARY"
            else
                say "lab 6: timeline.py failed: lab6-nsys-summary.txt"
                failed=1
            fi
            # the trace itself, for the GUI, when it is small enough to come back
            [ "$(stat -c %s "$rep")" -lt 30000000 ] && cp "$rep" "$OUT/"
        fi
    fi

    if [ "$MPS" = 0 ] || [ "$be" = host ]; then
        say "lab 6 MPS: not run ($([ "$be" = host ] && echo "no GPU" || echo "MPS=0"))"
    elif mps_start "$OUT/lab6-mps.log"; then
        stamp "lab 6: the pair case under MPS"
        bench_mpirun OMP_WAIT_POLICY LD_LIBRARY_PATH CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
        for c in "9 1 1 pair 128" "27 1 1 pair 128"; do
            read -r -a cfg <<<"$c"
            pair 90 >>"$OUT/lab6-mps.log" 2>&1 || { echo "lab6_bench $c under MPS failed (exit $?)" >>"$OUT/lab6-mps.log"; failed=1; }
        done
        mps_stop "$OUT/lab6-mps-control.log"
        say "== lab 6, pair pattern, 2 ranks on one GPU under MPS"
        lab6_ratios <"$OUT/lab6-mps.log" | tee -a "$SUMMARY"
        bench_mpirun OMP_WAIT_POLICY LD_LIBRARY_PATH
    else
        say "lab 6 MPS: the daemon did not start: lab6-mps.log"
    fi
fi

# ---- the timelines: CUPTI traces and the time-slice probe ----
TR=$W/trace
build_trace() {
    local inc="" lib="" d
    for d in "$CUDA_HOME/include" "$CUDA_HOME/extras/CUPTI/include" "$CUDA_HOME"/targets/*/include; do
        [ -f "$d/cupti.h" ] && inc=$d && break
    done
    lib=$(find -L "$CUDA_HOME" -name 'libcupti.so*' 2>/dev/null | sed -n '1s|/[^/]*$||p')
    if [ -z "$inc" ] || [ -z "$lib" ]; then
        echo "no cupti.h or libcupti under $CUDA_HOME: no trace"
        return 1
    fi
    mkdir -p "$TR"
    mpicc -O2 -Wall -shared -fPIC -I"$inc" -I"$CUDA_HOME/include" common/trace/cuda_mpi_trace.c \
        -o "$TR/libcuda_mpi_trace.so" -L"$lib" -lcupti -Wl,-rpath,"$lib" &&
        nvcc -O2 -o "$TR/timeslice_probe" maintainer/gpu-host/timeslice_probe.cu
}
# traced NAME NP PROG ARGS...: PROG on NP ranks (BENCH_MPIRUN), every rank
# traced into OUT/trace-NAME/, its output in OUT/trace-NAME.log, the
# summary of the whole run (timeline.py, the kernels named
# TRACE_KERNEL) in OUT/trace-NAME.txt
traced() {
    local name=$1 np=$2 dir=$OUT/trace-$1
    shift 2
    rm -rf "$dir"
    mkdir -p "$dir"
    timeout 200 "${BENCH_MPIRUN[@]}" -x "LD_PRELOAD=$TR/libcuda_mpi_trace.so" -x "TRACE_DIR=$dir" -np "$np" "$@" \
        >"$OUT/trace-$name.log" 2>&1 || { say "timeline: $name failed (exit $?): trace-$name.log"; failed=1; }
    python3 common/trace/timeline.py "$dir" --kernel "${TRACE_KERNEL:-Write_GPU_Read_GPU}" \
        >"$OUT/trace-$name.txt" 2>&1 || { say "timeline: no summary of $name: trace-$name.txt"; failed=1; }
}
if want timeline; then
    if [ "$GPUS" = 0 ]; then
        say "timeline: no GPU here: no trace"
    elif ! build_trace >"$W/build-trace.log" 2>&1; then
        say "timeline: the tracer did not build: $(tail -n 3 "$W/build-trace.log")"
        failed=1
    else
        stamp "timeline: the time-slice probe, alone, two at once, two under MPS"
        probe_two() { "$TR/timeslice_probe" 300 & "$TR/timeslice_probe" 300; wait; }
        { echo "alone:"; "$TR/timeslice_probe" 300; echo "two at once:"; probe_two; } >"$OUT/slices.txt" 2>&1
        if [ "$MPS" != 0 ] && mps_start "$OUT/slices-mps.log"; then
            { echo "two at once under MPS:"; probe_two; } >>"$OUT/slices.txt" 2>&1
            mps_stop "$OUT/slices-mps-control.log"
        fi
        say "== the GPU's time slices (timeslice_probe 300 ms)"
        tee -a "$SUMMARY" <"$OUT/slices.txt"

        # lab 6's 9-block pair case and lab 5's bench (2 compute ranks), plainly and under MPS
        l5=(build/bench/lab5/build/lab5_bench --steps 100 --repeats 3 --backend cuda)
        l6=("$W/lab6/lab6_bench" cuda 9 1 1 pair 128 13 3 1)
        for mode in plain mps; do
            env=(OMP_WAIT_POLICY LD_LIBRARY_PATH)
            if [ "$mode" = mps ]; then
                if [ "$MPS" = 0 ] || ! mps_start "$OUT/trace-mps.log"; then continue; fi
                env+=(CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY)
            fi
            stamp "timeline: lab 6 and lab 5 traced ($mode)"
            bench_mpirun "${env[@]}"
            TRACE_KERNEL=Write_GPU_Read_GPU traced "lab6-pair-$mode" 2 "${l6[@]}"
            bench_mpirun "${env[@]}" OMP_NUM_THREADS="$(( $(bench_cores) > 2 ? $(bench_cores) - 2 : 1 ))"
            BENCH_MPIRUN+=(--bind-to none)
            TRACE_KERNEL=wave_propagation traced "lab5-np3-$mode" 3 "${l5[@]}"
            [ "$mode" = mps ] && mps_stop "$OUT/trace-mps-control.log"
            say "lab 6 pair ($mode): $(lab6_ratios <"$OUT/trace-lab6-pair-$mode.log")"
            say "lab 5 np 3 ($mode): $(grep -h '^goal' "$OUT/trace-lab5-np3-$mode.log" | tr '\n' ' ')"
        done
        bench_mpirun OMP_WAIT_POLICY LD_LIBRARY_PATH
    fi
fi

# ---- lab 7 ----
# one run of gpu_transforms: "caught|passed|skipped|error SECONDS message"
lab7_run() { # BUILD N MAKE-ARGS...
    local build=$1 n=$2 t0
    shift 2
    t0=$(date +%s.%N)
    timeout 180 make --no-print-directory -f common/mk/lab.mk "$@" check RESULTS="$build/run-$n.json" \
        CHECK_ARGS="--only gpu_transforms" >"$build/run-$n.log" 2>&1
    python3 - "$build/run-$n.json" "$t0" "$(date +%s.%N)" <<'EOF'
import json, sys
seconds = float(sys.argv[3]) - float(sys.argv[2])
try:
    t = [t for t in json.load(open(sys.argv[1]))["tests"] if t["name"] == "gpu_transforms"][0]
except Exception as e:
    print(f"error {seconds:.1f} s: no result ({e})")
    sys.exit()
result = t["extra_data"]["result"]
state = "skipped" if result == "SKIP" else "passed" if t["score"] == t["max_score"] else "lost"
print(f"{state} {seconds:.1f} s {t['score']}/{t['max_score']}: {t.get('output', '').strip()[:300]}")
EOF
}
if want lab7; then
    stamp "lab 7: $L7MUT against gpu_transforms, $LAB7_RUNS runs; the reference once"
    : >"$OUT/lab7-mutant.txt"
    for n in $(seq "$LAB7_RUNS"); do
        echo "mutant run $n: $(lab7_run "$W/lab7-mutant" "$n" "${L7MUT_ARGS[@]}")" >>"$OUT/lab7-mutant.txt"
    done
    : >"$OUT/lab7-reference.txt"
    echo "reference run: $(lab7_run "$W/lab7-reference" 1 LAB=7 IMPL=reference BUILD="$W/lab7-reference")" >>"$OUT/lab7-reference.txt"
    caught=$(grep -c '^mutant run [0-9]*: lost' "$OUT/lab7-mutant.txt")
    skipped=$(grep -c '^mutant run [0-9]*: skipped' "$OUT/lab7-mutant.txt")
    say "== lab 7: $L7MUT caught (gpu_transforms lost points) in $caught of $LAB7_RUNS runs ($skipped skipped)"
    cut -c1-200 "$OUT/lab7-mutant.txt" "$OUT/lab7-reference.txt" | tee -a "$SUMMARY"
fi

stamp "done, exit $failed" | tee -a "$SUMMARY"
exit "$failed"
}
