#!/usr/bin/env bash
# Self-test of instructor grading (run by make test): grades a generated
# class of lab 1 submissions (datasets/lab1-submissions/generate: correct,
# partly wrong, broken and hostile ones) with instructor/grade -j GRADE_JOBS in the
# sandbox, and checks every expected status and score, that each hostile
# case stayed contained, resuming, the outputs, performance points and the
# Gradescope entry point.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
# selftest: long
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

OUT=build/selftest/grading
fresh_dir "$OUT"
KIT=$(pwd)
# The checks on the grader's output: maintainer/selftest/grading_checks.py.
checks() { PYTHONPATH=instructor:autograder${PYTHONPATH:+:$PYTHONPATH} python3 maintainer/selftest/grading_checks.py "$@"; }

sandbox_runs "grading: the sandbox cannot run here, so hostile submissions are not graded" || exit 0
pass "sandbox: $SANDBOX_PROBE"

# Of the lab's mutants, those whose grading tells something of the grader:
# one that hangs, one that exits, one whose feedback is read below, one
# that writes out of bounds (the sanitizer in the sandbox) and the one
# timed below. That each mutant is caught by its tests is the lab run's to
# check (run_all), here in the sandbox for one mutant a lab (grading_references).
MUTANTS=blk_drops_last_block,kmn_hangs,mnk_exits,nat_transposed_b,nkm_writes_out_of_bounds
datasets/lab1-submissions/generate "$OUT/class" --mutants "$MUTANTS" >"$OUT/generate.log" 2>&1 || { fail "the submission generator failed (see $OUT/generate.log)"; exit 0; }
n=$(($(wc -l <"$OUT/class/expected.csv") - 1))
if [ "$n" -ge 30 ]; then
    pass "generated $n lab 1 submissions ($(cut -d, -f1 "$OUT/class/expected.csv" | grep -c '^[cmp]') correct or partly wrong, $(grep -c '^b' "$OUT/class/expected.csv") broken, $(grep -c '^h' "$OUT/class/expected.csv") hostile)"
else
    fail "only $n submissions generated; at least 30 wanted"
fi

# Per-test limits stay the lab's (10 s); the whole of one submission's
# tests gets WALL s, so that a submission looping in every test ends
# quickly (h01 loops asleep that long). 55 s, not less: on a GPU host make
# test runs this suite beside 16 other runs, and a submission with a
# hanging test (m04, h02: 10 s) and the rest slowed by that load (5 s
# alone) must still finish its tests.
WALL=55
# Submissions graded at once: 2 on a small machine (CI), a quarter of the
# cores on a larger one (at most 8), where this suite is the longest run of
# make test. The expected outcomes hold for any count.
GRADE_JOBS=${SELFTEST_GRADE_JOBS:-$(($(nproc) / 4 > 2 ? ($(nproc) / 4 < 8 ? $(nproc) / 4 : 8) : 2))}
t0=$(date +%s)
# --keep: the grader's work folder outlives the run. It is OUT/.grader, or
# a folder in /tmp when the sandbox's user cannot reach OUT (a kit under
# /root, mode 0700): the grader names it in its log. Removed at the end.
# The kit copy and the reference build, which the checks below read, are
# kept between gradings (instructor/grading/prepared.py), named in the log.
instructor/grade -j "$GRADE_JOBS" --wall $WALL --no-perf --keep -o "$OUT/grades" 1 "$OUT/class/submissions" >"$OUT/grade.log" 2>&1
rc=$?
WORK=$(sed -n 's/^grade: .* is not reachable by the sandbox.s user; working in \(.*\)$/\1/p' "$OUT/grade.log" | tail -n 1)
WORK=${WORK:-$OUT/grades/.grader}
case $WORK in "$OUT"/*) ;; *) trap 'rm -rf "$WORK"' EXIT ;; esac
PREPARED=$(sed -n 's/^grade: the kit copy and the reference: \(.*\) (.*$/\1/p' "$OUT/grade.log" | tail -n 1)
t1=$(date +%s)
if [ "$rc" = 0 ] && [ -s "$OUT/grades/gradebook.csv" ]; then
    pass "the batch of $n completed in $((t1 - t0)) s with -j $GRADE_JOBS on $(nproc) cores"
else
    fail "instructor/grade stopped with status $rc (see $OUT/grade.log)"
    tail -5 "$OUT/grade.log"
    exit 0
fi

# The lab's own points: its tests' (the reference build's --list) and its
# performance points (labs/lab1-matmult/tests/perf.conf), never numbers written here.
TESTS_MAX=$("$PREPARED/reference/test_lab1" --list | awk '$3 == "points" { s += $2 } END { print s }')
read -r PERF_POINTS PERF_FULL_AT PERF_ZERO_AT < <(checks perf-points 1 blk)
if [ -n "$TESTS_MAX" ] && [ -n "${PERF_POINTS:-}" ]; then
    pass "lab 1's points: $TESTS_MAX in its tests, $PERF_POINTS for performance (perf_blk: full up to $PERF_FULL_AT x, none from $PERF_ZERO_AT x)"
else
    fail "lab 1's points could not be read (the reference's --list, perf.conf)"
    exit 0
fi

# Every expected status and score. Expected scores come from the lost tests
# named in expected.csv and the points of the suite's test list.
checks gradebook "$OUT/grades/gradebook.csv" "$OUT/class/expected.csv"

# Containment: nothing written outside, nothing left running, output capped.
escaped=$(find "$KIT" "$OUT" /root -maxdepth 3 -name 'ESCAPED_h05' 2>/dev/null | head -3)
[ -z "$escaped" ] && pass "h05: no file written outside its folder (the kit, the grader's output, /root)" \
    || fail "h05 wrote outside its folder: $escaped"
# (A sandbox's last processes may take a moment to be reaped. The run's own
# uids, from its log: another grading run on this machine has others.)
uids=$(sed -n 's/^grade: sandbox uids \([0-9]*\)-\([0-9]*\) .*/\1,\2/p' "$OUT/grade.log" | head -1)
uids=${uids:-60000,60001}
for _ in 1 2 3 4 5 6 7 8 9 10; do
    left=$(pgrep -c -u "$uids" 2>/dev/null || true)
    [ "${left:-0}" = 0 ] && break
    sleep 1
