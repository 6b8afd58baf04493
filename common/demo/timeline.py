#!/usr/bin/env python3
"""A timeline picture (PNG, drawn by gnuplot) of a traced MPI run: one row
per rank and stream, kernels, copies and MPI calls as bars on one clock,
and several windows of the run (panels) one above the other on the same
scale, so that two forms of one program can be compared at a glance:

    timeline.py DIR OUT.png --title TEXT --panel LABEL=WINDOW [--panel ...]
                [--name RANK=TEXT ...] [--list-rows]

DIR holds one folder a rank, rankR/, each with the kit's tracer's file
(common/trace/cuda_mpi_trace.c: trace.PID.csv, kernels, copies and MPI
calls) and mpi_marks.c's (marks.PID.csv: the collectives that end a
benchmark's runs). WINDOW is
    run:K    the K-th run (from 0; from the end where K < 0: -1 the last):
             from each rank's K-th MPI_Allreduce (its start of the run,
             for K = 0) to its (K+1)-th, the panel
             spanning all ranks' windows; where the run has kernels, from
             0.2 ms before its first to 0.2 ms after its last (the data
             handed out before and gathered after are left out)
    tail:MS  the last MS milliseconds of the trace
    all      the whole trace
A rank with no GPU rows (a CPU backend, a host without CUPTI) has its MPI
row alone. Prints one line a panel: its length and each kind's busy time.
"""
import argparse
import csv
import glob
import os
import re
import subprocess
import sys
import tempfile

COLOURS = {"kernel": "#1f77b4", "HtoD": "#2ca02c", "DtoH": "#ff7f0e", "copy": "#7f7f7f",
           "memset": "#bcbd22", "MPI wait": "#d62728", "MPI send/recv": "#9467bd"}
WAITS = {"MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Barrier", "MPI_Recv", "MPI_Allreduce", "MPI_Bcast"}


def category(kind, name):
    if kind == "mpi":
        return "MPI wait" if name in WAITS else "MPI send/recv"
    if kind == "memcpy":
        return name if name in ("HtoD", "DtoH") else "copy"
    return kind


def load(folder):
    """{rank: [(start_ns, end_ns, kind, name, stream)]} from DIR/rankR/*.csv."""
    ranks = {}
    for d in glob.glob(os.path.join(folder, "rank*")):
        m = re.fullmatch(r"rank(\d+)", os.path.basename(d))
        if not m:
            continue
        rows = []
        for f in glob.glob(os.path.join(d, "*.csv")):
            with open(f, newline="") as fh:
                for r in csv.DictReader(fh):
                    rows.append((int(r["start_ns"]), int(r["end_ns"]), r["kind"], r["name"], r["stream"]))
        if rows:
            ranks[int(m.group(1))] = sorted(rows)
    return ranks


