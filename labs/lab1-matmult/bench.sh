#!/usr/bin/env bash
# make bench LAB=1 [IMPL=reference | SUBMISSION=DIR]
#
# Mflop/s of every variant against the memory footprint (the seed's figures
# 2-5 and 8), for an optimised and an -O0 build, and of matmult_blk against
# its block size (figure 6-7), all on one core beside single-threaded
# OpenBLAS DGEMM measured in the same run. Each point is the median of
# BENCH_REPEATS runs (the runs of all variants interleaved, so that a noisy
# moment hits them alike). Writes build/bench/lab1/bench.csv and two PNGs.
#
# Knobs (environment): BENCH_SIZES, BENCH_O0_SIZES, BENCH_BIG_SIZES (only lib,
# blk and mkn: beyond the last-level cache), BENCH_BLOCKS, BENCH_BLOCK_N,
# BENCH_REPEATS, MFLOPS_MIN_T.
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=build/bench/lab1
SIZES=${BENCH_SIZES:-"16 32 64 128 256 512 1024"}
O0_SIZES=${BENCH_O0_SIZES:-"16 64 256 512"}
BIG_SIZES=${BENCH_BIG_SIZES:-"2048 4096"}
BLOCKS=${BENCH_BLOCKS:-"8 16 32 48 64 96 128 192 256 384 512 1024"}
BLOCK_N=${BENCH_BLOCK_N:-1024}
REPEATS=${BENCH_REPEATS:-3}
BEST_BS=${BENCH_BEST_BS:-256}
export MFLOPS_MIN_T=${MFLOPS_MIN_T:-0.3}
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
VARIANTS="lib nat mnk mkn nmk nkm kmn knm blk"

src_args=()
[ -n "${SUBMISSION:-}" ] && src_args+=(SUBMISSION="$SUBMISSION")
[ -n "${IMPL:-}" ] && src_args+=(IMPL="$IMPL")
mkdir -p "$OUT"
echo "building lab 1 (${SUBMISSION:-${IMPL:-skeleton}}) optimised and at -O0 ..."
make --no-print-directory -s -f common/mk/lab.mk LAB=1 BUILD="$OUT/opt" "${src_args[@]}" all >/dev/null
make --no-print-directory -s -f common/mk/lab.mk LAB=1 BUILD="$OUT/O0" OPT=-O0 "${src_args[@]}" all >/dev/null

# Debian's OpenBLAS 0.3.21 does not know the newest Xeons and falls back to
# its Prescott (SSE3) kernels, six times slower: a yardstick that flatters
# everything measured against it. Name a core that the CPU can run instead.
core=$(OPENBLAS_VERBOSE=2 MFLOPS_MAX_IT=1 MATMULT_COMPARE=0 "$OUT/opt/matmult_c" lib 8 8 8 2>&1 | sed -n 's/^Core: //p' | head -1)
if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ "$core" = Prescott ]; then
    if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
    elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
    echo "OpenBLAS chose its Prescott kernels on this CPU; using OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Prescott}"
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "CPU: $cpu; OpenBLAS core: ${OPENBLAS_CORETYPE:-$core}; one thread; median of $REPEATS"

csv=$OUT/bench.csv
echo "build,variant,m,n,k,bs,kB,mflops_median,mflops_min,mflops_max,errors" >"$csv"
raw=$(mktemp)

# one BUILD TYPE N [BS]: one timed run -> "kB mflops errors"
one() {
    local build=$1 type=$2 n=$3 bs=${4:-}
    [ "$build" = bs-sweep ] && build=opt
    MATMULT_COMPARE=$([ "$n" -le 1024 ] && echo 1 || echo 0) \
        "$OUT/$build/matmult_c" "$type" "$n" "$n" "$n" $bs | awk '{print $1, $2, $3}'
}

# point BUILD TYPE N BS: queue one measurement (run later, interleaved)
points=()
point() { points+=("$1 $2 $3 ${4:-}"); }

for n in $SIZES; do for v in $VARIANTS; do point opt "$v" "$n" $([ "$v" = blk ] && echo "$BEST_BS"); done; done
for n in $BIG_SIZES; do for v in lib mkn blk; do point opt "$v" "$n" $([ "$v" = blk ] && echo "$BEST_BS"); done; done
for n in $O0_SIZES; do for v in $VARIANTS; do point O0 "$v" "$n" $([ "$v" = blk ] && echo "$BEST_BS"); done; done
for bs in $BLOCKS; do point bs-sweep blk "$BLOCK_N" "$bs"; done
point bs-sweep lib "$BLOCK_N"

total=$((${#points[@]} * REPEATS))
done_=0
for r in $(seq "$REPEATS"); do
    for p in "${points[@]}"; do
        read -r build type n bs <<<"$p"
        echo "$build $type $n ${bs:--} $(one "$build" "$type" "$n" "$bs")" >>"$raw"
        done_=$((done_ + 1))
        [ -t 1 ] && printf '\r  %d/%d runs' "$done_" "$total"
    done
done
echo

# Median, min and max over the repeats of each point (sorted by value
# within each point, so the median is the middle one).
sort -k1,1 -k2,2 -k3,3n -k4,4 -k6,6g "$raw" | awk -v OFS=, '
    function flush() {
        if (key == "") return
        n = split(vals, v, " ")
        med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        split(key, f, " ")
        print f[1], f[2], f[3], f[3], f[3], (f[4] == "-" ? "" : f[4]), kb, med, v[1], v[n], err
    }
    { k = $1 " " $2 " " $3 " " $4
      if (k != key) { flush(); key = k; vals = ""; err = "" }
      vals = vals " " $6; kb = $5; if (err == "" || $7 > err + 0) err = $7 }
    END { flush() }' >>"$csv"
rm -f "$raw"

# The goal: the fastest own variant against OpenBLAS at m = n = k = 1024.
awk -F, -v n=1024 '
    $1 != "O0" && $3 == n && $2 == "lib" { lib = $8 }
    $1 != "O0" && $3 == n && $2 != "lib" && $8 > best { best = $8; who = $2 ($6 != "" ? " bs=" $6 : "") }
    END { if (lib > 0) printf "at %d^3: OpenBLAS %.1f GFLOP/s; fastest own variant %s %.1f GFLOP/s = %.0f%% of OpenBLAS\n",
          n, lib / 1000, who, best / 1000, 100 * best / lib }' "$csv"
awk -F, 'NR > 1 && $11 > 0 { print "WARNING: " $11 " wrong elements in " $1 " " $2 " at n=" $3; bad = 1 } END { exit bad }' "$csv" || true

# The cache sizes, drawn as lines on the footprint plot.
l1=$(getconf LEVEL1_DCACHE_SIZE 2>/dev/null || echo 0)
l2=$(getconf LEVEL2_CACHE_SIZE 2>/dev/null || echo 0)
l3=$(getconf LEVEL3_CACHE_SIZE 2>/dev/null || echo 0)
gnuplot -e "csv='$csv'; out='$OUT'; cpu='$cpu'; l1=${l1:-0}/1024.; l2=${l2:-0}/1024.; l3=${l3:-0}/1024." \
    labs/lab1-matmult/bench.gp
echo "wrote $csv, $OUT/bench_sizes.png and $OUT/bench_blocks.png"
