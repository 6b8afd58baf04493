#!/usr/bin/env bash
# Self-test of the grader's own check and of grading the labs in the
# sandbox (run by make test, and on a GPU host by autograder/gpu-host/run
# suite grading_references): for every lab, make grade grades the
# reference's files in the sandbox before any student and must find that
# they earn exactly what make check gives them outside it (lab.json's
# "reference"); and one mutant per lab, graded in the sandbox, loses the
# same tests as make check on the same files outside it. Labs 3-7 without a
# GPU are graded with --cpu-only (their GPU tests skipped on both sides).
#
# Two labs' classes hold more, in the same make grade (one preparation and
# one reference check a lab): an MPI lab (lab 5: mpirun inside the sandbox)
# and a GPU lab (lab 3: nvcc's objects, and the GPU's device files inside
# the sandbox) are graded as a course's would be, with the reference and
# the untouched skeleton beside their mutants. The reference must get every
# point of the tests this host runs (a GPU test without a GPU is skipped,
# and scores nothing for anyone), the skeleton none, a mutant less than the
# reference. A hostile one, early_exit (code under test that ends the
# program with status 0 before the checks), must lose every point of every
# test its patch names ("# caught by:") that ran here. Lab 3 without a GPU:
# its build in the sandbox is tried and its performance points are
# skipped, visibly; with one, its performance points are graded
# (gpu_performance). grading.sh tries the hostile cases on lab 1; this is
# about the labs' own machinery working in the sandbox.
#
# GRADING_REFERENCE_LABS="1 6" checks only those labs; GRADING_REFERENCE_JOBS
# of them at once (default: a lab per 8 cores, at least 1), each grading under
# its own block of sandbox uids, its lines printed in the labs' order. make
# test runs it as one job per lab (the line below), each lab's folder its own.
# selftest: a job per lab (GRADING_REFERENCE_LABS)
# selftest: long
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

OUT=build/selftest/grading-references
mkdir -p "$OUT"
sandbox_runs "the grader's own check: the sandbox cannot run here" || exit 0
GPUS=$(selftest_gpu_count)
checks() { grading_labs_checks "$@"; }

# One mutant a lab: caught on a host without a GPU (lab 3's tests all need
# one), and not by an ordering (its verdict must not depend on the seeds).
mutant_of() {
    case $1 in
    1) echo blk_drops_last_block ;; 2) echo gs_omp_k_backwards ;; 3) echo gpu2_floor_grid ;;
    4) echo offload_drops_last_plane ;; 5) echo halo_to_wrong_neighbour ;;
    6) echo irecvs_posted_after_sends ;; 7) echo dirichlet_corner_minus_2 ;;
    esac
}

# The labs graded as a whole class: "WHAT MUTANT..." (mutant_of's among
# them), else nothing.
class_of() {
    case $1 in
    3) echo "CUDA gpu2_floor_grid" ;; 5) echo "MPI halo_to_wrong_neighbour early_exit" ;;
    esac
}

# class LAB DIR "MUTANT..." WHOLE: the reference with each MUTANT applied
# (DIR/mutant_MUTANT), and where WHOLE is 1 the reference and the skeleton,
# each with the lab's student files only.
class() {
    local lab=$1 dir=$2 mutants=$3 mutant
    if [ "$4" = 1 ]; then
        hand_in "$lab" reference "$dir/reference"
        hand_in "$lab" skeleton "$dir/skeleton"
    fi
    for mutant in $mutants; do
        hand_in "$lab" reference "$dir/mutant_$mutant"
        patch -s -p1 -d "$dir/mutant_$mutant" <"$(lab_mutants "$lab")/$mutant.patch" || return 1
    done
}

# perf_entry DIR STUDENT NAME: that student's perf_NAME entry of results.json
# as "SCORE MAX OUTPUT".
perf_entry() {
    checks perf-entry "$1/students/$2/results.json" "perf_$3"
}

