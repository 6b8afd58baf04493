#!/usr/bin/env bash
# make bench LAB=1 [SUBMISSION=DIR]    (the sources as for make lab1: your files by default)
#
# Mflop/s of every variant against the memory footprint (the seed's figures
# 2-5 and 8), for an optimised and an -O0 build, and of matmult_blk against
# its block size (figure 6-7), all on one core beside single-threaded
# OpenBLAS DGEMM measured in the same run. Each point is the median of
# BENCH_REPEATS runs (the runs of all variants interleaved, so that a noisy
# moment hits them alike). Every run's C is checked (against DGEMM up to
# n = 1024, by a random-vector product beyond): a wrong result or a rate
# above the core's peak shows INVALID instead of figures and makes the
# benchmark exit with status 1 (common/bench/bench_lib.sh). Writes
# build/bench/lab1/bench.csv and two PNGs.
#
# Knobs (environment): BENCH_QUICK=1 (small sizes, one repeat), BENCH_SIZES,
# BENCH_O0_SIZES, BENCH_BIG_SIZES (only lib, blk and mkn: beyond the
# last-level cache), BENCH_BLOCKS, BENCH_BLOCK_N, BENCH_BEST_BS,
# BENCH_REPEATS, MFLOPS_MIN_T, BENCH_OUT.
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "$0")/../../common/bench/bench_lib.sh"
bench_setup 1

#          knob      BENCH_QUICK=1  full
bench_knob SIZES     "32 64"        "16 32 64 128 256 512 1024"
bench_knob O0_SIZES  "32"           "16 64 256 512"
bench_knob BIG_SIZES ""             "2048 4096"
bench_knob BLOCKS    "16 32"        "8 16 32 48 64 96 128 192 256 384 512 1024"
bench_knob BLOCK_N   64             1024
bench_knob REPEATS   1              3
bench_knob BEST_BS   256            256
export MFLOPS_MIN_T=${MFLOPS_MIN_T:-$(bench_quick 0.02 0.3)}
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
VARIANTS="lib nat mnk mkn nmk nkm kmn knm blk"

echo "building lab 1 ($BENCH_SOURCE) optimised and at -O0 ..."
bench_build "$BENCH_OUT/opt"
bench_build "$BENCH_OUT/O0" OPT=-O0

# Debian's OpenBLAS 0.3.21 does not know the newest Xeons and falls back to
# its Prescott (SSE3) kernels, six times slower: a yardstick that flatters
# everything measured against it. Name a core that the CPU can run instead.
core=$(OPENBLAS_VERBOSE=2 MFLOPS_MAX_IT=1 MATMULT_COMPARE=0 "$BENCH_OUT/opt/matmult_c" lib 8 8 8 2>&1 |
    awk '/^Core: / && core == "" { core = $2 } END { print core }')
if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ "$core" = Prescott ]; then
    if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
    elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
    echo "OpenBLAS chose its Prescott kernels on this CPU; using OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-Prescott}"
fi
cpu=$(bench_cpu_name)
peak=$(bench_cpu_peak_gflops)
# The vectors the lab's flags (-O3 -march=native) give GCC on this CPU, and
# the -march it resolves to: a register tile is built from them (the
# reference's tile is MR x 2 vectors: 8 x 16 with AVX-512, 6 x 8 with AVX,
# 4 x 4 with SSE2), and GCC's tuning for the CPU decides how wide it codes.
macros=$(gcc -O3 -march=native -dM -E - </dev/null)
case $macros in
*__AVX512F__*) vec="AVX-512 (8 doubles), reference tile 8 x 16" ;;
*__AVX__*) vec="AVX (4 doubles), reference tile 6 x 8" ;;
*) vec="SSE2 (2 doubles), reference tile 4 x 4" ;;
esac
# (awk reads to the end: an early exit would kill gcc with SIGPIPE, and
# this script with it, under pipefail)
march=$(gcc -march=native -Q --help=target 2>/dev/null | awk '$1 == "-march=" && m == "" { m = $2 } END { print m }')
echo "CPU: $cpu; OpenBLAS core: ${OPENBLAS_CORETYPE:-$core}; one thread (peak bound $peak GFLOP/s); median of $REPEATS; $(bench_date)"
echo "vectors: $vec; gcc -march=native is -march=${march:-?}"

# one BUILD TYPE N [BS]: one timed run -> "STATUS kB Mflop/s"
one() {
    local build=$1 type=$2 n=$3 bs=${4:-} out
    [ "$build" = bs-sweep ] && build=opt
    # shellcheck disable=SC2086 # bs is empty or one number
    out=$(MATMULT_COMPARE=$([ "$n" -le 1024 ] && echo 1 || echo 2) \
        "$BENCH_OUT/$build/matmult_c" "$type" "$n" "$n" "$n" $bs 2>&1) || out=
    read -r kb mflops wrong _ <<<"${out:-- - -}"
    echo "$(bench_status "$wrong") $kb $mflops"
}

