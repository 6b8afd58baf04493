"""The one reader of instructor/student-copy: the kit's paths students may
see, in the student copy (instructor/release) and in the grading sandbox's
kit copy (grading/lab.py). An allow-list: a path is the students' when a
glob matches it (or a folder above it) and no "!" glob does.

    python3 -m grading.student_copy [-z] [--withheld] < PATHS
        reads paths relative to the kit (one a line, or NUL-separated with
        -z) and prints those students may see (with --withheld: the
        others), separated the same way
"""
import fnmatch
import os
import sys

from .util import KIT

LIST = os.path.join(KIT, "instructor", "student-copy")


class Rules:
    """The list's globs: allowed ones, and the "!" ones that take out."""

    def __init__(self, text):
        lines = [line.strip() for line in text.splitlines()]
        lines = [line for line in lines if line and not line.startswith("#")]
        self.allow = [g for g in lines if not g.startswith("!")]
        self.deny = [g[1:].strip() for g in lines if g.startswith("!")]
        if not self.allow:
            raise ValueError("the student copy's list allows nothing")

    def allowed(self, path):
        return matches(path, self.allow) and not matches(path, self.deny)

    def enters(self, folder):
        """May an allowed path lie below folder (an allowed folder, or one
        on the way to an allowed glob: autograder/ for autograder/runner)?
        Not one a "!" glob takes out (a lab's solution/): the sandbox's copy
        would hold it, empty."""
        if matches(folder, self.deny):
            return False
        parts = os.path.normpath(folder).split(os.sep)
        return matches(folder, self.allow) or any(
            len(g.split("/")) > len(parts) and
            all(fnmatch.fnmatchcase(p, q) for p, q in zip(parts, g.split("/"))) for g in self.allow)

    def hidden_tests(self):
        """The hidden tests' globs: inside the sandbox their names stay and
        their text is blanked (the grader links them in compiled)."""
        return [g for g in self.deny if "hidden_" in g]


def rules(path=LIST):
    with open(path) as f:
        return Rules(f.read())


def matches(path, patterns):
    """Is path (relative to the kit, '/'-separated) or a folder above it
    matched by one of the patterns?"""
    parts = os.path.normpath(path).split(os.sep)
    return any(fnmatch.fnmatchcase("/".join(parts[:i]), g) for g in patterns for i in range(1, len(parts) + 1))


def main(argv):
    if any(a not in ("-z", "--withheld") for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    sep = "\0" if "-z" in argv else "\n"
    kit = rules()
    want = "--withheld" not in argv
    names = [n for n in sys.stdin.buffer.read().decode().split(sep) if n]
    sys.stdout.buffer.write("".join(n + sep for n in names if kit.allowed(n) == want).encode())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
