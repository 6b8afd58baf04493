"""The student copy's search for reference code (instructor/release): a
file equal to a reference, mutant or hidden-test file, or holding a large
one whole, or sharing three or more of such a file's distinctive lines,
and any file of labs/ that names a solution/ folder (or the old reference/).

    python3 -m grading.release_check KIT COPY
        prints one 'release: reference code in the copy: ...' line per
        finding on standard error; exit status 1 if there is one

A line is distinctive of a secret file when students do not get it anyway:
not in the kit's shared code and visible tests (common/, autograder/'s
files that instructor/student-copy allows), no header, no lab's given source (its C and
CUDA files that are not STUDENT_FILES), and not the lab's skeleton of the
same file."""
import glob
import os
import re
import sys

from . import student_copy
from .util import make_var

MIN_LINE = 16       # characters (spaces aside) of a line worth comparing
SHARED_LINES = 3    # distinctive lines in common that make a finding
WHOLE = 200         # bytes of a secret file found whole inside another


def norm_lines(text, patch=False):
    """The set of a text's lines, spacing normalised, of at least MIN_LINE
    characters. Of a patch (a mutant), only its added lines: its context is
    the reference's, searched for as the reference."""
    out = set()
    for line in text.splitlines():
        if patch:
            if not line.startswith("+") or line.startswith("+++"):
                continue
            line = line[1:]
        line = " ".join(line.split())
        if len(line.replace(" ", "")) >= MIN_LINE:
            out.add(line)
    return out


def file_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return norm_lines(f.read(), path.endswith(".patch"))
    except OSError:
        return set()


def given_sources(kit):
    """Each lab's C and CUDA files that students get as they are."""
    for labdir in glob.glob(f"{kit}/labs/lab*-*"):
        lab = re.match(r"lab(\d+)-", os.path.basename(labdir)).group(1)
        student = set(make_var(lab, "STUDENT_FILES").split())
        for p in glob.glob(f"{labdir}/*.c") + glob.glob(f"{labdir}/*.cu"):
            if os.path.basename(p) not in student:
                yield p


def public_lines(kit, rules):
    """The lines of what students get anyway (the module's doc says what)."""
    shared = set()
    for p in (glob.glob(f"{kit}/common/**/*", recursive=True) + glob.glob(f"{kit}/labs/*/tests/**/*", recursive=True)
              + glob.glob(f"{kit}/labs/**/*.h", recursive=True) + list(given_sources(kit))):
        if os.path.isfile(p) and rules.allowed(os.path.relpath(p, kit)):
            shared |= file_lines(p)
    return shared


# A path into a lab's solution folder (or the reference/ of older kits).
SOLUTION_PATH = re.compile(rb"(?<![\w-])(solution|reference)/")


def skeleton_of(kit, path):
    """The lab folder (labs/labN-*) whose skeleton a secret file replaces."""
    m = re.search(r"lab(\d+)", os.path.relpath(path, kit))
    found = glob.glob(f"{kit}/labs/lab{m.group(1)}-*") if m else []
    return found[0] if found else None


def secret_files(kit):
    """{path: (its bytes, its distinctive lines)} of the reference and the
    hidden tests. (The mutants, wrong versions of the reference kept by the
    kit's maintainers, are the maintainers' to search for: their self-test
    does, maintainer/selftest/release.sh; the instructors' tools never read
    maintainer/.)"""
    shared = public_lines(kit, student_copy.rules(os.path.join(kit, "instructor", "student-copy")))
    secrets = {}
    for path in (glob.glob(f"{kit}/labs/*/solution/**/*", recursive=True)
                 + glob.glob(f"{kit}/labs/*/tests/hidden_*.c")):
        # A lab's measurements (labs/labN-*/solution/results/) are not solution
        # code: the students' README may quote the same figures.
        if not os.path.isfile(path) or "/results/" in path:
            continue
        with open(path, "rb") as f:
            data = f.read()
        allowed = set(shared)
        skeleton = skeleton_of(kit, path)
        if skeleton:
            names = {os.path.basename(path)}
            if path.endswith(".patch"):
                names = set(re.findall(r"^\+\+\+ b/(\S+)", data.decode("utf-8", "replace"), re.M))
            for n in names:
                allowed |= file_lines(os.path.join(skeleton, n))
        secrets[os.path.relpath(path, kit)] = (data, file_lines(path) - allowed)
    return secrets


def findings(copy, secrets):
    """What of the secrets ({name: (bytes, distinctive lines)}) the folder
    copy holds, one sentence each."""
    found = []
    for root, dirs, files in os.walk(copy):
        for n in sorted(files):
            p = os.path.join(root, n)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            with open(p, "rb") as f:
                data = f.read()
            lines = file_lines(p)
            rel = os.path.relpath(p, copy)
            # The students' folders never point into the reference (a results
            # file that names solution/ explains the solution's design).
            named = SOLUTION_PATH.search(data) if rel.startswith("labs/") else None
            if named:
                found.append(f"{rel} names {named.group(0).decode()}")
            for name, (sdata, distinctive) in secrets.items():
                common = lines & distinctive
                if data == sdata or (len(sdata) > WHOLE and sdata in data) or len(common) >= SHARED_LINES:
                    found.append(f"{rel} holds {name}" + (f" ({len(common)} of its distinctive lines, e.g. "
                                                          f"'{sorted(common)[0][:70]}')" if common else ""))
    return found


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    kit, copy = argv
    found = findings(copy, secret_files(os.path.abspath(kit)))
    for f in found:
        print(f"release: reference code in the copy: {f}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
