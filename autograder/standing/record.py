"""The record of one run, made on the compute node after its tests
(autograder/sched/record_run): points from the run's results, the timed
entries of the lab's tests/perf.conf (the grader's harnesses, timed alone:
a node has no reference to time beside them), the node's GPU and CPU, the
hash of the files built. Timing is skipped where a test failed or was
skipped (the run cannot enter the board), and stops at TIME_LIMIT seconds
in all, so a record never holds a GPU long."""
import datetime
import json
import os
import subprocess
import tempfile
import time

from labvars import lab_vars
from perf import timed
from . import course, records

TIME_LIMIT = 60


def gpu_name():
    """The name of the first GPU this job may use, or ''."""
    first = os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",")[0]
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader", *(["-i", first] if first else [])],
                             capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else ""


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def time_entry(e, lab, build, kit_build, deadline, work):
    """{harness, args, threads, seconds, bound_*} of one timed entry, or
    (None, why)."""
    exe = os.path.join(work, f"perf_{e.name}")
    link = timed.link_cmd(e.harness, e.device, course.KIT, lab, build, kit_build, exe)
    r = subprocess.run(link, cwd=course.KIT, capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"its harness did not link: {r.stderr.strip()[-300:]}"
    left = deadline - time.time()
    if left < 1:
        return None, f"the record's {TIME_LIMIT} s were spent"
    try:
        r = subprocess.run([exe, "--bound", *e.harness_args], capture_output=True, text=True, timeout=left,
                           env={**os.environ, **e.env()})
    except subprocess.TimeoutExpired:
        return None, f"it took longer than the record's {TIME_LIMIT} s"
    if r.returncode != 0:
        why = {3: "its result was wrong", 5: "no GPU here"}.get(r.returncode, f"status {r.returncode}")
        return None, f"the timed run did not complete: {why}"
    fig = {"harness": e.harness, "args": " ".join(e.harness_args), "threads": e.env()["OMP_NUM_THREADS"]
           if not e.device else "gpu"}
    try:
        fig["seconds"] = float(r.stdout.split()[-1])
        for line in r.stdout.splitlines():
            if line.startswith("bound "):
                _, fig["bound_name"], s = line.split()
                fig["bound_seconds"] = float(s)
    except (ValueError, IndexError):
        return None, "its harness printed no time"
    return fig, None


def make_record(lab, build, kit_build, results):
    with open(results) as f:
        res = json.load(f)
    tests = res.get("tests", [])
    v = lab_vars(lab, ["STUDENT_FILES"], course.KIT)
    all_passed = bool(tests) and all(t.get("status") == "passed" for t in tests)
    # KIT_TIMED_CONF: whole lines LAB NAME THREADS REQUIRES HARNESS ARGS, to
    # time at another size (the standing self-test's small one)
    entries = timed.entries(lab, os.environ.get("KIT_TIMED_CONF") or None)
    gpu, cpu = gpu_name(), cpu_name()
    figures, untimed = {}, []
    if all_passed:
        deadline = time.time() + TIME_LIMIT
        with tempfile.TemporaryDirectory(prefix="kit-record-") as work:
            for e in entries:
                fig, why = time_entry(e, lab, build, kit_build, deadline, work)
                if fig:
                    figures[e.name] = fig
                else:
                    untimed.append(f"{e.name}: {why}")
    else:
        untimed = [f"{e.name}: not timed, a test failed or was skipped" for e in entries]
    device = any(e.device for e in entries)
    cores = any(e.threads == "all" for e in entries)
    timed_on = gpu if device else cpu + (f", {len(os.sched_getaffinity(0))} cores" if cores else "")
    return {"v": records.VERSION, "student": course.student_id(), "nickname": course.nickname(), "lab": int(lab),
            "time": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "points": float(res.get("score", 0)), "max_points": float(res.get("max_score", 0)),
            "all_passed": all_passed, "figures": figures, "untimed": untimed, "timed_on": timed_on,
            "gpu": gpu, "cpu": cpu, "code": records.code_hash(records.build_files(build, v["STUDENT_FILES"].split()))}


def main(argv):
    """record LAB BUILD KIT_BUILD RESULTS: the run's record, as JSON on
    stdout (made where the run ran: in the course's image, if it has one)."""
    lab, build, kit_build, results = argv
    try:
        record = make_record(lab, os.path.abspath(build), os.path.abspath(kit_build), results)
    except ValueError as e:  # a malformed perf.conf: its file and line
        raise SystemExit(f"record: {e}")
    print(json.dumps(record))


def file(argv):
    """file RECORD.json: the record, into the course's spool (outside any
    image: the spool is the cluster's folder), and one line to the student."""
    with open(argv[0]) as f:
        r = json.load(f)
    records.write(course.spool(), r)
    figs = ", ".join(f"{n} {f['seconds']:.4g} s" for n, f in r["figures"].items())
    print(f"recorded for the class standing: {r['points']:g}/{r['max_points']:g} points"
          + (f", {figs} on {r['timed_on']}" if figs else "")
          + ("" if records.entered(r) else " (not on the board: " + ("; ".join(r["untimed"]) or "a test did not pass") + ")")
          + f"; make standing LAB={r['lab']}, make history LAB={r['lab']}")
