#!/usr/bin/env bash
# Self-test of the lecturer's demos (run by make test): make demo of every
# lab with a CPU form (labs 1, 2, 6's host backend, 7, lab 5's CPU backend, its timeline's
# MPI rows) runs the reference in at most 60 s, writes its picture (a PNG,
# not empty) and its page, which names whose code ran
# and the host; headless Chromium draws each page, and its screenshot is
# not blank. A demo of code that computes wrong figures draws no picture
# and fails; a GPU lab's demo on a host without a GPU fails in one line
# naming the way to one; make timeline refuses a lab without a timeline.
# The demos write into build/selftest/demo/ (DEMO_ROOT), not build/demo/.
# selftest: after the labs
# (queued after the labs' runs: the demos time themselves against the
# 60 s a lecture allows, on a machine the labs' runs no longer fill)
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

# The kit's objects that make test's lab runs built (its OUT), reused: a
# build from nothing (lab 7's CUDA files) would take longer than a demo.
RUN_OUT=${OUT:-}
suite_start demo shots
export DEMO_ROOT=$OUT
LIMIT=60

# Every demo draws with gnuplot (make deps installs it). A GPU host may lack
# it (its staged packages: make gpu-deps-fetch GPU_DEPS=demos): there the
# one check is that a demo stops in one line saying so.
if ! command -v gnuplot >/dev/null 2>&1; then
    make --no-print-directory demo LAB=1 >"$OUT/no-gnuplot.log" 2>&1
    rc=$?
    [ $rc != 0 ] && grep -q 'drawn by gnuplot, which is not installed here' "$OUT/no-gnuplot.log" &&
        pass "without gnuplot a demo stops (exit $rc) in one line naming it" ||
        fail "without gnuplot: make demo LAB=1 exit $rc, no line naming gnuplot (see $OUT/no-gnuplot.log)"
    skip "the demos' pictures, pages and run times: gnuplot is not installed here (make deps; a GPU host: make gpu-deps-fetch GPU_DEPS=demos)"
    summary >/dev/null
    exit $?
fi

# is_png FILE: the PNG signature and a non-empty image
is_png() { [ -s "$1" ] && [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ]; }

# drawn PNG: prints how many distinct byte values the image's pixel data
# has (a blank page: two or three, white and the rows' filter bytes)
drawn() {
    python3 -c 'import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
print(len(set(zlib.decompress(idat))))' "$1" 2>/dev/null || echo 0
}

# The timeline's panels from a made-up trace of two runs (no GPU needed):
# each panel has the rows of its own run, and a rank's events outside its
# own run's window are not drawn, though another rank's window reaches them.
python3 maintainer/selftest/timeline_trace.py "$OUT/timeline-trace" &&
    python3 common/demo/timeline.py "$OUT/timeline-trace" "$OUT/timeline-trace.png" --title "two runs" \
        --panel "serialized=run:0" --panel "overlapped=run:1" --list-rows >"$OUT/timeline-trace.txt" 2>&1
rows=$(grep '^overlapped row: ' "$OUT/timeline-trace.txt" | sed 's/^overlapped row: //' | paste -sd, -)
want="rank 0 MPI,rank 0 stream 20,rank 0 stream 21,rank 1 MPI,rank 1 stream 20,rank 1 stream 21"
[ "$rows" = "$want" ] && grep -q '^overlapped: 4.692 ms; .* kernel 9.200 ms$' "$OUT/timeline-trace.txt" &&
    is_png "$OUT/timeline-trace.png" && [ "$(drawn "$OUT/timeline-trace.png")" -gt 3 ] &&
    pass "timeline.py: a run's panel has its own streams' rows and none of the run before (rank 1 starts 3 us late)" ||
    fail "timeline.py on a made-up trace of two runs: the second panel's rows were '$rows', not '$want' (see $OUT/timeline-trace.txt)"

