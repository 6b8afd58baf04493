#!/usr/bin/env bash
# Self-test that plays a student (run by make test): in the released copy,
# for a CPU lab (1) and an MPI lab (5), on this host (no GPU in CI):
#   - a syntax error: the compiler's message names the file the student
#     edits (labs/...), not the build folder's copy;
#   - make check after that failed build refuses, in one line;
#   - an endless loop in one function: make check ends within its budget
#     for hangs and names the test and the function;
#   - the CUDA stubs left as they are: the GPU tests SKIP (no GPU here);
#   - the README's promised points equal make check's own list (--list);
#   - with the lab's files finished (the reference's, put where the student
#     edits), make check passes what runs here, make demo (lab 5) and make
#     bench BENCH_QUICK=1 work.
# The lines a student would see are kept in build/selftest/student/.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
KIT=$(pwd)
# shellcheck source=autograder/selftest/lib.sh
. autograder/selftest/lib.sh

OUT=$KIT/build/selftest/student
fresh_dir "$OUT"
COPY=$OUT/kit-student
if ! make --no-print-directory release OUT="$COPY" >"$OUT/release.log" 2>&1; then
    fail "make release failed (see $OUT/release.log)"
    exit 0
fi
grep -q 'make lab. && make check' "$COPY/README.md" && ! grep -q 'make test' "$COPY/README.md" &&
    pass "the copy's README is the students' (the two commands, no make test)" ||
    fail "the copy's README is not the students' (see $COPY/README.md)"
help=$(cd "$COPY" && make --no-print-directory help)
! grep -qE 'IMPL=reference|make grade|make release|make test' <<<"$help" &&
    pass "make help in the copy names only what works there" || fail "make help in the copy names kit-only targets: $help"

