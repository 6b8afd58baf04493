# shellcheck shell=bash
# The part every lab's bench.sh shares (sourced, after `cd` to the kit's
# root): which sources to build, the host's description and peaks, medians
# over repeated runs, and the rule that no figure from a wrong result is
# shown.
#
# The rule. Each timed run reports how many elements of its result were
# wrong (the drivers check with common/bench/bench_check.h) and gets a
# status: ok, wrong:N (N wrong elements), failed (the program stopped with
# an error) or, once its median rate is known, peak (faster than the
# hardware can be: a timing that went wrong). The medians of a point keep
# the worst status of its runs. A point that is not ok shows
#     INVALID (N wrong elements) | INVALID (above peak) | INVALID (failed)
# in place of its figures, no ratio is computed from it, its CSV row says
# so in the status column, the plots leave it out, and bench_finish makes
# the benchmark exit with status 1. A figure that was not measured is "-".
#
# A lab's bench.sh (every lab's follows it; lab 1 is the smallest):
#   . "$(dirname "$0")/../../common/bench/bench_lib.sh"; bench_setup N
#   bench_knob SIZES "32 64" "16 32 64 128"   (one line per knob)
#   bench_build "$BENCH_OUT/opt"
#   points=(...); bench_run_points "$raw" measure, where measure prints a
#     run's line "KEYS... $(bench_status "$wrong") VALUES..."
#   bench_medians NKEYS <"$raw" | awk "$BENCH_AWK"'...peak check, CSV with a status column...'
#   awk "$BENCH_AWK"'... show(label, status, figures) ...' "$csv"   (the screen)
#   plots keep the rows whose status is ok; last line: bench_finish "$csv"
# and its programs check what they time with common/bench/bench_check.h.
#
# Nothing here pipes into head or grep -q: under `set -o pipefail` the
# writer of such a pipe can die of SIGPIPE and take the script with it.

# The kit's root, wherever this file is sourced from.
BENCH_KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# bench_setup LAB: strict mode (set -euo pipefail) in the kit's root, the
# sources (IMPL or SUBMISSION, as for make labN), the output folder
# BENCH_OUT (build/bench/labN unless set), BENCH_QUICK.
bench_setup() {
    set -euo pipefail
    cd "$BENCH_KIT"
    BENCH_LAB=$1
    BENCH_OUT=${BENCH_OUT:-build/bench/lab$1}
    BENCH_SRC_ARGS=()
    [ -n "${SUBMISSION:-}" ] && BENCH_SRC_ARGS+=(SUBMISSION="$SUBMISSION")
    [ -n "${IMPL:-}" ] && BENCH_SRC_ARGS+=(IMPL="$IMPL")
    # Named by the folder built from: "skeleton" would mislabel a
    # student's own code.
    BENCH_SOURCE=${SUBMISSION:-$( [ "${IMPL:-}" = reference ] && echo labs/lab"$1"-*/solution || echo labs/lab"$1"-*)}
    # BENCH_QUICK=1: each lab's small sizes and one repeat (the self-test's
    # refusal check, a first look); the lab's knobs still override it.
    BENCH_QUICK=${BENCH_QUICK:-0}
    mkdir -p "$BENCH_OUT"
    rm -f "$BENCH_OUT/bench.partial.csv" "$BENCH_OUT/PARTIAL.txt"
    trap bench_clean EXIT
    trap 'bench_stopped INT' INT
    trap 'bench_stopped TERM' TERM
}

# bench_scratch: a new scratch file (the raw runs, say), in BENCH_OUT and
# not in /tmp, so that no way of ending the benchmark leaves it behind:
# bench_clean removes every one at exit.
bench_scratch() { mktemp "$BENCH_OUT/.scratch.$$.XXXXXX"; }
bench_clean() { rm -f "$BENCH_OUT"/.scratch."$$".*; }

