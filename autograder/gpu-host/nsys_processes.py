#!/usr/bin/env python3
"""A text summary of an Nsight Systems trace of several processes sharing a
GPU (lab 6's pair pattern with 2 ranks on one GPU, issue 29), from the
SQLite file that `nsys stats` or `nsys export --type sqlite` writes:

    nsys_processes.py TRACE.sqlite [--kernel NAME_PART]

Per process: its kernels (count, total, median and longest by name), its
copies (by kind), its MPI calls and CUDA API calls where traced. Then, for
the kernels whose name contains NAME_PART (default Write_GPU_Read_GPU, the
taskqueue's persistent kernel) and for all kernels: how long each process
had one in flight, how long both did at once, and how often the GPU went
from one process's kernel to the other's. Last, the GPU's context switches
per process where the trace has them (nsys --gpuctxsw).

Why both: CUDA runs kernels of two processes (two contexts) one context at
a time, in time slices, unless MPS is running. A kernel's start and end
in the trace bracket its time slices, so two persistent kernels of two
processes can look concurrent on the timeline while they take turns on
the GPU; the context switches (when traced) and the kernels' durations
(alone against shared) tell the two apart. The script only reads and
counts; it never decides: it prints the figures.

Nothing here depends on one version of nsys's schema beyond the table and
column names it looks up; a table that is missing is reported as such.
"""
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


def print_kernels(kernels):
    print("== kernels per process (ms)")
    per = {}
    for s, e, pid, name in kernels:
        per.setdefault((pid, name), []).append(e - s)
    for (pid, name), d in sorted(per.items()):
        print(f"pid {pid}: {name}: {len(d)} launches, total {ms(sum(d)):.3f}, median {ms(statistics.median(d)):.4f}, "
              f"longest {ms(max(d)):.4f}")


def print_overlap(kernels, label):
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


def print_copies(db, names):
    t = "CUPTI_ACTIVITY_KIND_MEMCPY"
    print("== copies per process")
    if t not in names:
        print("(no copies traced)")
        return
    kinds = {1: "HtoD", 2: "DtoH", 8: "DtoD", 10: "PtoP"}
    per = {}
    for s, e, g, nbytes, kind in db.execute(f"SELECT start, end, globalPid, bytes, copyKind FROM {t}"):
        k = per.setdefault((pid_of(g), kinds.get(kind, str(kind))), [0, 0, 0])
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


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    part = argv[argv.index("--kernel") + 1] if "--kernel" in argv else "Write_GPU_Read_GPU"
    db = sqlite3.connect(f"file:{argv[1]}?mode=ro", uri=True)
    names = tables(db)
    text = strings(db, names)
    kernels = kernel_rows(db, names, text)
    if not kernels:
        print("no kernels in this trace (CUPTI_ACTIVITY_KIND_KERNEL missing or empty)")
    print_kernels(kernels)
    print_overlap([k for k in kernels if part in k[3]], f"kernels named *{part}*")
    print_overlap(kernels, "all kernels")
    print_copies(db, names)
    print_calls(db, names, text, "MPI_", "MPI calls")
    print_calls(db, names, text, "CUPTI_ACTIVITY_KIND_RUNTIME", "CUDA API calls")
    print_context_switches(db, names)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
