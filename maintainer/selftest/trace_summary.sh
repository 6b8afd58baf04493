#!/usr/bin/env bash
# Self-test of common/trace/trace_summary.py (run by make test): the
# summary of a trace of two processes that a GPU host's traced run
# prints. No host here has nsys or a GPU, so the traces are made by hand,
# in nsys's SQLite schema (the tables and columns the script reads) and as
# the kit's CUPTI trace files (trace.PID.csv), with figures worked out on
# paper: two processes' persistent kernels
# [0, 100) and [300, 400) ns against [50, 150) and [350, 500) ns are in
# flight together 100 ns of the 350 ns with any (29%), the GPU goes from one
# process's kernel to the other's 3 times; a copy, an MPI call and a CUDA API
# call land on the right process; a trace without them says so.
# pass() returns 0, so "check && pass ... || fail ..." never runs both:
# shellcheck disable=SC2015
set -u
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=maintainer/selftest/lib.sh
. maintainer/selftest/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/two.sqlite" "$tmp/bare.sqlite" <<'EOF'
import sqlite3, sys
A, B = 1234 << 24, 5678 << 24  # globalPid: the pid in bits 24-47
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT)")
db.executemany("INSERT INTO StringIds VALUES (?, ?)",
               [(1, "Write_GPU_Read_GPU"), (2, "GPU_Write_kernel"), (3, "MPI_Isend"), (4, "cudaLaunchKernel")])
db.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INT, end INT, deviceId INT, globalPid INT, shortName INT)")
db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, 0, ?, ?)",
               [(0, 100, A, 1), (300, 400, A, 1), (50, 150, B, 1), (350, 500, B, 1), (600, 610, A, 2)])
db.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INT, end INT, globalPid INT, bytes INT, copyKind INT)")
db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (0, 1000000, ?, 4000000, 1)", (A,))
db.execute("CREATE TABLE MPI_P2P_EVENTS(start INT, end INT, globalTid INT, textId INT)")
db.execute("INSERT INTO MPI_P2P_EVENTS VALUES (0, 2000000, ?, 3)", (B + 7,))
db.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INT, end INT, globalTid INT, nameId INT)")
db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (0, 5000, ?, 4)", (A + 3,))
db.commit()
sqlite3.connect(sys.argv[2]).execute("CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT)")
EOF

s=$(python3 common/trace/trace_summary.py "$tmp/two.sqlite" 2>&1)
rc=$?
has() { grep -qF -- "$1" <<<"$s"; }
[ $rc = 0 ] && pass "trace summary: reads a two-process trace" || fail "trace summary: exit $rc on a two-process trace: $s"
has "pid 1234: Write_GPU_Read_GPU: 2 launches" && has "pid 5678: Write_GPU_Read_GPU: 2 launches" &&
    pass "trace summary: kernels counted per process" || fail "trace summary: kernels per process wrong: $s"
sed -n '/^== kernels named/,/^== all kernels/p' <<<"$s" | grep -q "in flight: 0.000 ms of the 0.000 ms with any (29%)" &&
    sed -n '/^== kernels named/,/^== all kernels/p' <<<"$s" | grep -q "other process's: 3 times in 4 kernels" &&
    pass "trace summary: the persistent kernels' overlap (29%) and switches (3)" ||
    fail "trace summary: overlap or switches wrong: $s"
has "pid 1234: HtoD: 1 copies, 1.000 ms, 4.00 MB" && has "pid 5678: MPI_Isend: 1 calls, 2.000" &&
    has "pid 1234: cudaLaunchKernel: 1 calls, 0.005" &&
    pass "trace summary: copies, MPI and CUDA API calls on their process" || fail "trace summary: calls misplaced: $s"

s=$(python3 common/trace/trace_summary.py "$tmp/bare.sqlite" 2>&1)
rc=$?
[ $rc = 0 ] && has "no kernels in this trace" && has "(no copies traced)" && has "(not in this trace)" &&
    pass "trace summary: a trace without kernels, copies or switches says so" || fail "trace summary: bare trace: rc $rc: $s"
