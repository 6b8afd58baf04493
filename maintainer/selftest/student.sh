#!/usr/bin/env bash
# Self-test that plays a student (run by make test): in the released copy,
# for a CPU lab (1) and an MPI lab (5), on this host (no GPU in CI):
#   - a syntax error: the compiler's message names the file the student
#     edits (labs/...), not the build folder's copy; in a .cu file of labs
#     3 and 7 too (nvcc's), and make labN fails;
#   - the score line, in points, right before Check's summary; without a
#     GPU (lab 3), the points that need one and the way to one;
#   - M_PI compiles in a student file;
#   - make check after that failed build refuses, in one line;
#   - an endless loop in one function: make check ends within its budget
#     for hangs and names the test and the function it was stuck in, at
#     the student's file and line;
#   - each call rule's message is said once (the untouched skeleton);
#   - the CUDA stubs left as they are: the GPU tests SKIP where there is
#     no GPU (CI), and run and FAIL on a GPU host;
#   - the README's promised points equal make check's own list (--list);
#   - with the lab's files finished (the reference's, put where the student
#     edits), make check passes what runs here, make demo (lab 5) and make
#     bench BENCH_QUICK=1 work;
#   - the hints (autograder/hints.h), lab 5: the stencil's additions in
#     another order ("another order of additions?"), the answer of the
#     step before the last ("one step behind?");
#   - lab 6's taskqueue with a data race: the TSan failure names the first
#     race's two accesses in the student's file;
#   - lab 6's baseline without its first synchronize: the failure shows the
#     backend's own reason, not only "returned -1".
#   - make deps in the copy installs the students' packages only: each line
#     of the list has a role, none of the students' starts a service (no
#     systemd unit or init script where dpkg knows the package), and
#     ROLE=instructor is refused there;
#   - make bench without a terminal (a batch job's) prints a line per
#     measurement with the time left; stopped by a signal, it keeps the
#     runs so far (bench.partial.csv) and leaves no scratch file.
# The lines a student would see are kept in build/selftest/student/.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
# selftest: long
set -u
cd "$(dirname "$0")/../.." || exit 2
KIT=$(pwd)
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

OUT=$KIT/build/selftest/student
fresh_dir "$OUT"
COPY=$OUT/kit-student
GPUS=$(selftest_gpu_count)
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

# make deps on a student's laptop: the list's roles, read in the copy.
deps_student() {
    local unmarked students daemons=() p units
    unmarked=$(awk '!/^#/ && NF && ($2 !~ /^(student|instructor|maintainer)$/ || NF != 2)' "$COPY/common/mk/debian-packages.txt")
    [ -z "$unmarked" ] && pass "make deps: every package of the list has its role" ||
        fail "make deps: lines of common/mk/debian-packages.txt without a role: ${unmarked//$'\n'/; }"
    students=$(cd "$COPY" && common/mk/deps list student)
    for p in $students; do
        case $p in slurm* | munge | chromium | similarity-tester | bubblewrap | mmdebstrap | umoci | shellcheck) daemons+=("$p") ;; esac
        units=$(dpkg -L "$p" 2>/dev/null | grep -E '^/(usr/)?lib/systemd/system/[^/]+\.(service|socket)$|^/etc/init\.d/' || true)
        [ -z "$units" ] || daemons+=("$p (${units//$'\n'/ })")
    done
    [ -n "$students" ] && [ "${#daemons[@]}" = 0 ] &&
        pass "make deps in the copy: $(wc -w <<<"$students") students' packages, none an instructor's or one that starts a service" ||
        fail "make deps in the copy would install: ${daemons[*]:-nothing}"
    (cd "$COPY" && make -n --no-print-directory deps) 2>&1 | grep -qx 'common/mk/deps install student' &&
        pass "make deps in the copy installs the students' set" || fail "make deps in the copy does not install the students' set: $(cd "$COPY" && make -n deps 2>&1)"
    ! (cd "$COPY" && make -n --no-print-directory deps ROLE=instructor) >"$OUT/deps-role.log" 2>&1 && grep -q 'your copy needs only make deps' "$OUT/deps-role.log" &&
        pass "make deps ROLE=instructor in the copy is refused: $(cat "$OUT/deps-role.log")" ||
        fail "make deps ROLE=instructor in the copy is not refused (see $OUT/deps-role.log)"
}
deps_student

