"""Performance points: a harness linked with the student's objects times
one function against the reference's, alternately in the same run on the
same machine; points from the ratio of the times.

Each lab's entries are in its own folder, labs/labN-name/tests/perf.conf
(autograder/perf/timed.py reads it; a run on a course's cluster times the
same harnesses for the class standing), one line per entry:
    NAME POINTS FULL_AT ZERO_AT THREADS REQUIRES HARNESS ARGS...
Here an entry is that line with its lab first. THREADS: 1, or 'all' (every
core the grader may use: OMP_NUM_THREADS), or 'gpu': a device case on one
GPU (perf_harness.h), skipped where there is none, linked with the
student's objects built from the lab's .cu files. ARGS may hold
{N_BEYOND_LLC} (perf.timed.beyond_llc).

GRADE_PERF_CONF names another table, of lines LAB NAME POINTS FULL_AT
ZERO_AT (other weights for the lab's entries) or whole entries LAB NAME
POINTS FULL_AT ZERO_AT THREADS REQUIRES HARNESS ARGS... (another size):
it replaces the labs' files."""
import math
import os
import re
import statistics

from perf import timed
from perf.timed import beyond_llc, last_level_cache_bytes, parse_size  # noqa: F401 (grading.perf's own names)
from . import perf_feedback, perf_rounds
from .util import KIT, STATUS_ERROR, Problem, run_capture, write_atomic

GRID = 4                    # performance points go in quarters of an entry's points
NO_DEVICE = 5               # a device harness's status when there is no GPU (perf_harness.h)
NO_GPU = "performance on the GPU is timed only on a grading host with one; this host has none (skipped, not passed)"


class Perf(timed.Timed):
    """A timed entry with its points: LAB NAME POINTS FULL_AT ZERO_AT
    THREADS REQUIRES HARNESS ARGS..."""

    def __init__(self, fields, cache_bytes=None):
        if len(fields) < 8:
            raise ValueError(f"'{' '.join(fields)}': needs lab, name, points, full_at, zero_at, threads, requires, harness")
        points, full, zero = fields[2:5]
        super().__init__(fields[:2] + fields[5:], cache_bytes)
        try:
            self.points, self.full_at, self.zero_at = float(points), float(full), float(zero)
        except ValueError:
            raise ValueError(f"{self.name}: points, full_at and zero_at must be numbers, not '{points} {full} {zero}'")
        if not 1 <= self.full_at < self.zero_at:
            raise ValueError(f"{self.name}: needs 1 <= full_at < zero_at")
        self.bound = False  # (name, seconds) of the harness's library bound once timed; None: it has none

    def score(self, ratio):
        """Full points up to full_at x the reference's time, none from
        zero_at x, between them linear in Tref/T rounded to a grid of
        GRID steps. The grid is coarser than the timing noise (a few
        percent of the time, hundredths of the points where the line is
        steep): two runs of one file, or two identical files, get the same
        points unless their ratio lies on a step's very edge, where the
        harness's 0.1 x resolution already puts them in one step."""
        if ratio <= self.full_at:
            return self.points
        if ratio >= self.zero_at:
            return 0.0
        f = (1 / ratio - 1 / self.zero_at) / (1 / self.full_at - 1 / self.zero_at)
        return round(self.points * math.floor(f * GRID + 0.5) / GRID, 2)

    def env(self):
        env = super().env()
        if self.device and "CUDA_VISIBLE_DEVICES" in os.environ:  # the GPUs Slurm gave this task
            env["CUDA_VISIBLE_DEVICES"] = os.environ["CUDA_VISIBLE_DEVICES"]
        return env

    def where(self):
        """Where it ran, for the feedback: '1', '16' (threads) or 'GPU'."""
        return "GPU" if self.device else self.env()["OMP_NUM_THREADS"]

    def link_cmd(self, lab, build, kit, out=None):
        """The harness linked with build's student objects into out
        (default: build/perf_NAME), from the kit in folder kit."""
        return timed.link_cmd(self.harness, self.device, kit, lab.num, build, lab.kit_build,
                              out or f"{build}/perf_{self.name}", lab.cuda_arch)

    def build_reference(self, lab):
        rc, log = run_capture(self.link_cmd(lab, lab.ref_build, lab.view))
        if rc != 0:
            raise SystemExit(f"grade: the performance harness {self.harness} does not build:\n{log}")


