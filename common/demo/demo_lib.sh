# shellcheck shell=bash
# The part every lab's demo.sh shares (make demo LAB=N; sourced). A demo
# runs the lab's own benchmark programs at small sizes (the same
# measurement and the same checks as make bench: no second timing code),
# draws one picture of the lab's lesson with gnuplot, and writes the page
# for the projector, build/demo/labN/index.html: the picture, the figures
# read aloud, whose code ran and on which host.
#
#   . "$(dirname "$0")/../../common/demo/demo_lib.sh"
#   demo_start N "Lab N: the lesson in a few words"
#   demo_build "$DEMO_BIN"                            (the lab, for the programs the demo runs itself;
#                                                      one that runs bench.sh: into bench.sh's folder)
#   demo_need_gpus 1                                  (GPU labs: one line and exit 2 without)
#   demo_bench VAR=value ...                          (the lab's bench.sh into DEMO_OUT/bench)
#   demo_say "a figure to read aloud"                 (printed, and on the page)
#   gnuplot ... "$DEMO_STYLE" ... writes DEMO_OUT/PICTURE.png
#   demo_page PICTURE.png                             (the page; prints its path)
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../bench/bench_lib.sh"

# The pictures' common look (terminal, fonts for a projector).
# shellcheck disable=SC2034 # read by the demo.sh that sources this file
DEMO_STYLE=$BENCH_KIT/common/demo/style.gp

