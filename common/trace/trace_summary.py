#!/usr/bin/env python3
"""A text summary of a trace of several processes sharing a GPU (lab 5's
and lab 6's two ranks on one GPU), from either

  - the SQLite file that `nsys stats` or `nsys export --type sqlite` writes
    for an Nsight Systems trace, or
  - a folder of the kit's own traces, one trace.PID.csv a process, written
    by common/trace/cuda_mpi_trace.c (CUPTI's records of the
    GPU's kernels and copies, and each MPI call's time, on one clock) on
    hosts without Nsight Systems:

    trace_summary.py TRACE.sqlite|TRACE_DIR [--kernel NAME_PART]
                       [--window START_MS END_MS] [--timeline BIN_US]

Per process: when each kernel and MPI call was first and last seen (ms
from the trace's first event: to pick a window), its kernels (count,
total, median and longest by name), its copies (by kind), its MPI calls
and CUDA API calls where traced. Then, for the kernels whose name contains
NAME_PART (default Write_GPU_Read_GPU, the taskqueue's persistent kernel)
and for all kernels: how long each process had one in flight, how long
both did at once, and how often the GPU went from one process's kernel to
the other's, and, for the named kernels (one a step in each process, as
lab 6's persistent kernel), how long after one process's i-th kernel the
other's starts. From each host-to-device copy's end to the process's next
kernel: the wait, and how much of it other processes' kernels ran (a
process waiting behind another's kernels). Last, the GPU's context switches per process where the trace
has them (nsys --gpuctxsw). --window keeps the events between two times
(ms from the trace's first event), cut to it; --timeline draws that window
as text, one column a bin of BIN_US microseconds, rows per process for its
kernels, copies and MPI calls, a letter for what took most of the bin.

Why both: CUDA runs kernels of two processes (two contexts) one context at
a time, in time slices, unless MPS is running. A kernel's start and end
in the trace bracket its time slices, so two persistent kernels of two
processes can look concurrent on the timeline while they take turns on
the GPU; the context switches (when traced), the kernels' durations
(alone against shared) and trace/timeslice_probe.cu's gaps tell the two
apart. The script only reads and counts; it never decides: it prints the
figures.

Nothing here depends on one version of nsys's schema beyond the table and
column names it looks up; a table that is missing is reported as such.
The kit's CSV traces are loaded into the same tables.
"""
import bisect
import csv
import glob
import os
import re
import sqlite3
import statistics
import sys


def pid_of(global_id):
    """nsys packs the process id into bits 24-47 of globalPid/globalTid."""
    return (int(global_id) >> 24) & 0xFFFFFF


def tables(db):
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def columns(db, table):
    return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]


def strings(db, names):
    if "StringIds" not in names:
        return {}
    return dict(db.execute("SELECT id, value FROM StringIds"))


def ms(ns):
    return ns / 1e6


def union(intervals):
    """Sorted, merged [start, end) intervals."""
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def length(merged):
    return sum(e - s for s, e in merged)


def intersect(a, b):
    """Total length of the intersection of two merged interval lists."""
    i = j = total = 0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if s < e:
            total += e - s
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def switches(kernels):
    """How often, in start order, the next kernel belongs to another process."""
    order = [pid for _, pid in sorted((s, pid) for s, _, pid, _ in kernels)]
    return sum(1 for a, b in zip(order, order[1:]) if a != b)


def kernel_rows(db, names, text):
    t = "CUPTI_ACTIVITY_KIND_KERNEL"
    if t not in names:
        return []
    cols = columns(db, t)
    name_col = next((c for c in ("shortName", "demangledName", "mangledName") if c in cols), None)
    rows = db.execute(f"SELECT start, end, globalPid, {name_col or 'NULL'} FROM {t}").fetchall()
    return [(s, e, pid_of(g), text.get(n, str(n))) for s, e, g, n in rows]