def parse(text, lab, cache_bytes=None):
    """The entries of lab N from whole lines (LAB NAME POINTS FULL_AT
    ZERO_AT THREADS REQUIRES HARNESS ARGS...)."""
    return [Perf(fields, cache_bytes) for fields in timed.lines(text) if fields[0] == str(lab)]


def joined(points_text, lab, entries):
    """The lines of lab N in points_text (GRADE_PERF_CONF's) as whole
    entries, as parse reads them: a line LAB NAME POINTS FULL_AT ZERO_AT
    takes what is timed from the entry of that name in entries (the lab's
    perf.conf, as timed.lab_entries gives it), and one the lab lacks is an
    error; a line that already says what is timed (more than 5 fields) is
    taken as it is."""
    what = {f[1]: f[5:] for f in entries}
    out = []
    for f in timed.lines(points_text):
        if f[0] != str(lab):
            continue
        if len(f) > 5:
            out.append(" ".join(f))
            continue
        if len(f) != 5:
            raise ValueError(f"'{' '.join(f)}': needs lab, name, points, full_at, zero_at (or a whole entry)")
        if f[1] not in what:
            raise ValueError(f"lab {f[0]} {f[1]}: the lab's {timed.LAB_CONF} has no such entry")
        out.append(" ".join(f + what[f[1]]))
    return "\n".join(out) + "\n"


def conf_text(lab):
    """Lab N's entries as whole lines: its own perf.conf's, or those
    GRADE_PERF_CONF gives it (to try new weights, or whole entries at
    another size: the self-test's; a file that does not exist: none)."""
    conf = os.environ.get("GRADE_PERF_CONF")
    if conf is None:
        return "".join(" ".join(f) + "\n" for f in timed.lab_entries(lab))
    if not os.path.exists(conf):
        return ""
    with open(conf) as f:
        return joined(f.read(), lab, timed.lab_entries(lab))


def perf_config(lab):
    """Lab N's performance entries ([]: none); a malformed line stops the
    grading, naming its file (and, in the lab's perf.conf, its line)."""
    try:
        return parse(conf_text(lab), lab)
    except ValueError as e:
        conf = os.environ.get("GRADE_PERF_CONF")
        raise SystemExit(f"grade: lab {lab}'s performance entries: " + (f"GRADE_PERF_CONF={conf}: {e}" if conf else str(e)))


def jobs_warning(jobs, entries):
    """The warning for grading `jobs` at once with these performance
    entries, or None. The timings take turns (the timing lock), but the
    other jobs' builds and tests share the cores with them: the guide
    (INSTRUCTORS.md) and the README say JOBS=1 for performance points."""
    if jobs <= 1 or not entries:
        return None
    return (f"grade: warning: -j {jobs} with performance points: the other submissions' builds and tests slow "
            "the timings, so files of equal speed may get unequal points (identical files still share one "
            "timing). Grade with JOBS=1 for performance points, or with NO_PERF=1 (--no-perf) at any JOBS.")