# in_copy LOG CMD...: runs CMD in the copy, output in LOG; its status.
in_copy() {
    local log=$1
    shift
    (cd "$COPY" && "$@") >"$log" 2>&1
}

# score_lines LAB LOG: the score line, in points, comes right before
# Check's summary, which ends the output; where GPU tests were skipped, it
# says how many points need a GPU and the way to one.
score_lines() {
    local lab=$1 log=$2 score last
    score=$(grep -v '^make' "$log" | tail -n 2 | head -n 1) # (make's own "Error 1" lines follow)
    last=$(grep -v '^make' "$log" | tail -n 1)
    [[ "$score" =~ ^score:\ [0-9.]+/[0-9.]+\ points ]] && [[ "$last" =~ ^[0-9]+%:\ Checks: ]] &&
        pass "lab $lab: the score line, in points, right before Check's summary: '$score'" ||
        fail "lab $lab: the last two lines are not the score in points and Check's summary: '$score' / '$last'"
    if [ "$GPUS" = 0 ] && grep -q '^  SKIP .*needs [0-9] GPU' "$log"; then
        [[ "$score" =~ \ [0-9.]+\ points?\ needs?\ a\ GPU ]] && [[ "$score" == *"make check SCHED=slurm|lsf SCHED_OPTS="*'"GPU tests on a cluster"'* ]] &&
            pass "lab $lab: without a GPU the score line says the points that need one and the way to it" ||
            fail "lab $lab: the score line lacks the points that need a GPU or the way to one: '$score'"
    fi
}

# check_refuses LAB LOG WHAT: make check after a failed build (WHAT) of
# the lab refuses in one line that names make labN, and scores nothing.
check_refuses() {
    local lab=$1 log=$2 rc
    in_copy "$log-stale.log" make --no-print-directory check
    rc=$?
    [ "$rc" != 0 ] && grep -q "run 'make lab$lab'" "$log-stale.log" && ! grep -q '^score' "$log-stale.log" &&
        pass "lab $lab: make check after the failed $3 refuses: $(head -1 "$log-stale.log")" ||
        fail "lab $lab: make check after a failed $3 ran or said nothing useful (see $log-stale.log)"
}

# cu_syntax LAB FILE: a syntax error in a .cu file the student edits fails
# make labN, naming the file and line (gcc's FILE:LINE: or nvcc's
# FILE(LINE):), and make check then refuses. Lab 3 also: the untouched
# skeleton's score line without a GPU.
cu_syntax() {
    local lab=$1 file=$2 dir rel log line want
    dir=$(cd "$COPY" && echo labs/lab"$lab"-*)
    rel=$dir/$file
    log=$OUT/lab$lab-cu
    if ! selftest_nvcc >/dev/null; then
        skip "lab $lab: no nvcc here to build it"
        return
    fi
    if ! in_copy "$log-build.log" make --no-print-directory "lab$lab"; then
        fail "lab $lab: the skeleton does not build in the copy (see $log-build.log)"
        return
    fi
    if [ "$lab" = 3 ]; then
        in_copy "$log-check.log" make --no-print-directory check
        score_lines "$lab" "$log-check.log"
        # the copy's README shows lab 3's score line: its totals must be what lab 3 prints
        local said shown
        said=$(sed -n 's|^score: [0-9.]*\(/[0-9.]* points\) ([0-9]*%)\(; [0-9.]* points\? needs\? a GPU\).*|\1\2|p' "$log-check.log")
        shown=$(sed -n 's|^score: [0-9.]*\(/[0-9.]* points\) ([0-9]*%)\(; [0-9.]* points\? needs\? a GPU\).*|\1\2|p' "$COPY/README.md")
        [ -z "$said" ] || { [ "$said" = "$shown" ] && pass "lab 3: the README's sample score line has make check's totals ($said)" ||
            fail "lab 3: the README's sample score line says '$shown', make check '$said'"; }
    fi
    cp "$COPY/$rel" "$log.orig"
    want=$(grep -n -m1 '^{' "$COPY/$rel" | cut -d: -f1)
    sed -i "0,/^{/s/^{/{ int syntax_error = ;/" "$COPY/$rel"
    if in_copy "$log-syntax.log" make --no-print-directory "lab$lab"; then
        fail "lab $lab: a syntax error in $rel built (make lab$lab exit 0)"
    else
        line=$(grep -m1 -E "error" "$log-syntax.log")
        [[ "$line" == "$rel:$want:"* || "$line" == "$rel($want):"* ]] &&
            pass "lab $lab: a syntax error in $file fails make lab$lab, naming the line: $line" ||
            fail "lab $lab: the compiler's error does not name $rel line $want: $line (see $log-syntax.log)"
    fi
    check_refuses "$lab" "$log" ".cu build"
    cp "$log.orig" "$COPY/$rel"
}

