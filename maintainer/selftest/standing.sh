#!/usr/bin/env bash
# Self-test of the class standing (run by make test): on a one-node Slurm
# cluster of the self-test's own (slurm_cluster.sh), with a course.conf
# that sets a spool (KIT_COURSE), three students' lab 1 runs go through
# `make check SCHED=slurm` (autograder/sched/submit, with each its own build):
# alice (the reference, nickname "speedy"), bob (correct, 8 times slow),
# carol (wrong). Then:
#   - the spool holds one record each, with points, figures, CPU and hash;
#   - make standing ranks alice above bob, carol absent; make history
#     shows carol's run off the board;
#   - hand-written records (bob's own code at a 100 x better time, carol's
#     "correct" run of other code) are flagged in make grade's review
#     column, alice (whose record her files reproduce) is not;
#   - the class page shows the board with names, drawn by headless Chromium.
# The timed entry runs at a small size (KIT_TIMED_CONF), grading times it at
# the same size (GRADE_PERF_CONF): the suite must stay within minutes on 2 cores.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

suite_start standing class spool

# shellcheck source=maintainer/selftest/slurm_cluster.sh
. maintainer/selftest/slurm_cluster.sh
slurm_cluster_up standing "$OUT/cluster-logs" || exit 0

# ---- the course and the class ----
export KIT_COURSE=$OUT/course.conf KIT_TIMED_CONF=$OUT/timed.conf
printf '%s\n' "STANDING_SPOOL=$OUT/spool" STANDING_TOP=10 STANDING_AHEAD=3 STANDING_SALT=selftest \
    STANDING_SLOWER=10 >"$KIT_COURSE" # bob forges 100 x; alice on a loaded 2-core host is noise
req=$(awk '$1 == "blk" { print $6 }' labs/lab1-*/tests/perf.conf)
echo "1 blk 1 $req lab1_blk 256 256 256 64" >"$KIT_TIMED_CONF"
echo "1 blk 4 2.0 10.0 1 $req lab1_blk 256 256 256 64" >"$OUT/perf.conf"
REF=labs/lab1-matmult/solution/matmult.c
mkdir -p "$OUT/class/alice" "$OUT/class/bob" "$OUT/class/carol"
cp "$REF" "$OUT/class/alice/"
# bob: matmult_blk done 8 times (correct, slower)
sed 's/^void matmult_blk(/static void blk_once(/' "$REF" >"$OUT/class/bob/matmult.c"
printf '%s\n' "void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs)" \
    "{" "    for (int r = 0; r < 8; r++)" "        blk_once(m, n, k, A, B, C, bs);" "}" >>"$OUT/class/bob/matmult.c"
# carol: matmult_nat off by a relative 1e-6 (its tests fail)
sed 's/sum += A\[i \* k + l\] \* B\[l \* n + j\];/sum += A[i * k + l] * B[l * n + j] * (1 + 1e-6);/' "$REF" >"$OUT/class/carol/matmult.c"
cmp -s "$REF" "$OUT/class/carol/matmult.c" && fail "standing: carol's planted error did not take"

# ---- three runs through Slurm ----
KB=$OUT/kit1
for s in alice bob carol; do
    make --no-print-directory -f common/mk/lab.mk LAB=1 SUBMISSION="$OUT/class/$s" BUILD="$OUT/b-$s" KIT_BUILD="$KB" all \
        >"$OUT/build-$s.log" 2>&1 || { fail "standing: $s's copy does not build (see $OUT/build-$s.log)"; exit 0; }
done
KIT_NICKNAME_FILE=$OUT/alice.nick make --no-print-directory nickname NAME=speedy >"$OUT/nickname.log" 2>&1 ||
    fail "standing: make nickname failed (see $OUT/nickname.log)"
for s in alice bob carol; do
    nick=$OUT/$s.nick
    KIT_STUDENT_ID=$s KIT_NICKNAME_FILE=$nick SCHED_OPTS="--partition=selftest --time=5" timeout 300 \
        autograder/sched/submit slurm check 1 BUILD="$OUT/b-$s" KIT_BUILD="$KB" >"$OUT/check-$s.log" 2>&1
    echo "$?" >"$OUT/check-$s.rc"