def measure(p, lab, sandbox, slot, work, build, tests, logs, lock, build_wall, reuse=None, files=None):
    """The performance entry of one submission (a test of the gradebook),
    timed in alternating rounds until its points settle (perf_rounds).
    reuse (perf_rounds.Reuse) and files (the digest of the student's
    files): an entry timed for identical files earlier in this run is
    taken as it is."""
    entry = {"name": f"perf_{p.name}", "max_score": p.points, "score": 0.0, "visibility": "visible"}
    passed = {t["name"] for t in tests if t["status"] == "passed"}
    missing = [r for r in p.requires if r not in passed]
    skipped = [t["name"] for t in tests if t["name"] in missing and t["output"].startswith("SKIP")]
    if p.device and skipped:
        entry.update(status="failed", output=f"SKIP: {NO_GPU} (so were the tests it needs: {', '.join(skipped)})")
        return entry
    if missing:
        entry.update(status="failed", output="SKIP: performance counts only for correct code; "
                     f"these tests must pass first: {', '.join(missing)}")
        return entry
    from .sandbox import lock_down
    kit, sub = sandbox.paths(work)
    perfdir = os.path.join(work, f"perf_{p.name}")
    os.makedirs(perfdir)
    sandbox.give_to(slot, perfdir)
    binds = [(build, "/sub/build", False), (perfdir, "/sub/perf", True)]
    harness = f"{sub}/perf/harness" if sandbox.mode != "off" else os.path.join(perfdir, "harness")
    link = p.link_cmd(lab, f"{sub}/build", kit, harness)
    rc, log = sandbox.run(slot, binds, link, build_wall)
    if rc != 0:
        entry.update(status="failed", output=f"FAIL: the performance harness did not link:\n{log[-2000:]}")
        return entry
    lock_down(perfdir)
    ref = os.path.join(lab.ref_build, f"perf_{p.name}")
    notes, failed = [], {}

    def one_round():
        # The first reference run of this grading run also times the
        # harness's library bound, if it has one, for every student's
        # feedback (never scored).
        first = p.bound is False
        rc, rlog = sandbox.run(slot, [(lab.ref_build, "/ref", False)],
                               [sandbox.inside(ref, "/ref"), *(["--bound"] if first else []), *p.harness_args],
                               300, p.env(), p.device)
        if rc == NO_DEVICE:
            failed["output"] = f"SKIP: {NO_GPU}"
            return None
        try:
            tref = float(rlog.split()[-1])
        except (ValueError, IndexError):
            raise Problem(STATUS_ERROR, f"the reference's harness failed: {rlog[-500:]}")
        if first:
            p.bound = harness_bound(rlog)
        rc, slog = sandbox.run(slot, binds, [harness, "--ref-seconds", f"{tref:.9f}", *p.harness_args],
                               300, p.env(), p.device)
        notes.append(slog[-300:])
        ratio = harness_ratio(rc)
        if ratio is None:
            why = {3: "its result was wrong", 124: "it took too long",
                   4: "no process could be started for it (the sandbox's process limit was reached)"
                   }.get(rc, f"it failed (status {rc})")
            failed["output"] = f"FAIL: the timed run of {' '.join(p.harness_args)} did not complete: {why}"
            return None
        return ratio, tref

    log_path = os.path.join(logs, f"perf_{p.name}.log")
    with lock:  # one timing at a time
        hit = reuse.get(p.name, files) if reuse else None
        if hit:
            entry, log = hit
            write_atomic(log_path, log + "\n(timed once for identical files in this grading run: reused)")
            return entry
        verdict, times = perf_rounds.take_rounds(p.score, one_round)
        write_atomic(log_path, "\n".join(notes))
        if verdict is None:
            entry.update(status="failed", output=failed["output"])
            return entry
        entry = scored_entry(p, entry, verdict.ratio, statistics.median(times), p.bound or None, verdict)
        if reuse:
            reuse.put(p.name, files, entry, "\n".join(notes))
    return entry


def harness_ratio(rc):
    """The student's time over the reference's, from the harness's exit
    status (20 + 10 ratio, see perf_harness.h); None when it did not end well
    (3: a wrong result; 124: the time limit; 125-127: the sandbox failed)."""
    return (rc - 20) / 10.0 if 20 <= rc <= 120 else None


def harness_bound(output):
    """(name, seconds) from the reference harness's 'bound NAME SECONDS'
    line (--bound, perf_harness.h), or None."""
    m = re.search(r"^bound (\S+) ([0-9.eE+-]+)$", output, re.M)
    try:
        return (m.group(1), float(m.group(2))) if m and float(m.group(2)) > 0 else None
    except ValueError:
        return None


def scored_entry(p, entry, ratio, tref, bound=None, verdict=None):
    """The entry for a measured ratio. verdict (perf_rounds.Verdict): how
    many rounds it took, and whether they settled; an entry whose rounds
    did not settle carries its review note under 'review' (the grader
    moves it to the review column)."""
    score = p.score(ratio)
    threads = p.where()
    rounds = verdict.rounds if verdict else perf_rounds.RUNS
    # The figures the student sees (the feedback's performance block, the
    # chart): from these numbers only, nothing timed again.
    figs = perf_feedback.figures(p.harness, p.harness_args, ratio, tref, threads, bound)
    entry.update(score=score, status="passed" if score == p.points else "failed",
                 output=f"{'PASS' if score == p.points else 'SLOW'}: {'at least ' if ratio >= 10 else ''}"
                 f"{ratio:.2f} x the reference's time (median of {rounds} alternating runs; reference "
                 f"{tref * 1e3:.1f} ms, {perf_feedback.where_words(threads)}) for "
                 f"{' '.join(p.harness_args)}; full points up to {p.full_at:g} x, none from {p.zero_at:g} x",
                 extra_data=figs)
    if verdict and not verdict.settled:
        entry["output"] += (f". The rounds' ratios ({' '.join(f'{r:g}' for r in verdict.ratios)}) did not settle "
                            "on one step of the points: the better estimate counts, and an instructor will look")
        entry["review"] = perf_rounds.review_note(p.name, verdict)
    return entry
