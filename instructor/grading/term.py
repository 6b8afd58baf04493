"""The term around the grades: the late policy (a deadline, a penalty per
day late, a cap), manual marks (the report, a penalty) merged in, and the
grade-import CSV of Canvas, Moodle or a plain one (make export), with the
feedback files those LMSs take in bulk (lms_feedback.py).

OUT/term.json keeps what instructor/grade was told (roster, deadline,
penalty, cap, manual marks, --cpu-only, the grades held for review) and
what the LMS said of each student, so that make export needs nothing
more than LAB and FORMAT. Every id the instructor names is checked
against the class (refuse_unknown).

A partial grading (--cpu-only: the GPU tests' points could not be
awarded here) takes its late penalties on the points it could award, and
make export refuses it unless told how to enter it (--partial awarded or
scaled) and then says so.

Manual marks: a CSV with a header 'student,points[,comment]' (student: the
gradebook's id); several rows of one student add up."""
import csv
import datetime
import difflib
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


def squashed(text):
    return "".join(c for c in (text or "").lower() if c.isalnum())


def meant(sid, class_ids, students):
    """The student of the class that an unknown id most likely means, or
    None: the one whose id, LMS login or name it spells in any order (a
    Canvas-style DoeAlice for adoe, Alice Doe), else a near id (adeo)."""
    s = sorted(squashed(sid))
    for c in sorted(class_ids):
        info = students.get(c, {})
        if any(w and sorted(squashed(w)) == s for w in (c, info.get("lms_login"), info.get("name"))):
            return c + (f" ({info['name']})" if info.get("name") else "")
    near = difflib.get_close_matches(sid, sorted(class_ids), n=1, cutoff=0.6)
    return near[0] if near else None


def hold_ids(text):
    """HOLD's ids ('a,b'; 'none': no one)."""
    return [] if text.strip() == "none" else [x.strip() for x in text.split(",") if x.strip()]


def refuse_unknown(what, ids, class_ids, students, tool="grade"):
    """Ids (of MANUAL, HOLD, ONLY) that name no student of the class are
    listed and refused: a mark or a hold for a typo would be dropped
    unseen."""
    bad = sorted(set(ids) - set(class_ids))
    if not bad:
        return
    named = []
    for sid in bad:
        guess = meant(sid, class_ids, students)
        named.append(f"{sid}" + (f" (did you mean {guess}?)" if guess else ""))
    raise SystemExit(f"{tool}: {what} names {len(bad)} student{'s' if len(bad) > 1 else ''} not in the class: "
                     f"{', '.join(named)}. Its ids are the gradebook's (its 'student' column, {len(class_ids)} "
                     "students): correct them, and run again.")


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
    if getattr(args, "hold", None):
        term["hold"] = hold_ids(args.hold)
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


HELD = "held for review"
PARTIAL = ("awarded", "scaled")


def lms_of(students):
    """The LMS the class was downloaded from ('canvas', 'moodle'), or None
    (the grader's own layout)."""
    kinds = {info.get("lms") for info in students.values()} - {None, "", "folders"}
    return kinds.pop() if len(kinds) == 1 else None


def held(term):
    return set(term.get("hold") or [])


def export(out, fmt, assignment=None, partial=None, hold=None):
    """The grade-import CSV of the LMS (canvas, moodle or csv) from
    OUT/gradebook.csv and OUT/term.json; returns (path, rows written, what
    to say of a partial grading or '', the students held). A partial
    grading is refused unless partial says how to enter it: 'awarded' (out
    of the points the host could award: the LMS's assignment must then be
    worth that many) or 'scaled' (the autograded points scaled to the
    lab's, manual marks as they are). hold: ids ('a,b', 'none') whose
    grade is left blank, 'held for review' (kept in OUT/term.json)."""
    try:
        with open(os.path.join(out, "gradebook.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        with open(os.path.join(out, "lab.json")) as f:
            lab = json.load(f)
    except OSError as e:
        raise SystemExit(f"export: {e}: grade the lab first (make grade LAB=N SUBMISSIONS=DIR)")
    term = load(out)
    students = term.get("students", {})
    source = lms_of(students)
    if fmt in ("canvas", "moodle") and source and source != fmt:
        raise SystemExit(f"export: the class is a {source.capitalize()} download: {fmt.capitalize()} knows none of "
                         f"its ids (its import and feedback zip need a {fmt.capitalize()} download's); "
                         f"FORMAT={source}, or FORMAT=csv for any other gradebook")
    if hold:
        refuse_unknown("HOLD", hold_ids(hold), {r["student"] for r in rows}, students, "export")
        keep(out, hold=hold_ids(hold))
        term = load(out)
    holding = held(term)
    title = assignment or f"Lab {lab['num']}"
    awarded, ungraded = partial_points(lab)
    mx = float(lab["max_points"])
    possible, scale = awarded, 1.0
    said = ""
    if ungraded:
        said = (f"a partial grading: this host could award {awarded:g} of lab {lab['num']}'s "
                f"{mx:g} points ({ungraded:g} need a GPU: graded with --cpu-only)")
        if partial not in PARTIAL:
            raise SystemExit(f"export: {said}. Regrade on a GPU host, or say how to enter it: PARTIAL=awarded (out "
                             f"of {awarded:g}: give the assignment {awarded:g} points in the LMS) or PARTIAL=scaled "
                             f"(scaled to the lab's {mx:g}); instructor/INSTRUCTORS.md, \"A GPU lab on a host "
                             "without a GPU\", says which when")
        if partial == "scaled":
            possible, scale = mx, mx / awarded if awarded else 1.0
            said += (f"; exported scaled to {mx:g} (PARTIAL=scaled): each autograded total, less its late penalty, "
                     f"x {mx:g}/{awarded:g}, manual marks added as they are")
        else:
            said += (f"; exported out of {awarded:g} (PARTIAL=awarded): give the assignment {awarded:g} points in "
                     f"the LMS before importing, or the grades read as out of {mx:g}")

    def grade(r):
        if r["student"] in holding:
            return ""
        if scale == 1.0:
            return r.get("final") or r["total"]
        got = (float(r["total"]) - float(r.get("late_penalty") or 0)) * scale + float(r.get("manual") or 0)
        return f"{max(0.0, round(got, 2)):g}"

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
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
            fb = HELD if r["student"] in holding else f"{r['status']}; autograded {r['total']} of {awarded:g}" + (
                f"; manual {r['manual']}" if r.get("manual") not in (None, "", "0") else "") + (
                f"; late {r['late_days']} day(s), -{r['late_penalty']}" if r.get("late_days") not in (None, "", "0")
                else "") + (f"; scaled to {possible:g}" if scale != 1.0 else "")
            w.writerow([s.get("name") or r["student"], s.get("email", ""), s.get("idnumber", ""), grade(r), fb])
    elif fmt == "csv":
        w.writerow(["student", "name", "lms_id", "status", "total", "max", "late_penalty", "manual", "final", "note"])
        for r in rows:
            s = students.get(r["student"], {})
            w.writerow([r["student"], s.get("name", ""), s.get("lms_id", ""), r["status"], r["total"], f"{possible:g}",
                        r.get("late_penalty", "0"), r.get("manual", "0"), grade(r),
                        HELD if r["student"] in holding else f"scaled x {scale:.4g}" if scale != 1.0 else ""])
    else:
        raise SystemExit(f"export: FORMAT is canvas, moodle or csv, not '{fmt}'")
    path = os.path.join(out, f"export-{fmt}.csv")
    write_atomic(path, buf.getvalue())
    return path, len(rows), said, sorted(holding & {r["student"] for r in rows})
