#!/usr/bin/env bash
# Self-test of the grader's own check (run by make test, and on a GPU host
# by autograder/gpu-host/run selftest): for every lab, make grade grades the
# reference's files in the sandbox before any student and must find that
# they earn exactly what make check gives them outside it (lab.json's
# "reference"); and one mutant per lab, graded in the sandbox, loses the
# same tests as make check on the same files outside it. Labs 3-7 without a
# GPU are graded with --cpu-only (their GPU tests skipped on both sides).
#
# GRADING_REFERENCE_LABS="1 6" checks only those labs; GRADING_REFERENCE_JOBS
# of them at once (default: a lab per 8 cores, at least 1), each grading under
# its own block of sandbox uids, its lines printed in the labs' order.
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

OUT=build/selftest/grading-references
fresh_dir "$OUT"
sandbox_runs "the grader's own check: the sandbox cannot run here" || exit 0
GPUS=$(selftest_gpu_count)

# One mutant a lab: caught on a host without a GPU (lab 3's tests all need
# one), and not by an ordering (its verdict must not depend on the seeds).
mutant_of() {
    case $1 in
    1) echo blk_drops_last_block ;; 2) echo gs_omp_k_backwards ;; 3) echo gpu2_floor_grid ;;
    4) echo offload_drops_last_plane ;; 5) echo halo_to_wrong_neighbour ;;
    6) echo irecvs_posted_after_sends ;; 7) echo dirichlet_corner_minus_2 ;;
    esac
}

# check_lab LAB: the reference's verdict, and its mutant inside and outside.
check_lab() {
    local lab=$1 mutant dir t0 rc
    mutant=$(mutant_of "$lab") dir=$OUT/lab$lab
    hand_in "$lab" reference "$dir/class/$mutant"
    if ! patch -s -p1 -d "$dir/class/$mutant" <"$(lab_mutants "$lab")/$mutant.patch" >"$dir/patch.log" 2>&1; then
        fail "lab $lab: the mutant $mutant does not apply (see $dir/patch.log)"
        return
    fi
    t0=$(date +%s)
    local cpu_only=()
    [ "$GPUS" -gt 0 ] || cpu_only=(--cpu-only)
    instructor/grade -j 1 --no-perf "${cpu_only[@]}" -o "$dir/grades" "$lab" "$dir/class" >"$dir/grade.log" 2>&1
    rc=$?
    if [ "$rc" != 0 ] || [ ! -s "$dir/grades/lab.json" ]; then
        fail "lab $lab: make grade stopped with status $rc: $(grep -m1 -A2 'grade: the reference' "$dir/grade.log" | tr '\n' ' ' | cut -c1-400) (see $dir/grade.log)"
        return
    fi
    # The same files outside the sandbox, as a student's make check runs them,
    # every test (grading gives slow failures no shared budget: AG_HANG_BUDGET).
    make --no-print-directory -f common/mk/lab.mk LAB="$lab" SUBMISSION="$dir/class/$mutant" BUILD="$dir/outside" \
        all >"$dir/outside.log" 2>&1 &&
        AG_HANG_BUDGET=0 make --no-print-directory -f common/mk/lab.mk LAB="$lab" BUILD="$dir/outside" check \
            RESULTS="$dir/outside.json" >>"$dir/outside.log" 2>&1
    grading_labs_checks same-grade "$dir/grades" "$lab" "$mutant" "$dir/outside.json" "$(($(date +%s) - t0))" "$GPUS"
}

JOBS=${GRADING_REFERENCE_JOBS:-$(( $(nproc) / 8 > 1 ? $(nproc) / 8 : 1 ))}
running=0
for lab in ${GRADING_REFERENCE_LABS:-1 2 3 4 5 6 7}; do
    mkdir -p "$OUT/lab$lab"
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
        *) echo "$l" ;;
        esac
    done <"$OUT/lab$lab/line"
done
exit 0
