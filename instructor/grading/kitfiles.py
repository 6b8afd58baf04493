"""The kit's own files, for the copies made of it (the student copy,
instructor/release; Gradescope's zip, instructor/gradescope/make-zip): the
files git tracks, or, without git (a downloaded archive of the kit), every
file but what .gitignore leaves out (builds, releases, staged GPU
packages, objects).

    python3 -m grading.kitfiles [-z]     prints them, relative to the kit
                                         (-z: NUL-separated); warns on
                                         standard error of files git does
                                         not track yet in the kit's folders."""
import os
import subprocess
import sys

from .util import KIT

UNTRACKED_DIRS = ("labs", "common", "autograder", "datasets")
NOT_KIT = {"build", "release", ".git", ".gpudeps"}  # top-level folders .gitignore names


def git(*args):
    """git's answer, or a failed one where git is not installed (a fresh
    machine that got the kit as an archive)."""
    try:
        return subprocess.run(["git", *args], cwd=KIT, capture_output=True, text=True)
    except FileNotFoundError:
        return subprocess.CompletedProcess(["git", *args], 127, "", "git: not installed")


def kit_files():
    """(files, untracked): the kit's files, and new files git does not know
    yet (only with git: a given header never git-added would be left out)."""
    if git("rev-parse", "--is-inside-work-tree").returncode == 0:
        files = git("ls-files", "-z").stdout.split("\0")
        untracked = git("ls-files", "--others", "--exclude-standard", "--", *UNTRACKED_DIRS).stdout.split()
        return [f for f in files if f], untracked
    files = []
    for root, dirs, names in os.walk(KIT):
        rel = os.path.relpath(root, KIT)
        if rel == ".":
            dirs[:] = [d for d in dirs if d not in NOT_KIT]
        files += [os.path.normpath(os.path.join(rel, n)) for n in names if not n.endswith(".o")]
    return sorted(files), []


def main(argv):
    files, untracked = kit_files()
    if untracked:
        print("warning: these files are not tracked by git and are left out of the copy (git add them):",
              file=sys.stderr)
        for f in untracked:
            print(f"  {f}", file=sys.stderr)
    sep = "\0" if "-z" in argv else "\n"
    sys.stdout.write("".join(f + sep for f in files))


if __name__ == "__main__":
    main(sys.argv[1:])