# demo_start LAB TITLE: strict mode in the kit's root; gnuplot there (one
# line and exit 2 without it); the code make demo names (IMPL or
# SUBMISSION; the reference where the kit has one, else the student's
# files: the student copy); DEMO_OUT = build/demo/labN emptied of the last
# run's picture and figures.
demo_start() {
    set -euo pipefail
    cd "$BENCH_KIT"
    DEMO_LAB=$1 DEMO_TITLE=$2 DEMO_T0=$(date +%s.%N)
    # what the user typed, for the messages: make demo or make timeline
    DEMO_VERB=demo
    [ "${DEMO_MODE:-}" = timeline ] && DEMO_VERB=timeline
    case $DEMO_LAB in '' | *[!0-9]*) echo "demo_start: no lab number given" >&2; exit 2 ;; esac
    if ! command -v gnuplot >/dev/null; then
        echo "make $DEMO_VERB LAB=$DEMO_LAB: its picture is drawn by gnuplot, which is not installed here (Debian's gnuplot-nox: make deps)" >&2
        exit 2
    fi
    # make timeline (DEMO_MODE=timeline): the student's own run, kept
    # apart from the lecturer's; DEMO_ROOT: elsewhere (the self-test's)
    DEMO_OUT=${DEMO_ROOT:-build/demo}/lab$DEMO_LAB
    [ "${DEMO_MODE:-}" = timeline ] && DEMO_OUT=${DEMO_ROOT:-build/timeline}/lab$DEMO_LAB
    # shellcheck disable=SC2034 # DEMO_BIN: read by the demo.sh that sources this file
    DEMO_FIGS=$DEMO_OUT/figures.txt DEMO_BIN=$DEMO_OUT/build DEMO_BENCH=$DEMO_OUT/bench
    mkdir -p "$DEMO_OUT"
    rm -f "$DEMO_OUT/index.html" "$DEMO_OUT"/*.png
    : >"$DEMO_FIGS"
    # make demo names whose code runs (the top Makefile's DEMO_IMPL); run
    # by hand, a demo shows the student's own files.
    [ -n "${IMPL:-}${SUBMISSION:-}" ] || IMPL=skeleton
    export IMPL
}

# demo_build DIR [VAR=value...]: the lab built from that code into DIR
# (DEMO_BIN = DEMO_OUT/build for the programs a demo runs itself; a demo
# that runs bench.sh builds
# into the folder bench.sh builds into, which then finds it up to date),
# the log in DIR.log, shown if the build fails. The demo's clock starts
# again after it: its run time is the lecture's, the build done before.
demo_build() {
    local dir=$1 src=(IMPL="$IMPL")
    shift
    [ -n "${SUBMISSION:-}" ] && src=(SUBMISSION="$SUBMISSION")
    mkdir -p "$(dirname "$dir")"
    if ! make --no-print-directory -s -f common/mk/lab.mk LAB="$DEMO_LAB" "${src[@]}" BUILD="$dir" "$@" all \
        >"$dir.log" 2>&1; then
        tail -n 20 "$dir.log" >&2
        echo "make $DEMO_VERB LAB=$DEMO_LAB: the lab does not build from $(demo_code) (log: $dir.log)" >&2
        exit 2
    fi
    bench_gpu_image "$dir" "make $DEMO_VERB LAB=$DEMO_LAB"
    DEMO_T0=$(date +%s.%N)
}

# demo_code: whose code runs, in words for the page.
demo_code() {
    local dir
    dir=$(basename labs/lab"$DEMO_LAB"-*)
    if [ -n "${SUBMISSION:-}" ]; then
        echo "the submission in $SUBMISSION"
    elif [ "$IMPL" = reference ]; then
        echo "the kit's reference solution of $dir"
    elif [ -d "labs/$dir/solution" ]; then
        echo "the student's code in labs/$dir (the skeleton as the kit ships it, unless edited)"
    else
        echo "your code in labs/$dir"
    fi
}

# demo_need_gpus N: a lab whose lesson is a GPU's: on a host with fewer
# than N GPUs, one line naming the way to one, and exit 2.
demo_need_gpus() {
    local have
    have=$(bench_gpu_count)
    [ "$have" -ge "$1" ] && return 0
    local host=""
    [ -x autograder/gpu-host/run ] && host=", on a GPU host without a registry autograder/gpu-host/run demo $DEMO_LAB"
    echo "make $DEMO_VERB LAB=$DEMO_LAB needs $1 NVIDIA GPU(s) and this host has $have: on a cluster, make $DEMO_VERB LAB=$DEMO_LAB SCHED=slurm SCHED_OPTS='-p gpu -t 10' (or SCHED=lsf)$host" >&2
    exit 2
}

# demo_bench VAR=value ...: the lab's bench.sh, from the same code, with the
# demo's small sizes (its knobs), into DEMO_BENCH = DEMO_OUT/bench; its
# output in DEMO_BENCH.log. A wrong result (bench.sh's INVALID rule) ends
# the demo with the bench's own lines: no picture of a wrong answer.
demo_bench() {
    if ! env "$@" BENCH_OUT="$DEMO_BENCH" labs/lab"$DEMO_LAB"-*/bench.sh >"$DEMO_BENCH.log" 2>&1; then
        grep -E 'INVALID|error|benchmark:' "$DEMO_BENCH.log" >&2 || tail -n 20 "$DEMO_BENCH.log" >&2
        echo "make $DEMO_VERB LAB=$DEMO_LAB: its benchmark run failed or found a wrong result: no picture (log: $DEMO_BENCH.log)" >&2
        exit 1
    fi
}

# demo_say TEXT...: a figure to read aloud: printed, and listed on the page.
demo_say() {
    echo "$*"
    echo "$*" >>"$DEMO_FIGS"
}

# demo_host / demo_gpu: the host in words (CPU model and cores; the GPUs).
demo_host() { echo "$(bench_cpu_name), $(bench_cores) cores"; }
demo_gpu() {
    local n
    n=$(bench_gpu_count)
    if [ "$n" -gt 0 ]; then echo "$n x $(bench_gpu_name)"; else echo "none"; fi
}