done
[ "${left:-0}" = 0 ] && pass "no process of the sandbox's users is left running (fork bombs included)" \
    || { fail "$left processes of the sandbox's users ($uids) are still running"; ps -o pid,uid,stat,etime,cmd -u "$uids" | head -5; }
size=$(stat -c %s "$OUT/grades/logs/h04_output_flood/check.log" 2>/dev/null || echo 0)
[ "$size" -gt 0 ] && [ "$size" -le 300000 ] && pass "h04: 10 GiB of output kept to $size bytes of log" \
    || fail "h04: its log is $size bytes"
big=$(find "$OUT/grades" -path "$OUT/grades/.grader/work" -prune -o -size +65M -print 2>/dev/null | head -3)
[ -z "$big" ] && pass "no file over the 64 MiB file-size limit in the grader's output" || fail "files over 64 MiB: $big"
leftovers=$(find "$OUT/grades" -path "$OUT/grades/.grader/work" -prune -o -name '*.tmp.*' -print 2>/dev/null | head -3)
[ -z "$leftovers" ] && pass "no half-written file left (every result written atomically)" || fail "temporary files left: $leftovers"
grep -q 'Hidden tests: not visible here' "$PREPARED/kit/labs/lab1-matmult/tests/hidden_lab1.c" &&
    ! compgen -G "$PREPARED/kit/labs/*/solution" >/dev/null && ! compgen -G "$PREPARED/kit/labs/*/mutants" >/dev/null &&
    pass "the sandbox's kit copy has no reference, no mutants, and blanked hidden tests" ||
    fail "the sandbox's kit copy shows instructor-only files"

# The sandbox's holes that were, closed: a class entry that is a link is
# refused with the reason in the gradebook; the call rules fail a function's
# tests with a message that says why.
checks link-refused "$OUT/grades/gradebook.csv"
if grep -q 'matmult_nat calls cblas_dgemm.*reserves for matmult_lib' "$OUT/grades/students/m20_calls_nat_cblas/feedback.txt" &&
    grep -q 'matmult_blk calls cblas_dgemm (through matmult_lib)' "$OUT/grades/students/m21_calls_blk_calls_lib/feedback.txt"; then
    pass "the call rules fail the tests of a function that calls BLAS, directly or through matmult_lib, and say so"
