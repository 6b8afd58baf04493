"""The class's results: gradebook.csv, the histogram of totals, and the
progress line while grading."""
import csv
import io
import os
import sys
import threading
import time

from .charts import bars_png
from .review import timeout_flag
from .util import write_atomic


TERM_COLUMNS = ["late_days", "late_penalty", "manual", "final"]


def gradebook_csv(columns, records, finals=None):
    """One row per student: status, total, max, each column's points, the
    review column (flags, or why an entry was refused, and the tests that
    hung); with finals
    (term.finals: a late policy, manual marks, an LMS roster) the term's
    columns before the review column."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["student", "status", "total", "max"] + columns + (TERM_COLUMNS if finals is not None else []) +
               ["review"])
    for r in records:
        got = {t["name"]: t["score"] for t in r["tests"]}
        extra = []
        if finals is not None:
            f = finals.get(r["student"], {})
            extra = [f"{f.get(c, 0):g}" for c in TERM_COLUMNS]
            if f.get("comment"):
                r = {**r, "flags": "; ".join(x for x in (r.get("flags", ""), "manual: " + f["comment"]) if x)}
        flags = "; ".join(x for x in (r.get("flags", ""), timeout_flag(r)) if x)
        w.writerow([r["student"], r["status"], f"{r['total']:g}", f"{r['max_score']:g}"] +
                   [f"{got[n]:g}" if n in got else "" for n in columns] + extra + [flags])
    return buf.getvalue()


def histogram_counts(totals, mx, bins=10):
    counts = [0] * bins
    for t in totals:
        counts[min(int(t / mx * bins), bins - 1) if mx else 0] += 1
    return counts


def histogram_text(totals, mx, lab_num, bins=10, gpu_points=0):
    """gpu_points: of mx, those the grading host could not award (no GPU):
    the bins span the points it could."""
    top = mx - gpu_points
    counts = histogram_counts(totals, top, bins)
    host = f" (this host could award {top:g} of {mx:g}; {gpu_points:g} need a GPU)" if gpu_points else ""
    lines = [f"Totals of {len(totals)} submissions (lab {lab_num}, out of {top:g}{host}):"]
    for i, c in enumerate(counts):
        lo, hi = top * i / bins, top * (i + 1) / bins
        lines.append(f"  {lo:5.1f} - {hi:5.1f}{']' if i == bins - 1 else ')'} {c:4d} {'#' * c}")
    return "\n".join(lines) + "\n"


def write_gradebook(out, columns, records, finals=None):
    write_atomic(os.path.join(out, "gradebook.csv"), gradebook_csv(columns, records, finals))


def write_histogram(out, lab_num, lab_name, mx, records, bins=10, gpu_points=0):
    totals = [r["total"] for r in records]
    text = histogram_text(totals, mx, lab_num, bins, gpu_points)
    write_atomic(os.path.join(out, "histogram.txt"), text)
    top = mx - gpu_points
    counts = histogram_counts(totals, top, bins)
    of = f"of {top:g} this host could award, {mx:g} in all" if gpu_points else f"of {top:g}"
    bars_png(os.path.join(out, "histogram.png"), [top * (i + 0.5) / bins for i in range(bins)], counts,
             top / bins * 0.9, f"Lab {lab_num} ({lab_name}): totals of {len(records)} submissions",
             f"total points ({of})", "submissions", xrange=(0, top))
    return text


class Progress:
    def __init__(self, total):
        self.total, self.done, self.tty, self.t0 = total, 0, sys.stderr.isatty(), time.time()
        self.lock = threading.Lock()

    def step(self, sid, r, skipped):
        with self.lock:
            self.done += 1
            why = r.get("graded_because") or ""
            what = f"{sid}: {r['status']} {r['total']:g}/{r['max_score']:g}" + (
                " (already graded)" if skipped else f" (regraded: {why})" if why.startswith(("changed", "its")) else "")
            width = 30
            filled = width * self.done // max(self.total, 1)
            bar = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {time.time() - self.t0:5.0f} s"
            if self.tty:
                sys.stderr.write(f"\r\033[K{bar}  {what}"[:200])
                if self.done == self.total:
                    sys.stderr.write("\n")
            else:
                sys.stderr.write(f"{bar}  {what}\n")
            sys.stderr.flush()
