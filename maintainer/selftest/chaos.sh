#!/usr/bin/env bash
# Self-test of chaos schedules (autograder/runner/chaos.h), on
# lab 2's mandel_known_values (in labs/lab2-openmp/tests/chaos.conf), CPU only:
#   - a mandel that fails only on 5 threads or more (drawn under chaos,
#     never on a quiet run's 1 and 3) passes with CHAOS=0, and fails under
#     chaos with "under chaos seed N (replay: make check LAB=2
#     CHAOS_SEED=N CHECK_ARGS='--only mandel_known_values')" and "passes on
#     a quiet schedule";
#   - that replay line, run, fails again under the same seed, and the
#     reference passes under it;
#   - grading's keyed seeds (AG_CHAOS_KEY) are the same on two runs;
#   - a CHAOS_SEED that is not a seed is refused in one line, exit 2.
# The racy mutants caught under chaos are the lab runs' ("# chaos: needed",
# maintainer/selftest/run_all).
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

OUT=$(pwd)/build/selftest/chaos
fresh_dir "$OUT"
lab2=$(basename labs/lab2-*)
mkdir -p "$OUT/src"
cp -r "labs/$lab2/solution/." "$OUT/src/"
# Wrong only where chaos draws 5 threads or more: a fixture of this suite,
# not a student's mistake (the measured races are the mutants').
python3 - "$OUT/src/mandel.c" <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
old = "            img[(size_t)px * height + py] = iter == max_iter ? 0 : iter;\n        }\n    }\n"
assert s.count(old) == 1
s = s.replace(old, old + "    if (omp_get_max_threads() >= 5)\n        img[0] = 12345;\n")
open(p, "w").write("#include <omp.h>\n" + s)
EOF
lab() { make --no-print-directory -f common/mk/lab.mk LAB=2 BUILD="$OUT/$1" KIT_BUILD="$OUT/kit" "${@:2}"; }
if ! lab fixture SUBMISSION="$OUT/src" all >"$OUT/build.log" 2>&1 ||
    ! lab reference IMPL=reference all >>"$OUT/build.log" 2>&1; then
    fail "chaos: lab 2 does not build (see $OUT/build.log)"
    summary >/dev/null
    exit
fi
only=(CHECK_ARGS="--only mandel_known_values")

lab fixture check CHAOS=0 "${only[@]}" >"$OUT/quiet.log" 2>&1 &&
    pass "chaos: CHAOS=0 runs the fixture quietly, and it passes" ||
    fail "chaos: with CHAOS=0 the fixture did not pass (see $OUT/quiet.log)"

# 8 fresh seeds: each draws 5 or more threads with chance 2/3.
AG_CHAOS_RUNS=8 lab fixture check "${only[@]}" >"$OUT/chaos.log" 2>&1
seed=$(sed -n 's/.*under chaos seed \([0-9]*\) (replay.*/\1/p' "$OUT/chaos.log" | head -n 1)
want="under chaos seed $seed (replay: make check LAB=2 CHAOS_SEED=$seed CHECK_ARGS='--only mandel_known_values')"
[ -n "$seed" ] && grep -qF "$want" "$OUT/chaos.log" && grep -q "passes on a quiet schedule: an ordering bug" "$OUT/chaos.log" &&
    pass "chaos: the fixture fails under chaos, naming its seed and replay line: seed $seed" ||
    fail "chaos: no failure with its seed, replay line and 'passes on a quiet schedule' (see $OUT/chaos.log)"

if [ -n "$seed" ]; then
    lab fixture check CHAOS_SEED="$seed" "${only[@]}" >"$OUT/replay.log" 2>&1
    grep -qF "$want" "$OUT/replay.log" && grep -q "FAIL" "$OUT/replay.log" &&
        pass "chaos: CHAOS_SEED=$seed replays the failure under the same seed" ||
        fail "chaos: CHAOS_SEED=$seed did not fail again under seed $seed (see $OUT/replay.log)"
    lab reference check CHAOS_SEED="$seed" "${only[@]}" >"$OUT/reference.log" 2>&1 &&
        pass "chaos: the reference passes under seed $seed" ||
        fail "chaos: the reference fails under seed $seed (see $OUT/reference.log)"
fi

# Grading's seeds: a function of the key (the files' digest) and the test.
for run in 1 2; do
    AG_CHAOS_KEY=selftest-chaos AG_CHAOS_RUNS=8 lab fixture check "${only[@]}" >"$OUT/keyed-$run.log" 2>&1
done
keyed=$(sed -n 's/.*under chaos seed \([0-9]*\) (replay.*/\1/p' "$OUT/keyed-1.log")
[ -n "$keyed" ] && [ "$keyed" = "$(sed -n 's/.*under chaos seed \([0-9]*\) (replay.*/\1/p' "$OUT/keyed-2.log")" ] &&
    pass "chaos: keyed seeds (grading's) fail at the same seed on two runs: $keyed" ||
    fail "chaos: keyed seeds differ between two runs, or none failed (see $OUT/keyed-1.log, keyed-2.log)"

lab fixture check CHAOS_SEED=x12 "${only[@]}" >"$OUT/bad-seed.log" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q "CHAOS_SEED=x12 is not a seed" "$OUT/bad-seed.log" &&
    pass "chaos: CHAOS_SEED=x12 refused: $(grep -m1 'not a seed' "$OUT/bad-seed.log")" ||
    fail "chaos: CHAOS_SEED=x12 not refused in one line with exit 2 (exit $rc; see $OUT/bad-seed.log)"

summary >/dev/null