for lab in 1 2 5 6 7; do
    name=$(basename labs/lab"$lab"-*)
    log=$OUT/demo-lab$lab.log
    t0=$(date +%s)
    kit=
    [ -n "$RUN_OUT" ] && [ -d "$RUN_OUT/kit/lab$lab" ] && kit=$RUN_OUT/kit/lab$lab
    ${kit:+env KIT_BUILD="$kit"} make --no-print-directory demo LAB="$lab" >"$log" 2>&1
    rc=$? wall=$(($(date +%s) - t0))
    # the demo's own run time, its build done (its last lines: "... in S s; picture ...")
    secs=$(sed -n 's/^demo of lab .* in \([0-9]*\) s; picture .*/\1/p' "$log")
    page=$OUT/lab$lab/index.html
    pic=$(sed -n 's/.*<img src="\([^"]*\)".*/\1/p' "$page" 2>/dev/null)
    if [ $rc != 0 ] || [ ! -s "$page" ]; then
        fail "$name: make demo exit $rc, no page (see $log)"
        continue
    fi
    [ -n "$secs" ] && [ "$secs" -le $LIMIT ] && pass "$name: make demo runs in $secs s (at most $LIMIT; $wall s with its build)" ||
        fail "$name: make demo ran ${secs:-?} s, more than the $LIMIT s a lecture allows (see $log)"
    grep -q "its page: .*lab$lab/index.html" "$log" && pass "$name: make demo names its page" ||
        fail "$name: make demo's output does not name its page (see $log)"
    is_png "$OUT/lab$lab/$pic" && pass "$name: its picture $pic is a PNG ($(($(stat -c %s "$OUT/lab$lab/$pic") / 1024)) KiB)" ||
        fail "$name: its picture '$pic' is missing or not a PNG"
    grep -q "reference solution of $name" "$page" && grep -q "Host: $(bench_cpu_name)" "$page" &&
        pass "$name: the page says whose code ran and on which host" || fail "$name: the page lacks whose code or the host ($page)"
    if ! command -v chromium >/dev/null; then
        skip "$name: no chromium here (Debian's chromium: make deps), so the page was not drawn"
        continue
    fi
    shot=$OUT/shots/lab$lab.png
    page_shot "$page" "$shot" 1600x1400 "$OUT/shots/lab$lab.log"
    values=$(drawn "$shot")
    is_png "$shot" && [ "$values" -gt 32 ] && pass "$name: Chromium draws the page: $shot ($values distinct values)" ||
        fail "$name: Chromium's screenshot of the page is missing or blank ($values distinct values; see $OUT/shots/lab$lab.log)"
done

# The skeleton's lab 1 computes nothing: no picture of a wrong answer.
make --no-print-directory demo LAB=1 IMPL=skeleton >"$OUT/skeleton.log" 2>&1
rc=$?
[ $rc != 0 ] && grep -q 'INVALID' "$OUT/skeleton.log" && [ ! -e "$OUT/lab1/index.html" ] &&
    pass "a demo of wrong results fails (exit $rc), says INVALID and writes no page" ||
    fail "a demo of the skeleton's wrong results: exit $rc, or no INVALID, or a page (see $OUT/skeleton.log)"
# A GPU lab on a host without one: one line naming the route to a GPU.
if [ "$(bench_gpu_count)" = 0 ]; then
    make --no-print-directory demo LAB=3 >"$OUT/gpu.log" 2>&1
    rc=$?
    [ $rc != 0 ] && grep -q 'SCHED=slurm' "$OUT/gpu.log" && pass "lab 3's demo without a GPU: $(grep -m1 'needs' "$OUT/gpu.log")" ||
        fail "lab 3's demo without a GPU: exit $rc, no line naming the way to a GPU (see $OUT/gpu.log)"
fi
make --no-print-directory timeline LAB=2 >"$OUT/timeline.log" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'labs 4, 5 and 6' "$OUT/timeline.log" && pass "make timeline LAB=2 is refused: it names the labs that have one" ||
    fail "make timeline LAB=2: exit $rc (see $OUT/timeline.log)"
echo "demo suite: $(suite_seconds) s in all"
summary >/dev/null
