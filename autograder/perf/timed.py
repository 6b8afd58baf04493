"""A lab's performance entries, in its own folder: labs/labN-name/tests/
perf.conf, one line per entry,
    NAME POINTS FULL_AT ZERO_AT THREADS REQUIRES HARNESS ARGS...
what is timed (the harness HARNESS.c of the lab's tests/perf/, linked with
the student's objects, its arguments, its threads, the tests that must pass
first) and the points class grading gives for it.
A lab without the file has no performance entries. Here: what is timed
(a run on a course's cluster times it for the class standing,
autograder/standing/record.py), the size {N_BEYOND_LLC} in the arguments,
and the make command that links a harness with a build's student objects
(autograder/perf/perf.mk).

THREADS: 1, or 'all' (OMP_NUM_THREADS = every core the run may use), or
'gpu': the kernel on one GPU, on device arrays (skipped, visibly, on a host
without one). REQUIRES: comma-separated test names. In ARGS,
{N_BEYOND_LLC} is the smallest multiple of 64 whose n x n matrix of doubles
fills the host's last-level cache (beyond_llc)."""
import glob
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
KIT = os.path.dirname(os.path.dirname(HERE))
LAB_CONF = os.path.join("tests", "perf.conf")  # in a lab's folder
THREADS = ("1", "all", "gpu")
FIELDS = "NAME POINTS FULL_AT ZERO_AT THREADS REQUIRES HARNESS ARGS..."


