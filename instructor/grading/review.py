"""Hints for the instructor: calls and paths that a lab's code has no
reason to use. Not a verdict (the sandbox contains them), a hint of where
to look; they fill the gradebook's review column."""
import os
import re

SUSPICIOUS = re.compile(r"\b(fork|vfork|clone3?|setsid|setpgid|ptrace|kill|socket|connect|execv?[lpe]*|system|popen|"
                        r"dlopen|dlsym|syscall|inotify_\w+|prctl|(?:constructor|destructor)(?=\s*\)))\b|/proc/|/kit/|"
                        r"/sub/|\.\./|__has_include|\basm\b")


def flags_of(text):
    return {m.group(0) for m in SUSPICIOUS.finditer(text)}


def review_flags(srcdir):
    found = set()
    for name in sorted(os.listdir(srcdir)):
        with open(os.path.join(srcdir, name), errors="replace") as f:
            found |= flags_of(f.read())
    return " ".join(sorted(found))
