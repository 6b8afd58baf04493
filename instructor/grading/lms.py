"""Submissions as a learning-management system hands them out, turned into
the grader's class folder (one folder per student), and a roster that maps
the LMS's names and ids.

Canvas's bulk download is flat: one file per uploaded file, named
    LOGIN_USERID_SUBMISSIONID_FILENAME        (jensenbob_12345_678910_poisson.c)
    LOGIN_late_USERID_SUBMISSIONID_FILENAME   (handed in after the due date)
where a second upload of the same name gets '-1', '-2' before its extension.
Moodle's is a folder per student and plugin:
    FULL NAME_PARTICIPANTID_assignsubmission_file_/FILES
A roster (optional) is a CSV with a header; the columns read are, in any
order and case: id (Canvas 'ID', Moodle participant), sis_id (Canvas 'SIS
User ID'), idnumber (Moodle's 'ID number', the institution's), login ('SIS
Login ID', 'Username'), name ('Student', 'Full name'), email ('Email
address'), section, submitted (ISO time of the upload, for the late
policy).

A download's own ids are kept for the feedback upload (lms_feedback.py):
Canvas's user id and the id of the student's first uploaded file (its
name's two numbers), Moodle's participant number."""
import csv
import os
import re
import shutil
import sys
import unicodedata

from . import term
from .unpack import ARCHIVES, student_id

# A Canvas login is the student's name squashed, in any script (müllerjan).
CANVAS = re.compile(r"^(?P<login>[^\W_]+)(?P<late>_late)?_(?P<uid>\d+)_(?P<subid>\d+)_(?P<file>.+)$")
MOODLE = re.compile(r"^(?P<name>.+)_(?P<uid>\d+)_assignsubmission_(?:file|onlinetext)_?$")
RESUBMIT = re.compile(r"^(?P<stem>.+?)-\d+(?P<ext>\.[^.]+)$")

ROSTER_COLUMNS = {"id": ("id", "user id", "participant"), "sis_id": ("sis user id", "sis id", "student number"),
                  "idnumber": ("id number", "idnumber"),
                  "login": ("login", "sis login id", "username", "login id"),
                  "name": ("name", "student", "full name"), "email": ("email", "email address"),
                  "section": ("section",), "submitted": ("submitted", "submitted at", "last modified")}


def nfc(name):
    """A file name as one form of Unicode: a zip made on macOS spells ü as
    u and a combining diaeresis, which is no letter of a login."""
    return unicodedata.normalize("NFC", name)


def layout(folder):
    """'canvas', 'moodle' or 'folders' (the grader's own: an entry per
    student), from what the folder holds. A folder of files some of which
    are named as Canvas names them is a Canvas download: a file named
    otherwise there would be dropped unseen, so it is refused, named."""
    names = [n for n in os.listdir(folder) if not n.startswith(".")]
    files = [n for n in names if os.path.isfile(os.path.join(folder, n))]
    dirs = [n for n in names if os.path.isdir(os.path.join(folder, n))]
    canvas = [n for n in files if CANVAS.match(nfc(n))]
    if canvas and not dirs:
        odd = sorted(set(files) - set(canvas))
        if odd:
            some = ", ".join(repr(n) for n in odd[:10]) + (f" and {len(odd) - 10} more" if len(odd) > 10 else "")
            raise ValueError(f"{folder} is a Canvas download ({len(canvas)} files named "
                             f"LOGIN_USERID_SUBMISSIONID_FILE, e.g. {canvas[0]}), but {len(odd)} "
                             f"file{'s are' if len(odd) > 1 else ' is'} named otherwise, which no layout reads: "
                             f"{some}. Rename or remove them, and run again.")
        return "canvas"
    if dirs and all(MOODLE.match(nfc(n)) for n in dirs):
        return "moodle"
    return "folders"


def unread(folder):
    """The entries of a class folder in the grader's own layout that it
    does not read (files that are no archive), to be named."""
    return sorted(n for n in os.listdir(folder) if not n.startswith(".") and not n.endswith(ARCHIVES)
                  and os.path.isfile(os.path.join(folder, n)))


def no_submissions(folder, files, tool):
    """Why the class folder gives nothing to grade, in words: the entries
    it could not read named."""
    names = sorted(n for n in os.listdir(folder) if not n.startswith("."))
    if not names:
        return f"{tool}: {folder} is empty: nothing to grade"
    odd = unread(folder) or names
    return (f"{tool}: {folder} holds no submission the grader can read ({len(names)} "
            f"entr{'ies' if len(names) > 1 else 'y'}; not read: "
            f"{', '.join(odd[:5])}{' ...' if len(odd) > 5 else ''}). It reads: one folder or archive (.zip, .tar.gz) "
            f"per student with the lab's files ({files}); a Canvas bulk download (files named "
            "LOGIN_USERID_SUBMISSIONID_FILE); a Moodle one (folders NAME_ID_assignsubmission_file_)")


def canvas_name(name, wanted):
    """(a Canvas file's own name, its upload number): '-N' (the Nth
    re-upload) dropped when that gives one of the lab's files."""
    m = RESUBMIT.match(name)
    if m and name not in wanted and m["stem"] + m["ext"] in wanted:
        return m["stem"] + m["ext"], int(name[len(m["stem"]) + 1:-len(m["ext"])])
    return name, 0


