#!/usr/bin/env bash
# Self-test of CONTRIBUTING.md's recipe (run by make test): a new lab needs
# its own folders and one line in each list the recipe names, nothing
# else. In a scratch copy of the kit, the minimal lab 8 of
# maintainer/selftest/lab-template/ is added as the recipe says (its
# folders, its row in README.md's labs table, its line in
# bench_refusal.sh's cases, its mutant made by its make_mutants.py), and
# every suite must pick it up:
#   - the build and the tests: make lab8 && make check scores the skeleton
#     0 and the reference every point;
#   - the call rules: a right axpy that calls dlopen loses the points of
#     the tests calls.conf names;
#   - the self-test: SELFTEST_LABS=8 passes the reference, fails the
#     skeleton, catches the mutant;
#   - the bench-refusal suite: the benchmark passes the reference and
#     refuses the skeleton and the mutant;
#   - the release: the student copy holds lab 8's skeleton and visible
#     tests, not its reference or mutant.
set -u
cd "$(dirname "$0")/../.." || exit 2
. maintainer/selftest/lib.sh

S=$(pwd)/build/selftest/new-lab
K=$S/kit
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

# The recipe: the lab's folders ...
cp -r maintainer/selftest/lab-template/labs "$K/"
# ... one row in README.md's labs table, one line in bench_refusal.sh's
# cases (each after lab 7's) ...
# shellcheck disable=SC2016 # the backquotes are Markdown's
row='| 8 | `labs/lab8-axpy` | the minimal lab of the recipe: y = a x + y | CPU |'
awk -v row="$row" '{ print } /^\| 7 \| `labs\/lab7-/ { print row }' README.md >"$K/README.md"
awk '{ print } /^    "7 cpu / { print "    \"8 cpu last_element_skipped ^axpy n=1000 \"" }' \
    maintainer/selftest/bench_refusal.sh >"$K/maintainer/selftest/bench_refusal.sh"
# ... and its mutants made by its script.
if ! (cd "$K" && python3 labs/lab8-axpy/mutants/make_mutants.py) >"$S/mutants.log" 2>&1; then
    fail "new lab: lab 8's make_mutants.py fails (see $S/mutants.log)"
fi
if ! grep -q '^| 8 ' "$K/README.md" || ! grep -q '"8 cpu ' "$K/maintainer/selftest/bench_refusal.sh"; then
    fail "new lab: the recipe's shared lines could not be added (README.md's labs table or bench_refusal.sh's cases moved)"
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
sed 's|#include "axpy.h"|#include <dlfcn.h>\n\n#include "axpy.h"|; s|    for (size_t i = 0; i < n; i++)|    (void)dlopen(NULL, RTLD_NOW);\n    for (size_t i = 0; i < n; i++)|' \
    maintainer/selftest/lab-template/labs/lab8-axpy/solution/axpy.c >"$sub/axpy.c"
got=$(score SUBMISSION="$sub")
if [ "$got" = 0/3 ]; then pass "new lab: its calls.conf applies (a right axpy that calls dlopen: 0/3)"
else fail "new lab: a right axpy that calls dlopen scores '${got:-no score}', not 0/3: calls.conf is not applied"; fi

(cd "$K" && SELFTEST_LABS=8 SELFTEST_EXTRA=0 SELFTEST_JOBS=2 maintainer/selftest/run) >"$S/selftest.log" 2>&1
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

copy=$S/release/kit-student
if ! (cd "$K" && instructor/release "$copy") >"$S/release.log" 2>&1; then
    fail "new lab: make release fails with lab 8 added (see $S/release.log)"
elif ! [ -f "$copy/labs/lab8-axpy/axpy.c" ] || ! [ -f "$copy/labs/lab8-axpy/tests/test_lab8.c" ] ||
    [ -e "$copy/labs/lab8-axpy/solution" ] || [ -e "$copy/labs/lab8-axpy/mutants" ]; then
    fail "new lab: the student copy does not hold lab 8's skeleton and tests without its reference and mutants"
elif ! cmp -s "$copy/labs/lab8-axpy/axpy.c" maintainer/selftest/lab-template/labs/lab8-axpy/axpy.c; then
    fail "new lab: the student copy's lab 8 axpy.c is not the skeleton"
else
    pass "new lab: the release carries lab 8's skeleton and visible tests, not its reference or mutants"
fi