kitonly=$(grep -nE 'IMPL=reference|make grade|make release|make test|gpu-host/run selftest' "$COPY"/labs/*/README.md | head -2)
[ -z "$kitonly" ] && pass "no lab README in the copy names what only the kit has (kit-only text left out)" ||
    fail "lab READMEs in the copy name what the copy lacks: ${kitonly//$COPY\//}"

# in_copy LOG CMD...: runs CMD in the copy, output in LOG; its status.
in_copy() {
    local log=$1
    shift
    (cd "$COPY" && "$@") >"$log" 2>&1
}

# Budget for an endless loop: make check's own (60 s) and some slack.
HANG_LIMIT=100

play() { # LAB FILE FUNCTION: the student's loop on one lab
    local lab=$1 file=$2 func=$3 dir rel log t0 secs
    dir=$(cd "$COPY" && echo labs/lab"$lab"-*)
    rel=$dir/$file
    log=$OUT/lab$lab
    cp "$COPY/$rel" "$log.orig"
    if ls "$COPY/$dir"/*.cu >/dev/null 2>&1 && ! selftest_nvcc >/dev/null; then
        skip "lab $lab: no nvcc here to build it"
        return
    fi

    # The untouched skeleton: builds, fails, GPU tests skipped.
    if ! in_copy "$log-build.log" make --no-print-directory "lab$lab"; then
        fail "lab $lab: the skeleton does not build in the copy (see $log-build.log)"
        return
    fi
    in_copy "$log-check.log" make --no-print-directory check
    in_copy "$log-list.txt" build/lab"$lab"/test_lab"$lab" --list
    if grep -q '(needs a GPU)' "$log-list.txt"; then
        local gpu_fail
        gpu_fail=$(grep -E '^  (FAIL|CRASH|TIMEOUT|PASS) .* gpu' "$log-check.log" | head -1)
        [ -z "$gpu_fail" ] && grep -q '^  SKIP .*needs [0-9] GPU' "$log-check.log" &&
            pass "lab $lab: with the CUDA stubs untouched, the GPU tests SKIP: $(grep -m1 '^  SKIP' "$log-check.log")" ||
            fail "lab $lab: a GPU test did not skip: $gpu_fail"
    fi
    local checks score
    checks=$(grep -E '^[0-9]+%: Checks: ' "$log-check.log")
    score=$(sed -n 's/^score: //p' "$log-check.log")
    [[ "$checks" =~ Checks:\ ([0-9]+) ]] && [ "${BASH_REMATCH[1]}" = "$(grep -cE '^  (PASS|FAIL|CRASH|TIMEOUT|NOT RUN) ' "$log-check.log")" ] &&
        pass "lab $lab: Check's summary counts the lines shown ('$checks', score $score)" ||
        fail "lab $lab: Check's summary '$checks' disagrees with the lines (see $log-check.log)"

    # The assignment names only what works in the copy.
    local kitonly
    kitonly=$(grep -nE 'IMPL=reference|make grade|make release|make test|gpu-host/run' "$COPY/$dir/README.md" | head -2)
    [ -z "$kitonly" ] && pass "lab $lab: its README in the copy names only what works there" ||
        fail "lab $lab: its README in the copy names what the copy lacks: $kitonly"

    # The README's points against make check's list.
    local msg
    msg=$(python3 autograder/selftest/readme_points.py "$COPY/$dir/README.md" "$log-list.txt") &&
        pass "lab $lab: ${msg#"$COPY/"}" || fail "lab $lab: ${msg#"$COPY/"}"

    # A syntax error: the message names the student's file; make check refuses.
    sed -i "0,/^{/s/^{/{ int syntax_error = ;/" "$COPY/$rel"
    if in_copy "$log-syntax.log" make --no-print-directory "lab$lab"; then
        fail "lab $lab: a syntax error in $rel built"
    else
        local line
        line=$(grep -m1 'error:' "$log-syntax.log")
        [[ "$line" == "$rel:"* ]] && pass "lab $lab: the compiler names the student's file: $line" ||
            fail "lab $lab: the compiler's error does not name $rel: $line"
    fi
    in_copy "$log-stale.log" make --no-print-directory check
    local rc=$?
    [ "$rc" != 0 ] && grep -q "run 'make lab$lab'" "$log-stale.log" && ! grep -q '^score' "$log-stale.log" &&
        pass "lab $lab: make check after the failed build refuses: $(head -1 "$log-stale.log")" ||
        fail "lab $lab: make check after a failed build ran or said nothing useful (see $log-stale.log)"

    # An endless loop in one function.
    cp "$log.orig" "$COPY/$rel"
    sed -i "/^void $func(/,/^{/s/^{/{ for (volatile int spin = 1; spin;) { }/" "$COPY/$rel"
    t0=$(date +%s)
    if in_copy "$log-loop-build.log" make --no-print-directory "lab$lab"; then
        in_copy "$log-loop.log" make --no-print-directory check
        secs=$(($(date +%s) - t0))
        local hung
        hung=$(grep -m1 "never returned" "$log-loop.log")
        [ "$secs" -le "$HANG_LIMIT" ] && [[ "$hung" == *"$func"* ]] &&
            pass "lab $lab: an endless loop in $func: make check ends in $secs s, naming it: $hung" ||
            fail "lab $lab: an endless loop in $func: $secs s, line '$hung' (see $log-loop.log)"
    else
        fail "lab $lab: the planted loop does not build (see $log-loop-build.log)"
    fi

    # The lab finished (the reference's files where the student edits them).
    local f
    # shellcheck disable=SC2016 # $(STUDENT_FILES) is make's, expanded by make
    for f in $(make -s --no-print-directory -f common/mk/lab.mk LAB="$lab" --eval 'print-sf: ; @echo $(STUDENT_FILES)' print-sf); do
        cp "reference/lab$lab-${dir#labs/lab"$lab"-}/$f" "$COPY/$dir/$f"
    done
    if in_copy "$log-done.log" make --no-print-directory "lab$lab" && in_copy "$log-done-check.log" make --no-print-directory check; then
        pass "lab $lab finished: make check passes what runs here ($(sed -n 's/^score: //p' "$log-done-check.log"))"
    else
        fail "lab $lab finished: make check fails (see $log-done-check.log)"
    fi
    if [ -f "$COPY/$dir/demo.sh" ] || grep -q '^demo:' "$COPY/$dir/lab.mk"; then
        in_copy "$log-demo.log" make --no-print-directory demo LAB="$lab" &&
            pass "lab $lab: make demo runs the student's code: $(tail -n 1 "$log-demo.log")" ||
            fail "lab $lab: make demo fails (see $log-demo.log)"
    fi
    if in_copy "$log-bench.log" make --no-print-directory bench LAB="$lab" BENCH_QUICK=1; then
        pass "lab $lab: make bench BENCH_QUICK=1 works: $(grep -m1 building "$log-bench.log")"
    else
        fail "lab $lab: make bench BENCH_QUICK=1 fails (see $log-bench.log)"
    fi
    # (Labs 5 to 7 print their own label, not common/bench/bench_lib.sh's.)
    if grep -q '(skeleton)' "$log-bench.log"; then
        skip "lab $lab: make bench labels the student's own build '(skeleton)' ($dir/bench.sh)"
    fi
}

play 1 matmult.c matmult_nat
play 5 stencil_cpu.c stencil_region_cpu
summary
