#!/usr/bin/env bash
# Self-test for a GPU host (autograder/gpu-host/run selftest): the GPU labs'
# references built for the course's older GPUs, run on this one. Each case
# builds a lab's reference as PTX only (CUDA_ARCH=compute_XY: no code for
# this GPU, so the driver compiles the PTX at load and __CUDA_ARCH__ is XY0
# in it), so that the code paths below this GPU's architecture run here:
#   - every test that needs a GPU and that this host's GPU count allows
#     passes, the rest are skipped for the GPU count alone; the tests that
#     need no GPU run no code of nvcc's, and the self-test's reference run
#     has them;
#   - the student's objects hold that PTX and no GPU code (cuobjdump), or
#     the run proves nothing about the older GPU;
#   - one mutant of the lab's GPU code is still caught there.
# The cases: lab 3 three times, one per path of its fast kernels
# (compute_75: CUDA cores and register-staged copies; compute_80: FP64
# tensor cores and cp.async; compute_89: CUDA cores with cp.async, the
# path of every GPU whose FP64 is a small fraction of its FP32); lab 4 for
# compute_75, below its cp.async (the self-test's native build runs the
# path above); labs 5-7, with no path of their own per architecture, for
# compute_80. One case more builds a lab for a later architecture than this
# GPU's and asserts that its GPU tests are skipped with one message naming
# the build, never a crash or a failure charged to the student.
#
# Chaos seeds off (CHAOS=0): they test ordering, not the architecture, and
# the self-test's own runs have them. The cases run at once
# (PTX_ARCHS_JOBS, default half the cores); PTX_ARCHS_LABS="3 4" picks
# labs (default: the self-test's SELFTEST_LABS, else all). Without a GPU
# it says so in a skip line and builds nothing; PTX_ARCHS_BUILD_ONLY=1
# builds every case there all the same and runs what needs no GPU, and
# still claims no pass. Run on its own with OUT set (a device run's output
# folder), its lines also go to $OUT/ptx_archs.log and its cases' logs to
# $OUT/ptx_archs/.
set -u
cd "$(dirname "$0")/../.." || exit 2
. maintainer/selftest/lib.sh
log_to=
[ -z "${SELFTEST_OUT:-}" ] && log_to=${OUT:-} # not make test's own folder
suite_start ptx_archs
logs=("$OUT/ptx_archs.log")
if [ -n "$log_to" ] && mkdir -p "$log_to"; then logs+=("$log_to/ptx_archs.log"); fi

# LAB ARCH MUTANT: the mutant is one of the lab's that a GPU test catches,
# in the file whose paths differ by architecture where the lab has such.
cases=(
    "3 compute_75 gpu6_drops_k_tail"
    "3 compute_80 gpu6_drops_k_tail"
    "3 compute_89 gpu6_drops_k_tail"
    "4 compute_75 gpu3_ring_skips_boundary_row"
    "5 compute_80 gpu_missing_syncthreads"
    "6 compute_80 gpu_read_always_samples"
    "7 compute_80 gpu_post_forward_no_conjugate"
)
later_lab=6 # the later-architecture case: one .cu file to build

GPUS=$(selftest_gpu_count)
build_only=${PTX_ARCHS_BUILD_ONLY:-0}
if [ "$GPUS" = 0 ] && [ "$build_only" != 1 ]; then
    skip "ptx_archs: no GPU here: the references built as PTX for older GPUs run on a GPU host (autograder/gpu-host/run selftest)"
    exit 0
fi
# PTX_ARCHS_LABS="3 4", else the self-test's SELFTEST_LABS, else all.
labs=${PTX_ARCHS_LABS:-${SELFTEST_LABS:-}}
wanted() { [ -z "$labs" ] || [[ " $labs " == *" $1 "* ]]; }
nvcc=$(selftest_nvcc) || { fail "ptx_archs: nvcc not found"; exit 1; }
cuobjdump=${nvcc%/nvcc}/cuobjdump
[ -x "$cuobjdump" ] || cuobjdump=$(command -v cuobjdump)

