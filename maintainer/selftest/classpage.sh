#!/usr/bin/env bash
# Self-test of the class's page (run by make test): grades a small lab 1
# class with performance points (right, wrong, slow, refused, not
# building), runs the similarity report on it, and checks class.html as an
# instructor sees it, in a real browser: Debian's headless Chromium takes a
# screenshot; the page's tables are read back and must agree with the
# gradebook (each test's failures, most failed first), the review list must
# name the refused submission, the leaderboard must name no one and go with
# --no-leaderboard, the similarity pairs must link to the report; make
# similarity rewrites the page itself; in Chromium's DOM every link and
# picture is a file that exists and the counts are the gradebook's and the
# histogram's.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
# selftest: long
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

suite_start classpage class
sandbox_runs "class page: the sandbox cannot run here, so no class is graded" || exit 0

# ---- the class: 7 lab 1 submissions ----
datasets/lab1-submissions/generate "$OUT/generated" >"$OUT/generate.log" 2>&1 ||
    { fail "class page: the submission generator failed (see $OUT/generate.log)"; exit 0; }
for s in c01_reference c03_zip.zip c08_static_helpers h12_replaces_libc m05_knm_m_and_n_swapped b01_does_not_compile; do
    cp -r "$OUT/generated/submissions/$s" "$OUT/class/" || fail "class page: the generator made no $s"
done
# one correct but 3 times slow: a spread of performance points
mkdir -p "$OUT/class/s_blk_times_3"
sed 's/^void matmult_blk(/static void blk_once(/' labs/lab1-matmult/solution/matmult.c >"$OUT/class/s_blk_times_3/matmult.c"
printf '%s\n' "void matmult_blk(int m, int n, int k, const double *A, const double *B, double *C, int bs)" \
    "{" "    for (int r = 0; r < 3; r++)" "        blk_once(m, n, k, A, B, C, bs);" "}" >>"$OUT/class/s_blk_times_3/matmult.c"
# -j 2, and lab 1's blk entry (its tests/perf.conf's) timed at a size
# that fits the cache: the page is tested here, not the performance
# figures' precision (the lab's own size: perf.timed's unit tests).
req=$(awk '$1 == "blk" { print $6 }' labs/lab1-*/tests/perf.conf)
echo "1 blk 4 2.0 10.0 1 $req lab1_blk 256 1024 1024 64" >"$OUT/perf.conf"
GRADE_PERF_CONF=$OUT/perf.conf instructor/grade -j 2 --wall 120 -o "$OUT/grades" 1 "$OUT/class" >"$OUT/grade.log" 2>&1
rc=$?
PAGE=$OUT/grades/class.html
[ "$rc" = 0 ] && [ -s "$PAGE" ] && grep -q "class.html" "$OUT/grade.log" &&
    pass "class page: make grade wrote class.html and said where ($(suite_seconds) s for 7 submissions)" ||
    { fail "class page: no class.html after grading (status $rc, see $OUT/grade.log)"; exit 0; }

# ---- the similarity report, then the page again with its pairs ----
if command -v sim_c >/dev/null; then
    instructor/similarity --grades "$OUT/grades" -o "$OUT/similarity" 1 "$OUT/class" >"$OUT/similarity.log" 2>&1 &&
        grep -q "similarity: the class's page: $OUT/grades/class.html" "$OUT/similarity.log" ||
        fail "class page: the similarity report did not write the page again (see $OUT/similarity.log)"
fi

# ---- the page's content against the gradebook ----
PYTHONPATH=instructor:autograder${PYTHONPATH:+:$PYTHONPATH} python3 -m grading.tests.classpage_check "$PAGE" "$OUT/grades" \
    "$([ -e "$OUT/similarity/similarity.csv" ] && echo "$OUT/similarity")" || fail "class page: its check did not run"

classpage() { PYTHONPATH=instructor:autograder${PYTHONPATH:+:$PYTHONPATH} python3 -m grading.classpage "$@"; }
classpage "$OUT/grades" --no-leaderboard >/dev/null 2>&1
grep -q 'anonymised' "$PAGE" && fail "class page: --no-leaderboard still shows the leaderboard" ||
    pass "class page: --no-leaderboard leaves the leaderboard out"
classpage "$OUT/grades" >/dev/null 2>&1

# ---- in a real browser ----
if ! command -v chromium >/dev/null; then
    skip "class page: no chromium here (Debian's chromium: make deps), so the page was not looked at in a browser"
else
    SHOT=$OUT/class_page.png
    page_shot "$PAGE" "$SHOT" 1200x2600 "$OUT/chromium.log"
    size=$(stat -c %s "$SHOT" 2>/dev/null || echo 0)
    # A PNG's width and height: bytes 16-23 of its header, big-endian.
    dims=$(od -An -tu1 -j16 -N8 "$SHOT" 2>/dev/null | awk '{ printf "%dx%d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }')
    # (a blank page of that size compresses to a few KiB)
    [ "$dims" = 1200x2600 ] && [ "$size" -gt 50000 ] &&
        pass "class page: Chromium ($(chromium --version 2>/dev/null | awk 'NR == 1 { print $2 }')) drew it: $SHOT, $dims, $((size / 1024)) KiB" ||
        fail "class page: Chromium's screenshot is not a drawn page ($dims, $size bytes; see $OUT/chromium.log)"
    timeout 120 chromium --headless=new --no-sandbox --disable-gpu --dump-dom "file://$PAGE" >"$OUT/dom.html" 2>>"$OUT/chromium.log"
    PYTHONPATH=instructor:autograder${PYTHONPATH:+:$PYTHONPATH} python3 -m grading.tests.classpage_check --dom "$OUT/dom.html" \
        "$OUT/grades" || fail "class page: the check of Chromium's DOM did not run"
fi
echo "class page suite: $(suite_seconds) s in all"
summary >/dev/null
