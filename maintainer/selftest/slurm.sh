#!/usr/bin/env bash
# Self-test of grading through Slurm (run by make test): starts a one-node
# Slurm cluster of its own (slurm_cluster.sh), grades a class of 8 lab 1 submissions through it
# (instructor/grade --slurm: an array of 2 tasks) and checks that the
# gradebook is a local run's, row for row; that a second submission grades
# nothing again; and that a task cancelled while grading, followed by a
# second run, ends with the same gradebook. The cluster is taken down
# whatever happens (trap).
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
# selftest: long
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

suite_start slurm

# ---- the cluster ----
# shellcheck source=maintainer/selftest/slurm_cluster.sh
. maintainer/selftest/slurm_cluster.sh
slurm_cluster_up slurm "$OUT/cluster-logs" || exit 0

# ---- the class: 8 of the generator's, one of each kind: correct (a folder,
# a .tar.gz, a .zip), wrong, hanging, broken, misnamed, the skeleton ----
# (None whose score depends on memory past an array, or on a race: the two
# runs must agree. What each kind earns is grading.sh's; here, that the
# runs agree.)
datasets/lab1-submissions/generate "$OUT/generated" >"$OUT/generate.log" 2>&1 || { fail "the submission generator failed (see $OUT/generate.log)"; exit 0; }
mkdir -p "$OUT/class"
for s in c01_reference c02_targz.tar.gz c03_zip.zip m01_blk_drops_last_block m04_kmn_hangs \
    b01_does_not_compile b03_wrong_file_name p02_skeleton; do
    cp -r "$OUT/generated/submissions/$s" "$OUT/class/" || fail "the generator made no $s"
done
N=$(find "$OUT/class" -mindepth 1 -maxdepth 1 | wc -l)

GRADE=(instructor/grade --wall 60 --no-perf)
t0=$(date +%s)
"${GRADE[@]}" -j 2 -o "$OUT/local" 1 "$OUT/class" >"$OUT/local.log" 2>&1
rc=$?
[ "$rc" = 0 ] && [ -s "$OUT/local/gradebook.csv" ] && pass "the local run graded $N submissions in $(($(date +%s) - t0)) s" ||
    { fail "the local run stopped with status $rc (see $OUT/local.log)"; exit 0; }

# same_book FILE: is it the local run's gradebook, row for row?
same_book() { cmp -s "$OUT/local/gradebook.csv" "$1"; }

# ---- through Slurm: 2 tasks of 6, each with 1 core ----
SLURM_GRADE=("${GRADE[@]}" --slurm --slurm-tasks 2 -j 1 -o "$OUT/slurm")
t0=$(date +%s)
"${SLURM_GRADE[@]}" 1 "$OUT/class" >"$OUT/slurm.log" 2>&1
rc=$?
job=$(sed -n 's/.*Slurm array job \([0-9]*\) .*/\1/p' "$OUT/slurm.log" | head -1)
started=$(cat "$OUT"/slurm/slurm/"${job:-none}"_*.log 2>/dev/null | grep -c '^grade: Slurm task')
if [ "$rc" = 0 ] && [ -n "$job" ] && [ "$started" = 2 ] && same_book "$OUT/slurm/gradebook.csv"; then
    pass "graded through Slurm (array job $job, 2 tasks) in $(($(date +%s) - t0)) s: the gradebook is the local run's, all $N rows"
else
    fail "grading through Slurm: status $rc, job '${job:-none}', $started task(s) started; gradebook differs from the local run's (see $OUT/slurm.log, $OUT/slurm/slurm/)"
    diff "$OUT/local/gradebook.csv" "$OUT/slurm/gradebook.csv" | head -5
fi
for f in histogram.txt students/c01_reference/results.json students/b01_does_not_compile/feedback.txt; do
    [ -s "$OUT/slurm/$f" ] || fail "no $f after the Slurm run"
done
cmp -s "$OUT/local/histogram.txt" "$OUT/slurm/histogram.txt" && pass "the histogram, feedback and results.json are written as a local run writes them" ||
    fail "the histogram differs from the local run's"