def window(ranks, spec):
    """(t0, t1, own): the panel's span, and each rank's own window inside it
    ({rank: (start, end)}: a run's window differs from rank to rank, and a
    rank's events outside its own belong to another run)."""
    first = min(r[0][0] for r in ranks.values())
    last = max(max(e for _, e, *_ in rows) for rows in ranks.values())
    if spec == "all":
        return first, last, {rank: (first, last) for rank in ranks}
    if spec.startswith("tail:"):
        t0 = max(first, last - float(spec[5:]) * 1e6)
        return t0, last, {rank: (t0, last) for rank in ranks}
    if spec.startswith("run:"):
        k = int(spec[4:])
        own = {}
        for rank, rows in ranks.items():
            marks = [(s, e) for s, e, kind, name, _ in rows if name == "MPI_Allreduce"]
            j = k if k >= 0 else len(marks) + k
            if not 0 <= j < len(marks):
                sys.exit(f"timeline.py: rank {rank} ran {len(marks)} run(s) (MPI_Allreduce), no run {k}")
            own[rank] = (rows[0][0] if j == 0 else marks[j - 1][1], marks[j][0])
        t0, t1 = min(s for s, _ in own.values()), max(e for _, e in own.values())
        # A run starts by handing out its data; the lesson is in the steps:
        # where the run has kernels, its panel starts just before the first.
        # Likewise it ends by gathering the answer: the panel ends just after
        # the last kernel.
        kernels = [(s, e) for rank, rows in ranks.items() for s, e, kind, *_ in rows
                   if kind == "kernel" and own[rank][0] <= s < own[rank][1]]
        if kernels:
            t0, t1 = max(t0, min(s for s, _ in kernels) - 200_000), min(t1, max(e for _, e in kernels) + 200_000)
        return t0, t1, {rank: (max(s, t0), min(e, t1)) for rank, (s, e) in own.items()}
    sys.exit(f"timeline.py: unknown window '{spec}' (run:K, tail:MS or all)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir")
    p.add_argument("out")
    p.add_argument("--title", required=True)
    p.add_argument("--panel", action="append", required=True, help="LABEL=WINDOW")
    p.add_argument("--name", action="append", default=[], help="RANK=TEXT")
    p.add_argument("--list-rows", action="store_true", help="also print each panel's rows, a line each")
    a = p.parse_args()
    ranks = load(a.dir)
    if not ranks:
        sys.exit(f"timeline.py: no traces in {a.dir}/rank*/ (was the run traced?)")
    names = {int(k): v for k, v in (n.split("=", 1) for n in a.name)}
    windows = [window(ranks, spec.partition("=")[2]) for spec in a.panel]

    # Each panel's rows: per rank its MPI calls, then each stream it used
    # inside its own window (a stream used only to hand out the data, or by
    # another panel's run, is no row: empty rows would hide the overlap the
    # picture is for; and the end of another rank's previous run, which the
    # panel's span can reach, is not this run's).
    def row_label(rank, st):
        return f'{names.get(rank, "rank %d" % rank)} {"MPI" if st is None else "stream " + st}'

    def panel_rows(own):
        rows = []
        for rank in sorted(ranks):
            rows.append((rank, None))
            t0, t1 = own[rank]
            used = {st for s, e, kind, _, st in ranks[rank] if kind != "mpi" and min(e, t1) > max(s, t0)}
            rows += [(rank, st) for st in sorted(used, key=lambda x: int(x or 0))]
        return rows

    panels, longest, seen = [], 0.0, set()
    tmp = tempfile.mkdtemp(prefix="timeline.")
    for n, spec in enumerate(a.panel):
        label = spec.partition("=")[0]
        t0, t1, own = windows[n]
        rows = panel_rows(own)
        index = {r: i for i, r in enumerate(reversed(rows))}
        ytics = ", ".join(f'"{row_label(rank, st)}" {index[(rank, st)]}' for rank, st in rows)
        busy = {}
        path = os.path.join(tmp, f"panel{n}.dat")
        with open(path, "w") as out:
            for rank, evs in ranks.items():
                lo, hi = own[rank]
                for s, e, kind, name, st in evs:
                    s, e = max(s, lo), min(e, hi)
                    if e <= s or name in ("MPI_Allreduce", "MPI_Bcast"):
                        continue
                    cat = category(kind, name)
                    busy[cat] = busy.get(cat, 0) + (e - s)
                    seen.add(cat)
                    y = index[(rank, None if kind == "mpi" else st)]
                    x0, x1 = (s - t0) / 1e6, (e - t0) / 1e6
                    colour = int(COLOURS[cat][1:], 16)
                    out.write(f"{(x0 + x1) / 2:.6f} {y} {(x1 - x0) / 2:.6f} 0.35 {colour}\n")
        length = (t1 - t0) / 1e6
        longest = max(longest, length)
        panels.append((label, path, length, len(rows), ytics))
        print(f"{label}: {length:.3f} ms; busy, all ranks together: " +
              ", ".join(f"{c} {v / 1e6:.3f} ms" for c, v in sorted(busy.items())) if busy else f"{label}: {length:.3f} ms, no events")
        if a.list_rows:
            for rank, st in rows:
                print(f"{label} row: {row_label(rank, st)}")

    legend = ", ".join(f'NaN with boxes fs solid lc rgb "{c}" title "{k}"' for k, c in COLOURS.items() if k in seen)
    # each panel's height in pixels: its title, axis and rows; below the
    # last, a strip of its own for the legend (a key "below" a panel of a
    # multiplot overlapped the panel's axis label)
    pixels = [150 + 50 * n_rows for *_, n_rows, _ in panels]
    title_px, legend_px = 70, 60
    height = title_px + sum(pixels) + legend_px
    gp = [f'set terminal pngcairo size 1600,{height} font "sans,18" noenhanced',
          f'set output "{a.out}"',
          f'set multiplot title "{a.title}"',
          f"set xrange [0:{longest * 1.01:.6f}]", "set grid xtics", "set style fill solid 1.0 noborder",
          'set xlabel "ms from the start of the window"',
          f"set key at screen 0.5,{legend_px / 2 / height:.4f} center center horizontal maxrows 1 samplen 2"]
    top = 1.0 - title_px / height
    for i, (label, path, length, n_rows, ytics) in enumerate(panels):
        size = pixels[i] / height
        gp += [f"set origin 0,{top - size:.4f}", f"set size 1,{size:.4f}",
               f"set yrange [-0.6:{n_rows - 0.4}]", f"set ytics ({ytics})",
               f'set title "{label} ({length:.2f} ms)"']
        top -= size
        data = f'"{path}" using 1:2:3:4:5 with boxxyerror lc rgb variable notitle' if os.path.getsize(path) else "NaN notitle"
        gp.append(f"plot {data}" + (f", {legend}" if legend and i == len(panels) - 1 else ""))
    gp.append("unset multiplot")
    r = subprocess.run(["gnuplot"], input="\n".join(gp) + "\n", text=True, capture_output=True)
    for f in glob.glob(os.path.join(tmp, "*")):
        os.remove(f)
    os.rmdir(tmp)
    if r.returncode != 0 or not os.path.getsize(a.out):
        sys.exit(f"timeline.py: gnuplot failed: {r.stderr.strip()}")


if __name__ == "__main__":
    main()
