#!/usr/bin/env bash
# Self-test of the kit's tracer, common/trace/cuda_mpi_trace.c (run by make
# test): built as the demos build it (demo_trace_build), with CUPTI where
# the CUDA toolkit has it and without (-DTRACE_NO_CUPTI, CUDA_HOME naming
# no toolkit), it records every MPI call of a 2-rank program exactly once:
# a program without MPI wrappers of its own, and one with its own layer
# (MPI_Isend, MPI_Barrier, MPI_Finalize calling PMPI_, as lab 6's
# halo_mpi_log.c does), whose layer still sees its calls. 3 iterations of
# Irecv, Isend, Waitall, Sendrecv, Barrier, Allreduce per rank: 3 rows of
# each traced call, the Allreduce in mpi_marks.c's file. TRACE_DEBUG=1
# writes the report beside the trace; the demos' timeline.py picks the
# last run by run:-1 and refuses a run the trace lacks.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh
# shellcheck source=common/demo/demo_lib.sh
. common/demo/demo_lib.sh
suite_start tracer
DEMO_VERB=test DEMO_LAB=0

cat >"$OUT/ranks.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#ifdef OWN_LAYER
static int mine;
int MPI_Isend(const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm comm, MPI_Request *r)
{
    mine++;
    return PMPI_Isend(b, c, t, d, tag, comm, r);
}
int MPI_Barrier(MPI_Comm comm)
{
    mine++;
    return PMPI_Barrier(comm);
}
int MPI_Finalize(void)
{
    printf("own layer: %d calls\n", mine);
    return PMPI_Finalize();
}
#endif
int main(int argc, char **argv)
{
    int rank, size, sum;
    double x, y;
    MPI_Request r[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    x = rank;
    for (int i = 0; i < 3; i++) {
        MPI_Irecv(&y, 1, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(&x, 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        MPI_Sendrecv(&x, 1, MPI_DOUBLE, (rank + 1) % size, 1, &y, 1, MPI_DOUBLE, (rank + size - 1) % size, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
C
if ! mpicc -O2 "$OUT/ranks.c" -o "$OUT/plain" || ! mpicc -O2 -DOWN_LAYER "$OUT/ranks.c" -o "$OUT/layered"; then
    fail "tracer: the test's MPI program does not build"
    summary
    exit
fi
# shellcheck disable=SC2119 # no variable to pass to the ranks
bench_mpirun

# counts DIR: "NAME=COUNT ..." of every rank's rows, sorted, one line a rank
counts() {
    local r
    for r in "$1"/rank*; do
        cat "$r"/*.csv | awk -F, '$1 == "mpi" { n[$4]++ } END { for (k in n) print k "=" n[k] }' | sort | tr '\n' ' '
        echo
    done
}
want="MPI_Allreduce=3 MPI_Barrier=3 MPI_Irecv=3 MPI_Isend=3 MPI_Sendrecv=3 MPI_Waitall=3 "

for build in cupti plain; do
    if [ $build = cupti ]; then
        DEMO_TRACE_OUT=$OUT/lib-$build demo_trace_build 2>"$OUT/build-$build.log"
    else # no toolkit: the MPI rows alone
        (CUDA_HOME=$OUT/no-cuda DEMO_TRACE_OUT=$OUT/lib-$build demo_trace_build) 2>"$OUT/build-$build.log"
        DEMO_TRACE_LIBS="$OUT/lib-$build/libcuda_mpi_trace.so $OUT/lib-$build/libmpi_marks.so"
    fi
    if [ ! -s "$OUT/lib-$build/libcuda_mpi_trace.so" ]; then
        fail "tracer ($build): does not build (see $OUT/build-$build.log)"
        continue
    fi
    if [ $build = plain ]; then
        ! ldd "$OUT/lib-$build/libcuda_mpi_trace.so" | grep -q cupti && grep -q "MPI rows alone" "$OUT/build-$build.log" &&
            pass "tracer: without CUPTI it builds with no CUPTI in it, and says the MPI rows come alone" ||
            fail "tracer: the build without CUPTI links CUPTI or says nothing (see $OUT/build-$build.log)"
    fi
    for prog in plain layered; do
        run=$OUT/$build-$prog
        demo_traced "$run" 2 "$OUT/$prog" >"$run.log" 2>&1
        rc=$?
        got=$(counts "$run")
        [ $rc = 0 ] && [ "$got" = "$want"$'\n'"$want" ] &&
            pass "tracer ($build), program $prog: every MPI call once a rank ($want)" ||
            fail "tracer ($build), program $prog: exit $rc, rows per rank: $got (want $want; see $run.log)"
    done
    [ "$(grep -c '^own layer: 6 calls$' "$OUT/$build-layered.log")" = 2 ] &&
        pass "tracer ($build): the program's own layer still sees its calls (6 a rank)" ||
        fail "tracer ($build): the program's own MPI layer was bypassed (see $OUT/$build-layered.log)"
done

TRACE_DEBUG=1 demo_traced "$OUT/debug" 2 "$OUT/layered" >"$OUT/debug.log" 2>&1
[ "$(cat "$OUT"/debug/rank*/debug.*.txt 2>/dev/null | grep -c '^MPI calls recorded: 15$')" = 2 ] &&
    pass "tracer: TRACE_DEBUG=1 writes its report beside each rank's trace" ||
    fail "tracer: TRACE_DEBUG=1 wrote no report, or a wrong count (see $OUT/debug/)"

if command -v gnuplot >/dev/null; then
    s=$(python3 common/demo/timeline.py "$OUT/plain-layered" "$OUT/last.png" --title t --panel "last=run:-1" 2>&1)
    grep -q '^last: .* ms' <<<"$s" && [ -s "$OUT/last.png" ] && pass "timeline.py: run:-1 is the last run" ||
        fail "timeline.py: run:-1 drew no panel: $s"
    s=$(python3 common/demo/timeline.py "$OUT/plain-layered" "$OUT/none.png" --title t --panel "x=run:-4" 2>&1) &&
        s="exit 0: $s"
    grep -q 'no run -4' <<<"$s" && pass "timeline.py: run:-4 of 3 runs is refused" ||
        fail "timeline.py: run:-4 of 3 runs: $s"
else
    skip "timeline.py: no gnuplot here (make deps)"
fi
summary
