#!/usr/bin/env bash
# Self-test of CONTRIBUTING.md's recipe (run by make test): a new lab is
# its folder and one line, its row in README.md's labs table, nothing else.
# In a scratch copy of the kit, the minimal lab 8 of
# maintainer/selftest/lab-template/lab8-axpy is added as the recipe says
# (the folder copied to labs/, the row added), and every suite must pick
# it up:
#   - its mutant is the one its make_mutants.py makes;
#   - the build and the tests: make lab8 && make check scores the skeleton
#     0 and the reference every point;
#   - the call rules: a right axpy that calls dlopen loses the points of
#     the tests calls.conf names;
#   - the self-test: SELFTEST_LABS=8 passes the reference, fails the
#     skeleton, catches the mutant;
#   - the bench-refusal suite (the case in its mutants/selftest.conf): the
#     benchmark passes the reference and refuses the skeleton and the mutant;
#   - the similarity report: make similarity over a class of lab 8 (the
#     reference, its mutant, the skeleton) reports the copied pair, and
#     calibrate.py --check finds its measured/similarity.conf right;
#   - performance: grading reads the entry of its tests/perf.conf, whose
#     harness (tests/perf/) links with the reference's objects and times them;
#   - the release: the student copy holds lab 8's skeleton, visible tests
#     and perf.conf, not its reference, mutants or measured figures.
set -u
cd "$(dirname "$0")/../.." || exit 2
. maintainer/selftest/lib.sh

S=$(pwd)/build/selftest/new-lab
K=$S/kit
TEMPLATE=maintainer/selftest/lab-template/lab8-axpy
rm -rf "$S"
mkdir -p "$K"
# The scratch copy is no git work tree (the release then copies its files
# as it does for a kit downloaded without git).
export GIT_CEILING_DIRECTORIES=$S
# The kit's files: what git has (tracked, and new files it does not
# ignore) where there is git, else all but the build outputs.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
        tar --null -T - -cf - | tar -xf - -C "$K"
else
    tar --exclude=./build --exclude=./release --exclude=./.gpudeps --exclude=./.git -cf - . | tar -xf - -C "$K"
fi

# The recipe: the lab's folder ...
cp -r "$TEMPLATE" "$K/labs/"
# ... and its row in README.md's labs table (after lab 7's). Nothing else.
# shellcheck disable=SC2016 # the backquotes are Markdown's
row='| 8 | `labs/lab8-axpy` | the minimal lab of the recipe: y = a x + y | CPU |'
awk -v row="$row" '{ print } /^\| 7 \| `labs\/lab7-/ { print row }' README.md >"$K/README.md"
if ! grep -q '^| 8 ' "$K/README.md"; then
    fail "new lab: the recipe's one line could not be added (README.md's labs table moved)"
fi

# Its mutant, in the folder, is what its make_mutants.py makes.
if ! (cd "$K" && python3 labs/lab8-axpy/mutants/make_mutants.py) >"$S/mutants.log" 2>&1; then
    fail "new lab: lab 8's make_mutants.py fails (see $S/mutants.log)"
elif ! diff -r "$TEMPLATE/mutants" "$K/labs/lab8-axpy/mutants" >>"$S/mutants.log" 2>&1; then
    fail "new lab: lab 8's mutants are not what its make_mutants.py makes (see $S/mutants.log)"
else
    pass "new lab: lab 8's mutant is the one its make_mutants.py makes"
fi

# score SOURCE-ARGS...: builds lab 8 in the scratch kit and prints its score "got/max"
score() {
    (cd "$K" && make --no-print-directory -s lab8 "$@" >/dev/null 2>&1 && make --no-print-directory -s check LAB=8 2>&1) |
        sed -n 's/^score: \([0-9.]*\/[0-9.]*\).*/\1/p'
}

got=$(score IMPL=reference)
if [ "$got" = 3/3 ]; then pass "new lab: make lab8 IMPL=reference && make check: 3/3"
else fail "new lab: the reference of lab 8 scores '${got:-no score}', not 3/3"; fi
got=$(score)
if [ "$got" = 0/3 ]; then pass "new lab: make lab8 && make check (the skeleton): 0/3"
else fail "new lab: the skeleton of lab 8 scores '${got:-no score}', not 0/3"; fi

sub=$S/calls-dlopen
mkdir -p "$sub"
sed 's|#include "axpy.h"|#include <dlfcn.h>\n\n#include "axpy.h"|; s|    size_t i = 0;|    (void)dlopen(NULL, RTLD_NOW);\n    size_t i = 0;|' \
    "$TEMPLATE/solution/axpy.c" >"$sub/axpy.c"
got=$(score SUBMISSION="$sub")
if [ "$got" = 0/3 ]; then pass "new lab: its calls.conf applies (a right axpy that calls dlopen: 0/3)"
else fail "new lab: a right axpy that calls dlopen scores '${got:-no score}', not 0/3: calls.conf is not applied"; fi

