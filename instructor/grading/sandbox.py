"""Running one command of a submission confined: in the bubblewrap
sandbox (instructor/sandbox/confine: the kit copy at /kit, the submission's
folders at /sub), or, with --sandbox off, under limits only."""
import fcntl
import os
import re
import shutil
import subprocess
import threading

from .util import KIT, run_capture


def cuda_bin():
    """The CUDA toolkit's bin where the kit's build finds it
    (common/mk/config.mk, and the sandbox's run): nvcc on PATH, else
    CUDA_HOME, else /usr/local/cuda."""
    nvcc = shutil.which("nvcc")
    if nvcc:
        return os.path.dirname(nvcc)
    return os.path.join(os.environ.get("CUDA_HOME") or "/usr/local/cuda", "bin")


def system_path():
    """The sandbox's PATH (as instructor/sandbox/confine's): CUDA's bin, then
    the system's."""
    return f"{cuda_bin()}:/usr/bin:/bin"


SANDBOX = os.path.join(KIT, "instructor", "sandbox", "confine")
REFUSALS_SRC = os.path.join(KIT, "instructor", "sandbox", "refusals.c")
_compiling = threading.Lock()


def refusals_lib(folder):
    """refusals.c compiled into folder (once; the sandbox's user reads it
    there), or None where it does not compile: then only the processes
    left behind are logged."""
    lib = os.path.join(folder, "sandbox-refusals.so")
    with _compiling:
        if not os.path.exists(lib):
            tmp = lib + f".{os.getpid()}"
            done = subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-Wall", "-o", tmp, REFUSALS_SRC, "-ldl"],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                return None
            os.chmod(tmp, 0o644)
            os.replace(tmp, lib)
    return lib
FIRST_UID = 60000           # sandbox uids: a block per grading run, one uid per parallel job in it
UID_BLOCK = 128             # uids of one run's block (so at most 128 jobs)
UID_BLOCKS = 32             # grading runs at once on one machine
KILL_GRACE = 1              # seconds a Slurm task's failed command waits to be sure the task goes on