# Ctrl-C, or a batch job's end (SIGTERM): what was measured is kept, marked
# partial, then the benchmark ends of the same signal. Labs that gather runs
# with bench_run_points get BENCH_OUT/bench.partial.csv (their own CSVs
# need every run); the others write their rows as they go, and
# BENCH_OUT/PARTIAL.txt says that those are a stopped run's.
bench_stopped() {
    trap - "$1"
    local n part=$BENCH_OUT/bench.partial.csv
    if [ -n "${BENCH_RUNS:-}" ]; then
        n=$( [ -f "$BENCH_RUNS" ] && wc -l <"$BENCH_RUNS" || echo 0)
        { echo "# PARTIAL: make bench LAB=$BENCH_LAB stopped (SIG$1) after $n of $BENCH_TOTAL runs, $(bench_date); one row a run, not a median: the point, its status, its figures"
          [ ! -f "$BENCH_RUNS" ] || tr -s ' ' ',' <"$BENCH_RUNS"; } >"$part"
        echo "make bench: stopped after $n of $BENCH_TOTAL runs; what was measured is in $part (partial: single runs, no medians)" >&2
    else
        part=$BENCH_OUT/PARTIAL.txt
        echo "make bench LAB=$BENCH_LAB stopped (SIG$1), $(bench_date): the CSVs here hold only the rows measured before" >"$part"
        echo "make bench: stopped; the rows measured so far are in $BENCH_OUT (partial: $part)" >&2
    fi
    bench_clean
    trap - EXIT
    kill -s "$1" "$$"
}

# bench_quick QUICK FULL: QUICK under BENCH_QUICK=1, else FULL.
bench_quick() { if [ "$BENCH_QUICK" = 1 ]; then echo "$1"; else echo "$2"; fi; }

# bench_knob NAME QUICK FULL: the lab's knob NAME (a variable of its
# bench.sh) is BENCH_NAME where the environment sets it (empty too: an
# empty list), else bench_quick QUICK FULL. One line per knob shows its
# name and both of its values.
bench_knob() {
    local env=BENCH_$1
    if [ -n "${!env+set}" ]; then
        printf -v "$1" '%s' "${!env}"
    else
        printf -v "$1" '%s' "$(bench_quick "$2" "$3")"
    fi
}

# bench_mpirun [VAR | VAR=value ...]: BENCH_MPIRUN, the one way the
# benchmarks start MPI programs: "${BENCH_MPIRUN[@]}" -np P prog ARGS.
# Ranks share this host's cores and GPUs (--oversubscribe; as root also
# --allow-run-as-root); each VAR given is passed to every rank (-x), a bare
# name only when it is set (Open MPI warns of an unset one).
bench_mpirun() {
    local v
    BENCH_MPIRUN=(mpirun --oversubscribe)
    [ "$(id -u)" = 0 ] && BENCH_MPIRUN+=(--allow-run-as-root)
    for v in "$@"; do
        if [[ $v == *=* ]] || [ -n "${!v+set}" ]; then BENCH_MPIRUN+=(-x "$v"); fi
    done
}

# bench_build DIR [VAR=value ...]: builds the lab from the chosen sources
# into DIR (quietly; the build log is DIR.log, shown if the build fails).
bench_build() {
    local dir=$1
    shift
    if ! make --no-print-directory -s -f common/mk/lab.mk LAB="$BENCH_LAB" BUILD="$dir" \
        "${BENCH_SRC_ARGS[@]}" "$@" all >"$dir.log" 2>&1; then
        tail -n 20 "$dir.log" >&2
        echo "error: lab $BENCH_LAB ($BENCH_SOURCE) does not build (log: $dir.log)" >&2
        exit 2
    fi
    bench_gpu_image "$dir" "make bench LAB=$BENCH_LAB"
}

# bench_gpu_image DIR WHO: a build of a GPU lab in DIR that holds no code for
# a GPU of this host (a build made elsewhere, or for CUDA_ARCH=...) would
# only fail at its first launch: its one line (common/cuda/gpu_image.h),
# and exit 2. A host without GPUs passes: each benchmark says that itself.
bench_gpu_image() {
    local why rc=0
    [ -x "$1/gpu_image_check" ] || return 0
    why=$("$1/gpu_image_check") || rc=$?
    [ "$rc" = 3 ] || return 0
    echo "$2: $why" >&2
    exit 2
}

