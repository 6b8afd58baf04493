"""Records of runs in the course's spool: SPOOL/labN/STUDENT.jsonl, one
JSON object a line, appended by each run (a student's own file, so that
two students never write one file). A record:
  {"v": 1, "student", "nickname", "lab", "time" (UTC, ISO), "points",
   "max_points", "all_passed" (every test passed: none failed or skipped),
   "figures": {entry name: {"harness", "args", "threads", "seconds",
   "bound_name", "bound_seconds"}} (the entries of the lab's tests/perf.conf),
   "timed_on" (the GPU's name for a GPU entry, else the CPU's), "gpu",
   "cpu", "code" (code_hash of the files built)}
Read by the board (board.py) and by class grading."""
import hashlib
import json
import os
import re

VERSION = 1
ID = re.compile(r"^[A-Za-z0-9._@-]{1,64}$")


def lab_folder(spool, lab):
    return os.path.join(spool, f"lab{int(lab)}")


def write(spool, record):
    """Appends record to its student's file (one write: O_APPEND keeps a
    line whole); the file is readable by the class, as the board needs."""
    if not ID.match(record["student"]):
        raise ValueError(f"the student id '{record['student']}' is not a plain name")
    folder = lab_folder(spool, record["lab"])
    os.makedirs(folder, exist_ok=True)
    line = (json.dumps(record, sort_keys=True) + "\n").encode()
    fd = os.open(os.path.join(folder, record["student"] + ".jsonl"), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def valid(r, lab):
    """A record this version reads: the fields the board and grading use."""
    try:
        return (r.get("v") == VERSION and int(r["lab"]) == int(lab) and bool(ID.match(r["student"]))
                and isinstance(r["figures"], dict) and isinstance(r["code"], str)
                and all(isinstance(f.get("seconds"), (int, float)) and f["seconds"] > 0 for f in r["figures"].values())
                and float(r["points"]) <= float(r["max_points"]))
    except (AttributeError, KeyError, TypeError, ValueError):
        return False


def load(spool, lab):
    """Every readable record of lab N in the spool, oldest first; lines
    that are not a record are left out (a file is the student's own)."""
    folder = lab_folder(spool, lab)
    found = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not name.endswith(".jsonl"):
            continue
        try:
            with open(os.path.join(folder, name), errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        for line in lines:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            # a file holds only its owner's records
            if isinstance(r, dict) and valid(r, lab) and r["student"] + ".jsonl" == name:
                found.append(r)
    return sorted(found, key=lambda r: r.get("time", ""))


def code_hash(files):
    """The hash of the student's files ({name: bytes}): the same for the
    files a run built and for the files a submission holds."""
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode() + b"\0" + files[name] + b"\0")
    return h.hexdigest()


def folder_files(folder, names):
    """{name: bytes} of the named files in folder (a missing one: b'')."""
    out = {}
    for n in names:
        try:
            with open(os.path.join(folder, n), "rb") as f:
                out[n] = f.read()
        except OSError:
            out[n] = b""
    return out


def build_files(build, names):
    """{name: bytes} of the files a build compiled: its copies
    (BUILD/student/NAME) less the #line the build puts first."""
    out = folder_files(os.path.join(build, "student"), names)
    return {n: (b.split(b"\n", 1)[1] if b.startswith(b"#line 1 ") and b"\n" in b else b) for n, b in out.items()}


def entered(r):
    """A run enters the board: every test passed, every timed entry timed."""
    return bool(r.get("all_passed")) and not r.get("untimed")


def total_seconds(r):
    """What the board ranks by: the sum of the timed entries' medians
    (0 for a lab that times nothing: then the earliest correct run)."""
    return sum(f["seconds"] for f in r["figures"].values())


def best_runs(records):
    """{timed_on: [the best entered record of each student]}, best first
    (fastest, then earliest)."""
    best = {}
    for r in records:
        if not entered(r):
            continue
        key = (r.get("timed_on", ""), r["student"])
        old = best.get(key)
        if old is None or (total_seconds(r), r["time"]) < (total_seconds(old), old["time"]):
            best[key] = r
    boards = {}
    for (device, _), r in best.items():
        boards.setdefault(device, []).append(r)
    for rows in boards.values():
        rows.sort(key=lambda r: (total_seconds(r), r["time"]))
    return boards


def pseudonym(student, salt):
    """A stable name that is not the id: the same student, the same name,
    in every lab of the course (salt: course.conf's STANDING_SALT)."""
    return "anon-" + hashlib.sha256(f"{salt}/{student}".encode()).hexdigest()[:6]


def shown_names(records, salt):
    """{student: the name the board shows}: the nickname of their latest
    record, else their pseudonym."""
    names = {}
    for r in records:  # oldest first: the latest nickname wins
        names[r["student"]] = r.get("nickname") or pseudonym(r["student"], salt)
    return names
