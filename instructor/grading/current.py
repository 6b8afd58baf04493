"""Grades that stay current: what, beside the student's files, decides a
grade (the lab's tests and their points, its call rules, its performance
entries, the options, the host's GPUs). Each record keeps these parts;
a run regrades the records whose parts differ from its own, and says which
part changed."""
import ctypes
import hashlib
import os

from .util import KIT, lab_tests_dir


def tree_digest(folder, leave_out=()):
    """A digest of a folder's file names and contents (the kit's tests);
    Python's byte-code caches, written as the grader runs, are left out, and
    the files leave_out names (relative to the folder)."""
    h = hashlib.sha256()
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            p = os.path.join(root, name)
            if os.path.relpath(p, folder) in leave_out:
                continue
            h.update(os.path.relpath(p, folder).encode() + b"\0")
            with open(p, "rb") as f:
                h.update(f.read())
            h.update(b"\0")
    return h.hexdigest()[:16]


def text_digest(text):
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def gpu_count():
    """The GPUs this host gives the tests (as common/gpu.c counts them:
    KIT_GPU_COUNT wins; otherwise the driver's count, 0 without one)."""
    forced = os.environ.get("KIT_GPU_COUNT", "")
    if forced:
        try:
            return max(int(forced), 0)
        except ValueError:
            return 0
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        n = ctypes.c_int(0)
        if cuda.cuInit(0) != 0 or cuda.cuDeviceGetCount(ctypes.byref(n)) != 0:
            return 0
        return max(n.value, 0)
    except (OSError, AttributeError):
        return 0


def parts(lab, args, test_list, gpus):
    """{part: its value}: everything beside the student's files that decides
    a grade of this lab on this host with these options. test_list: the
    tests as graded (names, points, visibility); gpus: gpu_count()."""
    from .perf import conf_text
    return {
        # perf.conf, in the tests' folder, is a part of its own: a weight
        # changed says so, not "the tests"
        "tests": tree_digest(lab_tests_dir(lab), leave_out=("perf.conf",)),
        "points": text_digest(repr([(t["name"], t["points"], t["hidden"], t["gpu"]) for t in test_list])),
        "perf.conf": "off (--no-perf)" if args.no_perf else text_digest(conf_text(lab)),
        "time limits": f"{args.wall} s tests, {args.build_wall} s build",
        "GPUs": str(gpus),
    }


WHY = {"tests": "the lab's tests (labs/labN-name/tests)", "points": "the tests' points",
       "perf.conf": "performance points (the lab's tests/perf.conf, --no-perf)", "time limits": "the time limits (--wall, --build-wall)",
       "GPUs": "the host's GPU count"}


def changed(old, new):
    """The parts that differ between a record's and this run's, in words
    ([] when the record is current; 'how it was graded' for records older
    than these parts)."""
    if not isinstance(old, dict):
        return ["how it was graded (a record from before grades tracked the kit)"]
    return [WHY.get(k, k) for k in new if old.get(k) != new[k]]
