#!/usr/bin/env bash
# Self-test of lab 5's serial reference (run by make test): its loop over
# x is vectorised for every x86 width it is compiled for, and contracts
# nothing into FMA.
#
# Why: the benchmark checks the lecture's grid (480 x 480 x 400, 100 steps)
# against wave_serial on the server rank, and a scalar loop made that check
# take 42 s on a 16-core GPU host. Timing it here would depend on
# the host; what makes it fast can be read in the object instead: the kit
# builds its own code with -O2 and no -march, so wave_serial.c's step_row is
# cloned for AVX-512 and AVX2 (picked at run time) and each clone's loop
# must use packed adds of its width. And the results are compared bit for
# bit: a fused multiply-add would change them, so none may appear.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

case $(uname -m) in
x86_64) ;;
*)
    skip "lab 5 serial reference vectorised: not an x86-64 host ($(uname -m))"
    summary
    exit $?
    ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the kit's flags for its own code (common/mk/config.mk's KIT_OPT, lab 5's LAB_CFLAGS)
if ! gcc -std=c17 -O2 -g -Wall -Wextra -fopenmp -ffp-contract=off -Ilabs/lab5-cuda-mpi-stencil -Icommon \
    -c labs/lab5-cuda-mpi-stencil/wave_serial.c -o "$tmp/wave_serial.o" 2>"$tmp/cc.log"; then
    fail "lab 5 serial reference: does not compile: $(head -n 3 "$tmp/cc.log")"
    summary
    exit $?
fi
objdump -d --no-show-raw-insn "$tmp/wave_serial.o" >"$tmp/dis.txt"
# the instructions of one function of the object
body() { awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit } on' "$tmp/dis.txt"; }
for clone in "avx512f|%zmm" "avx2|%ymm" "default|%xmm"; do
    name=step_row.${clone%%|*} reg=${clone##*|}
    b=$(body "$name")
    if [ -z "$b" ]; then
        fail "lab 5 serial reference: no function $name in wave_serial.o (is step_row still cloned per target?)"
    elif grep -Eq "(v)?addps[[:space:]].*$reg" <<<"$b"; then
        pass "lab 5 serial reference: $name adds packed floats in $reg"
    else
        fail "lab 5 serial reference: $name has no packed add on $reg: the loop over x is not vectorised"
    fi
done
grep -Eiq "vfn?m(add|sub)[0-9]+[ps]s" "$tmp/dis.txt" &&
    fail "lab 5 serial reference: a fused multiply-add in wave_serial.o: the bits would differ from the scheme's" ||
    pass "lab 5 serial reference: no fused multiply-add (the scheme's roundings)"
summary