# The architecture after this GPU's, for the later-architecture case.
host_cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' | sort -n | tail -n 1)
later=
for a in 100 120; do
    if [ -n "$host_cc" ] && [ "$a" -gt "$host_cc" ]; then later=sm_$a; break; fi
done

# gpu_tests BUILD LAB: the lab's tests that need a GPU, comma-separated.
gpu_tests() { "$1/test_lab$2" --list | awk '/\(needs [0-9]+ GPUs?\)/ { printf "%s%s", n++ ? "," : "", $1 }'; }

# lab_make LAB ARCH BUILD KIT TARGET [VAR=...]: one make of the lab, with
# this case's architecture and folders.
lab_make() {
    local lab=$1 arch=$2 build=$3 kit=$4
    shift 4
    timeout 540 make --no-print-directory -f common/mk/lab.mk LAB="$lab" CUDA_ARCH="$arch" BUILD="$build" \
        KIT_BUILD="$kit" CHAOS=0 "$@"
}

# judge RESULTS_JSON GPUS: each test's result: PASS, or SKIP for the GPU
# count alone (exit 1 and the others' lines otherwise); prints a summary.
judge() {
    python3 - "$1" "$2" <<'EOF'
import json, re, sys
tests = json.load(open(sys.argv[1]))["tests"]
gpus = int(sys.argv[2])
bad, passed, skipped, points, total = [], 0, 0, 0, 0
for t in tests:
    r = t["extra_data"]["result"]
    first = (t.get("output") or "").splitlines()[:1]
    why = first[0] if first else ""
    m = re.search(r"needs (\d+) GPU", why)
    if r == "SKIP" and m and int(m.group(1)) > gpus:
        skipped += 1
        continue
    total += t["max_score"]
    if r == "PASS":
        passed += 1
        points += t["score"]
    else:
        bad.append("%s %s: %s" % (r, t["name"], why[:200]))
print("%d GPU tests passed (%g/%g points)%s" % (passed, points, total,
      ", %d skipped for the GPU count" % skipped if skipped else ""))
for b in bad[:5]:
    print(b)
sys.exit(1 if bad or not passed else 0)
EOF
}