# bench_progress TOTAL [POINT], after each of TOTAL runs: "DONE/TOTAL runs"
# in place on a terminal (a new line after the last); elsewhere (a batch
# job's log, where nothing else is said for minutes) a line a run with the
# time left, from the runs so far.
BENCH_DONE=0
bench_now_ms() { local t=${EPOCHREALTIME:-$SECONDS.000000}; t=${t/[.,]/}; echo $((10#$t / 1000)); }
BENCH_T0=$(bench_now_ms)
bench_progress() {
    BENCH_DONE=$((BENCH_DONE + 1))
    if [ -t 1 ]; then
        printf '\r  %d/%d runs' "$BENCH_DONE" "$1"
        if [ "$BENCH_DONE" -ge "$1" ]; then echo; fi
        return 0
    fi
    local spent=$(($(bench_now_ms) - BENCH_T0))
    printf '  run %d/%d%s: %s so far, about %s left\n' "$BENCH_DONE" "$1" "${2:+ ($2)}" \
        "$(bench_duration "$spent")" "$(bench_duration $((spent * ($1 - BENCH_DONE) / BENCH_DONE)))"
}
# bench_step TOTAL WHAT, after each of a lab's TOTAL measurements that print
# their own lines on a terminal: the batch job's progress line alone (labs 5
# to 7, whose runs are whole mpirun or bench programs; from the first step,
# bench_step_start).
bench_step_start() { BENCH_DONE=0 BENCH_T0=$(bench_now_ms); }
bench_step() { [ -t 1 ] || bench_progress "$@"; }
bench_count() { echo $#; } # WORD...: how many (a list of sizes, say)
bench_duration() { # MILLISECONDS, said as "0.4 s", "42 s", "3 min 5 s" or "1 h 20 min"
    local s=$(($1 / 1000))
    if [ "$s" -lt 10 ]; then printf '%d.%d s\n' "$s" $(($1 % 1000 / 100))
    elif [ "$s" -lt 60 ]; then echo "$s s"
    elif [ "$s" -lt 3600 ]; then echo "$((s / 60)) min $((s % 60)) s"
    else echo "$((s / 3600)) h $((s % 3600 / 60)) min"; fi
}

# bench_run_points RAW CMD [ARG...]: every entry of the array `points`
# measured REPEATS times, round by round (all points, then all again: a
# point's repeats spread over the run, not back to back), as
# `CMD ARG... WORDS` with the point's words; CMD's output is appended to
# RAW (bench_medians reads it), with bench_progress. A run cut short by
# Ctrl-C is not appended: the signal's trap runs once CMD has returned,
# before the append, so bench.partial.csv holds whole runs only.
bench_run_points() {
    local raw=$1 p line
    shift
    # shellcheck disable=SC2154 # points is the calling script's
    BENCH_RUNS=$raw BENCH_TOTAL=$((${#points[@]} * REPEATS))
    bench_step_start
    for _ in $(seq "$REPEATS"); do
        for p in "${points[@]}"; do
            # shellcheck disable=SC2086 # a point is its words
            line=$("$@" $p)
            [ -z "$line" ] || printf '%s\n' "$line" >>"$raw"
            bench_progress "$BENCH_TOTAL" "$p"
        done
    done
}

# bench_goals: the goal lines from stdin to stdout; under BENCH_QUICK=1
# each says that it comes from a single run at small sizes (noise, not a
# verdict: a 64^3 product timed once says little about the goal at 1024^3).
bench_goals() {
    if [ "$BENCH_QUICK" = 1 ]; then
        awk '/goal/ && !/:$/ { $0 = $0 " [BENCH_QUICK=1: a single run at small sizes, indicative only]" } { print }'
    else
        cat
    fi
}

# The cores this process may use, whatever OMP_NUM_THREADS says (nproc
# alone honours it: "1 CPU cores" on a 2-core host under OMP_NUM_THREADS=1).
bench_cores() { env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc; }

# The host. sed reads the file itself and quits at its first match (no
# pipe); awk reads all of its input and prints only the first line.
bench_cpu_name() { sed -n '/^model name/{s/^model name[[:space:]]*: //p;q;}' /proc/cpuinfo; }
# The kit's one count of GPUs in the shell (the self-test's and the demos'
# too): KIT_GPU_COUNT when set (KIT_GPU_COUNT=0 tries a GPU host as a CPU
# one, as common/gpu.c does for the tests), else the GPUs nvidia-smi lists.
bench_gpu_count() {
    local list
    if [ -n "${KIT_GPU_COUNT:-}" ]; then echo "$KIT_GPU_COUNT"; return; fi
    list=$(nvidia-smi -L 2>/dev/null) || { echo 0; return; }
    printf '%s\n' "$list" | awk '/^GPU/ { n++ } END { print n + 0 }'
}
# Where a GPU lab's benchmark finds no GPU: its words (WHAT), then the way to
# a GPU node, once per run, as make check's score line says it
# (autograder/runner/report.c).
bench_no_gpu() { # LAB WHAT
    echo "make bench LAB=$1: $2; on a cluster, run it on a GPU node: make bench LAB=$1 SCHED=slurm|lsf SCHED_OPTS='...' (the students' README: \"GPU tests on a cluster\")"
}
# The first GPU's name, or its maximum SM clock in MHz.
bench_gpu_name() { nvidia-smi --query-gpu=name --format=csv,noheader | awk 'NR == 1'; }
bench_gpu_clock_mhz() { nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | awk 'NR == 1'; }
# FP64 flops an SM does a clock, "CUDA_CORES TENSOR_CORES" (0: none), for
# GPU 0's compute capability: the peak is this x SMs x clock. From NVIDIA's
# architecture documents: 32 FP64 FMA units an SM on sm_70 and sm_80, 64 on
# sm_90 and sm_100; the GeForce-class parts (sm_75, sm_86, sm_89, sm_120)
# have 2, 1/32 to 1/64 of their FP32 rate. FP64 tensor cores: sm_80 and
# sm_90 at twice their CUDA cores, sm_100 at its CUDA cores' rate.
bench_gpu_fp64_per_sm_clock() {
    nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2>/dev/null | awk '
        { cc = $1 + 0 }
        END { if (cc == 7.0) print "64 0"; else if (cc == 8.0) print "64 128"; else if (cc == 9.0) print "128 256"
              else if (cc >= 10.0 && cc < 11.0) print "128 128"; else print "4 0" }'
}
bench_date() { date -u '+%Y-%m-%d %H:%M UTC'; }

# An upper bound of one core's FP64 GFLOP/s: the highest clock the kernel
# reports (6 GHz, above any CPU sold, when it reports none) times the FP64
# flops per cycle of the widest vector unit the CPU has (AVX-512: 2 FMA units
# x 8 doubles x 2; AVX2: half; SSE2: a quarter). No correct run exceeds it;
# a figure above it comes from a timing gone wrong.
bench_cpu_peak_gflops() {
    local khz flops=8
    khz=$(cat /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq 2>/dev/null || echo 6000000)
    if grep -qw avx512f /proc/cpuinfo; then flops=32
    elif grep -qw avx2 /proc/cpuinfo; then flops=16; fi
    awk -v k="$khz" -v f="$flops" 'BEGIN { print k / 1e6 * f }'
}

# The FP64 peak of an sm_90 GPU in GFLOP/s on its tensor cores (the highest
# it has): SMS multiprocessors x 256 flops per clock (128 on the CUDA cores)
# x the maximum SM clock in MHz.
bench_gpu_fp64_peak_gflops() { awk -v s="$1" -v c="$2" 'BEGIN { print s * 256 * c / 1e3 }'; }

# Awk functions for every bench.sh's awk programs: prepend them,
#   awk "$BENCH_AWK"' { ... fig($3, "%.1f") ... }'
#   num(x)           is x a number (not "-", nan or inf)?
#   fig(x, fmt)      x formatted, or "-" if it is not a number
#   ratio(a, b, fmt) a / b formatted, or "" unless both are numbers, b > 0
#   status_text(s)   "ok" or "INVALID (...)" for a status token
#   worse(s, t)      the worse of two status tokens
#   show(label, s, text)  prints "label  text" if s is ok, else "label  INVALID (...)"
#                    (s: a status token, or the status column of a CSV)
# shellcheck disable=SC2016 # awk code, expanded by awk, not by the shell
BENCH_AWK='
function num(x) { return x ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function fig(x, fmt) { return num(x) ? sprintf(fmt, x) : "-" }
function ratio(a, b, fmt) { return (num(a) && num(b) && b > 0) ? sprintf(fmt, a / b) : "" }
# r times the speed of the other said as a reader takes it: "0.37 x faster"
# would be read as faster, where it is 2.70 x slower.
function speed(r) { return !num(r) || r <= 0 ? "" : r >= 1 ? sprintf("%.2f x faster", r) : sprintf("%.2f x slower", 1 / r) }
function status_text(s,   n) {
    if (s == "ok") return "ok"
    if (s ~ /^wrong:/) { n = substr(s, 7); return "INVALID (" n " wrong element" (n == 1 ? "" : "s") ")" }
    if (s == "peak") return "INVALID (above peak)"
    return "INVALID (failed)"
}
function rank(s) { return s == "ok" ? 0 : s ~ /^wrong:/ ? 1 + substr(s, 7) : s == "peak" ? 1 : 1e18 }
function worse(s, t) { return rank(t) > rank(s) ? t : s }
function show(label, s, text) { printf "%s  %s\n", label, s == "ok" ? text : s ~ /^INVALID/ ? s : status_text(s) }
'

# bench_status WRONG: the status token of one run that found WRONG wrong
# elements ("" or not a number: the program failed).
bench_status() {
    case $1 in
    0) echo ok ;;
    '' | *[!0-9]*) echo failed ;;
    *) echo "wrong:$1" ;;
    esac
}

# bench_medians NKEYS: reads runs "KEY1 .. KEYn STATUS V1 V2 ..." (one line
# per run, a point's runs anywhere in the input) and prints per point, in the
# order of first appearance, "KEY1 .. KEYn STATUS M1 M2 ...": the worst
# status of its runs and the median of each value ("-" where no run measured
# one).
bench_medians() {
    awk -v nk="$1" "$BENCH_AWK"'
    function median(list,   v, n, i, j, t) {
        n = split(list, v, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
        return n == 0 ? "-" : (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    { key = $1; for (i = 2; i <= nk; i++) key = key " " $i
      if (!(key in st)) { order[++points] = key; st[key] = "ok"; nv[key] = 0 }
      st[key] = worse(st[key], $(nk + 1))
      for (i = nk + 2; i <= NF; i++) { c = i - nk - 1; if (c > nv[key]) nv[key] = c
                                       if (num($i)) vals[key, c] = vals[key, c] " " $i } }
    END { for (p = 1; p <= points; p++) { key = order[p]; line = key " " st[key]
            for (c = 1; c <= nv[key]; c++) line = line " " median(vals[key, c])
            print line } }'
}

# bench_finish CSV...: counts the rows of the CSVs whose status column is
# not ok; prints the verdict; returns 1 if there is one.
bench_finish() {
    awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") col = i; next }
        col && $col != "ok" { bad++ }
        END { if (bad) { printf "benchmark: %d of its measurements are INVALID (wrong results or impossible rates): no figure of theirs is shown; exit status 1\n", bad; exit 1 }
              print "benchmark: every result checked and right" }' "$@"
}
