#!/usr/bin/env bash
# make bench LAB=2 [SUBMISSION=DIR]    (the sources as for make lab2: your files by default)
#
# Lab 2's performance study, all in one run on one machine:
#   - STREAM-like copy bandwidth (the memory limit), 1 and all threads;
#   - Mflop/s, GB/s and GLUP/s of jacobi, omp_v1, omp_v2, omp_v3 against N
#     and threads, and of gs and the wavefront gs_omp;
#   - the parallel fraction f of each method fitted to Amdahl's law (the
#     seed's Table 10) from its speed-up at the largest N;
#   - Mandelbrot speed-up with static, dynamic and guided schedules.
# Each point is the median of BENCH_REPEATS runs (the runs of all points
# interleaved, so that a noisy moment hits them alike; every program warms
# up first where it matters). Writes build/bench/lab2/bench.csv,
# mandel.csv, amdahl.csv and three PNGs, and prints the goals.
#
# Knobs (environment): BENCH_THREADS ("1 2" up to the cores), BENCH_SIZES,
# BENCH_GS_SIZES, BENCH_BIG_N (arrays beyond the last-level cache),
# BENCH_MANDEL ("W H max_iter"), BENCH_COPY_MIB, BENCH_REPEATS, BENCH_BIN (use the
# programs in that folder instead of building; for a host without Check).
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "$0")/../../common/bench/bench_lib.sh"
bench_setup 2

cores=$(bench_cores)
default_threads=1
for t in 2 4 8 16 32 64; do [ "$t" -le "$cores" ] && default_threads="$default_threads $t"; done
#          knob     BENCH_QUICK=1  full
bench_knob THREADS  "1 2"          "$default_threads"
bench_knob SIZES    "16 24"        "32 64 128 256"
bench_knob BIG_N    32             400
bench_knob GS_SIZES "16 24"        "64 128 256"
bench_knob MANDEL   "256 256 200"  "1536 1536 1000"
bench_knob COPY_MIB 16             1024
bench_knob REPEATS  1              3
bench_knob WORK     2e6            3e8
max_t=$(tr ' ' '\n' <<<"$THREADS" | sort -n | awk '{ t = $1 } END { print t }')
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores} OMP_DYNAMIC=false
# Every run checks its result (the drivers compare with the kit's
# sequential code: common/poisson_driver.h, mandelbrot_main.c, and the copy
# checks its copy).
export POISSON_CHECK=1 MANDEL_CHECK=1

if [ -n "${BENCH_BIN:-}" ]; then # programs built elsewhere (a host without Check)
    bin=$BENCH_BIN
else
    echo "building lab 2 ($BENCH_SOURCE) ..."
    bench_build "$BENCH_OUT/opt"
    bin=$BENCH_OUT/opt
fi
cpu=$(bench_cpu_name)
peak=$(bench_cpu_peak_gflops)
echo "CPU: $cpu, $cores cores (peak bound $peak GFLOP/s a core); threads: $THREADS; median of $REPEATS; $(bench_date)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# Sweeps for about WORK = 3e8 point updates (Jacobi) or a fifth of it
# (Gauss-Seidel, which runs about 5 times slower per point): long enough to
# time, short enough to repeat.
sweeps() { awk -v n="$1" -v work="$2" 'BEGIN { s = int(work / (n * n * n)); print (s < 3 ? 3 : s) }'; }

points=()
point() { points+=("$*"); }
for t in $THREADS; do point copy "$t"; done
for n in $SIZES $BIG_N; do
    s=$(sweeps "$n" "$WORK")
    point poisson jacobi "$n" "$s" 1
    for m in omp_v1 omp_v2 omp_v3; do for t in $THREADS; do point poisson "$m" "$n" "$s" "$t"; done; done
done
for n in $GS_SIZES; do
    s=$(sweeps "$n" "$(awk -v w="$WORK" 'BEGIN { print w / 5 }')")
    point poisson gs "$n" "$s" 1
    for t in $THREADS; do point poisson gs_omp "$n" "$s" "$t"; done
done
for sched in static dynamic guided; do for t in $THREADS; do point mandel "$sched" "$t"; done; done