def claim_uids():
    """The first uid of a block that no other grading run on this machine
    holds (a lock on /tmp/kit-grade-uids.K.lock, kept while this run lives):
    two runs at once must not share uids, or their process limits and their
    leftover processes mix. Run as an ordinary user, the sandbox runs under
    that user anyway: FIRST_UID, no lock."""
    if os.geteuid() != 0:
        return FIRST_UID, None
    for k in range(UID_BLOCKS):
        fd = os.open(f"/tmp/kit-grade-uids.{k}.lock", os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        base = FIRST_UID + k * UID_BLOCK
        if not uids_in_use(base, base + UID_BLOCK):
            return base, fd
        os.close(fd)  # someone without the lock (an older grader?) runs there
    raise SystemExit(f"grade: {UID_BLOCKS} grading runs already hold every block of sandbox uids here")


def uids_in_use(lo, hi):
    """Does a process of this machine run under a uid in [lo, hi)?"""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("Uid:"):
                        if any(lo <= int(u) < hi for u in line.split()[1:]):
                            return True
                        break
        except OSError:
            pass
    return False


class Stopped(BaseException):
    """The grading run is being stopped: no record for this submission.
    (Not an Exception: the grader's 'a bug must not stop the batch' handler
    must not turn it into a record either.)"""


# The program compute-sanitizer runs (lock_down leaves it readable).
SANITIZER_PROGRAM = re.compile(r"test_lab\d+_sanitizer")
# A shared library, which the loader must read (lock_down leaves it readable).
SHARED_LIBRARY = re.compile(r"\.so(\.\d+)*$")
# A process's address space in the sandbox (instructor/sandbox/confine's --mem),
# unless the lab's lab.mk states its own (SANDBOX_MEM_MB).
MEM_MB = 4096
# Threads a process of a test starts beside its OpenMP threads: Open MPI's
# progress and event threads, CUDA's, hwloc's, the runner's watchdogs.
RUNTIME_THREADS = 32


class Limits:
    """The sandbox's limits for one lab, from what its lab.mk states of its
    largest test: SANDBOX_RANKS processes at once (MPI ranks), each with
    SANDBOX_THREADS OpenMP threads. RLIMIT_NPROC counts every thread of
    the sandbox's uid: too low, and libgomp's 'Thread creation failed' or
    Check's failed fork fails the reference as well as every student."""

    def __init__(self, ranks=1, threads=32, mem_mb=MEM_MB):
        self.ranks, self.threads, self.mem_mb = ranks, threads, mem_mb
        # Twice over: a rerun's ranks may start while the last run's end;
        # and room for make, the shell, mpirun and its daemon.
        self.nproc = 2 * ranks * (threads + RUNTIME_THREADS) + 64

    def omp_threads(self):
        """OpenMP's default team inside the sandbox: the host's cores, but
        no more than the lab's tests were sized for (a 128-core host would
        otherwise start 128 threads a rank past the process limit). Teams
        a test asks for by number are not capped."""
        return min(os.cpu_count() or 1, self.threads)
# What AddressSanitizer reserves at start-up on x86_64 whatever the program
# does (its shadow memory and its allocator's region, never touched as a
# whole): 20 TiB and 256 MiB measured with GCC 12's libasan; 1 GiB of room.
# With this on top, a sanitized test still gets MEM_MB for its own data.
SANITIZER_RESERVE_MB = (20 << 20) + 1024


class Sandbox:
    def __init__(self, view, mode, first_uid=FIRST_UID, stopping=None, limits=None):
        self.view, self.mode, self.first_uid = view, mode, first_uid
        self.limits = limits or Limits()
        self.stopping = stopping  # a Slurm task's: set when Slurm stops it (see confirmed)
        self.preload = refusals_lib(os.path.dirname(os.path.abspath(view))) if mode != "off" else None

    def uid(self, slot):
        return self.first_uid + slot

    def run(self, slot, binds, cmd, wall, env=None, gpu=False, sanitized=False, refusals=None, watch=True):
        """binds: (outside path, path inside, writable); returns (status, output).
        sanitized: the programs are built with AddressSanitizer, whose fixed
        reservations (SANITIZER_RESERVE_MB) come on top of the address-space
        limit. refusals: a folder for the sandbox's log of refusals (review.refusals
        reads it; not with --sandbox off): the processes left, and with
        watch the calls refusals.c sees."""
        return self.confirmed(*self.run_once(slot, binds, cmd, wall, env, gpu, sanitized, refusals, watch))

    def confirmed(self, rc, log):
        """A command of a Slurm task that failed may have failed only because
        Slurm is stopping the task (scancel, its time limit): Slurm signals
        every process of the task at once, the commands and the grader. Its
        failure is believed, and written into a student's record, only once
        the grader has outlived it by KILL_GRACE; in a task being stopped,
        slurm.task's handler has set stopping by then: no record."""
        if rc != 0 and self.stopping is not None and self.stopping.wait(KILL_GRACE):
            raise Stopped()
        return rc, log

    def run_once(self, slot, binds, cmd, wall, env=None, gpu=False, sanitized=False, refusals=None, watch=True):
        lim = self.limits
        mem = lim.mem_mb + (SANITIZER_RESERVE_MB if sanitized else 0)
        staged_env, staged_dirs = staged_libraries()
        env = {"PATH": system_path(), **staged_env, "OMP_NUM_THREADS": str(lim.omp_threads()),
               **(env or {})}
        if self.mode == "off":
            # No namespaces (a container that refuses them, such as
            # Gradescope's): limits, a clean environment and, as root,
            # another uid are all that is left.
            # (With a GPU, files up to 64 GB, as instructor/sandbox/confine's --gpu
            # allows: the CUDA driver backs pinned host memory with a file.)
            full = ["timeout", "-k", "5", str(wall), "prlimit", f"--fsize={(64 << 30) if gpu else (64 << 20)}",
                    "--core=0", "--cpu=300",
                    f"--as={mem << 20}" if not gpu else "--as=unlimited", "--nofile=256"]
            if os.geteuid() == 0:
                uid = str(self.uid(slot))
                full += [f"--nproc={lim.nproc}", "setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
            e = {"HOME": "/tmp", "LANG": "C.UTF-8", **env}
            return run_capture(full + cmd, cwd=self.view, env=e)
        full = [SANDBOX, "--kit", self.view, "--wall", str(wall), "--uid", str(self.uid(slot)),
                "--nproc", str(lim.nproc), "--mem", str(mem)]
        binds = binds + [(d, d, False) for d in staged_dirs]
        for src, dst, writable in binds:
            full += ["--bind" if writable else "--ro-bind", src, dst]
        for k, v in env.items():
            full += ["--setenv", k, v]
        if gpu:
            full.append("--gpu")
        if refusals:
            full += ["--refusals", refusals]
            if watch and self.preload:
                # Only refusals.c: a sanitizer's runtime stays out of the
                # programs built without it (preloaded into one, it ran
                # LeakSanitizer, which cannot work where ptrace is refused).
                # The sanitized ones accept a library before their runtime
                # (autograder/runner/sanitizer_report.c).
                full += ["--preload", self.preload]
        return run_capture(full + ["--", *cmd])

    def paths(self, work):
        """(kit, submission) folders as the sandboxed commands see them."""
        if self.mode == "off":
            return self.view, work
        return "/kit", "/sub"

    def inside(self, path, mount):
        """A file of a folder bound at mount, as the commands see it."""
        return path if self.mode == "off" else f"{mount}/{os.path.basename(path)}"

    def give_to(self, slot, *folders):
        """Folders the sandbox's user of this slot writes in (run as root)."""
        if os.geteuid() == 0:
            for d in folders:
                os.chown(d, self.uid(slot), self.uid(slot))


def staged_libraries():
    """Libraries staged outside /usr (a GPU host without a package registry
    gets Check this way) are found through these variables; the sandbox gets
    them and, read-only, the folders they name. The staged programs too
    (KIT_STAGED_ROOT, from autograder/gpu-host/deps.sh: clang-16 for lab 4's
    offload stage), first on PATH, as outside: a build in the sandbox that
    found no offloading compiler would build the reference's offload stage
    for the host."""
    env, dirs = {}, set()
    root = os.environ.get("KIT_STAGED_ROOT", "")
    if root and os.path.isdir(os.path.join(root, "usr", "bin")):
        dirs.add(os.path.realpath(root))
        env["PATH"] = f"{os.path.realpath(root)}/usr/bin:{system_path()}"
    for var in ("CPATH", "LIBRARY_PATH", "PKG_CONFIG_PATH", "LD_LIBRARY_PATH"):
        if os.environ.get(var):
            env[var] = os.environ[var]
            dirs |= {os.path.realpath(d) for d in os.environ[var].split(":")
                     if d and os.path.isdir(d) and not os.path.realpath(d).startswith("/usr/")}
    return env, sorted(dirs)


def lock_down(folder):
    """After the build: the build folder belongs to root and its programs are
    execute-only for the sandbox's user. A program its user may not read
    runs non-dumpable, so the student code in a test cannot ptrace the test
    runner or write its memory through /proc. Three kinds stay readable,
    since they cannot run otherwise: test_labN_sanitizer, the tests without
    the hidden ones, which compute-sanitizer must read to run
    (autograder/cuda/compute_sanitizer.h; it holds no runner of this
    grading, only the case the tool checks); scripts (#!), which their
    interpreter reads (a wrapper of the kit's, holding no secret); and
    shared libraries (lab 4's offload stage, which the tests dlopen: the
    student's own code, and a process stays non-dumpable whatever it loads)."""
    if os.geteuid() != 0:
        return
    for root, dirs, files in os.walk(folder):
        for n in dirs + files:
            p = os.path.join(root, n)
            if os.path.islink(p):
                os.unlink(p)
                continue
            os.chown(p, 0, 0)
            mode = os.stat(p).st_mode
            if os.path.isfile(p) and mode & 0o111:
                os.chmod(p, 0o755 if SANITIZER_PROGRAM.fullmatch(n) or is_script(p) or SHARED_LIBRARY.search(n)
                         else 0o711)
            else:
                os.chmod(p, (mode & 0o755) | (0o755 if os.path.isdir(p) else 0o644))
    os.chown(folder, 0, 0)
    os.chmod(folder, 0o755)



def is_script(path):
    """Does the file start with #! (run by an interpreter that reads it)?"""
    with open(path, "rb") as f:
        return f.read(2) == b"#!"
