"""The grader's own check, before any student: the reference's files are
graded as a student's (the same sandbox, limits and host), and must earn
every point that `make check` gives the same build outside the sandbox
(where only the tests it did not pass inside run again). A test the
reference loses only inside is lost by every student, for a
reason of the grader's (a limit, a program it cannot read), so grading
stops and names each. The verdict is kept per kit version and host
(build/grade/reference-check/), so a second run does not pay again."""
import contextlib
import fcntl
import hashlib
import json
import os
import platform
import shutil
import socket
import sys

from . import current
from .report import skipped
from .results import read_results
from .util import KIT, Problem, run_capture, write_atomic

CACHE = os.path.join(KIT, "build", "grade", "reference-check")


def host_key(lab, args, gpus):
    """What the verdict depends on: the grader and the runner, the kit's lab
    (its tests, reference and given code), the host, its GPUs, how the
    sandbox runs."""
    grader = [current.tree_digest(os.path.join(KIT, d)) for d in
              ("instructor/grading", "instructor/sandbox", "autograder/runner", "autograder/mpi_checker",
               "autograder/cuda")]
    # (--cpu-only changes nothing of a lab without GPU tests: one verdict)
    cpu_only = getattr(args, "cpu_only", False) and any(t["gpu"] for t in lab.tests)
    # (not which performance entries a grading times: the verdict is the tests')
    what = grader + [lab.digest(perf=False), socket.gethostname(), platform.processor(), str(os.cpu_count()),
                     str(gpus), os.environ.get("CUDA_VISIBLE_DEVICES", ""), args.sandbox, str(lab.limits.nproc),
                     str(bool(cpu_only))]
    return hashlib.sha256("\n".join(what).encode()).hexdigest()[:16]


def earned(tests):
    return sum(t["score"] for t in tests)


def outside(lab, env, folder, names):
    """The reference build's tests NAMES as make check runs them, outside
    the sandbox (the build is the grader's own, trusted), as grading runs
    them (no shared time for slow failures: AG_HANG_BUDGET)."""
    results = os.path.join(folder, "outside.json")
    rc, log = run_capture(["make", "--no-print-directory", "-f", "common/mk/lab.mk", f"LAB={lab.num}",
                           f"BUILD={lab.ref_build}", f"KIT_BUILD={lab.kit_build}", "check", f"RESULTS={results}",
                           "CHECK_ARGS=--only " + ",".join(names)],
                          cwd=lab.view, env={**os.environ, **env, "AG_HANG_BUDGET": "0"})
    write_atomic(os.path.join(folder, "outside.log"), log)
    try:
        return read_results(results, [t for t in lab.tests if t["name"] in names], rc)
    except Problem as p:
        raise SystemExit(f"grade: the reference's tests outside the sandbox ended so: {p.message}\n{log[-3000:]}")


def compare(inside, out):
    """The tests the reference passes outside and not inside, with the
    reason its run inside gave."""
    passed_out = {t["name"] for t in out if t["status"] == "passed"}
    return [{"name": t["name"], "points": t["max_score"], "reason": (t["output"] or t["status"]).splitlines()[0][:300]}
            for t in inside if t["name"] in passed_out and t["status"] != "passed"]


def failed(tests):
    """The tests that failed outside the sandbox too: not the grader's doing,
    but the reference's or the host's (kept in lab.json, for the self-test)."""
    return [{"name": t["name"], "points": t["max_score"] - t["score"], "reason": (t["output"] or t["status"])[:300]}
            for t in tests if t["score"] < t["max_score"] and not skipped(t)]


