"""The prepared kit copies that make grade keeps between its runs. A lab's
kit copy (the folder the sandbox sees) and its reference build cost a build
of the lab, and come out the same for every grading of one kit version on
one host: a regrade of one student, the next class, a grading with other
options. So each is kept, per lab and per key of everything it was made
from, in build/grade/prepared/ (or, where the sandbox's user cannot reach
the kit, and for a Slurm task, in this user's own folder in /var/tmp on
the machine). The first grading that
needs one makes it under the lab's lock; the next finds it ready. A grading
holds a shared lock on the copy it uses; beside it, a lab keeps the two
copies used last that no grading holds."""
import fcntl
import hashlib
import os
import platform
import shutil
import socket
import stat

from .lab import sandbox_reaches
from .util import KIT

# What else a build depends on: the compilers found (their files' times
# change with an upgrade) and the variables that steer the build.
TOOLS = ("gcc", "g++", "nvcc", "mpicc", "clang-16")
BUILD_VARIABLES = ("CC", "CUDA_HOME", "KIT_STAGED_ROOT", "CPATH", "LIBRARY_PATH", "PKG_CONFIG_PATH")
KEEP = 2     # copies of a lab kept beside the one in use
_held = []  # the shared locks of the copies in use, kept until the process ends


def root(node_local=False):
    """The folder of the kept copies, or None where there is none this user
    can trust (one in /var/tmp that another user made, or that others may
    write). node_local: on this machine's own disk."""
    inside = os.path.join(KIT, "build", "grade", "prepared")
    if sandbox_reaches(KIT) and not node_local:
        os.makedirs(inside, exist_ok=True)
        return inside
    top = shared_top()
    try:
        os.mkdir(top, 0o755)
    except FileExistsError:
        pass
    except OSError:
        return None
    st = os.lstat(top)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        return None
    os.chmod(top, 0o755)  # the sandbox's user reads the copies below it
    return top


def shared_top():
    """This user's folder of kept copies on the machine's own disk."""
    return f"/var/tmp/kit-grade-prepared-{os.geteuid()}"


def key(lab):
    """A digest of all a copy is made from: the kit's files it holds, the
    lab's folder, the build's settings and tools, this host, this kit's place."""
    h = hashlib.sha256()
    for path in lab.copied_files():
        full = os.path.join(KIT, path)
        h.update(path.encode() + b"\0")
        if os.path.islink(full):
            h.update(b"-> " + os.readlink(full).encode())
        else:
            with open(full, "rb") as f:
                h.update(f.read())
        h.update(b"\0")
    tools = []
    for t in TOOLS:
        found = shutil.which(t)
        if found:
            real = os.path.realpath(found)
            tools.append(f"{real}:{os.stat(real).st_mtime_ns}")
    # lab.digest(): the lab's whole folder (the reference, the perf harnesses)
    # and its perf entries' names; the harness each is built from (GRADE_PERF_CONF's may differ)
    facts = [lab.digest(), " ".join(p.harness for p in lab.perf), KIT, socket.gethostname(),
             platform.machine()] + tools + \
            [f"{v}={os.environ.get(v, '')}" for v in BUILD_VARIABLES]
    h.update("\n".join(facts).encode())
    return h.hexdigest()[:16]


def use(lab, node_local=False):
    """Points lab at its kept copy, made first where none is ready. Returns
    True when one was ready."""
    top = root(node_local)
    if top is None:
        lab.prepare()
        return False
    stamp = key(lab)
    folder = os.path.join(top, f"lab{lab.num}-{stamp}")
    lab.place(folder)
    with open(os.path.join(top, f"lab{lab.num}.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        ready = lab.reuse_or_prepare(stamp)
        hold(folder)
        prune(top, lab.num, folder)
    return ready


def hold(folder):
    f = open(os.path.join(folder, "in-use.lock"), "a")
    fcntl.flock(f, fcntl.LOCK_SH)
    _held.append(f)


def prune(top, num, keep, spare=KEEP):
    """The lab's other copies, but the spare ones used last (a grading with
    other performance entries, a kit version checked out again) and those
    a grading holds."""
    prefix = f"lab{num}-"
    os.utime(keep)
    others = [os.path.join(top, n) for n in os.listdir(top) if n.startswith(prefix)]
    others = sorted((f for f in others if f != keep and os.path.isdir(f)), key=os.path.getmtime, reverse=True)
    for folder in others[spare:]:
        try:
            with open(os.path.join(folder, "in-use.lock"), "a") as f:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue  # in use, or gone already