# Lab 3's performance points on a GPU (perf.conf's gpu5, timed on device
# arrays against the reference in the same run): the reference gets them
# all; a gpu5 doing its product three times over gets some but fewer (at
# 3 x the time, between perf.conf's full_at and zero_at); one that skips
# work on large products passes every test and its timed result is refused.
gpu_performance() {
    local dir=$OUT/lab3/perf ref=labs/lab3-gpu-matmult/solution/matmult_gpu.cu e
    mkdir -p "$dir/class/reference" "$dir/class/s_gpu5_times_3" "$dir/class/s_gpu5_skips_large"
    cp "$ref" "$dir/class/reference/"
    # gpu6, the optional stage, is a student file of its own: each student hands in the reference's.
    for s in reference s_gpu5_times_3 s_gpu5_skips_large; do cp labs/lab3-gpu-matmult/solution/matmult_gpu6.cu "$dir/class/$s/"; done
    wrap() { # wrap DIR BODY: gpu5's product as gpu5_once, and a new matmult_gpu5_dev around it
        sed 's/^extern "C" void matmult_gpu5_dev(/static void gpu5_once(/' "$ref" >"$1/matmult_gpu.cu"
        printf '%s\n' 'extern "C" void matmult_gpu5_dev(int m, int n, int k, const double *dA, const double *dB, double *dC)' \
            "{" "    $2" "}" >>"$1/matmult_gpu.cu"
    }
    wrap "$dir/class/s_gpu5_times_3" "for (int r = 0; r < 3; r++) gpu5_once(m, n, k, dA, dB, dC);"
    wrap "$dir/class/s_gpu5_skips_large" "gpu5_once(m, n, k > 2048 ? k / 2 : k, dA, dB, dC);"
    if ! instructor/grade -j 1 -o "$dir/grades" 3 "$dir/class" >"$dir/grade.log" 2>&1; then
        fail "lab 3's GPU performance points: instructor/grade failed (see $dir/grade.log)"
        return
    fi
    read -r score max rest < <(perf_entry "$dir/grades" reference gpu5)
    if [ "$score" = "$max" ] && grep -q "GFLOP/s" "$dir/grades/students/reference/feedback.txt" &&
        grep -q "cuBLAS DGEMM" "$dir/grades/students/reference/feedback.txt"; then
        pass "performance on a GPU: lab 3's reference gets all $max points of gpu5, its feedback the GFLOP/s beside cuBLAS ($(grep -o 'your matmult_gpu5_dev: [^(]*' "$dir/grades/students/reference/feedback.txt"))"
    else
        fail "performance on a GPU: lab 3's reference got $score of $max for gpu5 ($rest)"
    fi
    read -r score max rest < <(perf_entry "$dir/grades" s_gpu5_times_3 gpu5)
    if below 0 "$score" && below "$score" "$max"; then
        pass "performance on a GPU: a gpu5 doing its product 3 times gets $score of $max"
    else
        fail "performance on a GPU: a gpu5 doing its product 3 times got $score of $max ($rest)"
    fi
    read -r score max rest < <(perf_entry "$dir/grades" s_gpu5_skips_large gpu5)
    e="gets no performance points: its timed result (k = 4096) is refused"
    case "$score $rest" in
    "0.0 FAIL: the timed run"*"its result was wrong"*) pass "performance on a GPU: a gpu5 that halves large products passes its tests and $e" ;;
    *) fail "performance on a GPU: a gpu5 that halves large products got $score of $max ($rest)" ;;
    esac
}

# class_lines LAB WHAT "MUTANT..." SECONDS: the lines on a whole class.
class_lines() {
    local lab=$1 what=$2 mutants=$3 secs=$4 grades=$OUT/lab$1/grades score max rest
    if [ "$lab" != 3 ] || [ "$GPUS" -gt 0 ]; then
        # The reference's results.json says which tests ran: every one of
        # them must have passed. Skipped ones (no GPU here) score 0 for everyone.
        checks class "$grades" "$lab" "$mutants" "$what" "$secs" "$GPUS"
        [ "$lab" = 3 ] && gpu_performance
        return 0
    fi
    # Lab 3 without a GPU: only its build in the sandbox is tried (its
    # tests all need one), and its performance points are skipped, visibly.
    if [ "$(awk -F, '$1 == "reference" { print $2 }' "$grades/gradebook.csv")" = graded ]; then
        pass "lab 3 (CUDA) builds in the sandbox with nvcc and is graded (its tests need a GPU: skipped here)"
    else
        fail "lab 3 (CUDA): the reference was not built and graded in the sandbox (see $OUT/lab3/grade.log)"
    fi
    read -r score max rest < <(perf_entry "$grades" reference gpu5)
    case "$score $rest" in
    "0.0 SKIP: performance on the GPU is timed only on a grading host with one"*)
        pass "lab 3's GPU performance points are skipped here, visibly: \"${rest:0:60}...\"" ;;
    *) fail "lab 3's GPU performance points without a GPU: $score of $max ($rest)" ;;
    esac
}

