"""What a student sees of performance: their measured speed beside the
reference's (and a library's or the hardware's bound where the harness
measures one), in words and as a bar chart (performance.png, gnuplot).

Nothing is timed here: the figures are the ones perf.measure took (the
median ratio of the student's time to the reference's, the reference's
median time, both in the same run on the same machine), turned into rates
with the work each harness does per call (HARNESS_WORK)."""
import os
import shutil
import subprocess

from .util import write_atomic

# harness: (the function it times, the rate's unit, work per call in that
# unit's amount, from the harness's ARGS as numbers)
HARNESS_WORK = {
    # m n k bs: 2 m n k floating-point operations
    "lab1_blk": ("matmult_blk", "GFLOP/s", lambda a: 2e-9 * a[0] * a[1] * a[2]),
    # N SWEEPS: N^3 interior points updated per sweep (million lattice updates)
    "lab2_jacobi": ("jacobi_omp_v2", "MLUP/s", lambda a: 1e-6 * a[0] ** 3 * a[1]),
    # WIDTH HEIGHT MAX_ITER: one image
    "lab2_mandel": ("mandel", "Mpixel/s", lambda a: 1e-6 * a[0] * a[1]),
    # m n k: 2 m n k floating-point operations (the bound: cuBLAS DGEMM)
    "lab3_gpu5": ("matmult_gpu5_dev", "GFLOP/s", lambda a: 2e-9 * a[0] * a[1] * a[2]),
    # N SWEEPS SAMPLES: 16 bytes per interior point and sweep, one read and
    # one write (the bound: device-to-device copies of as many bytes)
    "lab4_gpu3": ("jacobi_gpu3_slab", "GB/s", lambda a: 16e-9 * a[0] ** 3 * a[1]),
}
CHART = "performance.png"
COLOURS = {"you": "#3070c0", "reference": "#909090"}  # a library's or the hardware's bound: BOUND_COLOUR
BOUND_COLOUR = "#40a040"


def figures(harness, args, ratio, tref, threads, bound=None):
    """The figures of one timed function, for extra_data: rates where the
    harness's work is known, else times. bound: (name, seconds) of a
    library or hardware figure the harness measured in the same run."""
    function, unit, work = HARNESS_WORK.get(harness, (harness, None, None))
    fig = {"ratio": ratio, "reference_seconds": tref, "student_seconds": ratio * tref, "function": function,
           "args": " ".join(args), "threads": threads}
    try:
        amount = work([float(a) for a in args]) if work else None
    except (ValueError, IndexError):
        amount = None
    if amount:
        fig.update(unit=unit, reference_rate=amount / tref, student_rate=amount / (ratio * tref))
        if bound:
            fig.update(bound_name=bound[0].replace("_", " "), bound_rate=amount / bound[1])
    return fig


def where_words(threads):
    """'1 thread', '16 threads', 'one GPU' (perf.Perf.where)."""
    return "one GPU" if threads == "GPU" else f"{threads} thread{'s' if threads != '1' else ''}"


def rate(value):
    """Three figures or so: 0.437, 6.00, 64.5, 839."""
    return f"{value:.0f}" if value >= 100 else f"{value:.1f}" if value >= 10 else f"{value:.2f}" if value >= 1 \
        else f"{value:.3f}"


def sentence(fig):
    """'your matmult_blk: 3.1 GFLOP/s = 0.52 x the reference's 6.0 GFLOP/s (OpenBLAS 16.5)'"""
    speed = 1 / fig["ratio"]
    at_most = "at most " if fig["ratio"] >= 10 else ""
    if "unit" not in fig:
        return (f"your {fig['function']}: {at_most}{speed:.2f} x the reference's speed "
                f"({fig['student_seconds'] * 1e3:.1f} ms against {fig['reference_seconds'] * 1e3:.1f} ms)")
    bound = (f" ({fig['bound_name']}: {rate(fig['bound_rate'])} {fig['unit']})" if "bound_rate" in fig else
             " (no library or hardware bound is measured for it)")
    return (f"your {fig['function']}: {at_most}{rate(fig['student_rate'])} {fig['unit']} = {speed:.2f} x "
            f"the reference's {rate(fig['reference_rate'])} {fig['unit']}{bound}")


def measured(tests):
    return [t["extra_data"] for t in tests if "ratio" in t.get("extra_data", {})]