def read_roster(path):
    """[{id, login, name, email, section, submitted}] from a roster CSV."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.DictReader(f))
    except (OSError, csv.Error, UnicodeDecodeError) as e:
        raise SystemExit(f"grade: the roster {path} cannot be read: {e}")
    if not rows:
        raise SystemExit(f"grade: the roster {path} has no rows (a CSV with a header line is expected)")
    out = []
    for row in rows:
        keys = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
        if keys.get("student", "").lower().startswith("points possible"):
            continue  # Canvas's second line
        entry = {c: next((keys[a] for a in aliases if keys.get(a)), "") for c, aliases in ROSTER_COLUMNS.items()}
        if entry["id"] or entry["login"] or entry["name"]:
            out.append(entry)
    if not out:
        raise SystemExit(f"grade: the roster {path} names no student: its header needs one of id, login, name "
                         f"(Canvas: ID, SIS Login ID, Student; Moodle: ID number, Username, Full name)")
    return out


def match(roster, uid, login, name):
    """The roster's row of an LMS entry: by id, then login, then name
    (Canvas logins are the name squashed: 'Bob Jensen' is jensenbob)."""
    for row in roster:
        if uid and row["id"] == uid:
            return row
    for row in roster:
        if login and term.squashed(row["login"]) == term.squashed(login):
            return row
    for row in roster:
        n = term.squashed(row["name"])
        if n and (n == term.squashed(name or "") or (login and sorted(n) == sorted(term.squashed(login)))):
            return row
    return None


def stage_class(folder, dest, wanted, roster, grades, tool):
    """stage() for instructor/grade and make similarity alike: the roster
    given, else the one the grading in the folder grades was given
    (term.roster_file), so that both name the students as the first
    grading did. Returns (class folder, kind, meta, what to say of it: None
    for the grader's own layout)."""
    try:
        kind = layout(folder)
    except ValueError as e:
        raise SystemExit(f"{tool}: {e}")
    if kind == "folders":
        odd = unread(folder)
        if odd and len(odd) < len(os.listdir(folder)):
            print(f"{tool}: not read, neither a folder nor an archive of a student's: {', '.join(odd)}",
                  file=sys.stderr)
        return folder, "folders", {}, None
    path = term.roster_file(roster, grades, tool)
    folder, kind, meta = stage(folder, dest, wanted, read_roster(path) if path else None)
    strays = sorted(sid for sid, info in meta.items() if path and not info.get("in_roster"))
    if strays:
        # Graded under its LMS name, such a student would also stand in the
        # gradebook as the roster's row with nothing handed in, at 0.
        raise SystemExit(f"{tool}: the roster {path} does not name {len(strays)} student"
                         f"{'s' if len(strays) > 1 else ''} of the {kind.capitalize()} download: "
                         + ", ".join(f"{sid} (user id {meta[sid]['lms_id']}"
                                     + (f", {meta[sid]['name']}" if meta[sid].get("name") else "") + ")"
                                     for sid in strays)
                         + ". Download the roster again (or add their rows), or take their files out of the "
                         "download, and run again.")
    kept = "" if roster else ", the last run's"
    return folder, kind, meta, (f"a {kind.capitalize()} download: {len(meta)} students"
                                + (f" (roster {path}{kept})" if path else ""))


def stage(folder, dest, wanted, roster=None):
    """The class folder to grade, and {student id: what the LMS and the
    roster say of them}. A Canvas or Moodle download is copied into dest,
    one folder per student (named by the roster's login, or the LMS's);
    the grader's own layout is graded where it is."""
    kind = layout(folder)
    if kind == "folders":
        return folder, kind, {}
    entries = {}  # sid -> (info, [(path, name)])
    matched = set()  # the roster's rows that handed something in
    for n in sorted(os.listdir(folder)):
        if n.startswith("."):
            continue
        p = os.path.join(folder, n)
        if kind == "canvas":
            m = CANVAS.match(nfc(n))
            uid, login, name, files = m["uid"], m["login"], "", [(p, *canvas_name(m["file"], wanted))]
            late, attachment = bool(m["late"]), m["subid"]
        else:
            m = MOODLE.match(nfc(n))
            uid, login, name, late, attachment = m["uid"], "", m["name"], False, ""
            files = [(os.path.join(p, f), f, 0) for f in sorted(os.listdir(p))]
        row = match(roster, uid, login, name) if roster else None
        if row is not None:
            matched.add(id(row))
        sid = student_id((row and (row["login"] or row["name"])) or login or name)
        info = entries.setdefault(sid, ({"lms": kind, "lms_id": uid, "lms_attachment": attachment,
                                         "lms_login": (row or {}).get("login") or login,
                                         "name": (row or {}).get("name") or name,
                                         "email": (row or {}).get("email", ""), "section": (row or {}).get("section", ""),
                                         "sis_id": (row or {}).get("sis_id", ""),
                                         "idnumber": (row or {}).get("idnumber", ""),
                                         "submitted": (row or {}).get("submitted", ""), "late": late,
                                         "in_roster": row is not None}, []))[0]
        info["late"] = info["late"] or late
        entries[sid][1].extend(files)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    meta = {}
    for sid, (info, files) in entries.items():
        os.makedirs(os.path.join(dest, sid))
        for path, name, _ in sorted(files, key=lambda f: f[2]):  # the last upload wins
            if os.path.islink(path) or not os.path.isfile(path):
                continue  # a link is no student's file; the entry then lacks it, and says so
            shutil.copyfile(path, os.path.join(dest, sid, os.path.basename(name)))
        meta[sid] = info
    for row in roster or []:
        if id(row) not in matched:
            sid = student_id(row["login"] or row["name"] or row["id"] or row["idnumber"])
            meta.setdefault(sid, {"lms": kind, "lms_id": row["id"], "lms_login": row["login"], "name": row["name"],
                                  "email": row["email"], "section": row["section"], "sis_id": row["sis_id"],
                                  "idnumber": row["idnumber"], "submitted": "", "late": False, "in_roster": True,
                                  "no_submission": True})
    return dest, kind, meta