# point BUILD TYPE N BS: queue one measurement (run later, interleaved)
points=()
point() { points+=("$1 $2 $3 ${4:--}"); }
for n in $SIZES; do for v in $VARIANTS; do point opt "$v" "$n" "$([ "$v" = blk ] && echo "$BEST_BS")"; done; done
for n in $BIG_SIZES; do for v in lib mkn blk; do point opt "$v" "$n" "$([ "$v" = blk ] && echo "$BEST_BS")"; done; done
for n in $O0_SIZES; do for v in $VARIANTS; do point O0 "$v" "$n" "$([ "$v" = blk ] && echo "$BEST_BS")"; done; done
for bs in $BLOCKS; do point bs-sweep blk "$BLOCK_N" "$bs"; done
point bs-sweep lib "$BLOCK_N"

# measure BUILD TYPE N BS: a point's line, "BUILD TYPE N BS STATUS kB Mflop/s"
measure() { echo "$1 $2 $3 $4 $(one "$1" "$2" "$3" "${4#-}")"; }
raw=$(bench_scratch)
bench_run_points "$raw" measure

# The medians, a rate above the core's peak marked, as the CSV (an invalid
# row keeps its status, not its figure).
csv=$BENCH_OUT/bench.csv
echo "build,variant,m,n,k,bs,kB,mflops,status" >"$csv"
bench_medians 4 <"$raw" | awk -v OFS=, -v peak="$peak" "$BENCH_AWK"'
    { s = $5; if (s == "ok" && num($7) && $7 / 1000 > peak) s = "peak"
      print $1, $2, $3, $3, $3, ($4 == "-" ? "" : $4), $6, (s == "ok" ? $7 : "-"), status_text(s) }' >>"$csv"

# Every point, with its ratio to OpenBLAS at the same size and build.
awk -F, "$BENCH_AWK"'
    NR == FNR { if ($2 == "lib" && $9 == "ok") lib[$1, $3] = $8; next }
    FNR > 1 { b = ($1 == "bs-sweep" ? "opt" : $1)
              label = sprintf("%-8s %-4s n=%-5s%-8s", $1, $2, $3, ($6 == "" ? "" : " bs=" $6))
              r = ($2 == "lib" || $9 != "ok") ? "" : speed(ratio($8, lib[b, $3], "%.4f"))
              show(label, $9, sprintf("%10s Mflop/s%s", fig($8, "%.1f"), r == "" ? "" : ", " r " than OpenBLAS")) }' "$csv" "$csv"

# The goal: the fastest own variant against OpenBLAS at m = n = k = 1024
# (or the largest size run), valid rows only.
goal_n=$(tr ' ' '\n' <<<"$SIZES" | sort -n | awk '$1 <= 1024 { n = $1 } END { print n }')
awk -F, -v n="$goal_n" "$BENCH_AWK"'
    $9 != "ok" { next }
    $1 == "opt" && $3 == n && $2 == "lib" { lib = $8 }
    $1 == "opt" && $3 == n && $2 != "lib" && $8 > best { best = $8; who = $2 ($6 != "" ? " bs=" $6 : "") }
    END { r = (who == "" ? "" : ratio(100 * best, lib, "%.0f"))
          printf "goal at %d^3: OpenBLAS %s GFLOP/s; fastest own variant (right results only) %s %s GFLOP/s%s\n",
          n, (lib == "" ? "-" : fig(lib / 1000, "%.1f")), (who == "" ? "(none)" : who), (who == "" ? "-" : fig(best / 1000, "%.1f")),
          (r == "" ? "" : " = " r "% of OpenBLAS") }' "$csv" | bench_goals

# The cache sizes, drawn as lines on the footprint plot.
l1=$(getconf LEVEL1_DCACHE_SIZE 2>/dev/null || echo 0)
l2=$(getconf LEVEL2_CACHE_SIZE 2>/dev/null || echo 0)
l3=$(getconf LEVEL3_CACHE_SIZE 2>/dev/null || echo 0)
if command -v gnuplot >/dev/null; then
    if gnuplot -e "csv='$csv'; out='$BENCH_OUT'; cpu='$cpu'; l1=${l1:-0}/1024.; l2=${l2:-0}/1024.; l3=${l3:-0}/1024." \
        labs/lab1-matmult/bench.gp 2>"$BENCH_OUT/gnuplot.log"; then
        echo "wrote $csv, $BENCH_OUT/bench_sizes.png and $BENCH_OUT/bench_blocks.png (INVALID rows left out)"
    else
        echo "wrote $csv; gnuplot could not draw every plot (no valid rows?): $BENCH_OUT/gnuplot.log"
    fi
else
    echo "wrote $csv (no gnuplot here: no plots)"
fi
bench_finish "$csv"