python3 common/trace/trace_summary.py >/dev/null 2>&1
[ $? = 2 ] && pass "trace summary: no trace named: usage, exit 2" || fail "trace summary: no argument did not exit 2"
# The kit's CUPTI traces: the same kernels in microseconds on the
# host's clock (T), mangled names, an MPI call and a copy. In flight
# together 100 of 350 us (29%); in the window 0.2-0.45 ms, A's [300, 400)
# and B's [350, 450) us: 50 of 150 (33%); 50 us bins over 0-0.5 ms. In
# pairs B's start 50 us after A's; B's copy ends at 40 us and its kernel
# starts at 50, while A's kernel runs all 10 us.
mkdir "$tmp/csv"
T=1700000000000000000
row() { echo "$1,$((T + $2 * 1000)),$((T + $3 * 1000)),$4,$5,$6"; }
{
    echo "kind,start_ns,end_ns,name,stream,bytes"
    row kernel 0 100 _Z18Write_GPU_Read_GPUPii 13 ""
    row kernel 300 400 _Z18Write_GPU_Read_GPUPii 13 ""
    row memcpy 400 450 HtoD 14 4000000
    row mpi 100 300 MPI_Sendrecv "" ""
} >"$tmp/csv/trace.1234.csv"
{
    echo "kind,start_ns,end_ns,name,stream,bytes"
    row kernel 50 150 _Z18Write_GPU_Read_GPUPii 13 ""
    row kernel 350 500 _Z18Write_GPU_Read_GPUPii 13 ""
    row memcpy 20 40 HtoD 14 1000
} >"$tmp/csv/trace.5678.csv"
s=$(python3 common/trace/trace_summary.py "$tmp/csv" --timeline 50 2>&1)
rc=$?
[ $rc = 0 ] && has "2 process trace(s)" && has "pid 1234: Write_GPU_Read_GPU: 2 launches" &&
    pass "trace summary: reads the kit's CUPTI traces, names unmangled" || fail "trace summary: CSV traces: rc $rc: $s"
sed -n '/^== kernels named/,/^== all kernels/p' <<<"$s" | grep -q "in flight: 0.100 ms of the 0.350 ms with any (29%)" &&
    has "pid 1234: HtoD: 1 copies, 0.050 ms, 4.00 MB" && has "pid 1234: MPI_Sendrecv: 1 calls, 0.200" &&
    has "pid 1234: MPI_Sendrecv: 1 from 0.100 to 0.100" &&
    pass "trace summary: the CSV traces' overlap, copies, MPI calls and first/last times" ||
    fail "trace summary: CSV figures wrong: $s"
has "the later starts 0.050 ms after the earlier (median; 0.050 to 0.050); the earlier lasts 0.100 ms, the later 0.125 ms" &&
    pass "trace summary: the kernels in pairs, the later's lag" || fail "trace summary: pairs wrong: $s"
has "pid 5678: 1 copies: the next kernel starts 0.010 after (median; mean 0.010), other processes' kernels running for 0.010 of it" &&
    has "pid 1234: no kernel within 1 ms of a host-to-device copy" &&
    pass "trace summary: the wait from a copy to the next kernel, and the other process's share of it" ||
    fail "trace summary: the copy-to-kernel wait wrong: $s"
grep -Eq '^pid +1234 kernels +(.)\1\.\.\.\.\1\1\.\.$' <<<"$s" && grep -Eq '^pid +5678 kernels +\.(.)\1\.\.\.\.\1\1\1$' <<<"$s" &&
    grep -Eq '^pid +1234 MPI +\.\.(.)\1\1\1\.\.\.\.$' <<<"$s" && grep -Eq '^  . = MPI_Sendrecv$' <<<"$s" &&
    pass "trace summary: the timeline's rows and legend" || fail "trace summary: timeline wrong: $s"
s=$(python3 common/trace/trace_summary.py "$tmp/csv" --window 0.2 0.45 2>&1)
sed -n '/^== kernels named/,/^== all kernels/p' <<<"$s" | grep -q "in flight: 0.050 ms of the 0.150 ms with any (33%)" &&
    pass "trace summary: --window cuts the events to it" || fail "trace summary: window wrong: $s"
python3 common/trace/trace_summary.py "$tmp/csv" --window 0.2 >/dev/null 2>&1
[ $? = 2 ] && pass "trace summary: --window with one number: exit 2" || fail "trace summary: a bad --window did not exit 2"
python3 common/trace/trace_summary.py "$tmp/none" >/dev/null 2>&1
[ $? = 1 ] && pass "trace summary: a missing trace: exit 1" || fail "trace summary: a missing trace did not exit 1"
summary
