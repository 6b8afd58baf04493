"""The one reader of instructor/sandbox/instructor-only: the kit's paths
that students never see, neither in the grading sandbox's kit copy nor in
the student copy (instructor/release).

    python3 -m grading.instructor_only [-z] [--instructor-only] < PATHS
        reads paths relative to the kit (one a line, or NUL-separated with
        -z) and prints those students may see (with --instructor-only: the
        others), separated the same way
"""
import fnmatch
import os
import sys

from .util import KIT

LIST = os.path.join(KIT, "instructor", "sandbox", "instructor-only")


def parse(text):
    """The globs of the list's text: one a line, '#' comments, blank lines."""
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def globs(path=LIST):
    with open(path) as f:
        return parse(f.read())


def matches(path, patterns):
    """Is path (relative to the kit, '/'-separated) or a folder above it
    matched by one of the patterns?"""
    parts = os.path.normpath(path).split(os.sep)
    return any(fnmatch.fnmatchcase("/".join(parts[:i]), g) for g in patterns for i in range(1, len(parts) + 1))


def hidden_test_globs(patterns):
    """The hidden tests' entries: inside the sandbox their names stay and
    their text is blanked (the grader links them in compiled)."""
    return [g for g in patterns if "hidden_" in g]


def main(argv):
    if any(a not in ("-z", "--instructor-only") for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    sep = "\0" if "-z" in argv else "\n"
    patterns = globs()
    want = "--instructor-only" in argv
    names = [n for n in sys.stdin.buffer.read().decode().split(sep) if n]
    sys.stdout.buffer.write("".join(n + sep for n in names if matches(n, patterns) == want).encode())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