# M_PI in a student file: the kit's -std=c17 hides it unless the student
# objects get _DEFAULT_SOURCE (common/mk/lab.mk).
m_pi() {
    local rel=labs/lab1-matmult/matmult.c
    cp "$COPY/$rel" "$OUT/m_pi.orig"
    printf '\n#include <math.h>\ndouble kit_selftest_pi(void) { return M_PI; }\n' >>"$COPY/$rel"
    in_copy "$OUT/m_pi.log" make --no-print-directory lab1 &&
        pass "M_PI compiles in a student file (lab 1's matmult.c)" ||
        fail "M_PI does not compile in a student file: $(grep -m1 error "$OUT/m_pi.log")"
    cp "$OUT/m_pi.orig" "$COPY/$rel"
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
    if grep -qE '\(needs [0-9]+ GPUs?\)' "$log-list.txt"; then
        local gpu_pass gpu_fail
        if [ "$GPUS" = 0 ]; then
            gpu_fail=$(grep -E '^  (FAIL|CRASH|TIMEOUT|PASS) .* gpu' "$log-check.log" | head -1)
            [ -z "$gpu_fail" ] && grep -q '^  SKIP .*needs [0-9] GPU' "$log-check.log" &&
                pass "lab $lab: with the CUDA stubs untouched, the GPU tests SKIP: $(grep -m1 '^  SKIP' "$log-check.log")" ||
                fail "lab $lab: a GPU test did not skip: $gpu_fail"
        else # the stubs' GPU tests run and fail (those for more GPUs than there are may skip)
            gpu_pass=$(grep -E '^  PASS .* gpu' "$log-check.log" | head -1)
            gpu_fail=$(grep -E '^  (FAIL|CRASH|TIMEOUT) .* gpu' "$log-check.log" | head -1)
            [ -z "$gpu_pass" ] && [ -n "$gpu_fail" ] &&
                pass "lab $lab: with the CUDA stubs untouched, the GPU tests run on this host's GPU and fail: $gpu_fail" ||
                fail "lab $lab: with the CUDA stubs untouched, a GPU test passes or none ran: ${gpu_pass:-no GPU test failed} (see $log-check.log)"
        fi
    fi
    # Each call rule's message in full once, whatever number of tests it fails.
    local said twice
    said=$(grep -oE '[a-z_]+ (makes none of the calls this lab requires of it \([^)]*\)|calls [A-Za-z_0-9]+)' "$log-check.log")
    twice=$(sort <<<"$said" | uniq -d | head -1)
    if [ -n "$said" ]; then
        [ -z "$twice" ] && pass "lab $lab: each call rule's message said once ($(wc -l <<<"$said") messages)" ||
            fail "lab $lab: a call rule's message said more than once: $twice (see $log-check.log)"
    fi
    local checks score
    checks=$(grep -E '^[0-9]+%: Checks: ' "$log-check.log")
    score=$(sed -n 's/^score: //p' "$log-check.log")
    [[ "$checks" =~ Checks:\ ([0-9]+) ]] && [ "${BASH_REMATCH[1]}" = "$(grep -cE '^  (PASS|FAIL|CRASH|TIMEOUT|NOT RUN) ' "$log-check.log")" ] &&
        pass "lab $lab: Check's summary counts the lines shown ('$checks', score $score)" ||
        fail "lab $lab: Check's summary '$checks' disagrees with the lines (see $log-check.log)"
    score_lines "$lab" "$log-check.log"

    # The assignment names only what works in the copy.
    local kitonly
    kitonly=$(grep -nE 'IMPL=reference|make grade|make release|make test|gpu-host/run' "$COPY/$dir/README.md" | head -2)
    [ -z "$kitonly" ] && pass "lab $lab: its README in the copy names only what works there" ||
        fail "lab $lab: its README in the copy names what the copy lacks: $kitonly"

    # The README's points against make check's list.
    local msg
    msg=$(python3 maintainer/selftest/readme_points.py "$COPY/$dir/README.md" "$log-list.txt") &&
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
    check_refuses "$lab" "$log" build

    # An endless loop in one function.
    cp "$log.orig" "$COPY/$rel"
    sed -i "/^[a-z].*[ *]$func(/,/^{/s/^{/{ for (volatile int spin = 1; spin;) { }/" "$COPY/$rel"
    t0=$(date +%s)
    if in_copy "$log-loop-build.log" make --no-print-directory "lab$lab"; then
        in_copy "$log-loop.log" make --no-print-directory check
        secs=$(($(date +%s) - t0))
        # Every line of a test that hung names the function, at the student's file.
        local hung elsewhere
        hung=$(grep -m1 "stuck in " "$log-loop.log")
        elsewhere=$(grep -E '^  (TIMEOUT|FAIL) ' "$log-loop.log" | grep -E 'stuck in|never returned|ran out of time' |
            grep -vF "stuck in $func ($rel:" | head -1)
        [ "$secs" -le "$HANG_LIMIT" ] && [[ "$hung" == *"stuck in $func ($rel:"* ]] && [ -z "$elsewhere" ] &&
            pass "lab $lab: an endless loop in $func: make check ends in $secs s, naming it: $hung" ||
            fail "lab $lab: an endless loop in $func: $secs s, line '$hung'${elsewhere:+, and: $elsewhere} (see $log-loop.log)"
    else
        fail "lab $lab: the planted loop does not build (see $log-loop-build.log)"
    fi

    # The lab finished (the reference's files where the student edits them).
    local f
    # shellcheck disable=SC2016 # $(STUDENT_FILES) is make's, expanded by make
    for f in $(make -s --no-print-directory -f common/mk/lab.mk LAB="$lab" --eval 'print-sf: ; @echo $(STUDENT_FILES)' print-sf); do
        cp "$dir/solution/$f" "$COPY/$dir/$f"
    done
    if in_copy "$log-done.log" make --no-print-directory "lab$lab" && in_copy "$log-done-check.log" make --no-print-directory check; then
        pass "lab $lab finished: make check passes what runs here ($(sed -n 's/^score: //p' "$log-done-check.log"))"
    else
        fail "lab $lab finished: make check fails (see $log-done-check.log)"
    fi
    if [ -f "$COPY/$dir/demo.sh" ] && ! command -v gnuplot >/dev/null; then
        # a GPU host has no gnuplot, which demo.sh's pictures need: make demo must say so in one line
        ! in_copy "$log-demo.log" make --no-print-directory demo LAB="$lab" && grep -q 'not installed here' "$log-demo.log" &&
            pass "lab $lab: make demo without gnuplot says why: $(grep -m1 'not installed here' "$log-demo.log")" ||
            fail "lab $lab: make demo without gnuplot does not say why (see $log-demo.log)"
    elif [ -f "$COPY/$dir/demo.sh" ] || grep -q '^demo:' "$COPY/$dir/lab.mk"; then
        in_copy "$log-demo.log" make --no-print-directory demo LAB="$lab" &&
            pass "lab $lab: make demo runs the student's code: $(tail -n 1 "$log-demo.log")" ||
            fail "lab $lab: make demo fails (see $log-demo.log)"
    fi
    # make's echo of the script is not for students: the first line is the run's
    if [ -s "$log-demo.log" ]; then
        head -n 1 "$log-demo.log" | grep -qE '^[^ ]*\.sh$' && fail "lab $lab: make demo's first line is a script's path: $(head -n 1 "$log-demo.log")" ||
            pass "lab $lab: make demo's first line is the run's: $(head -n 1 "$log-demo.log")"
    fi
    if in_copy "$log-bench.log" make --no-print-directory bench LAB="$lab" BENCH_QUICK=1; then
        pass "lab $lab: make bench BENCH_QUICK=1 works: $(grep -m1 building "$log-bench.log")"
    else
        fail "lab $lab: make bench BENCH_QUICK=1 fails (see $log-bench.log)"
    fi
    # Its log is not a terminal, as a batch job's is not: a line a run, with the time left.
    if grep -q bench_run_points "$COPY/$dir/bench.sh"; then
        grep -qE '^  run [0-9]+/[0-9]+ .*, about .* left$' "$log-bench.log" &&
            pass "lab $lab: make bench without a terminal says each run and the time left: $(grep -m1 -E '^  run [0-9]+/' "$log-bench.log")" ||
            fail "lab $lab: make bench without a terminal is silent while it measures (see $log-bench.log)"
    fi
    # (Labs 5 to 7 print their own label, not common/bench/bench_lib.sh's.)
    if grep -q '(skeleton)' "$log-bench.log"; then
        skip "lab $lab: make bench labels the student's own build '(skeleton)' ($dir/bench.sh)"
    fi
    [ "$lab" = 5 ] && hints5 "$dir" "$log"
}

