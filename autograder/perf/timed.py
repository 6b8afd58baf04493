"""autograder/perf/timed.conf: per lab, the timed entries (name, threads,
the tests that must pass first, the harness in the lab's tests/perf/ and
its arguments), the size
{N_BEYOND_LLC} in those arguments, and the command that links a harness
with a build's student objects."""
import glob
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
TIMED_CONF = os.path.join(HERE, "timed.conf")
THREADS = ("1", "all", "gpu")


class Timed:
    """One line of timed.conf: lab name threads requires harness ARGS..."""

    def __init__(self, fields, cache_bytes=None):
        if len(fields) < 5:
            raise ValueError(f"timed.conf: '{' '.join(fields)}': needs lab, name, threads, requires, harness")
        (self.lab, self.name, self.threads, requires, self.harness, *args) = fields
        if self.threads not in THREADS:
            raise ValueError(f"timed.conf: {self.name}: threads must be 1, all or gpu, not '{self.threads}'")
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


def entries(lab, conf=TIMED_CONF, cache_bytes=None):
    """The timed entries of lab N, in the table's order ([] if none)."""
    with open(conf) as f:
        return [Timed(fields, cache_bytes) for fields in lines(f.read()) if fields[0] == str(lab)]


def link_cmd(harness, device, kit, lab_dir, objects, common_lib, cflags, ldlibs, out):
    """gcc linking HARNESS (the lab's tests/perf/HARNESS.c, on the kit's
    autograder/perf/perf_harness.c) with the student's objects (for a
    device case, only those built from .cu files: the caller's choice)
    into out. cflags: the lab's own (CUDA's headers; lab
    4's -ffp-contract=off, which its harness's bit-for-bit check needs as
    much as the lab does). lab_dir: the lab's folder under labs/."""
    perf = f"{kit}/autograder/perf"
    sources = [f"{kit}/labs/{lab_dir}/tests/perf/{harness}.c", f"{perf}/perf_harness.c"]
    sources += [f"{perf}/perf_device.c"] if device else []
    return ["gcc", "-std=c17", "-O2", "-Wall", "-Wextra", *cflags, f"-I{kit}/labs/{lab_dir}", f"-I{kit}/common", f"-I{perf}", "-o", out, *sources, *objects, common_lib, *ldlibs, "-lm"]


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
