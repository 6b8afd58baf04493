#!/usr/bin/env bash
# Self-test of `make check SCHED=...` (run by make test): a student on a
# cluster's login node running a lab's tests on a compute node through the
# scheduler (autograder/sched/submit).
#   - Slurm, on a one-node cluster of the self-test's own (slurm_cluster.sh):
#     lab 1's check through srun prints what the local check prints and
#     exits as it does; a cancelled job says so in one line; a job the
#     cluster cannot run (lab 3 asks for a GPU it has not) is refused in one
#     line; no srun on PATH is one line too; all with a non-zero status.
#   - LSF, which cannot run here: a stand-in bsub on PATH records its
#     arguments and runs the command, as `bsub -I` does.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

suite_start sched bin
BUILD=(BUILD="$OUT/lab1" KIT_BUILD="$OUT/kit1")
make --no-print-directory -f common/mk/lab.mk LAB=1 IMPL=reference "${BUILD[@]}" all >"$OUT/build.log" 2>&1 ||
    { fail "sched: lab 1's reference does not build (see $OUT/build.log)"; exit 0; }

# The report's lines: a run's test lines and its score, without the timing
# Check's summary does not print.
report() { grep -E '^(  [A-Z]+ |score: |[0-9]+%: Checks)' "$1"; }

# ---- LSF: a stand-in bsub ----
cat >"$OUT/bin/bsub" <<'STANDIN'
#!/usr/bin/env bash
# bsub -I as the kit calls it, for the self-test: records its arguments,
# then runs the command (the arguments after bsub's own options).
printf '%s\n' "$@" >"$BSUB_ARGS"
while [ $# -gt 0 ]; do
    case $1 in
    -I | -x) shift ;;
    -J | -n | -gpu | -q | -W) shift 2 ;;
    *) break ;;
    esac
done
exec "$@"
STANDIN
chmod +x "$OUT/bin/bsub"
make --no-print-directory -f common/mk/lab.mk LAB=1 "${BUILD[@]}" check >"$OUT/local.log" 2>&1
local_rc=$?
BSUB_ARGS=$OUT/bsub.args PATH=$OUT/bin:$PATH SCHED_OPTS="-q gpuv100 -W 20" \
    autograder/sched/submit lsf check 1 "${BUILD[@]}" >"$OUT/lsf.log" 2>&1
rc=$?
args=$(tr '\n' ' ' <"$OUT/bsub.args" 2>/dev/null)
if [ "$rc" = "$local_rc" ] && [ "$(report "$OUT/lsf.log")" = "$(report "$OUT/local.log")" ] &&
    [[ "$args" == "-I -J kit-lab1-check -n 1 -q gpuv100 -W 20 bash -c "* ]]; then
    pass "sched: make check SCHED=lsf runs 'bsub -I -J kit-lab1-check -n 1 SCHED_OPTS ...' and prints the local run's report (status $rc)"
else
    fail "sched: the LSF run (status $rc, the local $local_rc; bsub got: $args; see $OUT/lsf.log)"
fi
BSUB_ARGS=$OUT/bsub3.args PATH=$OUT/bin:$PATH autograder/sched/submit lsf bench 3 >"$OUT/lsf3.log" 2>&1
args=$(tr '\n' ' ' <"$OUT/bsub3.args" 2>/dev/null)
[[ "$args" == "-I -J kit-lab3-bench -n 1 -gpu num=1:mode=exclusive_process -x bash -c "* ]] &&
    pass "sched: lab 3's bench through LSF asks for its GPU and the whole node (-gpu num=1:mode=exclusive_process -x)" ||
    fail "sched: lab 3's bench through LSF: bsub got: $args"

# ---- no scheduler here, or one that cannot be reached ----
# A PATH with every command of /usr/bin and /bin but Slurm's and LSF's.
mkdir -p "$OUT/nosched"
for f in /usr/bin/* /bin/*; do
    case ${f##*/} in srun | sbatch | salloc | bsub) ;; *) ln -sf "$f" "$OUT/nosched/${f##*/}" ;; esac
done
PATH=$OUT/nosched autograder/sched/submit slurm check 1 >"$OUT/nosrun.log" 2>&1
rc=$?
if [ "$rc" != 0 ] && [ "$(wc -l <"$OUT/nosrun.log")" = 1 ] && grep -q 'no srun here' "$OUT/nosrun.log"; then
    pass "sched: without srun, one line: $(cat "$OUT/nosrun.log")"
else
    fail "sched: without srun: status $rc, said: $(head -c 300 "$OUT/nosrun.log")"
