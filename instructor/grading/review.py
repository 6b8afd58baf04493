"""Hints for the instructor: calls that a lab's code has no reason to make,
and what the sandbox refused a submission at run time. Not a verdict (the
sandbox contains them), a hint of where to look; they fill the gradebook's
review column, the sandbox's refusals first.

The calls are looked for in code only: comments, strings and character
constants are blanked first (the skeleton's "tridiagonal system" is no
call of system()), and a call that the lab's skeleton or reference makes
is no finding. A path a program opens is not in its code but in what it
does: the sandbox records those (instructor/sandbox/refusals.c)."""
import os
import re

SUSPICIOUS = re.compile(r"\b(fork|vfork|clone3?|setsid|setpgid|ptrace|kill|socket|connect|execv?[lpe]*|system|popen|"
                        r"dlopen|dlsym|syscall|inotify_\w+|prctl|(?:constructor|destructor)(?=\s*\)))\b|"
                        r"__has_include|\basm\b")
# A C token that may hold a comment's or a string's opening: strings and
# character constants with their escapes, both kinds of comments.
LEXEMES = re.compile(r'"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?|//(?:\\\n|[^\n])*|/\*.*?(?:\*/|\Z)', re.S)
# What a test's output says when its code hung: the runner's TIMEOUT, a
# checker program (MPI, threads) that ran out of time, the checker's own
# watchdog, a refusal that never came.
HUNG = re.compile(r"^TIMEOUT\b|ran out of time|FAIL TIMEOUT|no end within")
REFUSALS_DIR = "sandbox-refusals"   # the folder the sandbox logs its refusals in (instructor/sandbox/confine --refusals)


def code_only(text):
    """The text with comments, strings and character constants blanked
    (their newlines kept, so line numbers stay); __has_include("...")'s
    name goes too, the call itself stays."""
    def blank(m):
        s = m.group(0)
        if s.startswith("/*"):
            return " " + "\n" * s.count("\n")
        if s.startswith("//"):
            return "\n" * s.count("\n")
        return s[0] + s[0] if s[0] in "\"'" else s
    return LEXEMES.sub(blank, text)


def flags_of(text):
    return {m.group(0) for m in SUSPICIOUS.finditer(code_only(text))}


def folder_flags(srcdir):
    found = set()
    for name in sorted(os.listdir(srcdir)) if os.path.isdir(srcdir) else []:
        p = os.path.join(srcdir, name)
        if os.path.isfile(p):
            with open(p, errors="replace") as f:
                found |= flags_of(f.read())
    return found


def review_flags(srcdir, baseline=()):
    """The calls of a submission's code that its lab's own code (baseline:
    folders of the skeleton and the reference) does not make."""
    known = set().union(*(folder_flags(d) for d in baseline)) if baseline else set()
    return " ".join(sorted(folder_flags(srcdir) - known))


def timeouts(record):
    """The tests of a graded record whose code hung (HUNG)."""
    return [t["name"] for t in record.get("tests", []) if HUNG.search(t.get("output") or "")]


def timeout_flag(record):
    names = timeouts(record)
    return "time-out in " + ", ".join(names) if names else ""


# ---- the sandbox's refusals ------------------------------------------------------

KINDS = (("opened", "opened outside the sandbox's view"), ("denied", "writes denied"),
         ("network", "network refused"), ("signal", "signals to processes not its own"), ("ptrace", "ptrace refused"),
         ("left", "processes left running (killed)"))
SHOWN = 4   # items named per kind; the rest counted


def refusals_text(folder, limit=64 << 10):
    """The sandbox's log of refusals as it was written (every line of each file,
    the first limit bytes), for the submission's logs; '' when empty."""
    parts = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        try:
            with open(os.path.join(folder, name), errors="replace") as f:
                parts.append(f"== {name}\n" + f.read(limit))
        except OSError:
            continue
    return "\n".join(parts)[:limit]


def refusal_lines(folder):
    """The lines of the sandbox's log of refusals (each file's first MiB)."""
    for name in sorted(os.listdir(folder)) if folder and os.path.isdir(folder) else []:
        try:
            with open(os.path.join(folder, name), errors="replace") as f:
                yield from f.read(1 << 20).splitlines()
        except OSError:
            continue


def refusals(folder):
    """The sandbox's log of refusals of one run (lines 'KIND WHAT' in the files of
    folder) in words: 'sandbox refused: opened outside ...: /etc/shadow,
    ...; processes left running (killed): 5 (test_lab1)'; '' when nothing
    was refused."""
    seen = {k: [] for k, _ in KINDS}
    for line in refusal_lines(folder):
        kind, _, what = line.partition(" ")
        if kind in seen and what and what not in seen[kind]:
            seen[kind].append(what)
    parts = []
    for kind, words in KINDS:
        items = seen[kind]
        if items:
            more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
            parts.append(f"{words}: {', '.join(items[:SHOWN])}{more}")
    return "sandbox refused: " + "; ".join(parts) if parts else ""
