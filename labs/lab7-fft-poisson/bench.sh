#!/usr/bin/env bash
# make bench LAB=7 [SUBMISSION=DIR]    (the sources as for make lab7: your files by default)
#
# Lab 7's performance study, every figure beside its bound measured in the
# same run (lab7_bench.c; each result's residual is checked before any of
# its figures is printed):
#   - CPU: fp_solve_serial and its parts (transforms, z stage) against FFTW
#     alone doing the same four r2r transforms (goal: solve <= 1.2x FFTW
#     from N = 64 on);
#   - GPU (where there is one): the device part of the solver and its parts
#     against cuFFT alone doing the same D2Z/Z2D batches, the device copy
#     rate, and the solve with its host copies. The goal is on the
#     transforms: at least 80% of their pass bound, cuFFT alone plus the
#     two passes over the grid that each transform's pre and post kernels
#     must make (read and write every cell) at the copy rate of the same
#     run. cuFFT alone is not a bound the kit's design can approach: its
#     four transforms are each three passes (pre, FFT, post) where cuFFT
#     alone counts one. Where the solver defines fp_gpu_solve_fused (the
#     README's optional challenge: pre and post steps in cuFFT's callbacks),
#     its device solve against cuFFT alone (goal: <= 1.5x for N >= 256);
#   - 2 GPUs (where there are two): fp_solve_nccl on 1 and 2 GPUs (strong
#     scaling, with copies), its transposes as it reports them, and an NCCL
#     all-to-all of the same bytes (goal: transposes at >= 80% of its rate);
#   - the radiator problem of labs 2 and 4: the direct solve against
#     common's Jacobi run to an update norm of 1e-8.
# Medians of BENCH_REPEATS runs after a checked warm-up. Writes
# build/bench/lab7/bench.csv (the nccl lines:
# mode,N,solve_with_copies_s,transposes_s,alltoall_x4_s,gpus; every line's
# last column, status, is ok or why it is INVALID) and bench.png, prints the
# goals. A wrong result, or a run that fails, shows INVALID in place of its
# figures and makes the benchmark exit 1 (common/bench/bench_lib.sh); so
# does a radiator solve whose residual is not small.
#
# Knobs: BENCH_CPU_SIZES ("32 64 128"; a larger host: "64 128 256 512"),
# BENCH_GPU_SIZES ("64 128 256 512 1024"), BENCH_NCCL_SIZES ("256 512 1024"),
# BENCH_RADIATOR_SIZES ("24 32"), BENCH_REPEATS (5), BENCH_QUICK=1 (small
# sizes, one repeat, each reaching the smallest size a goal is stated for:
# the self-test's refusal check), BENCH_OUT, BENCH_BIN
# (programs built elsewhere: a folder holding lab7_bench and fft_poisson).
# shellcheck source=common/bench/bench_lib.sh
. "$(dirname "$0")/../../common/bench/bench_lib.sh"
bench_setup 7
if [ "$BENCH_QUICK" = 1 ]; then
    q_cpu="32 64" q_gpu="64 256" q_nccl="64" q_radiator="16" q_repeats=1
fi
CPU_SIZES=${BENCH_CPU_SIZES:-${q_cpu:-"32 64 128"}}
GPU_SIZES=${BENCH_GPU_SIZES:-${q_gpu:-"64 128 256 512 1024"}}
NCCL_SIZES=${BENCH_NCCL_SIZES:-${q_nccl:-"256 512 1024"}}
RADIATOR_SIZES=${BENCH_RADIATOR_SIZES:-${q_radiator:-"24 32"}}
REPEATS=${BENCH_REPEATS:-${q_repeats:-5}}
export NCCL_NVLS_ENABLE=0 OMP_WAIT_POLICY=passive

if [ -n "${BENCH_BIN:-}" ]; then
    bin=$BENCH_BIN
else
    echo "building lab 7 ($BENCH_SOURCE) ..."
    bench_build "$BENCH_OUT/build"
    bin=$BENCH_OUT/build
fi
gpus=$(bench_gpu_count)
echo "CPU: $(bench_cpu_name), $(bench_cores) cores; GPUs: $gpus; median of $REPEATS; $(bench_date)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$gpus" -gt 0 ] && nvidia-smi --query-gpu=index,name --format=csv,noheader
bench_mpirun NCCL_NVLS_ENABLE LD_LIBRARY_PATH