left=$(find /tmp -maxdepth 1 -name "kit-grade-lab1-$job-*" 2>/dev/null | head -3)
[ -z "$left" ] && pass "the tasks removed their scratch folders on the node" || fail "scratch folders left: $left"

# ---- a second submission grades nothing (through make, as instructors run it) ----
rm "$OUT/slurm/gradebook.csv"
make --no-print-directory grade LAB=1 SUBMISSIONS="$OUT/class" OUT="$OUT/slurm" JOBS=1 SLURM=1 \
    SLURM_OPTS="--partition=selftest --time=10" >"$OUT/slurm2.log" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q "Graded 0 now ($N already graded)" "$OUT/slurm2.log" && ! grep -q 'Slurm array job' "$OUT/slurm2.log" &&
    grep -q -- "--slurm --slurm-opts '--partition=selftest --time=10'" "$OUT/slurm2.log" && same_book "$OUT/slurm/gradebook.csv"; then
    pass "a second run (make grade SLURM=1 SLURM_OPTS=...) submits no job, grades nothing again, and merges the same gradebook"
else
    fail "the second run did not resume (status $rc, see $OUT/slurm2.log)"
fi

# ---- a task cancelled while it grades, then a second run ----
# Four students lose their results; task 1 (every second of them, sorted:
# c01_reference, then m04_kmn_hangs, whose hanging test takes 10 s) is
# cancelled once it has graded the first, so while it grades the second.
for s in b01_does_not_compile c01_reference c03_zip m04_kmn_hangs; do
    rm -rf "$OUT/slurm/students/$s"
done
"${SLURM_GRADE[@]}" 1 "$OUT/class" >"$OUT/slurm3.log" 2>&1 &
grading=$!
job='' cancelled=''
for _ in $(seq 240); do
    [ -z "$job" ] && job=$(sed -n 's/.*Slurm array job \([0-9]*\) .*/\1/p' "$OUT/slurm3.log" 2>/dev/null | head -1)
    if [ -n "$job" ] && grep -q '^\[#' "$OUT/slurm/slurm/${job}_1.log" 2>/dev/null; then
        scancel "${job}_1" && cancelled=yes
        break
    fi
    kill -0 "$grading" 2>/dev/null || break
    sleep 0.5
done
wait "$grading"
rc=$?
if [ -n "$cancelled" ] && [ "$rc" != 0 ] && grep -q 'have no result' "$OUT/slurm3.log"; then
    pass "task ${job}_1 cancelled while grading: the run says which submissions have no result and exits $rc"
else
    fail "the cancelled task's run: cancelled '${cancelled:-no}', status $rc (see $OUT/slurm3.log)"
fi
left=$(find /tmp -maxdepth 1 -name "kit-grade-lab1-$job-*" 2>/dev/null | head -3)
[ -z "$left" ] && pass "the cancelled task removed its scratch folder (SIGTERM)" || fail "scratch folders left: $left"
"${SLURM_GRADE[@]}" 1 "$OUT/class" >"$OUT/slurm4.log" 2>&1
rc=$?
again=$(sed -n 's/^Graded \([0-9]*\) now.*/\1/p' "$OUT/slurm4.log")
if [ "$rc" = 0 ] && [ "${again:-0}" -ge 1 ] && [ "$again" -le 2 ] && same_book "$OUT/slurm/gradebook.csv"; then
    pass "the next run grades only what the cancelled task left ($again) and ends with the local run's gradebook"
else
    fail "after the cancelled task: status $rc, graded '${again:-?}' again, gradebook differs (see $OUT/slurm4.log)"
    diff "$OUT/local/gradebook.csv" "$OUT/slurm/gradebook.csv" | head -5
fi
leftovers=$(find "$OUT/slurm" -name '*.tmp.*' 2>/dev/null | head -3)
[ -z "$leftovers" ] && pass "no half-written file left in the output" || fail "temporary files left: $leftovers"

echo "slurm suite: $(suite_seconds) s in all"
summary >/dev/null
