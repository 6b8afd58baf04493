#!/usr/bin/env bash
# Self-test of instructor grading beyond lab 1 (run by make test): a small
# class of an MPI lab (lab 5: mpirun inside the sandbox) and of a GPU lab
# (lab 3: nvcc's objects, and the GPU's device files inside the sandbox)
# goes through instructor/grade as a course's would. Each class holds the
# reference, the untouched skeleton and mutants; the reference must get
# every point of the tests this host runs (a GPU test without a GPU is
# skipped, and scores nothing for anyone), the skeleton none, a mutant
# less than the reference. A hostile one, early_exit (code under test that
# ends the program with status 0 before the checks), must lose every point
# of every test its patch names ("# caught by:") that ran here.
# grading.sh tries the hostile cases on lab 1; this is about the labs' own
# machinery working in the sandbox.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

OUT=build/selftest/grading-labs
fresh_dir "$OUT"
sandbox_runs "grading of labs 3 and 5: the sandbox cannot run here" || exit 0
GPUS=$(selftest_gpu_count)
checks() { grading_labs_checks "$@"; }

# class LAB "MUTANT...": reference, skeleton and the reference with each
# MUTANT applied, each with the lab's student files only.
class() {
    local lab=$1 mutants=$2 dir=$OUT/lab$1/class mutant
    hand_in "$lab" reference "$dir/reference"
    hand_in "$lab" skeleton "$dir/skeleton"
    for mutant in $mutants; do
        mkdir -p "$dir/mutant_$mutant"
        cp "$dir/reference/"* "$dir/mutant_$mutant/"
        patch -s -p1 -d "$dir/mutant_$mutant" <"$(lab_mutants "$lab")/$mutant.patch" || return 1
    done
}

# grade_lab LAB "MUTANT..." WHAT
grade_lab() {
    local lab=$1 mutants=$2 what=$3 t0 rc
    mkdir -p "$OUT/lab$lab"
    if ! class "$lab" "$mutants" >"$OUT/lab$lab/class.log" 2>&1; then
        fail "lab $lab ($what): the class could not be made (see $OUT/lab$lab/class.log)"
        return
    fi
    t0=$(date +%s)
    # --cpu-only: a GPU lab is graded on a host without one too (its GPU
    # tests skipped), as the self-test's classes are made to be.
    instructor/grade -j 2 --wall 300 --no-perf --cpu-only -o "$OUT/lab$lab/grades" "$lab" "$OUT/lab$lab/class" \
        >"$OUT/lab$lab/grade.log" 2>&1
    rc=$?
    if [ "$rc" != 0 ] || [ ! -s "$OUT/lab$lab/grades/gradebook.csv" ]; then
        fail "lab $lab ($what): instructor/grade stopped with status $rc (see $OUT/lab$lab/grade.log)"
        return
    fi
    # The reference's results.json says which tests ran: every one of them
    # must have passed. Skipped ones (no GPU here) score 0 for everyone.
    checks class "$OUT/lab$lab/grades" "$lab" "$mutants" "$what" "$(($(date +%s) - t0))" "$GPUS"
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
    local dir=$OUT/lab3-perf ref=labs/lab3-gpu-matmult/solution/matmult_gpu.cu e
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

# An MPI lab: the reference's end-to-end runs start 3-5 ranks in the sandbox.
grade_lab 5 "halo_to_wrong_neighbour early_exit" "MPI"
# A GPU lab: without a GPU, only its build in the sandbox is tried (its
# tests all need one), with nvcc where the host has it, and its performance
# points are skipped, visibly.
if [ "$GPUS" -gt 0 ]; then
    grade_lab 3 gpu2_floor_grid "CUDA"
    gpu_performance
elif selftest_nvcc >/dev/null; then
    mkdir -p "$OUT/lab3"
    if class 3 gpu2_floor_grid >"$OUT/lab3/class.log" 2>&1 &&
        instructor/grade -j 2 --cpu-only -o "$OUT/lab3/grades" 3 "$OUT/lab3/class" >"$OUT/lab3/grade.log" 2>&1 &&
        [ "$(awk -F, '$1 == "reference" { print $2 }' "$OUT/lab3/grades/gradebook.csv")" = graded ]; then
        pass "lab 3 (CUDA) builds in the sandbox with nvcc and is graded (its tests need a GPU: skipped here)"
    else
        fail "lab 3 (CUDA): the reference was not built and graded in the sandbox (see $OUT/lab3/grade.log)"
    fi
    read -r score max rest < <(perf_entry "$OUT/lab3/grades" reference gpu5)
    case "$score $rest" in
    "0.0 SKIP: performance on the GPU is timed only on a grading host with one"*)
        pass "lab 3's GPU performance points are skipped here, visibly: \"${rest:0:60}...\"" ;;
    *) fail "lab 3's GPU performance points without a GPU: $score of $max ($rest)" ;;
    esac
else
    skip "lab 3 (CUDA): no GPU and no nvcc here"
fi
exit 0