# hint LAB LOG NAME TEST TEXT: the finished lab with one mistake planted
# (by the caller), built; TEST's line must show TEXT.
hint() {
    local lab=$1 log=$2-$3 name=$3 test=$4 text=$5 line
    if ! in_copy "$log-build.log" make --no-print-directory "lab$lab"; then
        fail "lab $lab: $name: the planted mistake does not build (see $log-build.log)"
        return
    fi
    in_copy "$log.log" make --no-print-directory check CHECK_ARGS="--only $test"
    line=$(grep -m1 -A3 "^  [A-Z]* .* $test:" "$log.log" | tr '\n' ' ')
    [[ "$line" == *"$text"* ]] && pass "lab $lab: $name: $test's line says '$text': ${line:0:400}" ||
        fail "lab $lab: $name: $test's line lacks '$text' (see $log.log)"
}

# A batch job's end (SIGTERM; SIGINT alike) during lab 1's full benchmark,
# once two runs are measured: the runs so far are kept, marked partial, and
# no scratch file is left (TMPDIR is a folder of the test's own, which must
# stay empty).
bench_batch_end() {
    local log=$OUT/bench-stopped out=$OUT/bench-stopped.d part pid left
    mkdir -p "$log.tmp"
    (cd "$COPY" && TMPDIR=$log.tmp BENCH_OUT=$out exec labs/lab1-matmult/bench.sh) >"$log.log" 2>&1 &
    pid=$!
    for _ in $(seq 240); do
        grep -q '^  run 2/' "$log.log" && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
    kill -TERM "$pid" 2>/dev/null
    wait "$pid"
    part=$out/bench.partial.csv
    [ -f "$part" ] && head -n 1 "$part" | grep -q '^# PARTIAL' && [ "$(wc -l <"$part")" -gt 2 ] &&
        pass "make bench stopped: the runs so far kept, marked partial: $(grep -m1 'stopped after' "$log.log")" ||
        fail "make bench stopped: no partial CSV of the runs so far (see $log.log)"
    left=$(find "$log.tmp" "$out" -maxdepth 1 \( -path "$log.tmp/*" -o -name '.scratch.*' \) | tr '\n' ' ')
    [ -z "$left" ] && pass "make bench stopped: no scratch file left behind" ||
        fail "make bench stopped: scratch files left: $left"
}