# one KIND ARGS...: one run ->
#   "KIND METHOD SIZE THREADS STATUS sweeps seconds mflops gbs glups_or_mpixels"
one() {
    local out
    case $1 in
    copy)
        out=$(OMP_NUM_THREADS=$2 "$bin/copy_bandwidth" "$COPY_MIB" 5 2>&1) || out=
        read -r gbs _ wrong _ <<<"${out:-- - -}"
        echo "copy copy $COPY_MIB $2 $(bench_status "$wrong") 0 - - $gbs -" ;;
    poisson)
        # poisson METHOD N max_iter tol=0 T0=0 -> N sweeps seconds Mflop/s GB/s GLUP/s ...
        # then "# check poisson_METHOD: wrong=W sweeps=S reference_sweeps=R"
        out=$(OMP_NUM_THREADS=$5 "$bin/poisson" "$2" "$3" "$4" 0 0 2>&1) || out=
        awk -v m="$2" -v n="$3" -v t="$5" '
            $NF == "poisson_" m && $(NF - 1) == "#" { fig = $2 " " $3 " " $4 " " $5 " " $6 }
            $2 == "check" { for (i = 4; i <= NF; i++) { split($i, kv, "="); c[kv[1]] = kv[2] }
                            st = (c["wrong"] == "0" && c["sweeps"] == c["reference_sweeps"]) ? "ok" : "wrong:" (c["wrong"] ? c["wrong"] : 1) }
            END { if (fig == "" || st == "") { st = "failed"; fig = "0 - - - -" }
                  print "poisson", m, n, t, st, fig }' <<<"$out" ;;
    mandel)
        # shellcheck disable=SC2086 # MANDEL is "W H max_iter"
        out=$(OMP_NUM_THREADS=$3 OMP_SCHEDULE=$([ "$2" = dynamic ] && echo dynamic,1 || echo "$2") \
            "$bin/mandelbrot" $MANDEL 2>&1) || out=
        awk -v s="$2" -v t="$3" '
            $(NF - 2) == "mandel" { fig = $4 " " $5; size = $1 "x" $2 "x" $3 }
            $2 == "check" { split($4, kv, "="); st = kv[2] == "0" ? "ok" : "wrong:" kv[2] }
            END { if (fig == "" || st == "") { st = "failed"; fig = "- -"; size = "-" }
                  split(fig, f, " "); print "mandel", s, size, t, st, 0, f[1], "-", "-", f[2] }' <<<"$out" ;;
    esac
}

raw=$(bench_scratch)
bench_run_points "$raw" one

# The medians of the repeats of each point, a rate above the cores' peak
# marked; an invalid row keeps its status, not its figures.
csv=$BENCH_OUT/bench.csv
echo "kind,method,N,threads,sweeps,seconds,mflops,gbs,glups_or_mpixels,status" >"$csv"
bench_medians 4 <"$raw" | awk -v OFS=, -v peak="$peak" "$BENCH_AWK"'
    { s = $5; if (s == "ok" && num($8) && $8 / 1000 > peak * $4) s = "peak"
      if (s != "ok") $6 = $7 = $8 = $9 = $10 = "-"
      print $1, $2, $3, $4, $6, $7, $8, $9, $10, status_text(s) }' >>"$csv"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -F, "$BENCH_AWK"'
    FNR > 1 { label = sprintf("%-7s %-8s %-12s %2s threads", $1, $2, ($1 == "poisson" ? "N=" : "") $3, $4)
              text = $1 == "copy" ? fig($8, "%.2f") " GB/s" \
                   : $1 == "mandel" ? fig($6, "%.4f") " s  " fig($9, "%.1f") " Mpixel/s" \
                   : sprintf("%s s  %s Mflop/s  %s GB/s", fig($6, "%.4f"), fig($7, "%.0f"), fig($8, "%.2f"))
              show(label, $10, text) }' "$csv"

