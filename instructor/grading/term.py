"""The term around the grades: the late policy (a deadline, a penalty per
day late, a cap), manual marks (the report, a penalty) merged in, and the
grade-import CSV of Canvas, Moodle or a plain one (make export), with the
feedback files those LMSs take in bulk (lms_feedback.py).

OUT/term.json keeps what instructor/grade was told (roster, deadline,
penalty, cap, manual marks, --cpu-only) and what the LMS said of each
student, so that make export needs nothing more than LAB and FORMAT.

A partial grading (--cpu-only: the GPU tests' points could not be
awarded here) takes its late penalties on the points it could award, and
make export refuses it unless told (--partial) and then says so.

Manual marks: a CSV with a header 'student,points[,comment]' (student: the
gradebook's id); several rows of one student add up."""
import csv
import datetime
import io
import json
import math
import os

from .util import write_atomic


def parse_time(text):
    """An ISO date-time ('2026-11-20T23:59', '2026-11-20 23:59:00+01:00');
    one without a zone is UTC."""
    t = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=datetime.timezone.utc)


def days_late(submitted, deadline):
    """Whole days late, a started day counting as one (0 on time)."""
    if not submitted or not deadline:
        return 0
    late = (parse_time(submitted) - parse_time(deadline)).total_seconds()
    return max(0, math.ceil(late / 86400))


def late_penalty(days, per_day, cap, max_points):
    """Points taken for days late: per_day percent of the lab's points a
    day, at most cap percent."""
    return round(min(days * per_day, cap) / 100 * max_points, 2)