# demo_page PICTURE: the page for the projector beside the picture
# (DEMO_OUT/PICTURE); prints its path, the last line make demo says.
demo_page() {
    local secs
    [ -s "$DEMO_OUT/$1" ] || { echo "make $DEMO_VERB LAB=$DEMO_LAB: gnuplot wrote no picture ($DEMO_OUT/$1)" >&2; exit 1; }
    secs=$(awk -v t0="$DEMO_T0" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.0f", t1 - t0 }')
    python3 common/demo/page.py "$DEMO_OUT/index.html" --title "$DEMO_TITLE" --picture "$1" --figures "$DEMO_FIGS" \
        --host "$(demo_host)" --gpu "$(demo_gpu)" --code "$(demo_code)" --seconds "$secs"
    echo "$DEMO_VERB of lab $DEMO_LAB ($(demo_code)) in $secs s; picture $DEMO_OUT/$1"
    echo "its page: $DEMO_OUT/index.html"
}

# demo_trace_build: the kit's tracer (common/trace/cuda_mpi_trace.c: CUPTI's
# kernels and copies, the MPI calls) and mpi_marks.c (the collectives
# that end a benchmark's runs) as libraries to preload, into
# DEMO_TRACE_LIBS (DEMO_TRACE_OUT, default build/trace/). Without CUPTI's header and library (no
# CUDA toolkit), and on a host without a GPU, the tracer records the MPI
# calls alone.
demo_trace_build() {
    local cuda=${CUDA_HOME:-/usr/local/cuda} inc="" lib="" d out=${DEMO_TRACE_OUT:-build/trace} gpu
    for d in "$cuda/include" "$cuda/extras/CUPTI/include" "$cuda"/targets/*/include; do
        [ -f "$d/cupti.h" ] && inc=$d && break
    done
    lib=$(find -L "$cuda" -name 'libcupti.so*' 2>/dev/null | sed -n '1s|/[^/]*$||p')
    # shellcheck disable=SC2054 # -Wl,-rpath,DIR is one word, the linker's
    gpu=(-I"$inc" -I"$cuda/include" -L"$lib" -lcupti -Wl,-rpath,"$lib")
    if [ -z "$inc" ] || [ -z "$lib" ]; then
        echo "note: no CUPTI (cupti.h, libcupti) under $cuda (CUDA_HOME): the timeline has the MPI rows alone" >&2
        gpu=(-DTRACE_NO_CUPTI)
    fi
    mkdir -p "$out"
    if ! { mpicc -O2 -Wall -Wextra -shared -fPIC common/trace/cuda_mpi_trace.c -o "$out/libcuda_mpi_trace.so" \
        "${gpu[@]}" -ldl -lpthread &&
        mpicc -O2 -Wall -Wextra -shared -fPIC common/demo/mpi_marks.c -o "$out/libmpi_marks.so"; } >"$out/build.log" 2>&1; then
        cat "$out/build.log" >&2
        echo "make $DEMO_VERB LAB=$DEMO_LAB: the tracer does not build (log: $out/build.log)" >&2
        exit 2
    fi
    out=$(cd "$out" && pwd)
    DEMO_TRACE_LIBS="$out/libcuda_mpi_trace.so $out/libmpi_marks.so"
}

# demo_traced DIR NP PROG ARGS...: PROG on NP ranks (BENCH_MPIRUN, which
# bench_mpirun sets), each rank traced into DIR/rankR/ (its rank from Open
# MPI's OMPI_COMM_WORLD_RANK, the MPI standard's PMI_RANK elsewhere); only
# PROG is traced, not mpirun or the shell in front of it. TRACE_DEBUG=1
# goes to every rank: the tracer's report of what CUPTI delivered,
# DIR/rankR/debug.PID.txt.
demo_traced() {
    local dir=$1 np=$2
    shift 2
    rm -rf "$dir"
    mkdir -p "$dir"
    # shellcheck disable=SC2016 # expanded by each rank's bash
    "${BENCH_MPIRUN[@]}" -np "$np" bash -c 'd=$0/rank${OMPI_COMM_WORLD_RANK:-${PMI_RANK:?no rank in the environment}}
        mkdir -p "$d" && TRACE_DIR=$d TRACE_DEBUG=$2 LD_PRELOAD=$1 exec "${@:3}"' "$dir" "$DEMO_TRACE_LIBS" \
        "${TRACE_DEBUG:-}" "$@"
}