def check(grader, lab, args, gpus):
    """The reference's score in the sandbox against outside it (a dict, as
    lab.json keeps it); exits naming each test lost, unless --force."""
    key = host_key(lab, args, gpus)
    cached = os.path.join(CACHE, f"lab{lab.num}-{key}.json")
    with one_at_a_time(cached + ".lock", lab):
        try:
            with open(cached) as f:
                verdict = json.load(f)
            verdict["cached"] = True
        except (OSError, ValueError):
            verdict = run(grader, lab, key)
            if not verdict["lost"]:
                write_atomic(cached, json.dumps(verdict, indent=1))
    awardable = verdict["awardable"]
    print(f"grade: the reference's files, graded as a student's here, earn {verdict['inside']:g} of the "
          f"{awardable:g} points this host can award ({outside_words(verdict)})"
          f"{' (checked before with this kit on this host)' if verdict.get('cached') else ''}", flush=True,
          file=sys.stderr)
    for t in verdict.get("failed_outside", []):
        print(f"grade: warning: the reference fails {t['name']} outside the sandbox too (this host's or the kit's "
              f"doing, not the sandbox's): {t['reason'].splitlines()[0] if t['reason'] else ''}", file=sys.stderr)
    if verdict["lost"]:
        lines = [f"  {t['name']} ({t['points']:g} points): {t['reason']}" for t in verdict["lost"]]
        text = (f"grade: the reference loses {len(lines)} test(s) in the sandbox that it passes outside it; "
                "every student would lose them too, for a reason of the grader's:\n" + "\n".join(lines))
        if not getattr(args, "force", False):
            raise SystemExit(text + "\ngrade: nothing graded. Fix the grader's limits, or FORCE=1 to grade "
                             "anyway (every row and the class page then say so)")
        print(text + "\ngrade: grading anyway (FORCE=1)", file=sys.stderr)
        verdict["forced"] = True
    return verdict


@contextlib.contextmanager
def one_at_a_time(path, lab):
    """The check of one key runs once: a grading that starts while another
    checks the same lab on this host (another class, another instructor)
    waits for that verdict instead of paying again. Where the lock cannot
    be made, each checks alone."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        f = open(path, "a")
    except OSError:
        yield
        return
    with f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"grade: another grading of lab {lab.num} on this host is checking the reference; "
                  "waiting for its verdict", file=sys.stderr, flush=True)
            fcntl.flock(f, fcntl.LOCK_EX)
        yield


def run(grader, lab, key):
    folder = os.path.join(lab.work, "reference-check")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, "logs"))
    os.chmod(folder, 0o755)
    src = os.path.join(KIT, "labs", lab.name, "solution")
    work = os.path.join(folder, "work")
    os.makedirs(work)
    slot = grader.slots.get()
    try:
        inside = grader.grade_in(src, work, os.path.join(folder, "logs"), slot, timed=False)["tests"]
    except Problem as p:
        raise SystemExit(f"grade: the reference's own files, graded as a student's in the sandbox, were not "
                         f"graded: {p.message}\n{(p.log or '')[-3000:]}\n(logs: {folder}/logs)")
    finally:
        grader.slots.put(slot)
    # Outside, only the tests that did not pass inside: a test passed in
    # the sandbox cannot be one the sandbox took from every student.
    again = [t["name"] for t in inside if t["status"] != "passed"]
    rerun = outside(lab, grader.check_env(current.tree_digest(src)), folder, again) if again else []
    out = [t for t in inside if t["name"] not in again] + rerun
    return {"key": key, "inside": earned(inside), "outside": earned(out),
            "awardable": sum(t["max_score"] for t in out if not skipped(t)),
            "lost": compare(inside, out), "failed_outside": failed(out), "run_outside": len(again)}


def outside_words(verdict):
    """What the run outside the sandbox found, in words: its points, or that
    none ran there (every test passed inside)."""
    if verdict.get("run_outside", 1):
        return f"{verdict['outside']:g} outside the sandbox"
    return "every test passed: none to run again outside the sandbox"


def line(verdict):
    """The reference's score on this host, for the summary and the class page."""
    text = (f"the reference's own files earn {verdict['inside']:g} of the {verdict['awardable']:g} points this "
            f"host can award in the sandbox ({outside_words(verdict)})")
    if verdict.get("forced"):
        text += "; graded anyway (FORCE=1): every student lost what the reference lost"
    return text