def read_manual(path):
    """{student: (points, comment)} from a manual-marks CSV."""
    marks = {}
    if not path:
        return marks
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.DictReader(f))
    except (OSError, csv.Error) as e:
        raise SystemExit(f"grade: the manual marks {path} cannot be read: {e}")
    for n, row in enumerate(rows, 2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
        if "student" not in row or "points" not in row:
            raise SystemExit(f"grade: {path}: the header must name 'student' and 'points' (and may name 'comment')")
        try:
            pts = float(row["points"])
        except ValueError:
            raise SystemExit(f"grade: {path}:{n}: points '{row['points']}' is not a number")
        old, why = marks.get(row["student"], (0.0, ""))
        marks[row["student"]] = (old + pts, "; ".join(x for x in (why, row.get("comment", "")) if x))
    return marks


def load(out):
    try:
        with open(os.path.join(out, "term.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def roster_file(given, out, tool):
    """The roster to read for an LMS download: the one given, else the one
    an earlier grading of OUT was given (kept in OUT/term.json), so that a
    regrade or make similarity names the students as the first run did."""
    path = given or load(out).get("roster")
    if path and not os.path.isfile(path):
        kept = "" if given else f" (kept in {os.path.join(out, 'term.json')} from an earlier make grade)"
        raise SystemExit(f"{tool}: the roster {path}{kept} cannot be read: give ROSTER=FILE")
    return path


def keep(out, **values):
    """Sets values in OUT/term.json (make similarity: where its report is)."""
    term = load(out)
    term.update(values)
    write_atomic(os.path.join(out, "term.json"), json.dumps(term, indent=1))


def save(out, args, meta):
    """Keeps the term's options and the LMS's word on each student (a run
    without them keeps the last run's)."""
    term = load(out)
    for k in ("deadline", "late_per_day", "late_cap", "manual", "roster"):
        v = getattr(args, k, None)
        if v not in (None, ""):
            term[k] = os.path.abspath(v) if k in ("manual", "roster") else v
    if getattr(args, "cpu_only", None) is not None:
        term["cpu_only"] = bool(args.cpu_only)
    if getattr(args, "no_leaderboard", None) is not None:
        term["leaderboard"] = not args.no_leaderboard
    if meta:
        term["students"] = meta
    write_atomic(os.path.join(out, "term.json"), json.dumps(term, indent=1))
    return term


def finals(term, records, ungraded=0):
    """{student: {late_days, late_penalty, manual, comment, final, graded,
    per_day, cap}} for the gradebook's term columns and each student's
    account of the grade. ungraded: the points this host could not award
    (lab.json's gpu_points); the late penalty is a share of the rest."""
    students = term.get("students", {})
    manual = read_manual(term.get("manual"))
    per_day, cap = float(term.get("late_per_day") or 0), float(term.get("late_cap") or 100)
    out = {}
    for r in records:
        info = students.get(r["student"], {})
        days = days_late(info.get("submitted"), term.get("deadline"))
        if not info.get("submitted") and info.get("late"):
            days = 1  # Canvas says late, and no time says by how much: one day
        graded = r["max_score"] - ungraded
        pen = late_penalty(days, per_day, cap, graded)
        pts, why = manual.get(r["student"], (0.0, ""))
        out[r["student"]] = {"late_days": days, "late_penalty": pen, "manual": pts, "comment": why,
                             "final": round(max(0.0, r["total"] - pen + pts), 2), "graded": graded,
                             "per_day": per_day, "cap": cap}
    return out


def active(term):
    return any(term.get(k) for k in ("deadline", "late_per_day", "manual", "students"))


def partial_points(lab):
    """(the points this grading could award, those it could not) of
    lab.json."""
    ungraded = float(lab.get("gpu_points") or 0)
    return float(lab["max_points"]) - ungraded, ungraded


def export(out, fmt, assignment=None, partial=False):
    """The grade-import CSV of the LMS (canvas, moodle or csv) from
    OUT/gradebook.csv and OUT/term.json; returns (path, rows written, what
    to say of a partial grading or ''). A partial grading is refused
    unless partial: its Points Possible is what it could award."""
    try:
        with open(os.path.join(out, "gradebook.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        with open(os.path.join(out, "lab.json")) as f:
            lab = json.load(f)
    except OSError as e:
        raise SystemExit(f"export: {e}: grade the lab first (make grade LAB=N SUBMISSIONS=DIR)")
    term = load(out)
    students = term.get("students", {})
    title = assignment or f"Lab {lab['num']}"
    possible, ungraded = partial_points(lab)
    said = ""
    if ungraded:
        said = (f"a partial grading: this host could award {possible:g} of lab {lab['num']}'s "
                f"{lab['max_points']:g} points ({ungraded:g} need a GPU: graded with --cpu-only)")
        if not partial:
            raise SystemExit(f"export: {said}. Regrade on a GPU host, or export these grades out of {possible:g} "
                             "anyway with --partial (make export ... PARTIAL=1)")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    grade = (lambda r: r.get("final") or r["total"])
    if fmt == "canvas":
        # Canvas: Gradebook > Import. Student, ID, SIS User ID, SIS Login ID
        # and Section identify the row; the assignment's column is matched by
        # its name (rename it to Canvas's 'Lab 2 (4711)' or choose on import).
        w.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", title])
        w.writerow(["    Points Possible", "", "", "", "", f"{possible:g}"])
        for r in rows:
            s = students.get(r["student"], {})
            w.writerow([s.get("name") or r["student"], s.get("lms_id", ""), s.get("sis_id", ""),
                        s.get("lms_login") or r["student"], s.get("section", ""), grade(r)])
    elif fmt == "moodle":
        # Moodle: Grades > Import > CSV file; map 'Email address' (or 'ID
        # number': the profile's idnumber, from the roster; empty without
        # one, never the participant number of a download) to the user, the
        # lab's column to the assignment, Feedback.
        w.writerow(["Full name", "Email address", "ID number", title, "Feedback"])
        for r in rows:
            s = students.get(r["student"], {})
            fb = f"{r['status']}; autograded {r['total']} of {possible:g}" + (
                f"; manual {r['manual']}" if r.get("manual") not in (None, "", "0") else "") + (
                f"; late {r['late_days']} day(s), -{r['late_penalty']}" if r.get("late_days") not in (None, "", "0")
                else "")
            w.writerow([s.get("name") or r["student"], s.get("email", ""), s.get("idnumber", ""), grade(r), fb])
    elif fmt == "csv":
        w.writerow(["student", "name", "lms_id", "status", "total", "max", "late_penalty", "manual", "final"])
        for r in rows:
            s = students.get(r["student"], {})
            w.writerow([r["student"], s.get("name", ""), s.get("lms_id", ""), r["status"], r["total"], f"{possible:g}",
                        r.get("late_penalty", "0"), r.get("manual", "0"), grade(r)])
    else:
        raise SystemExit(f"export: FORMAT is canvas, moodle or csv, not '{fmt}'")
    path = os.path.join(out, f"export-{fmt}.csv")
    write_atomic(path, buf.getvalue())
    return path, len(rows), said