# check_lab LAB: the reference's verdict, its mutant inside and outside, and
# the lab's whole class where it has one.
check_lab() {
    local lab=$1 mutant dir t0 rc what='' mutants whole=0 m
    mutant=$(mutant_of "$lab") dir=$OUT/lab$lab
    read -r what mutants <<<"$(class_of "$lab")"
    [ -n "$what" ] && whole=1
    [[ " ${mutants:-} " == *" $mutant "* ]] || mutants="$mutant${mutants:+ $mutants}"
    if ! class "$lab" "$dir/class" "$mutants" "$whole" >"$dir/class.log" 2>&1; then
        fail "lab $lab: the class could not be made (a mutant of $mutants does not apply? see $dir/class.log)"
        return
    fi
    if [ "$lab" = 3 ] && [ "$GPUS" = 0 ] && ! selftest_nvcc >/dev/null; then
        skip "lab 3 (CUDA): no GPU and no nvcc here"
    fi
    t0=$(date +%s)
    local opts=(--no-perf) jobs=1
    # Without a GPU: --cpu-only (the GPU tests skipped), and lab 3's
    # performance entries kept, to show that they are skipped, visibly.
    if [ "$GPUS" = 0 ]; then
        opts=(--cpu-only)
        [ "$lab" = 3 ] || opts+=(--no-perf)
    fi
    # A class of several: two sandboxes at once, as a course's grading runs.
    [ "$whole" = 1 ] && jobs=2
    instructor/grade -j "$jobs" "${opts[@]}" -o "$dir/grades" "$lab" "$dir/class" >"$dir/grade.log" 2>&1
    rc=$?
    if [ "$rc" != 0 ] || [ ! -s "$dir/grades/lab.json" ]; then
        fail "lab $lab: make grade stopped with status $rc: $(grep -m1 -A2 'grade: the reference' "$dir/grade.log" | tr '\n' ' ' | cut -c1-400) (see $dir/grade.log)"
        return
    fi
    local secs=$(($(date +%s) - t0))
    [ "$whole" = 1 ] && class_lines "$lab" "$what" "$mutants" "$secs"
    # The same files outside the sandbox, as a student's make check runs them
    # (built as grading builds them: make tests), every test (grading gives
    # slow failures no shared budget: AG_HANG_BUDGET).
    m=$dir/class/mutant_$mutant
    make --no-print-directory -f common/mk/lab.mk LAB="$lab" SUBMISSION="$m" BUILD="$dir/outside" \
        tests >"$dir/outside.log" 2>&1 &&
        AG_HANG_BUDGET=0 make --no-print-directory -f common/mk/lab.mk LAB="$lab" BUILD="$dir/outside" check \
            RESULTS="$dir/outside.json" >>"$dir/outside.log" 2>&1
    checks same-grade "$dir/grades" "$lab" "$mutant" "$dir/outside.json" "$(($(date +%s) - t0))" "$GPUS"
}

JOBS=${GRADING_REFERENCE_JOBS:-$(( $(nproc) / 8 > 1 ? $(nproc) / 8 : 1 ))}
running=0
for lab in ${GRADING_REFERENCE_LABS:-1 2 3 4 5 6 7}; do
    # (each lab's folder only: make test grades the others at the same time)
    fresh_dir "$OUT/lab$lab"
    check_lab "$lab" >"$OUT/lab$lab/line" 2>&1 &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
# The lines, and the counts of this shell (the labs ran in subshells).
for lab in ${GRADING_REFERENCE_LABS:-1 2 3 4 5 6 7}; do
    while IFS= read -r l; do
        case $l in
        "ok      "*) pass "${l#ok      }" ;;
        "FAILED  "*) fail "${l#FAILED  }" ;;
        "skip    "*) skip "${l#skip    }" ;;
        *) echo "$l" ;;
        esac
    done <"$OUT/lab$lab/line"
done
exit 0
