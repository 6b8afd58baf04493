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

skipped_note() { grep -q 'points skipped' "$1" && echo "; GPU tests skipped"; }

selftest_gpu_count() {
    if [ -n "${KIT_GPU_COUNT:-}" ]; then echo "$KIT_GPU_COUNT"; return; fi
    if command -v nvidia-smi >/dev/null 2>&1; then
        nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true
    else
        echo 0
    fi
}

selftest_nvcc() {
    local c
    for c in "$(command -v nvcc 2>/dev/null)" "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" /usr/local/cuda/bin/nvcc; do
        [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
    done
    return 1
}

# Runs an extra suite (a script that prints ok/FAILED/skip lines) and adds
# its lines to the counts; a suite that exits non-zero without saying why
# counts as one failure.
run_extra_suite() {
    local log
    log=$(mktemp)
    bash "$1" 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    local p f s
    p=$(grep -c '^ok ' "$log"); f=$(grep -c '^FAILED ' "$log"); s=$(grep -c '^skip ' "$log")
    SELFTEST_PASSED=$((SELFTEST_PASSED + p))
    SELFTEST_FAILED=$((SELFTEST_FAILED + f))
    SELFTEST_SKIPPED=$((SELFTEST_SKIPPED + s))
    if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
        fail "$1 exited with status $rc"
    fi
    rm -f "$log"
}

summary() {
    local line="$SELFTEST_PASSED passed, $SELFTEST_FAILED failed"
    [ "$SELFTEST_SKIPPED" -gt 0 ] && line="$line, $SELFTEST_SKIPPED skipped"
    echo "$line"
    [ "$SELFTEST_FAILED" = 0 ]
}