done
said=$(cat "$OUT"/check-{alice,bob,carol}.log | grep -c '^recorded for the class standing')
if [ "$(cat "$OUT/check-alice.rc" "$OUT/check-bob.rc")" = "0
0" ] && [ "$(cat "$OUT/check-carol.rc")" != 0 ] && [ "$said" = 3 ]; then
    pass "standing: three runs through srun (alice, bob: status 0; carol: $(cat "$OUT/check-carol.rc")), each 'recorded for the class standing'"
else
    fail "standing: the runs through Slurm: status $(cat "$OUT"/check-*.rc | tr '\n' ' '), $said recorded (see $OUT/check-*.log)"
fi
records=$(cat "$OUT"/spool/lab1/*.jsonl 2>/dev/null | wc -l)
fields=$(python3 -c 'import json, sys
r = json.loads(open(sys.argv[1]).readline())
print(r["student"], r["points"], r["max_points"], r["all_passed"], sorted(r["figures"]), bool(r["cpu"]), len(r["code"]))' \
    "$OUT/spool/lab1/alice.jsonl" 2>&1)
[ "$records" = 3 ] && [[ "$fields" == "alice "*" True ['blk'] True 64" ]] &&
    pass "standing: the spool holds one record a run (alice's: $fields)" ||
    fail "standing: the spool: $records records; alice's: $fields"

# ---- the board and the history ----
KIT_STUDENT_ID=bob make --no-print-directory standing LAB=1 >"$OUT/standing.txt" 2>&1
board=$(grep -E '^ +[0-9]+  ' "$OUT/standing.txt")
bob_name=$(PYTHONPATH=autograder python3 -c 'from standing.records import pseudonym; print(pseudonym("bob", "selftest"))')
if [ "$(echo "$board" | awk '{ print $1, $2 }' | tr '\n' ' ')" = "1 speedy 2 $bob_name " ] &&
    echo "$board" | grep -q "$bob_name (you)" && ! grep -q 'carol\|alice' "$OUT/standing.txt" && grep -q '^Lab 1: the class standing (advisory' "$OUT/standing.txt"; then
    pass "standing: make standing ranks speedy (alice's nickname) above $bob_name (bob, the reader), carol's wrong run absent, and says it is advisory"
else
    fail "standing: make standing printed (see $OUT/standing.txt):"
    cat "$OUT/standing.txt"
fi
KIT_STUDENT_ID=carol make --no-print-directory history LAB=1 >"$OUT/history.txt" 2>&1
grep -q 'not on the board: blk: not timed, a test failed' "$OUT/history.txt" && grep -q "code [0-9a-f]\{12\}" "$OUT/history.txt" &&
    pass "standing: make history shows carol's run, its code hash, and why it is off the board" ||
    fail "standing: make history printed: $(cat "$OUT/history.txt")"
KIT_COURSE=$OUT/no-such.conf make --no-print-directory standing LAB=1 >"$OUT/nospool.txt" 2>&1
rc=$?
[ "$rc" != 0 ] && [ "$(wc -l <"$OUT/nospool.txt")" -le 2 ] && grep -q 'no spool' "$OUT/nospool.txt" &&
    pass "standing: without a spool, one line and status $rc: $(head -1 "$OUT/nospool.txt")" ||
    fail "standing: without a spool: status $rc, said $(cat "$OUT/nospool.txt")"

# ---- hand-written records, and grading ----
python3 - "$OUT/spool/lab1" <<'FORGE'
import json, sys
folder = sys.argv[1]
bob = json.loads(open(f"{folder}/bob.jsonl").readline())
bob["figures"]["blk"]["seconds"] /= 100            # his own code, a time it never took
bob["time"] = "2099-01-01T00:00:00Z"
carol = dict(bob, student="carol", nickname="", code="0" * 64)   # a correct run of code she never handed in
with open(f"{folder}/bob.jsonl", "a") as f:
    f.write(json.dumps(bob) + "\n")
with open(f"{folder}/carol.jsonl", "a") as f:
    f.write(json.dumps(carol) + "\n")
FORGE
GRADE_PERF_CONF=$OUT/perf.conf make --no-print-directory grade LAB=1 SUBMISSIONS="$OUT/class" OUT="$OUT/grades" JOBS=1 >"$OUT/grade.log" 2>&1
rc=$?
review() { python3 -c 'import csv, sys
print(next((r["review"] for r in csv.DictReader(open(sys.argv[1])) if r["student"] == sys.argv[2]), "NO ROW"))' "$OUT/grades/gradebook.csv" "$1"; }
ra=$(review alice) rb=$(review bob) rc_=$(review carol)
if [ "$rc" = 0 ] && [[ "$rb" == *"class standing: "*"the same code took"*"x the recorded time"* ]] &&
    [[ "$rc_" == *"class standing: "*"measured other code (hash 000000000000)"* ]] && [[ "$ra" != *"class standing"* ]]; then
    pass "standing: make grade flags both hand-written records (bob: ${rb##*; }) and not alice's true one"
else
    fail "standing: make grade (status $rc, see $OUT/grade.log): review alice '$ra', bob '$rb', carol '$rc_'"
fi

# ---- the class page, in a browser ----
PAGE=$OUT/grades/class.html
grep -q 'Class standing (from the cluster runs)' "$PAGE" 2>/dev/null && grep -q '<td>alice</td><td>speedy</td>' "$PAGE" &&
    pass "standing: the class page shows the board with names (alice as speedy)" ||
    fail "standing: the class page has no board with names ($PAGE)"
if ! command -v chromium >/dev/null; then
    skip "standing: no chromium here (Debian's chromium: make deps), so the page was not looked at in a browser"
else
    SHOT=$OUT/class_page.png
    page_shot "$PAGE" "$SHOT" 1200x2600 "$OUT/chromium.log"
    size=$(stat -c %s "$SHOT" 2>/dev/null || echo 0)
    [ "$size" -gt 20000 ] && pass "standing: Chromium drew the class page with the board: $SHOT, $((size / 1024)) KiB" ||
        fail "standing: Chromium's screenshot is not a drawn page ($size bytes; see $OUT/chromium.log)"
fi
echo "standing suite: $(suite_seconds) s in all"
summary >/dev/null
