"""The lab being graded: what every submission shares, prepared once per
run: the kit copy the sandbox sees (the student copy's files,
instructor/student-copy, with the hidden tests' names, their text blanked), the reference build (outside the sandbox, trusted), the
expected test list and the symbols a student object may not define."""
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile

from . import student_copy
from callrules.elf import ObjectFile
from .perf import perf_config
from .repeat import read_conf as read_repeat
from .sandbox import Limits
from .util import KIT, lab_tests_dir, make_vars, run_capture


def parse_test_list(text):
    """The test binary's --list: 'NAME POINTS points VISIBILITY [(needs a GPU)]'."""
    tests = []
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 4 and f[2] == "points":
            tests.append({"name": f[0], "points": float(f[1]), "hidden": f[3] == "hidden", "gpu": "GPU" in line})
    return tests


class Lab:
    def __init__(self, num, out, args, work=None):
        self.num, self.args = num, args
        v = make_vars(num, ["LAB_NAME", "STUDENT_FILES", "OPTIONAL_FILES", "SANITIZE", "SANDBOX_RANKS",
                            "SANDBOX_THREADS", "SANDBOX_MEM_MB", "CUDA_ARCH"])
        self.name = v["LAB_NAME"]
        self.student_files = v["STUDENT_FILES"].split()
        self.optional_files = v["OPTIONAL_FILES"].split()
        # its test program is built with the sanitizers (common/mk/lab.mk)
        self.sanitized = bool(v["SANITIZE"].strip())
        self.limits = Limits(*(int(v[n]) for n in ("SANDBOX_RANKS", "SANDBOX_THREADS", "SANDBOX_MEM_MB")))
        self.kit_build = f"build/kit/lab{num}"
        # The GPU architectures, decided here, outside the sandbox, where
        # nvidia-smi sees this host's GPUs: every build of the grading (the
        # reference's, and each student's in a sandbox that may not see
        # them) targets the same ones (common/mk/cuda_arch.mk).
        self.cuda_arch = v["CUDA_ARCH"]
        self.work = work or scratch_folder(out, num)
        self.place(self.work)
        self.perf = perf_config(num) if not args.no_perf else []
        self.repeat = read_repeat(num)  # tests a race may pass by luck: run again (grading/repeat.py)
        calls = os.path.join(lab_tests_dir(num), "calls.conf")
        self.calls_conf = calls if os.path.exists(calls) else None

    def place(self, folder):
        """The kit copy and the reference build live in folder: the run's
        own work folder, or a copy kept between runs (grading/prepared.py)."""
        self.home = folder
        self.view = os.path.join(folder, "kit")
        self.ref_build = os.path.join(folder, "reference")

    def prepare(self):
        shutil.rmtree(self.home, ignore_errors=True)
        os.makedirs(self.home)
        os.chmod(self.home, 0o755)
        self.copy_kit()
        # The kit's objects (hidden tests included) and the reference, built
        # from the kit copy before its hidden tests are blanked: what make
        # check reads (make tests, as each submission is built), not the
        # lab's other drivers.
        rc, log = run_capture(["make", "--no-print-directory", "-f", "common/mk/lab.mk", f"LAB={self.num}",
                               f"SUBMISSION={KIT}/labs/{self.name}/solution", f"BUILD={self.ref_build}",
                               f"KIT_BUILD={self.kit_build}", f"CUDA_ARCH={self.cuda_arch}", "tests"], cwd=self.view)
        if rc != 0:
            sys.exit(f"grade: the reference of lab {self.num} does not build:\n{log[-3000:]}")
        self.tests = self.list_tests()
        self.forbidden = self.forbidden_symbols()
        for p in self.perf:
            p.build_reference(self)
        self.blank_hidden_tests()
        subprocess.run(["chmod", "-R", "a+rX,go-w", self.view], check=True)

    def digest(self, perf=True):
        """What a prepared folder was made from: the lab's tests, reference,
        given code and the kit's common code, the performance entries (the
        lab's tests/perf.conf is in its folder). perf=False: without the
        entries this grading times (the reference's tests alone)."""
        from .current import tree_digest
        parts = [tree_digest(os.path.join(KIT, d)) for d in
                 (f"labs/{self.name}", "common", "autograder/perf")]
        entries = [",".join(p.name for p in self.perf)] if perf else []
        return " ".join(parts + entries + [self.cuda_arch])

    def reuse_or_prepare(self, stamp=None):
        """A folder made by instructor/grade --prepare (Gradescope's setup.sh)
        is used as it is when it was made from this kit (stamp: what it was
        made from, the digest by default); otherwise prepared again. Returns
        True when reused."""
        stamp = stamp or self.digest()
        if self.read_record(stamp):
            return True
        self.prepare()
        self.write_record(stamp)
        return False

    def read_record(self, stamp):
        """The test list and forbidden symbols of a folder prepared from
        stamp, if its record says so (the record is written last)."""
        try:
            with open(os.path.join(self.home, "prepared.json")) as f:
                old = json.load(f)
            if old["digest"] == stamp:
                self.tests, self.forbidden = old["tests"], set(old["forbidden"])
                return True
        except (OSError, ValueError, KeyError):
            pass
        return False

    def write_record(self, stamp):
        with open(os.path.join(self.home, "prepared.json"), "w") as f:
            json.dump({"digest": stamp, "tests": self.tests, "forbidden": sorted(self.forbidden)}, f)

    def copy_filter(self):
        """copytree's ignore function for the kit copy: the student copy's
        files (instructor/student-copy), and the hidden tests."""
        kit = student_copy.rules()
        hidden = kit.hidden_tests()

        def ignore(folder, names):
            rel = os.path.relpath(folder, KIT)
            keep = []
            for n in names:
                path = os.path.normpath(os.path.join(rel, n))
                inside = kit.enters(path) if os.path.isdir(os.path.join(folder, n)) else kit.allowed(path)
                if inside or student_copy.matches(path, hidden):
                    keep.append(n)
            return [n for n in names if n not in keep]
        return ignore

    def copied_files(self):
        """The kit's files the copy holds, as paths from the kit's top, in
        order: what copy_kit copies."""
        ignore = self.copy_filter()
        for folder, dirs, files in os.walk(KIT):
            left_out = set(ignore(folder, dirs + files))
            # a link to a folder is copied as a link (copytree's symlinks=True), not entered
            links = [d for d in dirs if os.path.islink(os.path.join(folder, d))]
            dirs[:] = sorted(d for d in dirs if d not in left_out and d not in links)
            for n in sorted(files + links):
                if n not in left_out:
                    yield os.path.relpath(os.path.join(folder, n), KIT)

    def copy_kit(self):
        """The kit copy; its hidden tests are blanked once the build has used them."""
        shutil.copytree(KIT, self.view, ignore=self.copy_filter(), symlinks=True)

    def blank_hidden_tests(self):
        """Hidden tests stay in the build as objects compiled above; their
        text is replaced, dated far back so that make never recompiles them.
        (If it tried, the kit's build folder is read-only in the sandbox and
        the build would fail loudly instead of dropping tests.)"""
        hidden = student_copy.rules().hidden_tests()
        old = datetime.datetime(2000, 1, 1).timestamp()
        for root, _, files in os.walk(self.view):
            for n in files:
                p = os.path.join(root, n)
                if student_copy.matches(os.path.relpath(p, self.view), hidden):
                    with open(p, "w") as f:
                        f.write("/* Hidden tests: not visible here. The grader links them in compiled. */\n")
                    os.utime(p, (old, old))

    def missing_gpu_code(self):
        """The reference build's one line when it holds no code for a GPU
        of this host (common/cuda/gpu_image.h), else ''."""
        check = os.path.join(self.ref_build, "gpu_image_check")
        if not os.access(check, os.X_OK):
            return ""
        run = subprocess.run([check], capture_output=True, text=True)
        return run.stdout.strip() if run.returncode == 3 else ""

    def list_tests(self):
        out = subprocess.run([os.path.join(self.ref_build, f"test_lab{self.num}"), "--list"],
                             capture_output=True, text=True, check=True).stdout
        tests = parse_test_list(out)
        if not tests:
            sys.exit("grade: the reference's test binary lists no tests")
        return tests

    def forbidden_symbols(self):
        """Global symbols a student's object may not define: every name the
        test binary defines or uses, and everything the shared libraries it
        loads define (a student 'rename' or 'json_object_new_double' would
        replace the grader's; a '__gmon_start__', weak and undefined in the
        runner, would run before main). The lab's own functions are of
        course allowed."""
        binary = os.path.join(self.ref_build, f"test_lab{self.num}")
        own = set()
        for obj in self.student_objects(self.ref_build):
            own |= ObjectFile(obj).defined()
        names = ObjectFile(binary).referenced()
        libs = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
        for line in libs.splitlines():
            f = line.split()
            path = f[2] if len(f) > 2 and f[1] == "=>" else (f[0] if f and f[0].startswith("/") else None)
            if path and os.path.exists(path):
                names |= ObjectFile(path).defined(dynamic=True)
        return names - own

    def student_objects(self, build):
        folder = os.path.join(build, "student")
        return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".o"))

    def from_cu(self, obj):
        """Was this student object compiled from one of the lab's .cu files?"""
        return os.path.splitext(os.path.basename(obj))[0] + ".cu" in self.student_files

    @property
    def max_points(self):
        return sum(t["points"] for t in self.tests) + sum(p.points for p in self.perf)


def sandbox_reaches(path):
    """Can the sandbox's user (another uid, when the grader is root) reach
    path: may it pass through every folder above it?"""
    parts = [os.path.realpath(path)]
    while parts[-1] != os.path.dirname(parts[-1]):
        parts.append(os.path.dirname(parts[-1]))
    return os.geteuid() != 0 or all(os.stat(p).st_mode & 0o001 for p in parts if os.path.exists(p))


def scratch_folder(out, num):
    """Where the kit copy, the reference build and the work folders go:
    OUT/.grader, unless the sandbox's user could not reach it (OUT below
    /root, say), then a fresh folder in the system's temporary space."""
    out = os.path.realpath(out)
    if sandbox_reaches(out):
        return os.path.join(out, ".grader")
    folder = tempfile.mkdtemp(prefix=f"kit-grade-lab{num}-")
    os.chmod(folder, 0o755)
    print(f"grade: {out} is not reachable by the sandbox's user; working in {folder}", file=sys.stderr)
    return folder
