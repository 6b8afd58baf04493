# shellcheck shell=bash
# Shared by the self-test's scripts: counters and the closing line.
# Each check prints one line: "ok", "FAILED" or "skip", then what it checked.
SELFTEST_PASSED=0
SELFTEST_FAILED=0
SELFTEST_SKIPPED=0

pass() { echo "ok      $*"; SELFTEST_PASSED=$((SELFTEST_PASSED + 1)); }
fail() { echo "FAILED  $*"; SELFTEST_FAILED=$((SELFTEST_FAILED + 1)); }
skip() { echo "skip    $*"; SELFTEST_SKIPPED=$((SELFTEST_SKIPPED + 1)); }

# below A B: is the number A strictly less than B?
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# fresh_dir DIR [SUB...]: DIR emptied, with empty subfolders SUB (a suite's
# scratch folder, remade each run).
fresh_dir() {
    local dir=$1
    shift
    rm -rf "$dir" && mkdir -p "$dir" "${@/#/$dir/}"
}

# suite_start NAME [SUB...]: a suite's scratch folder OUT (absolute:
# build/selftest/NAME, emptied, with empty subfolders SUB) and its start
# time, for suite_seconds.
suite_start() {
    OUT=$(pwd)/build/selftest/$1
    shift
    fresh_dir "$OUT" "$@"
    SUITE_T0=$(date +%s)
}

# suite_seconds: the seconds since suite_start.
suite_seconds() { echo $(($(date +%s) - SUITE_T0)); }

# sandbox_runs WHAT: whether the grading sandbox runs here (its probe's
# words in SANDBOX_PROBE); if not, a skip line "WHAT: the probe's reason",
# and the suite ends (exit 0) by its caller.
sandbox_runs() {
    SANDBOX_PROBE=$(instructor/sandbox/run --probe 2>&1) && return 0
    skip "$1: $SANDBOX_PROBE"
    return 1
}

# skipped_note CHECK_LOG: what make check's score line says of the points
# skipped ("; 26 points need a GPU (here: ...)"; the way to a GPU left out),
# or nothing
skipped_note() { sed -n '/^score: /{s/^score: [^;]*//;s/; on a cluster: [^;]*//;p;q}' "$1"; }

# The kit's one count of GPUs (KIT_GPU_COUNT, else nvidia-smi's list).
. common/bench/bench_lib.sh
selftest_gpu_count() { bench_gpu_count; }

# One GPU architecture for every build of the self-test (the GPU seen, else
# the newest of course.conf's GPU_ARCHS; common/mk/cuda_arch.mk), unless the
# caller names one: it builds every lab dozens of times, and a build for the
# course's whole list would make each nvcc run several times longer (CI,
# two cores, would take hours). That every .cu compiles for each
# architecture of the list is the one suite's that compiles them all.
# shellcheck disable=SC2016 # $(...) in --eval is make's, not the shell's
if [ -z "${CUDA_ARCH:-}" ]; then
    CUDA_ARCH=$(make -s --no-print-directory -f common/mk/config.mk --eval 'print: ; @echo $(CUDA_ARCH_SELFTEST)' print 2>/dev/null)
    export CUDA_ARCH
fi
# The same for nvcc run outside make: its flags (-gencode ...) and what they
# build, as a build's last line says it.
# shellcheck disable=SC2016
KIT_CUDA_GENCODE=$(make -s --no-print-directory -f common/mk/config.mk --eval 'print: ; @echo "$(CUDA_GENCODE)|$(CUDA_BUILT)"' print 2>/dev/null)
KIT_CUDA_BUILT=${KIT_CUDA_GENCODE#*|} KIT_CUDA_GENCODE=${KIT_CUDA_GENCODE%%|*}
export KIT_CUDA_GENCODE KIT_CUDA_BUILT

selftest_nvcc() {
    local c
    for c in "$(command -v nvcc 2>/dev/null)" "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" /usr/local/cuda/bin/nvcc; do
        [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
    done
    return 1
}

# selftest_nvcc_compile FILE OBJECT [FLAG...]: FILE compiled with nvcc as the
# kit's builds compile CUDA (for CUDA_ARCH, C++17, common/ on the include path).
selftest_nvcc_compile() {
    local file=$1 obj=$2 gencode
    shift 2
    read -ra gencode <<<"$KIT_CUDA_GENCODE"
    "$(selftest_nvcc)" "${gencode[@]}" -std=c++17 -Icommon "$@" -c "$file" -o "$obj"
}

# count_suite_lines LOG RC SUITE: prints an extra suite's output (ok/FAILED/
# skip lines and what else it said) and adds its lines to the counts; a
# suite that exited non-zero without saying why counts as one failure.
count_suite_lines() {
    local log=$1 rc=$2 p f s
    cat "$log"
    p=$(grep -c '^ok ' "$log"); f=$(grep -c '^FAILED ' "$log"); s=$(grep -c '^skip ' "$log")
    SELFTEST_PASSED=$((SELFTEST_PASSED + p))
    SELFTEST_FAILED=$((SELFTEST_FAILED + f))
    SELFTEST_SKIPPED=$((SELFTEST_SKIPPED + s))
    if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
        fail "$3 exited with status $rc"
    fi
}

# page_shot PAGE SHOT WIDTHxHEIGHT LOG: headless Chromium draws the HTML
# page PAGE into the PNG SHOT (the suites that look at a page in a browser:
# classpage, standing, demo); its output goes to LOG. The caller has
# checked that chromium is there, and judges the picture itself.
page_shot() {
    # --no-sandbox: Chromium's own sandbox refuses to run as root.
    timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size="${3/x/,}" \
        --screenshot="$2" "file://$(realpath "$1")" >"$4" 2>&1
}

summary() {
    local line="$SELFTEST_PASSED passed, $SELFTEST_FAILED failed"
    [ "$SELFTEST_SKIPPED" -gt 0 ] && line="$line, $SELFTEST_SKIPPED skipped"
    echo "$line"
    [ "$SELFTEST_FAILED" = 0 ]
}