class Timed:
    """What is timed: LAB NAME THREADS REQUIRES HARNESS ARGS... (a lab's
    perf.conf line less its points, with its lab; KIT_TIMED_CONF's lines)."""

    def __init__(self, fields, cache_bytes=None):
        if len(fields) < 5:
            raise ValueError(f"'{' '.join(fields)}': needs lab, name, threads, requires, harness")
        (self.lab, self.name, self.threads, requires, self.harness, *args) = fields
        if self.threads not in THREADS:
            raise ValueError(f"{self.name}: threads must be 1, all or gpu, not '{self.threads}'")
        self.device = self.threads == "gpu"
        self.requires = requires.split(",")
        n = beyond_llc(cache_bytes if cache_bytes is not None else last_level_cache_bytes())
        self.harness_args = [a.replace("{N_BEYOND_LLC}", str(n)) for a in args]

    def env(self):
        """OPENBLAS_NUM_THREADS=1, and OMP_NUM_THREADS: 1, or every core
        this process may use ('all')."""
        cores = len(os.sched_getaffinity(0)) if self.threads == "all" else 1
        return {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": str(cores)}


def lines(text):
    """The fields of each line of a table, comments and blank lines left out."""
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split()
        if fields:
            yield fields


def lab_conf(lab, kit=KIT):
    """Lab N's perf.conf (labs/labN-name/tests/perf.conf), or None: the lab
    has no performance entries."""
    found = sorted(glob.glob(os.path.join(kit, "labs", f"lab{lab}-*", LAB_CONF)))
    return found[0] if found else None


def lab_entries(lab, kit=KIT):
    """Lab N's perf.conf lines, each as a whole entry with its lab first:
    LAB NAME POINTS FULL_AT ZERO_AT THREADS REQUIRES HARNESS ARGS... ([]
    without the file). A malformed line is a ValueError naming the file and
    the line."""
    path = lab_conf(lab, kit)
    if path is None:
        return []
    out = []
    with open(path) as f:
        text = f.read()
    for n, line in enumerate(text.splitlines(), 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        where = f"{os.path.relpath(path, kit)}:{n}"
        if len(fields) < 7:
            raise ValueError(f"{where}: '{' '.join(fields)}': needs {FIELDS}")
        try:
            full, zero = float(fields[2]), float(fields[3])
            float(fields[1])
        except ValueError:
            raise ValueError(f"{where}: '{' '.join(fields[1:4])}': POINTS FULL_AT ZERO_AT must be numbers ({FIELDS})")
        if not 1 <= full < zero:
            raise ValueError(f"{where}: {fields[0]}: needs 1 <= FULL_AT < ZERO_AT, not {fields[2]} and {fields[3]}")
        if fields[4] not in THREADS:
            raise ValueError(f"{where}: {fields[0]}: threads must be 1, all or gpu, not '{fields[4]}' ({FIELDS})")
        out.append([str(lab)] + fields)
    names = [f[1] for f in out]
    if len(set(names)) != len(names):
        raise ValueError(f"{os.path.relpath(path, kit)}: an entry's name twice: {' '.join(names)}")
    return out


def entries(lab, conf=None, cache_bytes=None):
    """The timed entries of lab N, in the file's order ([] if none): its
    own perf.conf's, or those of conf, another table of whole lines LAB
    NAME THREADS REQUIRES HARNESS ARGS... (KIT_TIMED_CONF: to time at
    another size)."""
    if conf is None:
        return [Timed(f[:2] + f[5:], cache_bytes) for f in lab_entries(lab)]
    with open(conf) as f:
        out = []
        for fields in lines(f.read()):
            if fields[0] == str(lab):
                try:
                    out.append(Timed(fields, cache_bytes))
                except ValueError as e:
                    raise ValueError(f"{conf}: {e}")
        return out


def link_cmd(harness, device, kit, lab, build, kit_build, out, cuda_arch=None):
    """The command that links HARNESS (lab N's tests/perf/HARNESS.c) with
    the student's objects of build into out: autograder/perf/perf.mk's
    perf-harness target, run from the kit's folder (its flags are the
    lab's: CUDA's headers, lab 4's -ffp-contract=off, which the harness's
    bit-for-bit check needs as much as the lab does). device: only the
    objects of .cu files. cuda_arch: the architectures build was made for,
    where the caller chose them (grading); otherwise make decides as it
    did for the build."""
    cmd = ["make", "--no-print-directory", "-s", "-C", kit, "-f", "common/mk/lab.mk", f"LAB={lab}",
           f"BUILD={build}", f"KIT_BUILD={kit_build}", f"HARNESS={harness}", f"PERF_OUT={out}"]
    cmd += ["PERF_DEVICE=1"] if device else []
    cmd += [f"CUDA_ARCH={cuda_arch}"] if cuda_arch else []
    return cmd + ["perf-harness"]


def beyond_llc(cache_bytes, step=64, most=8192):
    """The smallest multiple of step n with an n x n matrix of doubles at
    least as large as the last-level cache (at most `most`): a blocked
    product's reuse of B then decides its speed on every CPU, whatever its
    cache sizes, while a loop order that streams B from memory cannot hide."""
    n = step
    while n * n * 8 < cache_bytes and n < most:
        n += step
    return n


def parse_size(text):
    """sysfs's '32768K', '8M', or bytes."""
    text = text.strip().upper()
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
    return int(text.rstrip("KMG")) * scale


def last_level_cache_bytes():
    """The largest data or unified cache of this host: sysfs's view of cpu0
    and the C library's (getconf, from CPUID), the larger one: in a virtual
    machine they can differ (here 8 and 64 MiB), and a size beyond the larger
    is beyond both. 32 MiB when neither says."""
    sizes = []
    for index in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*"):
        try:
            with open(f"{index}/type") as t, open(f"{index}/size") as s:
                if t.read().strip() in ("Data", "Unified"):
                    sizes.append(parse_size(s.read()))
        except (OSError, ValueError):
            pass
    for name in ("LEVEL4_CACHE_SIZE", "LEVEL3_CACHE_SIZE", "LEVEL2_CACHE_SIZE"):
        try:
            out = subprocess.run(["getconf", name], capture_output=True, text=True, timeout=10).stdout.strip()
            sizes.append(int(out) if out.isdigit() else 0)
        except (OSError, subprocess.SubprocessError):
            pass
    return max(sizes) if sizes and max(sizes) > 0 else 32 << 20