COPY_KINDS = {"HtoD": 1, "DtoH": 2, "DtoD": 8, "PtoP": 10}
# copyKind's names; the kit's traces store memsets in the copies' table as -1
COPY_NAMES = {**{v: k for k, v in COPY_KINDS.items()}, -1: "memset"}


def load_cupti_dir(folder):
    """The kit's trace.PID.csv files, in an in-memory database with the
    tables and columns of an nsys export that this script reads."""
    files = sorted(glob.glob(os.path.join(folder, "trace.*.csv")))
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT)")
    db.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INT, end INT, globalPid INT, shortName INT)")
    db.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INT, end INT, globalPid INT, bytes INT, copyKind INT)")
    db.execute("CREATE TABLE MPI_CALLS(start INT, end INT, globalTid INT, textId INT)")
    ids = {}

    def sid(text):
        if text not in ids:
            ids[text] = len(ids) + 1
            db.execute("INSERT INTO StringIds VALUES (?, ?)", (ids[text], text))
        return ids[text]

    for f in files:
        m = re.search(r"trace\.(\d+)\.csv$", f)
        g = int(m.group(1)) << 24
        with open(f, newline="") as fh:
            for row in csv.DictReader(fh):
                s, e = int(row["start_ns"]), int(row["end_ns"])
                if row["kind"] == "kernel":
                    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, ?)",
                               (s, e, g, sid(short_name(row["name"]))))
                elif row["kind"] in ("memcpy", "memset"):
                    kind = COPY_KINDS.get(row["name"], 0) if row["kind"] == "memcpy" else -1
                    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?, ?, ?, ?, ?)",
                               (s, e, g, int(row["bytes"] or 0), kind))
                elif row["kind"] == "mpi":
                    db.execute("INSERT INTO MPI_CALLS VALUES (?, ?, ?, ?)", (s, e, g, sid(row["name"])))
    return db, len(files)


def short_name(name):
    """A C++ kernel's mangled name cut to its identifier (_Z6stencilPfS_ -> stencil)."""
    m = re.match(r"_Z(?:L)?(\d+)", name)
    return name[m.end():m.end() + int(m.group(1))] if m else name


def timed_tables(db, names):
    """Every table with start, end and a process column: (table, pid column)."""
    out = []
    for t in sorted(names):
        cols = columns(db, t)
        pid = next((c for c in ("globalPid", "globalTid") if c in cols), None)
        if pid and "start" in cols and "end" in cols:
            out.append((t, pid))
    return out


def origin(db, names):
    starts = [db.execute(f"SELECT MIN(start) FROM {t}").fetchone()[0] for t, _ in timed_tables(db, names)]
    starts = [s for s in starts if s is not None]
    return min(starts) if starts else 0


def cut_to_window(db, names, t0, t1):
    """Drops the events outside [t0, t1) and cuts the rest to it."""
    for t, _ in timed_tables(db, names):
        db.execute(f"DELETE FROM {t} WHERE end <= ? OR start >= ?", (t0, t1))
        db.execute(f"UPDATE {t} SET start = MAX(start, ?), end = MIN(end, ?)", (t0, t1))


def print_when(db, names, text, zero):
    print("== first and last start per process (ms from the trace's first event)")
    for t, pidcol in timed_tables(db, names):
        cols = columns(db, t)
        name = next((c for c in ("shortName", "textId", "nameId", "copyKind") if c in cols), None)
        if not name:
            continue
        q = f"SELECT {pidcol}, {name}, MIN(start), MAX(start), COUNT(*) FROM {t} GROUP BY {pidcol}, {name}"
        for g, n, first, last, count in db.execute(q):
            label = text.get(n, str(n)) if name != "copyKind" else f"copy kind {n}"
            print(f"pid {pid_of(g)}: {label}: {count} from {ms(first - zero):.3f} to {ms(last - zero):.3f}")


