#!/usr/bin/env bash
# make bench LAB=8 [IMPL=reference | SUBMISSION=DIR]: axpy's GFLOP/s (2 a
# element) at a few sizes, medians of BENCH_REPEATS, each result checked;
# a wrong one, or a rate above one core's peak, is INVALID (exit 1).
# Knobs: BENCH_QUICK=1, BENCH_REPEATS, BENCH_OUT.
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "$0")/../../common/bench/bench_lib.sh"
bench_setup 8
[ "$BENCH_QUICK" = 1 ] && q_repeats=1
REPEATS=${BENCH_REPEATS:-${q_repeats:-5}}
bench_build "$BENCH_OUT/build"
peak=$(bench_cpu_peak_gflops)
csv=$BENCH_OUT/bench.csv
echo "n,gflops,status" >"$csv"
for n in 1000 100000; do
    read -r _ wrong seconds < <("$BENCH_OUT/build/axpy_bench" "$n" "$REPEATS" || echo "$n failed -")
    awk -v n="$n" -v s="$(bench_status "$wrong")" -v t="$seconds" -v peak="$peak" -v csv="$csv" "$BENCH_AWK"'
        BEGIN { g = num(t) && t > 0 ? 2 * n / t / 1e9 : "-"
                if (s == "ok" && num(g) && g > peak) s = "peak"
                printf "%d,%s,%s\n", n, s == "ok" ? fig(g, "%.3f") : "-", status_text(s) >>csv
                show(sprintf("axpy n=%d", n), s, fig(g, "%.3f") " GFLOP/s") }'
done
bench_finish "$csv"