(cd "$K" && SELFTEST_LABS=8 SELFTEST_EXTRA=0 SELFTEST_JOBS=2 maintainer/selftest/run_all) >"$S/selftest.log" 2>&1
if grep -q '^FAILED' "$S/selftest.log" || [ "$(grep -c '^ok .*lab8-axpy' "$S/selftest.log")" -lt 3 ]; then
    fail "new lab: the self-test with SELFTEST_LABS=8 does not pass its reference, fail its skeleton and catch its mutant (see $S/selftest.log)"
else
    pass "new lab: the self-test picks lab 8 up: $(grep -c '^ok .*lab8-axpy' "$S/selftest.log") checks ok"
fi

(cd "$K" && SELFTEST_LABS=8 maintainer/selftest/bench_refusal.sh) >"$S/bench_refusal.log" 2>&1
if grep -q '^FAILED' "$S/bench_refusal.log" || [ "$(grep -c '^ok *lab 8 ' "$S/bench_refusal.log")" != 3 ]; then
    fail "new lab: the bench-refusal suite does not check lab 8's benchmark three times (see $S/bench_refusal.log)"
else
    pass "new lab: the bench-refusal suite passes lab 8's reference and refuses its skeleton and mutant"
fi

# make similarity over a class of lab 8: the reference and its mutant (a
# copy with one mistake) reported at the lab's threshold; and the lab's
# measured/similarity.conf is what calibrate.py measures.
if command -v sim_c >/dev/null; then
    class=$S/similarity-class
    mkdir -p "$class/ref" "$class/mutant" "$class/skeleton"
    cp "$TEMPLATE/solution/axpy.c" "$class/ref/"
    cp "$TEMPLATE/solution/axpy.c" "$class/mutant/"
    cp "$TEMPLATE/axpy.c" "$class/skeleton/"
    for p in "$TEMPLATE"/mutants/*.patch; do patch -s -p1 -d "$class/mutant" <"$p"; done
    (cd "$K" && make --no-print-directory similarity LAB=8 SUBMISSIONS="$class" OUT="$S/similarity") >"$S/similarity.log" 2>&1
    csv=$S/similarity/similarity.csv
    threshold=$(cd "$K" && PYTHONPATH=instructor:autograder python3 -c \
        'from grading.similarity import thresholds_of; print(thresholds_of(8)[0])')
    pair=$(awk -F, -v t="${threshold:-101}" 'NR > 1 && $1 $2 ~ /^(mutantref|refmutant)$/ && $3 >= t { print $3 }' "$csv" 2>/dev/null)
    if [ -n "$pair" ] && [ "$(wc -l <"$csv")" = 4 ]; then
        pass "new lab: make similarity LAB=8 compares its class of 3 and reports the reference and its mutant ($pair%, threshold $threshold%)"
    else
        fail "new lab: make similarity LAB=8 does not report the reference and its mutant (see $S/similarity.log, $csv)"
    fi
    if (cd "$K" && python3 maintainer/selftest/similarity/calibrate.py --check --out "$S/calibration" 8) >"$S/calibrate.log" 2>&1; then
        pass "new lab: calibrate.py --check 8: its measured/similarity.conf is what the similarity self-test measures"
    else
        fail "new lab: calibrate.py --check 8 fails: $(grep -m1 FAILED "$S/calibrate.log") (see $S/calibrate.log)"
    fi
else
    skip "new lab: similarity: sim_c is missing (Debian's similarity-tester: make deps)"
fi

# Its performance entry: grading reads it from tests/perf.conf, and its
# harness links with the reference's objects and times them.
if (cd "$K" && make --no-print-directory -s lab8 IMPL=reference >/dev/null 2>&1 &&
    PYTHONPATH=instructor:autograder python3 maintainer/selftest/new_lab_perf.py 8) >"$S/perf.log" 2>&1; then
    pass "new lab: grading reads lab 8's tests/perf.conf and its harness times the reference ($(tail -1 "$S/perf.log"))"
else
    fail "new lab: lab 8's performance entry: $(tail -1 "$S/perf.log") (see $S/perf.log)"
fi

copy=$S/release/kit-student
if ! (cd "$K" && instructor/release "$copy") >"$S/release.log" 2>&1; then
    fail "new lab: make release fails with lab 8 added (see $S/release.log)"
elif ! [ -f "$copy/labs/lab8-axpy/axpy.c" ] || ! [ -f "$copy/labs/lab8-axpy/tests/test_lab8.c" ] ||
    ! [ -f "$copy/labs/lab8-axpy/tests/perf.conf" ] || [ -e "$copy/labs/lab8-axpy/solution" ] ||
    [ -e "$copy/labs/lab8-axpy/mutants" ] || [ -e "$copy/labs/lab8-axpy/measured" ]; then
    fail "new lab: the student copy does not hold lab 8's skeleton, tests and perf.conf without its reference, mutants and measured figures"
elif ! cmp -s "$copy/labs/lab8-axpy/axpy.c" "$TEMPLATE/axpy.c"; then
    fail "new lab: the student copy's lab 8 axpy.c is not the skeleton"
else
    pass "new lab: the release carries lab 8's skeleton, visible tests and perf.conf, not its reference, mutants or measured figures"
fi
