#!/usr/bin/env bash
# Lab 4 on a GPU host: the tests, the lab's self-test and the benchmark in
# one go, with every log in OUTDIR (default build/gpu-host-lab4).
#
#   labs/lab4-multigpu-jacobi/gpu_host.sh [prebuilt] [native] [selftest] [multi] [bench]
#
#   prebuilt  the whole suite with the prebuilt reference (offload on the GPU)
#   native    make lab4 IMPL=reference && make check with the host's compilers
#   selftest  autograder/lab4/gpu_selftest.sh: reference, skeleton, mutants
#   multi     (2+ GPUs) only the mutants that need 2 GPUs to be caught,
#             against nccl_two_ranks; runs beside prebuilt
#   bench     make bench LAB=4 with the prebuilt programs
#
# The GPU hosts have no Check and a GCC without nvptx offloading, so:
# .gpudeps/ (see ../../.gpudeps/gpu-host-deps.sh, plus Debian's libjson-c5 and
# libjson-c-dev downloaded into it by hand) stages Check, json-c and GCC 12's
# libgomp with its NVIDIA plugin, and LAB4_PREBUILT (default build/ci4) is
# the reference built beforehand on a machine with gcc-12-offload-nvptx
# (`make -f common/mk/lab.mk LAB=4 IMPL=reference BUILD=build/ci4 all`), so
# that its offload stage really runs on the GPU. The native build (the
# host's GCC) runs the offload stage on the CPU.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUTDIR=${OUTDIR:-build/gpu-host-lab4}
PRE=${LAB4_PREBUILT:-build/ci4}
mkdir -p "$OUTDIR"
[ -d .gpudeps ] && eval "$(sh .gpudeps/gpu-host-deps.sh unpack .gpudeps)"
# The grader writes results.json with json-c, which the GPU hosts lack and
# gpu-host-deps.sh does not fetch: every test program would fail to start.
if ! ldconfig -p | grep -q 'libjson-c\.so\.5' && ! ls .gpudeps/libjson-c5_*.deb >/dev/null 2>&1; then
    echo "error: no json-c here: on the machine with apt, run" >&2
    echo "  (cd .gpudeps && apt-get download libjson-c5 libjson-c-dev)" >&2
    exit 2
fi
export NCCL_NVLS_ENABLE=0 OMP_WAIT_POLICY=passive
phases=${*:-prebuilt native selftest bench}
# GCC 12's libgomp (with the nvptx plugin) for the prebuilt programs only
gomp() { LD_LIBRARY_PATH=${GOMP_OFFLOAD_LIB:-}:${LD_LIBRARY_PATH:-} "$@"; }

{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
    nvidia-smi topo -m
    gcc --version | head -1
    command -v gcc-12 mpicc nvcc
    mpirun --version 2>&1 | head -1
} 2>&1 | tee "$OUTDIR/host.txt"

multi_mutants() {
    local m
    make --no-print-directory -f common/mk/lab.mk LAB=4 kit >/dev/null 2>&1
    for m in nccl_halo_to_wrong_neighbour nccl_norm_on_one_rank; do
        (
            d=build/multi-$m
            rm -rf "$d" && mkdir -p "$d/src" && cp -r reference/lab4-multigpu-jacobi/. "$d/src/"
            patch -s -p1 -d "$d/src" <"autograder/mutants/lab4/$m.patch"
            make --no-print-directory -f common/mk/lab.mk LAB=4 BUILD="$d" SUBMISSION="$d/src" all >"$d/build.log" 2>&1 ||
                { echo "FAILED  mutant $m does not build"; exit 1; }
            timeout 400 "$d/test_lab4" --only nccl_two_ranks >"$d/check.log" 2>&1
            if grep -qE '^  (FAIL|CRASH|TIMEOUT)' "$d/check.log"; then
                echo "ok      mutant $m caught: $(grep -E '^  (FAIL|CRASH|TIMEOUT)' "$d/check.log" | cut -c1-300)"
            else
                echo "FAILED  mutant $m NOT caught by nccl_two_ranks: $(grep -E '^  (PASS|SKIP)' "$d/check.log")"
            fi
        ) &
    done
    wait
}
if [[ " $phases " == *" multi "* ]]; then
    multi_mutants 2>&1 | tee "$OUTDIR/multi.log" &
fi
if [[ " $phases " == *" prebuilt "* ]] && [ -x "$PRE/test_lab4" ]; then
    echo "== prebuilt reference ($PRE): does the offload stage reach the GPU?"
    gomp env GOMP_DEBUG=1 "$PRE/poisson" offload 32 1 0 0 2>&1 | grep -i -m3 'nvptx\|cuda' || true
    gomp "$PRE/lab4_bench" offload 256 20 3
    OMP_TARGET_OFFLOAD=disabled "$PRE/lab4_bench" offload 256 20 3 | sed 's/^solve offload/solve offload-on-host/'
    echo "== prebuilt reference: the whole suite"
    gomp timeout 400 "$PRE/test_lab4" 2>&1 | tee "$OUTDIR/check-prebuilt.log"
fi
if [[ " $phases " == *" native "* ]]; then
    echo "== native build: make lab4 IMPL=reference && make check"
    make lab4 IMPL=reference >"$OUTDIR/build-native.log" 2>&1 || tail -20 "$OUTDIR/build-native.log"
    timeout 300 make check LAB=4 2>&1 | tee "$OUTDIR/check-native.log"
fi
wait
if [[ " $phases " == *" selftest "* ]]; then
    echo "== lab 4 self-test (reference, skeleton, mutants)"
    timeout 360 autograder/lab4/gpu_selftest.sh "${SELFTEST_JOBS:-6}" 2>&1 | tee "$OUTDIR/selftest.log"
fi
if [[ " $phases " == *" bench "* ]]; then
    echo "== benchmark"
    if [ -x "$PRE/lab4_bench" ]; then
        gomp env BENCH_BUILD="$PRE" timeout 400 labs/lab4-multigpu-jacobi/bench.sh 2>&1 | tee "$OUTDIR/bench.log"
    else
        timeout 400 labs/lab4-multigpu-jacobi/bench.sh 2>&1 | tee "$OUTDIR/bench.log"
    fi
    cp build/bench/lab4/*.csv build/bench/lab4/*.png build/bench/lab4/*.txt "$OUTDIR/" 2>/dev/null
fi
true