else
    fail "the feedback of m20/m21 lacks the call rules' message"
fi

# What students and Gradescope get.
if grep -q 'error:' "$OUT/grades/students/b01_does_not_compile/feedback.txt" &&
    grep -q 'matmult_knm' "$OUT/grades/students/b02_missing_function/feedback.txt"; then
    pass "feedback of failed builds shows the compiler's and the linker's errors"
else
    fail "the feedback of a failed build lacks the compiler's errors"
fi
if grep -q 'expected .*, got' "$OUT/grades/students/m11_nat_transposed_b/feedback.txt" &&
    grep -q 'hidden test: failed; its details are kept back' "$OUT/grades/students/m11_nat_transposed_b/feedback.txt"; then
    pass "feedback of a wrong submission names what was expected and what came; hidden tests keep their details back"
else
    fail "feedback of m11_nat_transposed_b lacks the failure messages"
fi
checks schema "$OUT/grades/students"
# The picture needs gnuplot (the GPU hosts have none); the table does not.
if command -v gnuplot >/dev/null; then
    [ -s "$OUT/grades/histogram.png" ] && grep -q "Totals of $n submissions" "$OUT/grades/histogram.txt" &&
        pass "score histogram written (histogram.txt, histogram.png)" || fail "no histogram"
else
    grep -q "Totals of $n submissions" "$OUT/grades/histogram.txt" &&
        pass "score histogram written (histogram.txt; no gnuplot here for histogram.png)" || fail "no histogram"
fi

# Resuming: a second run grades nothing again; a changed submission only.
cp "$OUT/grades/gradebook.csv" "$OUT/gradebook.first.csv"
t0=$(date +%s)
instructor/grade -j "$GRADE_JOBS" --wall $WALL --no-perf -o "$OUT/grades" 1 "$OUT/class/submissions" >"$OUT/grade2.log" 2>&1
t1=$(date +%s)
if grep -q "Graded 0 now ($n already graded)" "$OUT/grade2.log" && cmp -s "$OUT/grades/gradebook.csv" "$OUT/gradebook.first.csv"; then
    pass "a second run regrades nothing and gives the same gradebook ($((t1 - t0)) s)"
else
    fail "the second run did not resume (see $OUT/grade2.log)"
fi
cp "$OUT/class/submissions/m11_nat_transposed_b/matmult.c" "$OUT/m11.c"
cp labs/lab1-matmult/solution/matmult.c "$OUT/class/submissions/m11_nat_transposed_b/matmult.c"
instructor/grade -j "$GRADE_JOBS" --wall $WALL --no-perf -o "$OUT/grades" 1 "$OUT/class/submissions" >"$OUT/grade3.log" 2>&1
if grep -q "Graded 1 now" "$OUT/grade3.log" && grep -q "^m11_nat_transposed_b,graded,$TESTS_MAX," "$OUT/grades/gradebook.csv"; then
    pass "a changed submission, and only it, is graded again"
else
    fail "a changed submission was not regraded (see $OUT/grade3.log)"
fi
cp "$OUT/m11.c" "$OUT/class/submissions/m11_nat_transposed_b/matmult.c"

# Performance points, with submissions slower than the reference on every
# CPU and at every size (never a gap that only some caches show): the
# reference against itself gets them all; one that does the reference's
# blocked product four times over is several times slower anywhere and
# gets what the formula gives for its measured ratio;
# one that does it twenty times gets none; one whose result is wrong on the
# timed size gets none (the harness checks every result); one that fails a
# test named in 'requires' is not timed at all. The entry is the lab's
# (its points, limits, requirements and harness) at a size that fits the
# cache: at the lab's size, beyond a last-level cache, each round reads a
# matrix of that size (over 300 MB on a host that reports a large cache)
# and the five took three minutes. The lab's size itself is perf.timed's
# ({N_BEYOND_LLC}, its unit tests), shown to the student in the feedback.
mkdir -p "$OUT/perf"
cp -r "$OUT/class/submissions/c01_reference" "$OUT/perf/"
cp -r "$OUT/class/submissions/m01_blk_drops_last_block" "$OUT/perf/r_fails_required_test"
blk_repeated() { # times: matmult_blk doing the whole product that many times
    mkdir -p "$OUT/perf/s_blk_times_$1"
    sed 's/^void matmult_blk(/static void blk_once(/' labs/lab1-matmult/solution/matmult.c >"$OUT/perf/s_blk_times_$1/matmult.c"
    printf '%s\n' "" "void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs)" \
        "{" "    for (int r = 0; r < $1; r++)" "        blk_once(m, n, k, A, B, C, bs);" "}" >>"$OUT/perf/s_blk_times_$1/matmult.c"
}
blk_repeated 4
blk_repeated 20
mkdir -p "$OUT/perf/s_blk_skips_large"
# (No test of the suite has n k above 60000; the timed case has.)
sed '/^void matmult_blk(/{n;s/^{$/{\n    if ((long)n * k > 100000) return;/}' \
    labs/lab1-matmult/solution/matmult.c >"$OUT/perf/s_blk_skips_large/matmult.c"