# Amdahl: 1/S(P) = (1 - f) + f/P, least squares in f over the thread counts.
amdahl=$BENCH_OUT/amdahl.csv
gsbig=$(tr ' ' '\n' <<<"$GS_SIZES" | sort -n | awk '{ n = $1 } END { print n }')
awk -F, -v big="$BIG_N" -v gsbig="$gsbig" '
    $10 != "ok" { next }
    $1 == "poisson" && (($2 ~ /^omp_v/ && $3 == big) || ($2 == "gs_omp" && $3 == gsbig)) { t[$2 "@" $3, $4] = $6; ms[$2 "@" $3] = 1 }
    $1 == "mandel" { t[$2 "@" $3, $4] = $6; ms[$2 "@" $3] = 1 }
    END {
        print "method,size,threads_max,speedup_max,f"
        for (m in ms) {
            one = t[m, 1]; num = 0; den = 0; pmax = 1
            if (!(one > 0)) continue
            for (k in t) { split(k, kk, SUBSEP); if (kk[1] != m || kk[2] == 1) continue
                if (!(t[k] > 0)) continue
                p = kk[2]; s = one / t[k]; num += (1 - 1 / s) * (1 - 1 / p); den += (1 - 1 / p) ^ 2
                if (p > pmax) { pmax = p; smax = s } }
            if (den > 0) { split(m, mm, "@"); printf "%s,%s,%d,%.3f,%.3f\n", mm[1], mm[2], pmax, smax, num / den }
        }
    }' "$csv" | (read -r h; echo "$h"; sort) >"$amdahl"
echo "Amdahl fit (parallel fraction f; the seed's Table 10):"
awk -F, '{ printf "  %-10s %-14s %-12s %-12s %s\n", $1, $2, $3, $4, $5 }' "$amdahl"

# The goals, from right results only ("-" where one is missing).
awk -F, -v big="$BIG_N" -v tmax="$max_t" "$BENCH_AWK"'
    $10 != "ok" { next }
    $1 == "copy" && $4 == tmax { copy = $8 }
    $1 == "poisson" && $3 == big && $2 != "gs" && $2 != "gs_omp" && $8 > best { best = $8; who = $2 " " $4 "t" }
    $1 == "poisson" && $2 == "gs_omp" && $3 == 256 { gs[$4] = $6 }
    $1 == "mandel" && $2 == "dynamic" { md[$4] = $6 }
    END {
        r = ratio(100 * best, copy, "%.0f")
        printf "goal 1: best Jacobi at N=%d (%s, 24 bytes/point): %s GB/s%s, copy bandwidth %s GB/s (%d threads; goal 85%%)\n",
               big, (who == "" ? "none right" : who), (who == "" ? "-" : fig(best, "%.2f")), (r == "" || who == "" ? "" : " = " r "%"),
               fig(copy, "%.2f"), tmax
        r = ratio(gs[1], gs[2], "%.4f")
        if (r != "") printf "goal 2: gs_omp at N=256, 2 threads against 1: %s (goal %s)\n", speed(r), speed(1.5)
        r = ratio(100 * md[1], 2 * md[2], "%.0f")
        if (r != "") printf "goal 3: Mandelbrot, schedule dynamic,1, 2 threads: parallel efficiency %s%% (goal 95%%)\n", r
    }' "$csv" | bench_goals | tee "$BENCH_OUT/goals.txt"

# mandel.csv: speed-up and efficiency per schedule.
awk -F, -v OFS=, '$1 == "mandel" && $10 == "ok" { t[$2, $4] = $6; s[$2] = 1; p[$4] = 1 }
    END { print "schedule,threads,seconds,speedup,efficiency"
          for (k in s) for (q in p) if (t[k, q] > 0 && t[k, 1] > 0) print k, q, t[k, q], t[k, 1] / t[k, q], t[k, 1] / t[k, q] / q }' "$csv" |
    (read -r h; echo "$h"; sort -t, -k1,1 -k2,2n) >"$BENCH_OUT/mandel.csv"

if ! command -v gnuplot >/dev/null; then
    echo "wrote $csv, $amdahl, $BENCH_OUT/mandel.csv (no gnuplot here: no plots)"
elif gnuplot -e "csv='$csv'; mandel='$BENCH_OUT/mandel.csv'; out='$BENCH_OUT'; cpu='$cpu'; big=$BIG_N; tmax=$max_t" \
    labs/lab2-openmp/bench.gp 2>"$BENCH_OUT/gnuplot.log"; then
    echo "wrote $csv, $amdahl, $BENCH_OUT/mandel.csv, $BENCH_OUT/bench_jacobi.png, $BENCH_OUT/bench_threads.png, $BENCH_OUT/bench_mandel.png (INVALID rows left out)"
else
    echo "wrote $csv, $amdahl, $BENCH_OUT/mandel.csv; gnuplot could not draw every plot (no valid rows?): $BENCH_OUT/gnuplot.log"
fi
bench_finish "$csv"