# ptx_only BUILD ARCH: the student's .cu objects hold PTX for ARCH and no
# GPU code (what a GPU of another architecture would run as it is).
ptx_only() {
    local o listing rc=0
    for o in "$1"/student/*.o; do
        [ -e "${o%.o}.cu" ] || continue
        listing=$("$cuobjdump" -lptx -lelf "$o" 2>&1)
        # (cuobjdump names PTX for compute_80 "NAME.1.sm_80.ptx")
        if printf '%s\n' "$listing" | grep -q '^ELF file' ||
            ! printf '%s\n' "$listing" | grep -qE "^PTX file.*[._](sm|compute)_${2#compute_}[.]ptx"; then
            echo "$(basename "$o"): $(printf '%s\n' "$listing" | tr '\n' ' ' | cut -c 1-200)"
            rc=1
        fi
    done
    return $rc
}

# one_case LAB ARCH MUTANT: the reference and the mutant, built and tested;
# leaves DIR/state lines "reference|ptx|mutant ok|fail|skip TEXT".
one_case() {
    local lab=$1 arch=$2 mutant=$3 dir=$OUT/lab$1-$2 labdir named tests out
    labdir=$(basename labs/lab"$lab"-*)
    mkdir -p "$dir"
    : >"$dir/state"
    if ! lab_make "$lab" "$arch" "$dir/reference" "$dir/kit" IMPL=reference all >"$dir/reference-build.log" 2>&1; then
        echo "reference fail does not build (see $dir/reference-build.log): $(grep -m 1 -i 'error' "$dir/reference-build.log" | cut -c 1-200)" >>"$dir/state"
        return
    fi
    if [ -z "$cuobjdump" ]; then
        # the build's last line, where no cuobjdump reads the objects
        out=$(sed -n 's/.*CUDA built for \(.*\) (.*/\1/p' "$dir/reference-build.log" | tail -n 1)
        if [ "$out" = "PTX $arch" ]; then
            echo "ptx skip PTX $arch alone, as the build's last line says (no cuobjdump here)" >>"$dir/state"
        else
            echo "ptx fail no cuobjdump here, and the build's last line says it built for '${out:-?}', not PTX $arch alone" >>"$dir/state"
        fi
    elif out=$(ptx_only "$dir/reference" "$arch"); then
        echo "ptx ok" >>"$dir/state"
    else
        echo "ptx fail the student's objects are not PTX for $arch alone: $out" >>"$dir/state"
    fi
    tests=$(gpu_tests "$dir/reference" "$lab")
    if [ -z "$tests" ]; then
        echo "reference fail test_lab$lab --list names no test that needs a GPU" >>"$dir/state"
        return
    fi
    lab_make "$lab" "$arch" "$dir/reference" "$dir/kit" check RESULTS="$dir/reference.json" \
        CHECK_ARGS="--only $tests" >"$dir/reference-check.log" 2>&1
    if [ "$GPUS" = 0 ]; then
        echo "reference skip built; its GPU tests ($(sed -n 's/^score: [0-9.]*\/\([0-9.]*\) points.*/\1 points/p' "$dir/reference-check.log")) need a GPU" >>"$dir/state"
    elif out=$(judge "$dir/reference.json" "$GPUS" 2>&1); then
        echo "reference ok $out" >>"$dir/state"
    else
        echo "reference fail $(printf '%s' "$out" | tr '\n' ';') (see $dir/reference-check.log)" >>"$dir/state"
    fi

    local patch
    patch=$(lab_mutants "$lab")/$mutant.patch
    if [ ! -e "$patch" ]; then
        echo "mutant fail $patch is gone: name another of the lab's GPU mutants in ptx_archs.sh" >>"$dir/state"
        return
    fi
    named=$(sed -n 's/^# caught by: *//p' "$patch" | head -n 1)
    rm -rf "$dir/mutant-src"
    cp -r "labs/$labdir/solution" "$dir/mutant-src"
    if ! patch -s -p1 -d "$dir/mutant-src" <"$patch" >"$dir/mutant-patch.log" 2>&1; then
        echo "mutant fail $mutant no longer applies to the reference (see $dir/mutant-patch.log)" >>"$dir/state"
    elif ! lab_make "$lab" "$arch" "$dir/mutant" "$dir/kit" SUBMISSION="$dir/mutant-src" all >"$dir/mutant-build.log" 2>&1; then
        echo "mutant fail $mutant does not build (see $dir/mutant-build.log)" >>"$dir/state"
    else
        AG_STOP_AT_FIRST_LOSS=1 lab_make "$lab" "$arch" "$dir/mutant" "$dir/kit" check RESULTS="$dir/mutant.json" \
            CHECK_ARGS="--only ${named// /,}" >"$dir/mutant-check.log" 2>&1
        out=$(python3 -c 'import json, sys
for t in json.load(open(sys.argv[1]))["tests"]:
    if t["score"] < t["max_score"] and t["extra_data"]["result"] != "SKIP": print(t["name"])' "$dir/mutant.json" 2>/dev/null | tr '\n' ' ')
        if [ "$GPUS" = 0 ]; then
            echo "mutant skip $mutant applies and builds; the tests that catch it need a GPU" >>"$dir/state"
        elif [ -n "$out" ]; then
            echo "mutant ok $mutant caught by ${out% }" >>"$dir/state"
        else
            echo "mutant fail $mutant NOT caught by $named (see $dir/mutant-check.log)" >>"$dir/state"
        fi
    fi
}

# later_case LAB ARCH: built for a later GPU than this one, the lab's GPU
# tests are skipped with one message that names the build; none fails.
later_case() {
    local lab=$1 arch=$2 dir=$OUT/lab$1-$2 tests
    mkdir -p "$dir"
    if ! lab_make "$lab" "$arch" "$dir/reference" "$dir/kit" IMPL=reference all >"$dir/reference-build.log" 2>&1; then
        echo "later fail lab $lab does not build for $arch (see $dir/reference-build.log)" >"$dir/state"
        return
    fi
    tests=$(gpu_tests "$dir/reference" "$lab")
    lab_make "$lab" "$arch" "$dir/reference" "$dir/kit" check RESULTS="$dir/reference.json" \
        CHECK_ARGS="--only $tests" >"$dir/reference-check.log" 2>&1
    if python3 - "$dir/reference.json" "$arch" >"$dir/later.txt" 2>&1 <<'EOF'
import json, re, sys
tests = json.load(open(sys.argv[1]))["tests"]
arch = sys.argv[2]
bad = [t for t in tests if t["extra_data"]["result"] != "SKIP"]
why = {(t.get("output") or "").splitlines()[0] for t in tests
       if t.get("output") and not re.search(r"needs \d+ GPU", t["output"])}
if bad:
    print("%d of %d GPU tests were not skipped: %s" % (len(bad), len(tests), "; ".join(
        "%s %s: %s" % (t["extra_data"]["result"], t["name"], (t.get("output") or "-").splitlines()[0][:200]) for t in bad[:3])))
    sys.exit(1)
if len(why) != 1 or arch not in next(iter(why)):
    print("the %d GPU tests were skipped, but not with one message naming %s: %s" % (len(tests), arch, sorted(why)[:3]))
    sys.exit(1)
print("its %d GPU tests skipped with one message: %s" % (len(tests), next(iter(why))[:200]))
EOF
    then
        echo "later ok $(cat "$dir/later.txt")"
    else
        echo "later fail $(tr '\n' ' ' <"$dir/later.txt") (see $dir/reference-check.log)"
    fi >"$dir/state"
}

jobs=${PTX_ARCHS_JOBS:-$(($(nproc) / 2))}
[ "$jobs" -ge 1 ] || jobs=1
run=()
for c in "${cases[@]}"; do
    read -r lab arch mutant <<<"$c"
    wanted "$lab" && run+=("$c")
done
for c in "${run[@]}"; do
    read -r lab arch mutant <<<"$c"
    while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n; done
    one_case "$lab" "$arch" "$mutant" &
done
if [ -n "$later" ] && wanted "$later_lab"; then later_case "$later_lab" "$later" & fi
wait

# The lines, to the self-test and to the logs.
report() {
for c in "${run[@]}"; do
    read -r lab arch mutant <<<"$c"
    what="lab $lab reference as $arch PTX"
    while read -r kind verdict text; do
        case $kind in
        reference) what="lab $lab reference as $arch PTX, JIT-compiled for this GPU" ;;
        ptx) what="lab $lab as $arch: the student's objects" ;;
        mutant) what="lab $lab as $arch PTX: mutant" ;;
        esac
        case $verdict in
        ok) pass "$what: ${text:-PTX only}" ;;
        skip) skip "$what: $text" ;;
        *) fail "$what: $text" ;;
        esac
    done <"$OUT/lab$lab-$arch/state"
done
if [ -z "$later" ]; then
    if [ "$GPUS" = 0 ]; then
        skip "a build for a later GPU than this one: no GPU here"
    else
        skip "a build for a later GPU than this one: none known after compute capability $host_cc"
    fi
elif wanted "$later_lab"; then
    read -r _ verdict text <"$OUT/lab$later_lab-$later/state"
    if [ "$verdict" = ok ]; then pass "lab $later_lab built for $later, later than this GPU: $text"; else fail "lab $later_lab built for $later, later than this GPU: $text"; fi
fi
echo "        ptx_archs: ${#run[@]} cases, $GPUS GPU(s), $jobs at once, in $(suite_seconds) s"
}
report 2>&1 | tee "${logs[@]}"
# the cases' logs beside it, for a host whose build folder is not kept
if [ -n "$log_to" ]; then
    (cd "$OUT" && find . -name '*.log' -o -name '*.json' -o -name state) | while read -r f; do
        mkdir -p "$log_to/ptx_archs/$(dirname "$f")" && cp "$OUT/$f" "$log_to/ptx_archs/$f"
    done
fi