def draw_timeline(db, names, text, zero, t0, t1, bin_us, width=100):
    """Rows per process (kernels, copies, MPI), a letter a bin: what took
    most of it; '.' nothing. A legend gives the letters."""
    bin_ns = int(bin_us * 1000)
    bins = max(1, (t1 - t0 + bin_ns - 1) // bin_ns)
    if bins > 2000:
        print(f"(timeline: {bins} bins of {bin_us} us; at most 2000: widen the bins or narrow the window)")
        return
    rows, legend = {}, {}
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

    def letter(label):
        if label not in legend:
            legend[label] = letters[len(legend) % len(letters)]
        return legend[label]

    sources = [("CUPTI_ACTIVITY_KIND_KERNEL", "globalPid", "shortName", "kernels"),
               ("CUPTI_ACTIVITY_KIND_MEMCPY", "globalPid", "copyKind", "copies")]
    sources += [(t, pid, "textId", "MPI") for t, pid in timed_tables(db, names) if t.startswith("MPI_")]
    for t, pidcol, namecol, row in sources:
        if t not in names or namecol not in columns(db, t):
            continue
        for s, e, g, n in db.execute(f"SELECT start, end, {pidcol}, {namecol} FROM {t}"):
            label = COPY_NAMES.get(n, f"copy {n}") if namecol == "copyKind" else text.get(n, str(n))
            cover = rows.setdefault((pid_of(g), row), [dict() for _ in range(bins)])
            for b in range((s - t0) // bin_ns, min(bins, (e - t0 - 1) // bin_ns + 1)):
                lo, hi = t0 + b * bin_ns, t0 + (b + 1) * bin_ns
                got = min(e, hi) - max(s, lo)
                if got > 0:
                    cover[b][label] = cover[b].get(label, 0) + got
    print(f"== timeline: {ms(t0 - zero):.3f} to {ms(t1 - zero):.3f} ms, one column {bin_us} us")
    for start in range(0, bins, width):
        print(f"-- from {ms(t0 - zero + start * bin_ns):.3f} ms")
        for (pid, row), cover in sorted(rows.items()):
            line = "".join(letter(max(c, key=c.get)) if c else "." for c in cover[start:start + width])
            print(f"pid {pid:>8} {row:<7} {line}")
    for label, c in sorted(legend.items(), key=lambda x: x[1]):
        print(f"  {c} = {label}")


def print_kernels(kernels):
    print("== kernels per process (ms)")
    per = {}
    for s, e, pid, name in kernels:
        per.setdefault((pid, name), []).append(e - s)
    for (pid, name), d in sorted(per.items()):
        print(f"pid {pid}: {name}: {len(d)} launches, total {ms(sum(d)):.3f}, median {ms(statistics.median(d)):.4f}, "
              f"longest {ms(max(d)):.4f}")


def print_overlap(kernels, label, pairs=False):
    pids = sorted({pid for _, _, pid, _ in kernels})
    print(f"== {label}: {len(kernels)} kernels of {len(pids)} process(es)")
    if not kernels:
        return
    merged = {pid: union([(s, e) for s, e, p, _ in kernels if p == pid]) for pid in pids}
    for pid in pids:
        print(f"pid {pid}: a kernel in flight {ms(length(merged[pid])):.3f} ms")
    if len(pids) >= 2:
        a, b = merged[pids[0]], merged[pids[1]]
        both = intersect(a, b)
        either = length(union([(s, e) for s, e, _, _ in kernels]))
        print(f"both processes with a kernel in flight: {ms(both):.3f} ms of the {ms(either):.3f} ms with any "
              f"({100 * both / either if either else 0:.0f}%)")
        print(f"the next kernel to start is the other process's: {switches(kernels)} times in {len(kernels)} kernels")
        if pairs:
            print_pairs([sorted((s, e) for s, e, p, _ in kernels if p == pid) for pid in pids[:2]])


def print_pairs(runs):
    """Two processes' kernels taken in order, the i-th of one with the i-th
    of the other (one a step each, as lab 6's persistent kernel): how long
    after the earlier the later starts, and how long each lasts."""
    pairs = [sorted(p) for p in zip(*runs)]
    if not pairs:
        return
    lag = [b[0] - a[0] for a, b in pairs]
    med = lambda v: ms(statistics.median(v))
    print(f"in pairs (the i-th kernel of each, {len(pairs)} pairs): the later starts {med(lag):.3f} ms after the earlier "
          f"(median; {ms(min(lag)):.3f} to {ms(max(lag)):.3f}); the earlier lasts {med([a[1] - a[0] for a, _ in pairs]):.3f} ms, "
          f"the later {med([b[1] - b[0] for _, b in pairs]):.3f} ms")


def print_gpu_waits(db, names, kernels, within_ns=1000000):
    """After each host-to-device copy of a process ends, how long until its
    next kernel starts (within 1 ms), and for how much of that wait other
    processes' kernels ran: a process waiting for the GPU behind another
    process's kernels, where the GPU takes contexts in turn."""
    t = "CUPTI_ACTIVITY_KIND_MEMCPY"
    print("== from a host-to-device copy's end to the process's next kernel (ms)")
    if t not in names or not kernels:
        print("(no copies or no kernels traced)")
        return
    pids = sorted({pid for _, _, pid, _ in kernels})
    for pid in pids:
        own = sorted(s for s, _, p, _ in kernels if p == pid)
        others = union([(s, e) for s, e, p, _ in kernels if p != pid])
        waits, busy = [], []
        for end, g in db.execute(f"SELECT end, globalPid FROM {t} WHERE copyKind = 1"):
            if pid_of(g) != pid:
                continue
            i = bisect.bisect_left(own, end)
            if i < len(own) and own[i] - end <= within_ns:
                waits.append(own[i] - end)
                busy.append(intersect([[end, own[i]]], others) if own[i] > end else 0)
        if waits:
            print(f"pid {pid}: {len(waits)} copies: the next kernel starts {ms(statistics.median(waits)):.3f} after (median; "
                  f"mean {ms(statistics.mean(waits)):.3f}), other processes' kernels running for {ms(statistics.mean(busy)):.3f} "
                  f"of it (mean)")
        else:
            print(f"pid {pid}: no kernel within {ms(within_ns):.0f} ms of a host-to-device copy")


def print_copies(db, names):
    t = "CUPTI_ACTIVITY_KIND_MEMCPY"
    print("== copies per process")
    if t not in names:
        print("(no copies traced)")
        return
    per = {}
    for s, e, g, nbytes, kind in db.execute(f"SELECT start, end, globalPid, bytes, copyKind FROM {t}"):
        k = per.setdefault((pid_of(g), COPY_NAMES.get(kind, str(kind))), [0, 0, 0])
        k[0] += 1
        k[1] += e - s
        k[2] += nbytes
    for (pid, kind), (n, ns, nbytes) in sorted(per.items()):
        print(f"pid {pid}: {kind}: {n} copies, {ms(ns):.3f} ms, {nbytes / 1e6:.2f} MB")


def print_calls(db, names, text, prefix, title, top=12):
    """Host-side calls (MPI or the CUDA API) per process: count and total."""
    found = [t for t in sorted(names) if t.startswith(prefix)]
    print(f"== {title} per process (ms)")
    per = {}
    for t in found:
        cols = columns(db, t)
        tid = next((c for c in ("globalTid", "globalPid") if c in cols), None)
        name = next((c for c in ("textId", "nameId") if c in cols), None)
        if not tid or "start" not in cols or "end" not in cols:
            continue
        q = f"SELECT start, end, {tid}, {name or 'NULL'} FROM {t}"
        for s, e, g, n in db.execute(q):
            k = per.setdefault((pid_of(g), text.get(n, t)), [0, 0])
            k[0] += 1
            k[1] += e - s
    if not per:
        print(f"(no {title} traced: tables {', '.join(found) or 'none'})")
        return
    for pid in sorted({p for p, _ in per}):
        rows = sorted(((v[1], n, v[0]) for (p, n), v in per.items() if p == pid), reverse=True)[:top]
        for ns, n, count in rows:
            print(f"pid {pid}: {n}: {count} calls, {ms(ns):.3f}")


def print_context_switches(db, names):
    found = [t for t in sorted(names) if "FECS" in t or "CTXSW" in t.upper() or "CONTEXT_SWITCH" in t.upper()]
    print("== GPU context switches (nsys --gpuctxsw)")
    if not found:
        print("(not in this trace)")
        return
    for t in found:
        cols = columns(db, t)
        n = db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
        print(f"{t}: {n} rows; columns {', '.join(cols)}")
        if "globalPid" in cols:
            for g, c in db.execute(f"SELECT globalPid, COUNT(*) FROM {t} GROUP BY globalPid"):
                print(f"  pid {pid_of(g) if g is not None else '-'}: {c}")


def option(argv, flag, count):
    """The count numbers after flag, or None where flag is not given; exits 2 where they are missing or bad."""
    if flag not in argv:
        return None
    values = argv[argv.index(flag) + 1:argv.index(flag) + 1 + count]
    try:
        if len(values) < count:
            raise ValueError
        return [float(v) for v in values]
    except ValueError:
        sys.stderr.write(f"{flag} needs {count} number(s)\n")
        sys.exit(2)


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        sys.stderr.write(__doc__.split("\n\n")[2] + "\n")
        return 2
    part = argv[argv.index("--kernel") + 1] if "--kernel" in argv else "Write_GPU_Read_GPU"
    window, timeline = option(argv, "--window", 2), option(argv, "--timeline", 1)
    if os.path.isdir(argv[1]):
        db, count = load_cupti_dir(argv[1])
        if not count:
            sys.stderr.write(f"{argv[1]}: no trace.PID.csv files in this folder\n")
            return 1
        print(f"{count} process trace(s) in {argv[1]} (the kit's CUPTI trace)")
    elif os.path.isfile(argv[1]):
        src = sqlite3.connect(f"file:{argv[1]}?mode=ro", uri=True)
        db = sqlite3.connect(":memory:")
        src.backup(db)
    else:
        sys.stderr.write(f"{argv[1]}: no such trace file or folder\n")
        return 1
    names = tables(db)
    text = strings(db, names)
    origin_ns = origin(db, names)
    print_when(db, names, text, origin_ns)
    t0, t1 = origin_ns, None
    if window:
        t0, t1 = origin_ns + int(window[0] * 1e6), origin_ns + int(window[1] * 1e6)
        cut_to_window(db, names, t0, t1)
        print(f"== the window {window[0]:.3f} to {window[1]:.3f} ms only, from here on")
    kernels = kernel_rows(db, names, text)
    if not kernels:
        print("no kernels in this trace (CUPTI_ACTIVITY_KIND_KERNEL missing or empty)")
    print_kernels(kernels)
    print_overlap([k for k in kernels if part in k[3]], f"kernels named *{part}*", pairs=True)
    print_overlap(kernels, "all kernels")
    print_copies(db, names)
    print_gpu_waits(db, names, kernels)
    print_calls(db, names, text, "MPI_", "MPI calls")
    print_calls(db, names, text, "CUPTI_ACTIVITY_KIND_RUNTIME", "CUDA API calls")
    print_context_switches(db, names)
    if timeline:
        if t1 is None:
            ends = [db.execute(f"SELECT MAX(end) FROM {t}").fetchone()[0] for t, _ in timed_tables(db, names)]
            t1 = max([e for e in ends if e is not None], default=t0 + 1)
        draw_timeline(db, names, text, origin_ns, t0, t1, timeline[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