hints5() { # DIR LOG: lab 5 finished, two mistakes, one at a time
    local dir=$1 log=$2 f
    f=$COPY/$dir/stencil_cpu.c
    cp "$f" "$f.done"
    sed -i 's/(((((left + right) + top) + bottom) + behind) + front)/(((((front + behind) + bottom) + top) + right) + left)/' "$f"
    if cmp -s "$f" "$f.done"; then
        fail "lab 5: the stencil's sum to reorder is not in the reference's stencil_cpu.c"
    else
        hint 5 "$log" order stencil_composition "another order of additions?"
    fi
    mv "$f.done" "$f"
    cp "$COPY/$dir/compute.c" "$log-compute.c.done"
    if patch -s -p1 -d "$COPY/$dir" <labs/lab5-cuda-mpi-stencil/mutants/answer_in_wrong_buffer.patch; then
        hint 5 "$log" behind e2e_three_ranks "one step behind?"
    else
        fail "lab 5: the mutant answer_in_wrong_buffer no longer applies to the reference"
    fi
    cp "$log-compute.c.done" "$COPY/$dir/compute.c"
}

# Lab 6's taskqueue with a data race (the mutant lock_with_plain_accesses):
# make check's TSan failure names the first race's two accesses in the
# student's file, labs/..., not the build folder's copy or the harness.
tsan6() {
    local dir log=$OUT/lab6 f line accesses ours
    dir=$(cd "$COPY" && echo labs/lab6-*)
    if ls "$COPY/$dir"/*.cu >/dev/null 2>&1 && ! selftest_nvcc >/dev/null; then
        skip "lab 6: no nvcc here to build it"
        return
    fi
    # shellcheck disable=SC2016 # $(STUDENT_FILES) is make's, expanded by make
    for f in $(make -s --no-print-directory -f common/mk/lab.mk LAB=6 --eval 'print-sf: ; @echo $(STUDENT_FILES)' print-sf); do
        cp "$dir/solution/$f" "$COPY/$dir/$f"
    done
    if ! patch -s -p1 -d "$COPY/$dir" <labs/lab6-halo-taskqueue/mutants/lock_with_plain_accesses.patch ||
        ! in_copy "$log-race-build.log" make --no-print-directory lab6; then
        fail "lab 6: the taskqueue with a race does not build (see $log-race-build.log)"
        return
    fi
    in_copy "$log-race.log" make --no-print-directory check CHECK_ARGS="--only taskqueue_thread_sanitizer"
    line=$(grep -m1 '^  FAIL .* taskqueue_thread_sanitizer:' "$log-race.log")
    # The report's first race: its two accesses ("Read of size 4 ..." and
    # "Previous write ...") and the innermost frame of each.
    accesses=$(grep -A1 -E '^ *(Read|Write|Atomic read|Atomic write|Previous [a-z ]+) of size' "$log-race.log" |
        grep -oE '#0 [A-Za-z_0-9]+ [^ ]+:[0-9]+' | head -2)
    ours=$(grep -c " $dir/taskqueue.c:" <<<"$accesses")
    accesses=$(tr '\n' ' ' <<<"$accesses")
    [ -n "$line" ] && [ "$ours" = 2 ] &&
        pass "lab 6: a data race in taskqueue.c: make check names its two accesses in the student's file: $accesses" ||
        fail "lab 6: the TSan failure does not name the race's two accesses in $dir/taskqueue.c: '$accesses' (see $log-race.log)"
    # ... and the variant that raced, with no "ok" for it
    local variant
    variant=$(sed -n 's/^lab6_tq_stress: the \(.*\) now (a race reported next is in it.*/\1/p' "$log-race.log" | tail -n 1)
    [ -n "$variant" ] && ! grep -q "^ok $variant:" "$log-race.log" &&
        pass "lab 6: the TSan failure names the variant that raced: the $variant" ||
        fail "lab 6: the TSan failure does not name the variant that raced, or says ok for it (see $log-race.log)"
}

