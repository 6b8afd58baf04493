"""The per-submission records that make grading resumable: OUT/students/
SID/grade.json, written last and atomically once a submission is graded.
A record is current when it holds the fingerprint of the submission as it
is now and the parts that decide a grade on this run (current.parts); a
run (local, or a Slurm task on any node) grades only the submissions
without a current record.

The one place that reads and writes grade.json: batch grades and merges,
slurm waits for records, command lists the class; each of them imports
this module, and this module none of them."""
import json
import os

from . import current, term
from .unpack import refused
from .util import STATUS_NONE, write_atomic
from .util import fingerprint as digest

NAME = "grade.json"


def path(out, sid):
    """Where sid's record lives in the grading's folder OUT."""
    return os.path.join(out, "students", sid, NAME)


def load(out, sid):
    """sid's record, or None (none yet, or unreadable: a record is renamed
    into place whole, so a half-written one is never seen)."""
    try:
        with open(path(out, sid)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def load_all(out):
    """[(sid, record)] of every readable record in OUT, sorted by sid."""
    folder = os.path.join(out, "students")
    found = []
    for sid in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        r = load(out, sid)
        if r is not None:
            found.append((sid, r))
    return found


def write(out, sid, record):
    """Writes sid's record (last, after the files it describes)."""
    write_atomic(path(out, sid), json.dumps(record, indent=1))


def fingerprint(submissions, src):
    """(why the class entry src of the folder submissions is refused, or
    None; the fingerprint its record holds). A refused entry's fingerprint
    is its reason: it stays refused until that changes."""
    why_not = refused(submissions, src)
    return why_not, "refused: " + why_not if why_not else digest(src)


def fingerprints(submissions, entries):
    """{sid: the fingerprint a record of its entry as it is now holds} for
    entries ({sid: path})."""
    return {sid: fingerprint(submissions, src)[1] for sid, src in entries.items()}


def current_record(out, sid, fp, parts=None):
    """(sid's record, None) if it is current: it grades the submission
    whose fingerprint is fp, with the tests, points, options and host of
    parts (current.parts; None: not compared); (None, why it is graded now)
    otherwise."""
    old = load(out, sid)
    if old is None:
        return None, "new"
    if old.get("fingerprint") != fp:
        return None, "its files changed"
    if parts is not None:
        what = current.changed(old.get("grading"), parts)
        if what:
            return None, "changed: " + ", ".join(what)
    return old, None


def stamp(out, sid):
    """Which record file is there: a new one (renamed over the old) is
    another file. (Not its time: the nodes' clocks and the login node's
    may differ.) None without one."""
    try:
        st = os.stat(path(out, sid))
        return st.st_ino, st.st_mtime_ns
    except OSError:
        return None


def graded_now(out, fps, sid, before=None):
    """Has sid a record of its entry as it is now (fps: fingerprints())?
    With before ({sid: stamp()} when the run began, for --force): one
    written since."""
    return current_record(out, sid, fps[sid])[0] is not None and (before is None or stamp(out, sid) != before[sid])


def the_class(out, max_points, present=None):
    """(the class's rows, [sids of records left out]): every record in OUT
    (of the students present, when given: {sid}), and a row of its own
    for each roster student with nothing handed in (OUT/term.json), those
    held for review (HOLD) flagged; sorted by sid. The one list the
    gradebook, the histogram, the feedback and the class page are made
    of."""
    kept, gone = [], []
    for sid, r in load_all(out):
        if present is not None and sid not in present:
            gone.append(sid)
        else:
            kept.append(r)
    the_term = term.load(out)
    for sid, info in sorted(the_term.get("students", {}).items()):
        if info.get("no_submission") and not any(r["student"] == sid for r in kept):
            kept.append({"student": sid, "status": STATUS_NONE, "total": 0, "max_score": max_points, "tests": [],
                         "flags": ""})
    for r in kept:
        if r["student"] in term.held(the_term):  # HOLD: the review column and the class page say so
            r["flags"] = "; ".join(x for x in (r.get("flags"), term.HELD) if x)
    return sorted(kept, key=lambda r: r["student"]), gone