def text(tests, chart_note):
    """The feedback's performance block, or '' when nothing was timed."""
    figs = measured(tests)
    if not figs:
        return ""
    where = ", ".join(where_words(t) for t in sorted({f["threads"] for f in figs}))
    lines = ["Performance, measured in this run: your code and the reference's timed alternately on the same "
             f"machine ({where}; the medians):"]
    lines += [f"  {sentence(f)}, for {f['args']}" for f in figs]
    if chart_note:
        lines.append(f"  {chart_note}")
    return "\n".join(lines) + "\n"


def chart_data(figs):
    """gnuplot's rows: group label, bar label, speed relative to the
    reference, the figure printed above the bar."""
    rows = []
    for f in figs:
        unit = f.get("unit")
        label = f["function"]
        rows.append((label, "you", 1 / f["ratio"],
                     f"{rate(f['student_rate'])} {unit}" if unit else f"{f['student_seconds'] * 1e3:.1f} ms"))
        rows.append((label, "reference", 1.0,
                     f"{rate(f['reference_rate'])} {unit}" if unit else f"{f['reference_seconds'] * 1e3:.1f} ms"))
        if "bound_rate" in f:
            rows.append((label, f["bound_name"], f["bound_rate"] / f["reference_rate"],
                         f"{rate(f['bound_rate'])} {unit}"))
    return rows


def write_chart(folder, tests, title):
    """performance.png in the student's folder; the sentence that the
    feedback says about it. An old chart goes when nothing was timed."""
    path = os.path.join(folder, CHART)
    figs = measured(tests)
    if not figs:
        if os.path.exists(path):
            os.remove(path)
        return ""
    rows = chart_data(figs)
    if not shutil.which("gnuplot"):
        # A GPU host may have no gnuplot and no package registry, but a
        # Python with matplotlib (the kit's GPU hosts do).
        return chart_with_matplotlib(path, rows, title)
    data = "".join(f'"{g} {b}" {v:.6g} "{lab}"\n' for g, b, v, lab in rows)
    write_atomic(path + ".dat", data)
    script = (f"set terminal png size 800,480 noenhanced\nset output '{path}.tmp'\nset title \"{title}\"\n"
              "set ylabel \"speed, the reference's = 1\"\nset style fill solid 0.8\nset boxwidth 0.6\n"
              f"set yrange [0:{max(r[2] for r in rows) * 1.25:.3g}]\nset xtics rotate by -20\nunset key\n"
              "set grid ytics\n"
              f"plot '{path}.dat' using 0:2:(0.6):($0+1):xtic(1) with boxes lc variable, "
              f"'' using 0:2:3 with labels offset 0,1\n")
    # lc variable takes the row number: one colour a bar kind
    palette = "".join(f"set linetype {i + 1} lc rgb '{COLOURS.get(b, BOUND_COLOUR)}'\n"
                      for i, (_, b, _, _) in enumerate(rows))
    done = subprocess.run(["gnuplot"], input=palette + script, text=True, capture_output=True)
    os.remove(path + ".dat")
    if done.returncode != 0 or not os.path.exists(path + ".tmp"):
        return f"No chart: gnuplot failed ({done.stderr.strip()[:200]})."
    os.replace(path + ".tmp", path)
    return f"The same as a bar chart: {CHART}, beside this file."


def chart_with_matplotlib(path, rows, title):
    """The same bar chart as gnuplot's, drawn by matplotlib; the feedback's
    sentence about it."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        return "No chart: neither gnuplot nor matplotlib is installed where this was graded " \
               "(the figures above are all of it)."
    fig, ax = pyplot.subplots(figsize=(8, 4.8), dpi=100)
    x = range(len(rows))
    bars = ax.bar(x, [r[2] for r in rows], width=0.6, color=[COLOURS.get(r[1], BOUND_COLOUR) for r in rows])
    ax.bar_label(bars, labels=[r[3] for r in rows], padding=2)
    ax.set_xticks(list(x), [f"{r[0]}\n{r[1]}" for r in rows])
    ax.set_ylim(0, max(r[2] for r in rows) * 1.25)
    ax.set_ylabel("speed, the reference's = 1")
    ax.set_title(title)
    ax.grid(axis="y")
    fig.tight_layout()
    fig.savefig(path + ".tmp.png")
    pyplot.close(fig)
    os.replace(path + ".tmp.png", path)
    return f"The same as a bar chart: {CHART}, beside this file (drawn by matplotlib: no gnuplot here)."
