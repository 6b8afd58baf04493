"""Small pieces every module of the grader shares: where the kit is, the
statuses a submission can end with, atomic writes, capped command output."""
import glob
import hashlib
import os
import signal
import socket
import subprocess
import sys
import threading

from labvars import lab_vars

KIT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOG_CAP = 256 << 10         # what is kept of a command's output
MAX_FILE = 1 << 20          # a student file larger than 1 MiB is not source code

STATUS_GRADED = "graded"
STATUS_BUILD = "build failed"
STATUS_MISSING = "missing files"
STATUS_TIMEOUT = "timed out"
STATUS_CRASHED = "crashed"
STATUS_REJECTED = "rejected"
STATUS_ERROR = "grader error"
STATUS_NONE = "no submission"   # a roster's student with nothing handed in: no record, a row of its own


class Problem(Exception):
    """A submission that cannot be graded further, with its status."""

    def __init__(self, status, message, log=""):
        super().__init__(message)
        self.status, self.message, self.log = status, message, log


def write_atomic(path, data):
    """Writes the whole file under a temporary name, then renames it: a
    reader (or an interrupted run) never sees half a file. The name is the
    writer's own (host, process, thread): Slurm tasks on several nodes may
    write the same result at once on a shared filesystem."""
    tmp = f"{path}.tmp.{socket.gethostname()}.{os.getpid()}.{threading.get_ident()}"
    with open(tmp, "w" if isinstance(data, str) else "wb") as f:
        f.write(data)
    os.replace(tmp, path)


class Running:
    """The commands running now (sandboxes, builds), each in its own
    session: a Ctrl-C reaches the grader only, which stops them all here
    (stop_all) and then writes what it has graded. Once stopping, no new
    command starts."""
    lock = threading.Lock()
    procs = set()
    stopping = threading.Event()

    @classmethod
    def stop_all(cls):
        cls.stopping.set()
        with cls.lock:
            procs = list(cls.procs)
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


class Interrupted(BaseException):
    """The run is being stopped (Ctrl-C): the submission being graded gets
    no record, and is graded on the next run. Not an Exception, so that the
    'a grader bug must not stop the batch' handlers let it through."""


def run_capture(cmd, cwd=None, env=None, cap=LOG_CAP):
    """Runs cmd; returns (exit status, output). Keeps the first cap bytes of
    stdout and stderr together and reads (and drops) the rest, so that a
    program printing gigabytes neither fills the disk nor blocks. Raises
    Interrupted when the run is stopped before or while it runs."""
    with Running.lock:
        if Running.stopping.is_set():
            raise Interrupted()
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        Running.procs.add(p)
    kept, dropped = bytearray(), 0
    while True:
        chunk = p.stdout.read1(1 << 20)
        if not chunk:
            break
        room = max(cap - len(kept), 0)
        kept += chunk[:room]
        dropped += max(len(chunk) - room, 0)
    rc = p.wait()
    with Running.lock:
        Running.procs.discard(p)
    if Running.stopping.is_set():
        raise Interrupted()
    text = kept.decode("utf-8", "replace")
    if dropped:
        text += f"\n[... {dropped} more bytes of output dropped]\n"
    return rc, text


def fingerprint(path):
    """A digest of a submission (a file, or a folder's names and contents):
    a second run regrades only what changed."""
    h = hashlib.sha256()
    if os.path.isfile(path):
        with open(path, "rb") as f:
            h.update(f.read())
        return h.hexdigest()
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            p = os.path.join(root, name)
            h.update(os.path.relpath(p, path).encode() + b"\0")
            if os.path.isfile(p) and not os.path.islink(p):
                with open(p, "rb") as f:
                    h.update(f.read(MAX_FILE + 1))
    return h.hexdigest()


def make_vars(lab, names):
    """{name: value} of lab N's build variables (common/mk/lab.mk), in one
    make run: LAB_NAME, STUDENT_FILES..."""
    try:
        return lab_vars(lab, names, KIT)
    except RuntimeError as e:
        sys.exit(f"grade: {e}")


def make_var(lab, name):
    """One variable of lab N's build, e.g. STUDENT_FILES."""
    return make_vars(lab, [name])[name]


def lab_dir(lab):
    """Lab N's folder, labs/labN-name (all of the lab: its skeleton,
    solution/, tests/, mutants/)."""
    found = sorted(glob.glob(os.path.join(KIT, "labs", f"lab{lab}-*")))
    if not found:
        sys.exit(f"grade: there is no lab {lab} in {os.path.join(KIT, 'labs')}")
    return found[0]


def lab_tests_dir(lab):
    """Lab N's tests: labs/labN-name/tests (hidden ones included)."""
    return os.path.join(lab_dir(lab), "tests")
