"""Maintainers' helper: write a mutant as a patch against the reference.

    import sys; sys.path.insert(0, "maintainer/mutants")
    from mkpatch import mutant
    mutant("labs/lab1-matmult/solution", "labs/lab1-matmult/mutants/NAME.patch",
           "what is wrong, in a sentence", [("matmult.c", "old text", "new text")])

Each old text must occur exactly once in the file as the edits before it
left it (several edits of one file apply in order). The description becomes the patch's
'#' header; a line '# requires: gpu' there marks a mutant that only a GPU
host can catch (the self-test reports it as skipped elsewhere), and a line
'# hint: TEXT' the hint (autograder/hints.h) its failing lines must show
(the self-test checks it, and that a mutant without one shows no "one step
behind?" or "ahead?", which would mislead there). caught_by
names the tests meant to catch it: the header's line '# caught by: T1 T2'
(the self-test runs only those, and counts the mutant caught only when one
of them loses points). Remade without caught_by, a patch keeps the line it
had (most were written into the patches after reading which tests fail)."""
import os, subprocess, tempfile, shutil


def mutant(lab_ref, out, description, edits, caught_by=()):
    d = tempfile.mkdtemp()
    os.makedirs(f"{d}/a")
    os.makedirs(f"{d}/b")
    mutated = {}
    for fname, old, new in edits:
        src = mutated.get(fname) or open(f"{lab_ref}/{fname}").read()
        assert src.count(old) == 1, (out, fname, old)
        mutated[fname] = src.replace(old, new)
    for fname, text in mutated.items():
        shutil.copy(f"{lab_ref}/{fname}", f"{d}/a/{fname}")
        open(f"{d}/b/{fname}", "w").write(text)
    diff = subprocess.run(["diff", "-ru", "a", "b"], cwd=d, capture_output=True, text=True).stdout
    # No timestamps in the headers: the patch should not change when remade.
    diff = "\n".join(l.split("\t")[0] if l.startswith(("--- ", "+++ ")) else l for l in diff.split("\n"))
    shutil.rmtree(d)
    if not caught_by and os.path.exists(out):
        caught_by = next((l.split(":", 1)[1].split() for l in open(out) if l.startswith("# caught by:")), ())
    with open(out, "w") as f:
        f.write("".join("# " + l + "\n" for l in description.strip().splitlines()))
        if caught_by:
            f.write("# caught by: " + " ".join(caught_by) + "\n")
        f.write(diff)