size="256 1024 1024 64"
# (the line's name, points, limits, threads, requirements and harness; then the size)
awk -v size="$size" '$1 == "blk" { print 1, $1, $2, $3, $4, $5, $6, $7, size }' labs/lab1-matmult/tests/perf.conf >"$OUT/perf.conf"
GRADE_PERF_CONF=$OUT/perf.conf instructor/grade -j 1 --wall 120 -o "$OUT/perf-grades" 1 "$OUT/perf" >"$OUT/perf.log" 2>&1
GRADE_PERF_CONF=$OUT/perf.conf checks perf "$OUT/perf-grades/students" "$TESTS_MAX"
grep -q "for $size;" "$OUT/perf-grades/students/c01_reference/feedback.txt" &&
    pass "performance: the feedback names the size timed ($size, GRADE_PERF_CONF's)" ||
    fail "performance: the feedback does not name the size timed ($size; see $OUT/perf-grades/students/c01_reference/feedback.txt)"
# The student sees the measured figures beside the reference's (and
# OpenBLAS's, which lab 1's harness times once a run), in the feedback and
# Gradescope's output, and as a chart where gnuplot is; untimed, neither.
sdir=$OUT/perf-grades/students/s_blk_times_4
figures=$(grep -o "your matmult_blk: [0-9.]* GFLOP/s = [0-9.]* x the reference's [0-9.]* GFLOP/s (OpenBLAS: [0-9.]* GFLOP/s)" "$sdir/feedback.txt")
if [ -n "$figures" ] && grep -qF "$figures" "$sdir/results.json" &&
    ! grep -q "^Performance, measured" "$OUT/perf-grades/students/r_fails_required_test/feedback.txt"; then
    pass "performance: the feedback and results.json show the figures ($figures); an untimed submission none"
else
    fail "performance: the feedback lacks the measured figures (see $sdir/feedback.txt)"
fi
# (Without gnuplot, matplotlib draws it where the grader's Python has it.)
if ! command -v gnuplot >/dev/null && grep -q "No chart: neither gnuplot nor matplotlib" "$sdir/feedback.txt"; then
    pass "performance: no gnuplot or matplotlib here, and the feedback says there is no chart"
elif [ "$(head -c 4 "$sdir/performance.png" 2>/dev/null | tail -c 3)" = PNG ] &&
    grep -q "performance.png, beside this file" "$sdir/feedback.txt" &&
    [ ! -e "$OUT/perf-grades/students/r_fails_required_test/performance.png" ]; then
    pass "performance: the chart performance.png lies beside the feedback ($(wc -c <"$sdir/performance.png") bytes); none for an untimed submission"
else
    fail "performance: no performance.png beside $sdir/feedback.txt"
fi

# Gradescope's entry point, with its paths moved here.
gs() { # submission-file expected-score what
    local root=$OUT/gradescope/$3
    mkdir -p "$root/submission"
    cp "$1" "$root/submission/matmult.c"
    AUTOGRADER_ROOT=$root KIT_DIR=$KIT LAB=1 GRADE_ARGS=--no-perf instructor/gradescope/run_autograder >"$root/log" 2>&1
    checks gradescope "$root/results/results.json" "$2" "$3"
}
gs labs/lab1-matmult/solution/matmult.c "$TESTS_MAX" reference
gs "$OUT/class/submissions/b01_does_not_compile/matmult.c" 0 build-fails
