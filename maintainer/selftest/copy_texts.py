"""The student copy's texts (maintainer/selftest/release.sh): nothing in the
copy names what students do not get (the reference solutions, the
instructors' and maintainers' targets, mutants, hidden tests, the kit's
issues), and every text points only at what the copy holds: a markdown
link or a backticked path names a file of the copy, a link's #anchor and
a cited section ('section "X"', 'the X section of Y') a heading there.

    python3 copy_texts.py COPY
        prints 'FILE:LINE: what' per finding; exit status 1 if there is one
"""
import os
import re
import sys

# What students never meet, as words (prose and code alike).
WORDS = [
    (re.compile(r"(?<![\w-])(reference|solution)/"), "names the solution's folder"),
    (re.compile(r"IMPL=reference"), "names IMPL=reference"),
    (re.compile(r"\bmake (grade|test|export|similarity|release)\b"), "names an instructors' target"),
    (re.compile(r"\bmutants?\b", re.I), "names mutants"),
    (re.compile(r"\bhidden[ -]tests?\b", re.I), "names hidden tests"),
    (re.compile(r"\bissue #?\d+", re.I), "names an issue of the kit"),
    (re.compile(r"\b(instructor|maintainer)/"), "names an instructors' or maintainers' folder"),
    (re.compile(r"\bnotes(?:'|’)? +(?:\d{3}\b|§|\d+\.\d)", re.I), "cites the kit's notes (not in the copy)"),
    (re.compile(r"the kit's (README|guide)"), "cites a text of the kit the copy lacks"),
]
# In the texts alone (code may call a function hidden_...): a hidden test by name.
MD_WORDS = [(re.compile(r"`hidden_\w+`|\[hidden\]"), "names a hidden test")]
# Where only some lines are text: a make file's comments (its code holds the
# kit's build modes, IMPL=reference among them, and the instructors'
# targets, which answer in the copy in one line: the Makefile's
# STUDENT_COPY branch). The runner registers hidden tests and stops at a
# mutant's first loss: its names say so, and its comments may.
def checked(rel, line):
    if rel.startswith("autograder/runner/"):
        return False
    if rel == "Makefile" or rel.endswith(".mk"):
        return line.lstrip().startswith("#")
    return True


LINK = re.compile(r"\]\(([^)\s]+)\)")
# a backticked path, alone or a command's first word: `common/timer.h`, `labs/x/run -v`
TICKED = re.compile(r"`(?:\./)?([A-Za-z0-9_.\-]+/[A-Za-z0-9_.\-/]*[A-Za-z0-9_])(?: [^`]*)?`")
# 'see "What is graded"', '"Stages" below': a heading of the same file
SECTION = re.compile(r"""\bsee (?:the )?(?:section )?["“]([^"”]+)["”]|["“]([^"”]+)["”] (?:section|below|above)\b""")
MD_NAME = re.compile(r"\b([A-Z][A-Z0-9_-]+\.md)\b")
GENERATED = ("build/", ".gpudeps/", "/")  # made by make, or outside the kit


def slug(heading):
    """GitHub's anchor of a markdown heading."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def headings(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return [re.sub(r"^#+\s*", "", line).strip() for line in f if re.match(r"#{1,6} ", line)]
    except OSError:
        return []


def text_files(copy):
    for root, dirs, files in os.walk(copy):
        dirs[:] = [d for d in dirs if d != "build"]
        for n in sorted(files):
            p = os.path.join(root, n)
            try:
                with open(p, encoding="utf-8") as f:
                    yield os.path.relpath(p, copy), f.read().splitlines()
            except (UnicodeDecodeError, OSError):
                continue  # a picture, an archive


def resolve(copy, rel, target):
    """The copy's file a path written in rel means: beside rel, or from the
    copy's root; None when neither exists."""
    for base in (os.path.dirname(rel), ""):
        p = os.path.normpath(os.path.join(copy, base, target))
        if os.path.exists(p):
            return p
    return None


def placeholder(path):
    """A path with a placeholder in it (labN-*, DIR/...), not a file's name."""
    return re.search(r"labN|[*<>$]|\bN\b|\.\.\.|/X|DIR|FILE", path) is not None


KIT_TOPS = {"labs", "common", "autograder", "reference", "instructor", "maintainer", "datasets", "results"}


def looks_like_path(text):
    """`common/timer.h`, `autograder/sched/run`: a path; `jacobi_gpu1/2/3`,
    `nccl_world.h/.c`: names of several things."""
    if "/." in text:
        return False
    return text.split("/")[0] in KIT_TOPS or "." in os.path.basename(text.rstrip("/"))


def findings(copy):
    out = []
    for rel, lines in text_files(copy):
        md = rel.endswith(".md")
        for i, line in enumerate(lines, 1):
            if checked(rel, line):
                out += [f"{rel}:{i}: {why}: {line.strip()[:100]}" for rx, why in WORDS if rx.search(line)]
            if not md:
                continue
            out += [f"{rel}:{i}: {why}: {line.strip()[:100]}" for rx, why in MD_WORDS if rx.search(line)]
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue
                path, _, anchor = target.partition("#")
                where = resolve(copy, rel, path) if path else os.path.join(copy, rel)
                if where is None:
                    out.append(f"{rel}:{i}: links to {path}, which the copy lacks")
                elif anchor and where.endswith(".md") and anchor not in map(slug, headings(where)):
                    out.append(f"{rel}:{i}: links to #{anchor} of {os.path.relpath(where, copy)}, no such heading")
            for path in TICKED.findall(line):
                if path.startswith(GENERATED) or placeholder(path) or not looks_like_path(path):
                    continue
                if resolve(copy, rel, path) is None:
                    out.append(f"{rel}:{i}: names {path}, which the copy lacks")
            for name in MD_NAME.findall(line):
                if resolve(copy, rel, name) is None:
                    out.append(f"{rel}:{i}: names {name}, which the copy lacks")
            for title in filter(None, sum(SECTION.findall(line), ())):
                if not any(title.lower() in h.lower() for h in headings(os.path.join(copy, rel))):
                    out.append(f"{rel}:{i}: cites the section \"{title}\", which {rel} lacks")
    return out


def main(argv):
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        print(__doc__, file=sys.stderr)
        return 2
    found = findings(argv[0])
    for f in found:
        print(f)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