csv=$BENCH_OUT/bench.csv
echo "mode,N,solve_s,transforms_s,z_s,bound_s,solve_over_bound,copy_GBs,with_copies_s,fused_s,status" >"$csv"
# run MODE N CMD...: lab7_bench's last line into the CSV; a run that stops
# without one gets an INVALID (failed) row
run() {
    local mode=$1 n=$2 out line
    shift 2
    out=$("$@" 2>&1) || true
    line=$(printf '%s\n' "$out" | awk -F, -v m="$mode" -v n="$n" '$1 == m && $2 == n { l = $0 } END { print l }')
    [ -n "$line" ] || { printf '%s\n' "$out" >&2; line="$mode,$n,-,-,-,-,-,-,-,-,INVALID (failed)"; }
    echo "$line" >>"$csv"
    bench_step "$runs" "$mode N=$n"
}
# shellcheck disable=SC2086 # the sizes are lists of numbers
runs=$(( $(bench_count $CPU_SIZES) + (gpus >= 1 ? $(bench_count $GPU_SIZES) : 0) + (gpus >= 2 ? 2 * $(bench_count $NCCL_SIZES) : 0) ))
bench_step_start
for n in $CPU_SIZES; do run cpu "$n" "$bin/lab7_bench" cpu "$n" "$REPEATS"; done
if [ "$gpus" -ge 1 ]; then
    for n in $GPU_SIZES; do run gpu "$n" "$bin/lab7_bench" gpu "$n" "$REPEATS"; done
fi
if [ "$gpus" -ge 2 ]; then
    for n in $NCCL_SIZES; do
        run nccl "$n" "${BENCH_MPIRUN[@]}" -np 1 "$bin/lab7_bench" nccl "$n" "$REPEATS"
        run nccl "$n" "${BENCH_MPIRUN[@]}" -np 2 "$bin/lab7_bench" nccl "$n" "$REPEATS"
    done
fi
# The CSV as aligned columns (awk, not column(1): some hosts lack it)
awk -F, '{ for (i = 1; i <= NF; i++) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } if (NF > nf) nf = NF }
    END { for (r = 1; r <= NR; r++) for (i = 1; i <= nf; i++) printf(i < nf ? "%-" w[i] "s  " : "%s\n", cell[r, i]) }' "$csv"

echo
echo "goals (measured in this run):"
awk -F, '$11 != "ok" { next }
     $1 == "cpu" && $3 ~ /^[0-9]/ { printf "  CPU N=%-5d solve %.4f s = %.2f x the time of FFTW alone (%s); transforms %.0f%%, z stage %.0f%% of the solve\n", $2, $3, $7, ($2 >= 64 ? "goal <= 1.20 x its time" : "no goal below N = 64"), 100 * $4 / $3, 100 * $5 / $3 }
     $1 == "gpu" && $3 ~ /^[0-9]/ { pass = $6 + 16 * 8 * $2 * $2 * $2 / ($8 * 1e9) # cuFFT alone + 4 transforms x 2 passes x (read + write)
                                    printf "  GPU N=%-5d solve on the device %.5f s = %.2f x the time of cuFFT alone; transforms %.5f s = %.0f%% of their pass bound %.5f s (goal >= 80%%); %.1f Gcells/s; device copy %.0f GB/s; with host copies %.4f s\n", $2, $3, $7, $4, 100 * pass / $4, pass, $2 * $2 * $2 / $3 / 1e9, $8, $9
                                    if ($10 ~ /^[0-9]/) printf "  GPU N=%-5d fused solve on the device %.5f s = %.2f x the time of cuFFT alone, %.5f s (%s); %.1f Gcells/s\n", $2, $10, $10 / $6, $6, ($2 >= 256 ? "goal <= 1.50 x its time" : "no goal below N = 256"), $2 * $2 * $2 / $10 / 1e9 }
     $1 == "nccl" && $3 ~ /^[0-9]/ { printf "  NCCL N=%-5d %d GPU(s): solve with copies %.4f s; transposes %s s; NCCL all-to-all of the same bytes x4 %.5f s", $2, $6, $3, $4, $5
                                     if ($4 ~ /^[0-9]/ && $4 > 0) printf " = %.0f%% of it (goal >= 80%% on 2 GPUs)", 100 * $5 / $4
                                     printf "\n" }' "$csv" | bench_goals
[ "$gpus" = 0 ] && echo "  GPU: - ($(bench_no_gpu 7 "no GPU here"))"
[ "$gpus" -lt 2 ] && echo "  2 GPUs: - (fewer than 2 GPUs here)"

echo
echo "the radiator problem of labs 2 and 4 (common/poisson.h), direct against Jacobi:"
radiator=$BENCH_OUT/radiator.csv
echo "N,status" >"$radiator"
for n in $RADIATOR_SIZES; do
    # it checks its residual, says why a result is INVALID and exits 1
    if out=$("$bin/fft_poisson" radiator "$n" 2>&1); then st=ok; else st="INVALID (failed)"; fi
    printf '%s\n' "$out" | sed 's/^/  /'
    echo "$n,$st" >>"$radiator"
done

awk -F, 'NR == 1 || $11 == "ok"' "$csv" >"$BENCH_OUT/plotted.csv"
if command -v gnuplot >/dev/null 2>&1 && grep -q '^cpu,' "$BENCH_OUT/plotted.csv"; then
    gnuplot -e "csv='$BENCH_OUT/plotted.csv'; out='$BENCH_OUT/bench.png'" labs/lab7-fft-poisson/bench.gp 2>"$BENCH_OUT/gnuplot.log" &&
        echo "plot: $BENCH_OUT/bench.png (INVALID rows left out)"
fi
bench_finish "$csv" "$radiator"