# Lab 6's baseline without the synchronize between pack and MPI: the
# backend refuses the next launch with a line of its own, which the test's
# FAIL text must carry (the checker's line says only "returned -1").
reason6() {
    local dir log=$OUT/lab6-reason f
    dir=$(cd "$COPY" && echo labs/lab6-*)
    if ! selftest_nvcc >/dev/null; then
        skip "lab 6: no nvcc here to build it"
        return
    fi
    # shellcheck disable=SC2016 # $(STUDENT_FILES) is make's, expanded by make
    for f in $(make -s --no-print-directory -f common/mk/lab.mk LAB=6 --eval 'print-sf: ; @echo $(STUDENT_FILES)' print-sf); do
        cp "$dir/solution/$f" "$COPY/$dir/$f"
    done
    # the first "if (be->synchronize())" and its "return -1;"
    sed -i '0,/if (be->synchronize())/{/if (be->synchronize())/{N;d}}' "$COPY/$dir/halo_baseline.c"
    if cmp -s "$COPY/$dir/halo_baseline.c" "$dir/solution/halo_baseline.c" ||
        ! in_copy "$log-build.log" make --no-print-directory lab6; then
        fail "lab 6: the baseline without synchronize is not made or does not build (see $log-build.log)"
        return
    fi
    in_copy "$log.log" make --no-print-directory check CHECK_ARGS="--only baseline_two_ranks"
    sed -n '/^  FAIL .* baseline_two_ranks:/,/^score/p' "$log.log" | grep -q '^host backend: a launch while the previous one runs (synchronize first)' &&
        pass "lab 6: a baseline without synchronize: the failure carries the backend's reason: $(grep -m1 '^host backend' "$log.log")" ||
        fail "lab 6: a baseline without synchronize: the backend's reason is not in the failure (see $log.log)"
    # ... and a sanitizer's stop after those failures (a pack that runs on
    # after the failed call: here made certain, a store that overflows from
    # the 31st pack on) comes after them, as their possible consequence.
    sed -i 's|^    for (size_t i = (size_t)tid; i < n; i += (size_t)nthreads)$|    static int calls;\n    int c = __atomic_add_fetch(\&calls, 1, __ATOMIC_RELAXED);\n    if (c > 30) { int big = 2147483600; big += c * 1000; send_buf[0] = big; }\n&|' "$COPY/$dir/halo_pack.c"
    if ! grep -q 'big += c' "$COPY/$dir/halo_pack.c" || ! in_copy "$log-san-build.log" make --no-print-directory lab6; then
        fail "lab 6: the pack that overflows is not made or does not build (see $log-san-build.log)"
        return
    fi
    in_copy "$log-san.log" make --no-print-directory check CHECK_ARGS="--only baseline_two_ranks"
    local fail_text
    fail_text=$(sed -n '/^  FAIL .* baseline_two_ranks:/,/^score/p' "$log-san.log")
    grep -q '^after those failures the sanitizers stopped a rank (perhaps their consequence' <<<"$fail_text" &&
        ! sed -n '1,/^FAIL rank/p' <<<"$fail_text" | grep -q 'halo_pack.c' &&
        pass "lab 6: a sanitizer's stop after failures follows them, not named as their cause: $(grep -m1 '^after those' <<<"$fail_text" | cut -c1-200)" ||
        fail "lab 6: a sanitizer's stop after failures is missing or said as their cause (see $log-san.log)"
}

m_pi
play 1 matmult.c matmult_nat
bench_batch_end
# (distribution_plan: the one function of lab 5 that only one test calls
# in the skeleton, so its loop costs one test's time limit, not four)
play 5 server.c distribution_plan
cu_syntax 3 matmult_gpu.cu
cu_syntax 7 fp_cuda.cu
tsan6
reason6
summary
