"""The student copy's texts (maintainer/selftest/release.sh): nothing in the
copy names what students do not get (the reference solutions, the
instructors' and maintainers' targets, mutants, hidden tests, the kit's
issues), no code comment dates itself, names a GPU model or cites an issue
by number, and every text points only at what the copy holds: a markdown
link or a backticked path names a file of the copy, a link's #anchor and
a cited section ('section "X"', 'the X section of Y') a heading there.

    python3 copy_texts.py COPY
        prints 'FILE:LINE: what' per finding; exit status 1 if there is one
"""
import ast
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


# In the code's comments alone: when and on which machine a line was
# measured or written belongs in the lab's measured page, not in the code
# (the READMEs may name a GPU: what good performance looks like on it).
COMMENT_WORDS = [
    (re.compile(r"\b(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b"), "dates a comment"),
    (re.compile(r"\b(?:G[HB]200|[HB]200|H100|H800|A100|A800|A40|A30|A10G?|V100|P100|K80|T4|L4|L40S?|B100"
               r"|RTX(?:[ -]?[A-Z]?\d{3,4}\w*)?)(?:'?s)?\b"),
     "names a GPU model in a comment"),
    (re.compile(r"(?<![\w&#/$'\"])#\d{1,5}\b(?! 0x)"), "cites an issue by number in a comment"),
]
C_LIKE = (".c", ".h", ".cu", ".cuh", ".cc", ".cpp", ".hpp")
HASH_LIKE = (".sh", ".py", ".mk", ".gp", ".conf", ".cfg", ".toml", ".yml", ".yaml", ".awk")


def comment_style(rel, lines):
    """'c' for C-like code, '#' for code whose comments start with #, None
    for a text or data file."""
    name = os.path.basename(rel)
    if name.endswith(C_LIKE):
        return "c"
    if name.endswith(HASH_LIKE) or name == "Makefile" or (lines and lines[0].startswith("#!")):
        return "#"
    return None


def c_comments(lines):
    """(line number, text) of each line of a C-like file's comments: /* */
    and //, outside string and character literals."""
    out, state = [], None  # None, "block", '"' or "'"
    for i, line in enumerate(lines, 1):
        j, text = 0, []
        while j < len(line):
            c, two = line[j], line[j:j + 2]
            if state == "block":
                if two == "*/":
                    state, j = None, j + 2
                    continue
                text.append(c)
            elif state in ('"', "'"):
                if c == "\\":
                    j += 1
                elif c == state:
                    state = None
            elif two == "/*":
                state, j = "block", j + 2
                continue
            elif two == "//":
                text.append(line[j + 2:])
                break
            elif c in ('"', "'"):
                state = c
            j += 1
        if state in ('"', "'"):
            state = None  # a literal does not run past its line
        if text:
            out.append((i, "".join(text)))
    return out


HASH_COMMENT = re.compile(r"""^#(?!!)|(?<=[\s;(])#""")


def hash_comments(lines):
    """(line number, text) of each # comment: from a # that starts the line
    or follows a blank, outside quotes (a rough reading: good enough for the
    kit's shell, make, Python and gnuplot)."""
    out = []
    for i, line in enumerate(lines, 1):
        quote = None
        for j, c in enumerate(line):
            if quote:
                if c == quote and line[j - 1] != "\\":
                    quote = None
            elif c in "'\"":
                quote = c
            elif c == "#" and HASH_COMMENT.match(line, j) and not line.startswith("#!"):
                out.append((i, line[j + 1:]))
                break
    return out


def docstrings(lines):
    """(line number, text) of each line of a Python file's docstrings."""
    try:
        tree = ast.parse("\n".join(lines))
    except (SyntaxError, ValueError):
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                out += [(first.lineno + k, text) for k, text in enumerate(first.value.value.splitlines())]
    return out


def comments(rel, lines):
    style = comment_style(rel, lines)
    if style == "c":
        return c_comments(lines)
    if style == "#":
        return hash_comments(lines) + (docstrings(lines) if rel.endswith(".py") else [])
    return []


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
    """`common/timer.h`, `autograder/sched/submit`: a path; `jacobi_gpu1/2/3`,
    `nccl_world.h/.c`: names of several things."""
    if "/." in text:
        return False
    return text.split("/")[0] in KIT_TOPS or "." in os.path.basename(text.rstrip("/"))


def findings(copy):
    out = []
    for rel, lines in text_files(copy):
        md = rel.endswith(".md")
        for i, text in comments(rel, lines):
            out += [f"{rel}:{i}: {why}: {text.strip()[:100]}" for rx, why in COMMENT_WORDS if rx.search(text)]
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
