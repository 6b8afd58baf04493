#!/usr/bin/env bash
# Self-test of lab 1's reference register tile (run by make test): on every
# x86 CPU the kit is graded on, the micro-kernel's loop keeps its MR x 2
# vector tile of C in registers, as the reference's comment promises.
#
# Why here and not by timing: CI and the graders' machines are Intel and AMD
# of several generations, and a tile too large for one of them spills to the
# stack on every step of l and runs at half speed there (an 8 x 16 tile ran
# at 40% of OpenBLAS on a Zen 1 with AVX2; a Zen 4 was measured at 37% before
# the tile was sized from the target's registers). No host has every CPU,
# but GCC compiles for all of them here: for each target the loop must hold
# 2 MR vector multiply-adds (or a multiple, if GCC unrolls it) of the
# target's widest vectors, and no access to the stack.
#
# The targets are -march sets, plus the flags GCC 12.2's -march=native gives
# on a Zen 4 (it does not know znver4: znver3 tuning with AVX-512), and this
# host's own -march=native.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

SRC=labs/lab1-matmult/solution/matmult.c
case $(uname -m) in
x86_64) ;;
*)
    skip "lab 1 register tile: not an x86-64 host ($(uname -m))"
    summary
    exit $?
    ;;
esac

zen4_gcc12="-march=znver3 -mavx512f -mavx512dq -mavx512cd -mavx512bw -mavx512vl -mavx512ifma -mavx512vbmi"
zen4_gcc12="$zen4_gcc12 -mavx512vbmi2 -mavx512vnni -mavx512bitalg -mavx512vpopcntdq -mavx512bf16"
targets=(
    "SSE2 only|-march=x86-64"
    "AVX without FMA (Sandy Bridge)|-march=sandybridge"
    "AVX2 (Haswell)|-march=haswell"
    "AVX2, 128-bit tuning (Zen 1)|-march=znver1"
    "AVX2 (Zen 3)|-march=znver3"
    "Zen 4 as GCC 12.2 sees it|$zen4_gcc12"
    "AVX-512 (Skylake-SP)|-march=skylake-avx512"
    "AVX-512 (Sapphire Rapids)|-march=sapphirerapids"
    "this host|-march=native"
)
# A GCC that knows Zen 4 gets it by name too.
if gcc -march=znver4 -E - </dev/null >/dev/null 2>&1; then
    targets+=("Zen 4|-march=znver4")
fi

# loop_of_kernel: reads GCC's assembly, prints for the micro-kernel's loop
# with the most vector multiplies: "multiplies width stack-accesses". A loop
# is a label and a later jump back to it.
loop_of_kernel() {
    awk '
        /^micro_kernel:/ { inside = 1; n = 0; next }
        inside && /\.cfi_endproc/ { inside = 0 }
        !inside { next }
        {
            line[++n] = $0
            if ($0 ~ /^\.L[A-Za-z0-9_]+:/) { l = $0; sub(/:.*/, "", l); at[l] = n }
            if ($1 ~ /^j/ && ($2 in at)) {
                mul = 0; stack = 0; w = ""
                for (i = at[$2]; i <= n; i++) {
                    if (line[i] ~ /(vfmadd|vfnmadd|mulpd)/) {
                        mul++
                        if (line[i] ~ /%zmm/) w = "zmm"; else if (line[i] ~ /%ymm/ && w != "zmm") w = "ymm";
                        else if (w == "") w = "xmm"
                    }
                    if (line[i] ~ /\(%rsp\)|\(%rbp\)/) stack++
                }
                if (mul > best) { best = mul; width = w; spills = stack }
            }
        }
        END { print best + 0, (width == "" ? "none" : width), spills + 0 }'
}

for t in "${targets[@]}"; do
    name=${t%%|*}
    flags=${t#*|}
    # shellcheck disable=SC2086 # flags are words
    if ! macros=$(gcc $flags -O3 -dM -E - </dev/null 2>/dev/null); then
        skip "lab 1 register tile, $name: this GCC does not know $flags"
        continue
    fi
    case $macros in
    *__AVX512F__*) mr=8 want=zmm ;;
    *__AVX__*) mr=6 want=ymm ;;
    *) mr=4 want=xmm ;;
    esac
    # shellcheck disable=SC2086
    if ! asm=$(gcc -std=c17 $flags -O3 -ffp-contract=fast -Ilabs/lab1-matmult -Icommon -S -o - "$SRC" 2>&1); then
        fail "lab 1 register tile, $name: $SRC does not compile with $flags"
        continue
    fi
    read -r mul width stack <<<"$(printf '%s\n' "$asm" | loop_of_kernel)"
    if [ "$mul" -gt 0 ] && [ $((mul % (2 * mr))) = 0 ] && [ "$width" = "$want" ] && [ "$stack" = 0 ]; then
        pass "lab 1 register tile, $name: the loop does $mul $width multiply-adds, tile $mr x 2 vectors, no stack access"
    else
        fail "lab 1 register tile, $name ($flags): the loop has $mul multiplies on $width (expected a multiple of $((2 * mr)) on $want) and $stack stack accesses"
    fi
done
summary
