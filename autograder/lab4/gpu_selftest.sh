#!/usr/bin/env bash
# Lab 4's part of `make test`, run in parallel: for a GPU host, where the
# serial self-test would run the GPU suite a dozen times one after another.
# Same verdicts as autograder/selftest/run: the reference passes every test
# that ran, the skeleton fails, every mutant scores below the reference
# (mutants marked "# requires: gpu" are skipped without a GPU).
#
#   autograder/lab4/gpu_selftest.sh [JOBS]      (default 4 suites at once)
set -u
cd "$(dirname "$0")/../.."
. autograder/selftest/lib.sh
JOBS=${1:-4}
OUT=build/selftest-lab4
rm -rf "$OUT"
mkdir -p "$OUT"
GPUS=$(selftest_gpu_count)
echo "lab 4 self-test: $(nproc) cores, $GPUS GPU(s), $JOBS suites at once"
mk() { make --no-print-directory -f common/mk/lab.mk LAB=4 KIT_BUILD="$OUT/kit" "$@"; }
mk kit >"$OUT/kit.log" 2>&1 || { fail "lab 4: the kit's own code does not build (see $OUT/kit.log)"; summary; exit 1; }

variants="reference skeleton"
for patch in autograder/mutants/lab4/*.patch; do
    m=$(basename "$patch" .patch)
    if grep -q '^# requires: gpu' "$patch" && [ "$GPUS" = 0 ]; then
        skip "lab4 mutant $m: only a GPU host can catch it"
        continue
    fi
    need=$(sed -n 's/^# requires: gpus \([0-9]*\)$/\1/p' "$patch")
    if [ -n "$need" ] && [ "$GPUS" -lt "$need" ]; then
        skip "lab4 mutant $m: only a host with $need GPUs can catch it"
        continue
    fi
    mkdir -p "$OUT/$m/src"
    cp -r reference/lab4-multigpu-jacobi/. "$OUT/$m/src/"
    patch -s -p1 -d "$OUT/$m/src" <"$patch" >"$OUT/$m/patch.log" 2>&1 || { fail "lab4 mutant $m: the patch does not apply"; continue; }
    variants="$variants $m"
done

one() { # build and test one variant; leaves $OUT/$v/score ("X Y") and rc
    local v=$1 args=()
    case $v in reference) args=(IMPL=reference) ;; skeleton) ;; *) args=(SUBMISSION="$OUT/$v/src") ;; esac
    mkdir -p "$OUT/$v"
    if ! mk BUILD="$OUT/$v" "${args[@]}" all >"$OUT/$v/build.log" 2>&1; then
        echo build-failed >"$OUT/$v/score"
        return
    fi
    mk BUILD="$OUT/$v" check >"$OUT/$v/check.log" 2>&1
    echo "rc=$?" >"$OUT/$v/rc"
    sed -n 's/^score: \([0-9.]*\)\/\([0-9.]*\).*/\1 \2/p' "$OUT/$v/check.log" | tail -n 1 >"$OUT/$v/score"
}
export -f one mk
export OUT
printf '%s\n' $variants | xargs -P "$JOBS" -I{} bash -c 'one {}'

read -r ref ref_max <"$OUT/reference/score" || true
if [ "$(cat "$OUT/reference/rc" 2>/dev/null)" = rc=0 ] && [ -n "${ref:-}" ]; then
    pass "lab4: reference passes every test that ran ($ref/$ref_max)"
else
    fail "lab4: reference fails (see $OUT/reference/check.log)"
    grep -E '^  (FAIL|CRASH|TIMEOUT)' "$OUT/reference/check.log" | head -5
fi
read -r s s_max <"$OUT/skeleton/score" || true
if [ -n "${s:-}" ] && [ "$s" != build-failed ] && below "$s" "$s_max"; then
    pass "lab4: skeleton builds and fails its tests ($s/$s_max)"
else
    fail "lab4: skeleton does not fail (${s:-no score})"
fi
for v in $variants; do
    case $v in reference | skeleton) continue ;; esac
    what=$(sed -n '1s/^# //p' "autograder/mutants/lab4/$v.patch")
    read -r m m_max <"$OUT/$v/score" || true
    if [ "${m:-}" = build-failed ]; then
        fail "lab4 mutant $v does not build (see $OUT/$v/build.log)"
    elif [ -n "${m:-}" ] && [ -n "${ref:-}" ] && below "$m" "$ref"; then
        pass "lab4 mutant $v caught ($m/$m_max): $what"
    else
        fail "lab4 mutant $v NOT caught (${m:-no score}/${m_max:-?}): $what"
    fi
done
summary
