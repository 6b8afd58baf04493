#!/usr/bin/env bash
# Self-test of the benchmarks (run by make test): a benchmark never shows a
# figure from a wrong result. Each lab's bench.sh, at its small sizes
# (BENCH_QUICK=1), must
#   - with the reference: exit 0, every result right, no INVALID row;
#   - with the untouched skeleton: exit non-zero, with INVALID rows;
#   - with one mutant (a known-wrong reference): exit non-zero, the mutated
#     variant INVALID;
# and never print nan or inf. Labs whose benchmark has a CPU path (1, 2, and
# 5, 6, 7 with their CPU backends) run everywhere; the GPU-only ones (3, 4)
# run on a host with a GPU, and elsewhere must refuse at once: exit
# non-zero, saying that there is no GPU, without a figure.
set -u
cd "$(dirname "$0")/../.." || exit 2
. maintainer/selftest/lib.sh

OUT=build/selftest/bench${SELFTEST_LABS:+-lab${SELFTEST_LABS// /-}}
fresh_dir "$OUT"
GPUS=$(selftest_gpu_count)

# Each lab's case is the bench_refusal line of its own
# mutants/selftest.conf (lib.sh, lab_selftest_conf): where its benchmark
# runs (cpu: anywhere; gpu: only on a GPU host), the mutant, and the
# variant the mutant breaks (a pattern of its report line). A lab with a
# bench.sh and no such line fails the suite (CONTRIBUTING.md, step 9).
selected() { [ -z "${SELFTEST_LABS:-}" ] || [[ " $SELFTEST_LABS " == *" $1 "* ]]; }

cases=()
for dir in labs/lab*-*/; do
    lab=${dir#labs/lab}
    lab=${lab%%-*}
    if ! selected "$lab" || ! [ -f "$dir/bench.sh" ]; then continue; fi
    conf=${dir}mutants/selftest.conf
    line=$(lab_selftest_conf "$lab" bench_refusal 2>"$OUT/conf-lab$lab.err")
    case $? in
    0)
        read -r where mutant pattern <<<"$line"
        if [[ $where != cpu && $where != gpu ]] || [ -z "$pattern" ]; then
            fail "lab $lab: $conf: 'bench_refusal $line': needs WHERE (cpu or gpu), MUTANT and a PATTERN of its report line"
        else
            cases+=("$lab $line")
        fi
        ;;
    1) fail "lab $lab has a bench.sh but no bench_refusal line in $conf: its benchmark's refusal is not checked" ;;
    *) fail "lab $lab: $(cat "$OUT/conf-lab$lab.err")" ;;
    esac
done

# bench LAB SOURCE-DESCRIPTION LOG VAR=value...: runs the lab's bench.sh;
# returns its status
bench() {
    local lab=$1 log=$3
    shift 3
    env BENCH_QUICK=1 "$@" labs/lab"$lab"-*/bench.sh >"$log" 2>&1
}

# no_absurd_figure LAB WHAT LOG: no nan or inf anywhere in what it printed
no_absurd_figure() {
    if grep -qiwE 'nan|-nan|inf' "$3"; then
        fail "lab $1 bench ($2) prints nan or inf: $(grep -m1 -iwE 'nan|-nan|inf' "$3")"
        return 1
    fi
}

for c in "${cases[@]}"; do
    read -r lab where mutant pattern <<<"$c"
    selected "$lab" || continue
    if [ "$GPUS" = 0 ]; then mutant=${mutant%/*}; else mutant=${mutant#*/}; fi
    labdir=$(basename labs/lab"$lab"-*)
    d=$OUT/lab$lab
    mkdir -p "$d"
    if [ "$where" = gpu ] && [ "$GPUS" = 0 ]; then
        # no GPU: the benchmark must refuse before it builds or measures
        if bench "$lab" skeleton "$d/no-gpu.log" IMPL=skeleton BENCH_OUT="$d/no-gpu"; then
            fail "lab $lab bench on a host without a GPU exits 0 (see $d/no-gpu.log)"
        elif ! grep -qi 'gpu' "$d/no-gpu.log" || grep -q 'INVALID (\|^building' "$d/no-gpu.log"; then
            fail "lab $lab bench on a host without a GPU does not refuse at once saying why (see $d/no-gpu.log)"
        else
            pass "lab $lab bench refuses on a host without a GPU: $(awk 'NF { l = $0 } END { print l }' "$d/no-gpu.log")"
        fi
        continue
    fi

    if bench "$lab" reference "$d/reference.log" IMPL=reference BENCH_OUT="$d/reference"; then
        if grep -q 'INVALID (' "$d/reference.log"; then
            fail "lab $lab bench with the reference exits 0 but shows INVALID rows (see $d/reference.log)"
        elif no_absurd_figure "$lab" reference "$d/reference.log"; then
            pass "lab $lab bench with the reference: every result right, figures shown, exit 0"
        fi
    else
        fail "lab $lab bench with the reference exits non-zero (see $d/reference.log): $(grep -m1 'INVALID (' "$d/reference.log")"
    fi

    if bench "$lab" skeleton "$d/skeleton.log" IMPL=skeleton BENCH_OUT="$d/skeleton"; then
        fail "lab $lab bench with the skeleton exits 0 (see $d/skeleton.log)"
    elif ! grep -q 'INVALID (' "$d/skeleton.log"; then
        fail "lab $lab bench with the skeleton exits non-zero without an INVALID row (see $d/skeleton.log)"
    elif no_absurd_figure "$lab" skeleton "$d/skeleton.log"; then
        pass "lab $lab bench refuses the skeleton: $(grep -c 'INVALID (' "$d/skeleton.log") INVALID rows, no figure, exit non-zero"
    fi

    src=$d/$mutant/src
    mkdir -p "$src"
    cp -r "labs/$labdir/solution/." "$src/"
    if ! patch -s -p1 -d "$src" <"$(lab_mutants "$lab")/$mutant.patch" >"$d/$mutant.patch.log" 2>&1; then
        fail "lab $lab bench: the mutant $mutant no longer applies (see $d/$mutant.patch.log)"
        continue
    fi
    if bench "$lab" "$mutant" "$d/$mutant.log" SUBMISSION="$src" BENCH_OUT="$d/$mutant/out"; then
        fail "lab $lab bench with the mutant $mutant exits 0 (see $d/$mutant.log)"
    elif ! line=$(awk -v p="$pattern" '$0 ~ p && /INVALID \(/ { print; f = 1; exit } END { exit !f }' "$d/$mutant.log"); then
        fail "lab $lab bench with the mutant $mutant does not show its variant INVALID (see $d/$mutant.log)"
    elif no_absurd_figure "$lab" "$mutant" "$d/$mutant.log"; then
        pass "lab $lab bench refuses the mutant $mutant: $(tr -s ' ' <<<"$line")"
    fi
done
