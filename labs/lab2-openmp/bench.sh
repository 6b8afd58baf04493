#!/usr/bin/env bash
# make bench LAB=2 [IMPL=reference | SUBMISSION=DIR]
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
set -euo pipefail
cd "$(dirname "$0")/../.."

OUT=build/bench/lab2
cores=$(nproc)
default_threads=1
for t in 2 4 8 16 32 64; do [ "$t" -le "$cores" ] && default_threads="$default_threads $t"; done
THREADS=${BENCH_THREADS:-$default_threads}
SIZES=${BENCH_SIZES:-"32 64 128 256"}
BIG_N=${BENCH_BIG_N:-400}
GS_SIZES=${BENCH_GS_SIZES:-"64 128 256"}
MANDEL=${BENCH_MANDEL:-"1536 1536 1000"}
COPY_MIB=${BENCH_COPY_MIB:-1024}
REPEATS=${BENCH_REPEATS:-3}
max_t=$(echo "$THREADS" | tr ' ' '\n' | sort -n | tail -1)
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores} OMP_DYNAMIC=false

src_args=()
[ -n "${SUBMISSION:-}" ] && src_args+=(SUBMISSION="$SUBMISSION")
[ -n "${IMPL:-}" ] && src_args+=(IMPL="$IMPL")
mkdir -p "$OUT"
if [ -n "${BENCH_BIN:-}" ]; then # programs built elsewhere (a host without Check)
    bin=$BENCH_BIN
else
    echo "building lab 2 (${SUBMISSION:-${IMPL:-skeleton}}) ..."
    make --no-print-directory -s -f common/mk/lab.mk LAB=2 BUILD="$OUT/opt" "${src_args[@]}" all >/dev/null
    bin=$OUT/opt
fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "CPU: $cpu, $cores cores; threads: $THREADS; median of $REPEATS; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# Sweeps for about 3e8 point updates (Jacobi) or 6e7 (Gauss-Seidel, which
# runs about 5 times slower per point): long enough to time, short enough
# to repeat.
sweeps() { awk -v n="$1" -v work="$2" 'BEGIN { s = int(work / (n * n * n)); print (s < 3 ? 3 : s) }'; }

points=()
point() { points+=("$*"); }
for t in $THREADS; do point copy "$t"; done
for n in $SIZES $BIG_N; do
    s=$(sweeps "$n" 3e8)
    point poisson jacobi "$n" "$s" 1
    for m in omp_v1 omp_v2 omp_v3; do for t in $THREADS; do point poisson "$m" "$n" "$s" "$t"; done; done
done
for n in $GS_SIZES; do
    s=$(sweeps "$n" 6e7)
    point poisson gs "$n" "$s" 1
    for t in $THREADS; do point poisson gs_omp "$n" "$s" "$t"; done
done
for sched in static dynamic guided; do for t in $THREADS; do point mandel "$sched" "$t"; done; done

raw=$(mktemp)
total=$((${#points[@]} * REPEATS))
done_=0
for r in $(seq "$REPEATS"); do
    for p in "${points[@]}"; do
        set -- $p
        case $1 in
        copy)
            gbs=$(OMP_NUM_THREADS=$2 "$bin/copy_bandwidth" "$COPY_MIB" 5 | awk '{print $1}')
            echo "copy copy $COPY_MIB $2 0 0 0 $gbs 0" >>"$raw" ;;
        poisson)
            # poisson METHOD N max_iter tol=0 T0=0 -> N sweeps seconds Mflop/s GB/s GLUP/s ...
            OMP_NUM_THREADS=$5 "$bin/poisson" "$2" "$3" "$4" 0 0 |
                awk -v m="$2" -v t="$5" '{print "poisson", m, $1, t, $2, $3, $4, $5, $6}' >>"$raw" ;;
        mandel)
            OMP_NUM_THREADS=$3 OMP_SCHEDULE=$([ "$2" = dynamic ] && echo dynamic,1 || echo "$2") "$bin/mandelbrot" $MANDEL |
                awk -v s="$2" -v t="$3" '{print "mandel", s, $1 "x" $2 "x" $3, t, 0, $4, 0, 0, $5}' >>"$raw" ;;
        esac
        done_=$((done_ + 1))
        printf '\r  %d/%d runs' "$done_" "$total"
    done
done
echo