fi
# (Slurm's client from make deps; a GPU host has none.)
if ! command -v srun >/dev/null; then
    skip "sched: srun with no cluster behind it: no srun here (Debian's slurm-client: make deps)"
else
    # A login node whose Slurm configuration names no cluster: srun gives
    # up at once. (A missing file instead, srun retries for 60 s.)
    : >"$OUT/empty-slurm.conf"
    SLURM_CONF=$OUT/empty-slurm.conf timeout 60 autograder/sched/submit slurm check 1 "${BUILD[@]}" >"$OUT/noconf.log" 2>&1
    rc=$?
    last=$(tail -n 1 "$OUT/noconf.log")
    [ "$rc" != 0 ] && [ "$rc" != 124 ] && [[ "$last" == *"the scheduler cannot be reached from here"* ]] &&
        pass "sched: srun with no cluster behind it ends in one line: '$last'" ||
        fail "sched: srun with no cluster: status $rc, last line '$last' (see $OUT/noconf.log)"
fi

# ---- Slurm ----
# shellcheck source=maintainer/selftest/slurm_cluster.sh
. maintainer/selftest/slurm_cluster.sh
slurm_cluster_up sched "$OUT/cluster-logs" || exit 0
SCHED_OPTS="--partition=selftest --time=5" timeout 300 autograder/sched/submit slurm check 1 "${BUILD[@]}" >"$OUT/slurm.log" 2>&1
rc=$?
if [ "$rc" = "$local_rc" ] && [ "$(report "$OUT/slurm.log")" = "$(report "$OUT/local.log")" ]; then
    pass "sched: make check SCHED=slurm runs lab 1's tests through srun: the local run's $(report "$OUT/local.log" | grep -c '^  ') test lines, score and summary, status $rc"
else
    fail "sched: through srun: status $rc (local $local_rc), report differs (see $OUT/slurm.log)"
    diff <(report "$OUT/local.log") <(report "$OUT/slurm.log") | head -5
fi

# A job cancelled while its tests run (the kmn test of a copy that hangs).
mkdir -p "$OUT/hangs"
cp labs/lab1-matmult/solution/matmult.c "$OUT/hangs/"
printf '\n/* planted by the self-test */\n' >>"$OUT/hangs/matmult.c"
sed -i '/^void matmult_nat(/,/^{$/ s/^{$/{\n    for (volatile int spin = 1; spin;) {}/' "$OUT/hangs/matmult.c"
HANG=(BUILD="$OUT/lab1-hangs" KIT_BUILD="$OUT/kit1")
make --no-print-directory -f common/mk/lab.mk LAB=1 SUBMISSION="$OUT/hangs" "${HANG[@]}" all >"$OUT/build-hangs.log" 2>&1 ||
    { fail "sched: the hanging copy does not build (see $OUT/build-hangs.log)"; exit 0; }
SCHED_OPTS="--partition=selftest" timeout 300 autograder/sched/submit slurm check 1 "${HANG[@]}" >"$OUT/cancelled.log" 2>&1 &
run=$!
job=''
for _ in $(seq 60); do
    job=$(squeue -h -n kit-lab1-check -o %i 2>/dev/null | awk 'NR == 1')
    [ -n "$job" ] && break
    sleep 0.5
done
sleep 2
[ -n "$job" ] && scancel "$job"
wait "$run"
rc=$?
last=$(tail -n 1 "$OUT/cancelled.log")
if [ -n "$job" ] && [ "$rc" != 0 ] && [ "$rc" != 124 ] && [[ "$last" == *"the job was cancelled"* ]]; then
    pass "sched: job $job cancelled while its tests ran: '$last'"
else
    fail "sched: the cancelled job (job '${job:-none}', status $rc): last line '$last' (see $OUT/cancelled.log)"
fi

# A job the cluster cannot run: lab 3 asks for a GPU, and the node has none.
SCHED_OPTS="--partition=selftest" timeout 120 autograder/sched/submit slurm check 3 >"$OUT/refused.log" 2>&1
rc=$?
last=$(tail -n 1 "$OUT/refused.log")
if [ "$rc" != 0 ] && [ "$rc" != 124 ] && [[ "$last" == *"the scheduler refused the job"* ]]; then
    pass "sched: a GPU job the cluster cannot run is refused in one line: '$last'"
else
    fail "sched: the refused job: status $rc, last line '$last' (see $OUT/refused.log)"
fi
echo "sched suite: $(suite_seconds) s in all"
summary >/dev/null