# Median of the repeats of each point (by seconds; copy by GB/s).
csv=$OUT/bench.csv
echo "kind,method,N,threads,sweeps,seconds,mflops,gbs,glups_or_mpixels" >"$csv"
sort -k1,1 -k2,2 -k3,3n -k4,4n "$raw" | awk -v OFS=, '
    function flush(   i, j, t, r, f) {
        if (key == "") return
        for (i = 2; i <= m; i++) { # insertion sort by value: m is a handful
            t = val[i]; r = row[i]
            for (j = i - 1; j >= 1 && val[j] > t; j--) { val[j + 1] = val[j]; row[j + 1] = row[j] }
            val[j + 1] = t; row[j + 1] = r
        }
        split(row[int((m + 1) / 2)], f, " ")
        print f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]
    }
    { k = $1 " " $2 " " $3 " " $4; if (k != key) { flush(); key = k; m = 0 }
      m++; row[m] = $0; val[m] = ($1 == "copy" ? $8 : $6) + 0 }
    END { flush() }' >>"$csv"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

# Amdahl: 1/S(P) = (1 - f) + f/P, least squares in f over the thread counts.
amdahl=$OUT/amdahl.csv
awk -F, -v big="$BIG_N" -v gsbig="$(echo $GS_SIZES | tr ' ' '\n' | sort -n | tail -1)" '
    $1 == "poisson" && (($2 ~ /^omp_v/ && $3 == big) || ($2 == "gs_omp" && $3 == gsbig)) { t[$2 "@" $3, $4] = $6; ms[$2 "@" $3] = 1 }
    $1 == "mandel" { t[$2 "@" $3, $4] = $6; ms[$2 "@" $3] = 1 }
    END {
        print "method,size,threads_max,speedup_max,f"
        for (m in ms) {
            one = t[m, 1]; num = 0; den = 0; pmax = 1
            for (k in t) { split(k, kk, SUBSEP); if (kk[1] != m || kk[2] == 1) continue
                p = kk[2]; s = one / t[k]; num += (1 - 1 / s) * (1 - 1 / p); den += (1 - 1 / p) ^ 2
                if (p > pmax) { pmax = p; smax = s } }
            if (den > 0) { split(m, mm, "@"); printf "%s,%s,%d,%.3f,%.3f\n", mm[1], mm[2], pmax, smax, num / den }
        }
    }' "$csv" | (read -r h; echo "$h"; sort) >"$amdahl"
echo "Amdahl fit (parallel fraction f; the seed's Table 10):"
awk -F, '{ printf "  %-10s %-14s %-12s %-12s %s\n", $1, $2, $3, $4, $5 }' "$amdahl"

# The goals.
awk -F, -v big="$BIG_N" -v tmax="$max_t" '
    $1 == "copy" && $4 == tmax { copy = $8 }
    $1 == "poisson" && $3 == big && $2 != "gs" && $2 != "gs_omp" && $8 > best { best = $8; who = $2 " " $4 "t" }
    $1 == "poisson" && $2 == "gs_omp" && $3 == 256 { gs[$4] = $6 }
    $1 == "mandel" && $2 == "dynamic" { md[$4] = $6 }
    END {
        printf "goal 1: best Jacobi at N=%d (%s, 24 bytes/point): %.2f GB/s = %.0f%% of the copy bandwidth %.2f GB/s (%d threads; goal 85%%)\n",
               big, who, best, 100 * best / copy, copy, tmax
        if (gs[1] > 0 && gs[2] > 0)
            printf "goal 2: gs_omp at N=256, 2 threads against 1: %.2fx (goal 1.5x)\n", gs[1] / gs[2]
        if (md[1] > 0 && md[2] > 0)
            printf "goal 3: Mandelbrot, schedule dynamic,1, 2 threads: parallel efficiency %.0f%% (goal 95%%)\n", 100 * md[1] / (2 * md[2])
    }' "$csv" | tee "$OUT/goals.txt"

# mandel.csv: speed-up and efficiency per schedule.
awk -F, -v OFS=, '$1 == "mandel" { t[$2, $4] = $6; s[$2] = 1; p[$4] = 1 }
    END { print "schedule,threads,seconds,speedup,efficiency"
          for (k in s) for (q in p) if (t[k, q] > 0) print k, q, t[k, q], t[k, 1] / t[k, q], t[k, 1] / t[k, q] / q }' "$csv" |
    (read -r h; echo "$h"; sort -t, -k1,1 -k2,2n) >"$OUT/mandel.csv"
rm -f "$raw"

if ! command -v gnuplot >/dev/null; then
    echo "wrote $csv, $amdahl, $OUT/mandel.csv (no gnuplot here: no plots)"
    exit 0
fi
gnuplot -e "csv='$csv'; mandel='$OUT/mandel.csv'; out='$OUT'; cpu='$cpu'; big=$BIG_N; tmax=$max_t" \
    labs/lab2-openmp/bench.gp
echo "wrote $csv, $amdahl, $OUT/mandel.csv, $OUT/bench_jacobi.png, $OUT/bench_threads.png, $OUT/bench_mandel.png"
