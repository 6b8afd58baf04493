#!/usr/bin/env python3
"""The figures behind each lab's similarity thresholds
(labs/labN-name/measured/similarity.conf), measured on the self-test's
classes:

  copied pairs: the lab's lineage of the reference: the reference and the
     reference with each mutant of labs/labN-*/mutants/ applied (one
     mistake each, the rest verbatim), and for lab 1 also the disguised
     copy of plant_copy.py (comments, names, layout and order changed);
  honest pairs: a solution written apart (lab 1's s*.c, four styles)
     with every other solution, lineage or not.

For each lab: the copied pairs' lowest score and the honest pairs'
highest, over the whole submission and, for labs of several files, per
file (the copied pairs' lowest score of the file a mutant changed; the
honest pairs' highest score of any file). A lab with no solution written
apart has no honest pairs: its thresholds stay the defaults, and the
conf says so.

    calibrate.py [--out DIR] [--check | --write] [LAB...]

prints each lab's number and its line: its threshold and file threshold
(rule(): from the figures, or '-', the default, where there are no honest
pairs), then the figures; --write writes the line into the lab's
measured/similarity.conf; --check compares each line with the lab's file
and exits 1 when they differ or the lab has none (the similarity
self-test runs it), or when a copied pair is not flagged or an honest
pair is, at the lab's thresholds.

A line's fields (similarity.CONF_FIELDS):
  threshold: a pair is reported from this score (percent of both
    submissions' tokens in runs with the other) up: the lowest multiple of
    5 at least MARGIN points above the highest honest pair; '-': the
    default (similarity.THRESHOLD), for want of honest pairs (only lab 1
    has solutions written apart from the reference, similarity/s*.c);
  file_threshold: a pair is reported when one file alone scores this
    (labs of several files), by the same rule; '-': the default
    (similarity.FILE_THRESHOLD);
  honest, copied: the highest honest and the lowest copied pair's score
    over the whole submission; honest_file, copied_file: per file (copied:
    the files a mutant changed, less those a calls_* mutant rewrote); '-':
    no such pair;
  honest_pairs, copied_pairs: the number of each."""
import argparse
import csv
import glob
import math
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KIT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path[:0] = [os.path.join(KIT, "instructor"), os.path.join(KIT, "autograder")]
from grading import similarity  # noqa: E402
from grading.util import make_vars  # noqa: E402


# Mutants that hand a function's work to another function (the kit's, a
# sequential one): a rewrite of that file, not a copied file with a mistake.
REWRITES = "mutant_calls_"
MARGIN = 10  # points above the highest honest pair


def rule(honest, copied):
    """A lab's threshold from its figures: the lowest multiple of 5 at
    least MARGIN points above the highest honest pair (a pair flagged
    wrongly costs a look side by side; a copy missed costs more); '-' (the
    default) where there is no honest pair; 'unseparated' when that is
    above the lowest copied pair (no threshold tells them apart)."""
    if honest is None:
        return "-"
    t = 5 * math.ceil((honest + MARGIN) / 5)
    return t if copied is None or t <= copied else "unseparated"


def lab_class(num, folder):
    """The lab's calibration class in folder: {entry: 'copied' | 'honest'}."""
    v = make_vars(num, ["LAB_NAME", "STUDENT_FILES"])
    name, files = v["LAB_NAME"], v["STUDENT_FILES"].split()
    ref = os.path.join(folder, "reference")
    os.makedirs(ref)
    for f in files:
        src = os.path.join(KIT, "labs", name, "solution", f)
        shutil.copy(src if os.path.exists(src) else os.path.join(KIT, "labs", name, f), ref)
    kinds = {"reference": "copied"}
    for patch in sorted(glob.glob(os.path.join(KIT, "labs", f"lab{num}-*", "mutants", "*.patch"))):
        entry = "mutant_" + os.path.basename(patch)[:-len(".patch")]
        dest = os.path.join(folder, entry)
        shutil.copytree(ref, dest)
        with open(patch) as p:
            if subprocess.run(["patch", "-s", "-p1", "-d", dest], stdin=p, capture_output=True).returncode:
                shutil.rmtree(dest)  # a patch of a file the student does not write
                continue
        kinds[entry] = "copied"
    if num == "1":
        planted = os.path.join(folder, "planted_copy")
        os.makedirs(planted)
        with open(os.path.join(planted, "matmult.c"), "w") as out:
            subprocess.run([sys.executable, os.path.join(HERE, "plant_copy.py"), os.path.join(ref, "matmult.c")],
                           stdout=out, check=True)
        kinds["planted_copy"] = "copied"
        for s in sorted(glob.glob(os.path.join(HERE, "s*.c"))):
            entry = os.path.basename(s)[:-2]
            os.makedirs(os.path.join(folder, entry))
            shutil.copy(s, os.path.join(folder, entry, "matmult.c"))
            kinds[entry] = "honest"
    return kinds


def changed_files(folder, entry):
    """The files of a lineage entry that differ from the reference's."""
    ref = os.path.join(folder, "reference")
    if entry == "reference":
        return set()
    out = set()
    for f in os.listdir(ref):
        with open(os.path.join(ref, f), "rb") as a, open(os.path.join(folder, entry, f), "rb") as b:
            if a.read() != b.read():
                out.add(f)
    return out


def figures(num, work):
    """{copied, honest, copied_file, honest_file: score or None, pairs:
    (copied pairs, honest pairs), rows: the CSV's rows} of lab num."""
    folder = os.path.join(work, f"lab{num}", "class")
    os.makedirs(folder)
    kinds = lab_class(num, folder)
    report = os.path.join(work, f"lab{num}", "report")
    subprocess.run([os.path.join(KIT, "instructor", "similarity"), "-o", report, num, folder],
                   check=True, capture_output=True)
    with open(os.path.join(report, "similarity.csv")) as f:
        rows = list(csv.DictReader(f))
    copied, honest, copied_file, honest_file = [], [], [], []
    for r in rows:
        a, b = r["student_a"], r["student_b"]
        per_file = {k[len("score_"):]: float(v) for k, v in r.items() if k.startswith("score_")}
        if kinds[a] == kinds[b] == "copied":
            copied.append(float(r["score"]))
            # the files one side changed: those a copy could hide in
            changed = {e: changed_files(folder, e) for e in (a, b)}
            rewritten = set().union(*(changed[e] for e in (a, b) if e.startswith(REWRITES)))
            copied_file += [per_file[f] for f in changed[a] | changed[b] if f in per_file and f not in rewritten]
        else:
            honest.append(float(r["score"]))
            honest_file += per_file.values()
    return {"copied": min(copied, default=None), "honest": max(honest, default=None),
            "copied_file": min(copied_file, default=None), "honest_file": max(honest_file, default=None),
            "pairs": (len(copied), len(honest)), "rows": rows, "kinds": kinds}


def fmt(x):
    return "-" if x is None else x if isinstance(x, str) else f"{x:g}"


def conf_line(fig):
    """The line of a lab's similarity.conf from its figures."""
    threshold = rule(fig["honest"], fig["copied"])
    file_threshold = rule(fig["honest_file"], fig["copied_file"])
    return (f"{fmt(threshold)} {fmt(file_threshold)} {fmt(fig['honest'])} {fmt(fig['copied'])} "
            f"{fmt(fig['honest_file'])} {fmt(fig['copied_file'])} {fig['pairs'][1]} {fig['pairs'][0]}")


HEADER = """\
# Lab {num}'s similarity thresholds (instructor/similarity reads them;
# --threshold and --file-threshold override) and the figures behind them,
# measured on the self-test's classes by
# maintainer/selftest/similarity/calibrate.py (its docstring says what each
# field is), which the similarity self-test runs with --check: this line
# must be what it measures. Remake it with:
#   python3 maintainer/selftest/similarity/calibrate.py --write {num}
# {fields}
"""


def write_conf(num, line):
    """The lab's measured/similarity.conf: the header and line."""
    path = similarity.conf_path(num)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(HEADER.format(num=num, fields=" ".join(similarity.CONF_FIELDS)) + line + "\n")


def misjudged(fig, threshold, file_threshold):
    """The pairs the thresholds get wrong: copied and not flagged, honest
    and flagged."""
    bad = []
    for r in fig["rows"]:
        per_file = {k: float(v) for k, v in r.items() if k.startswith("score_")}
        hit = similarity.flagged(float(r["score"]), per_file, threshold, file_threshold)
        copied = fig["kinds"][r["student_a"]] == fig["kinds"][r["student_b"]] == "copied"
        if hit != copied:
            bad.append(f"{r['student_a']}-{r['student_b']} {r['score']}% ({'copied' if copied else 'honest'})")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("labs", nargs="*", help="the labs [all]")
    ap.add_argument("--out", default=os.path.join(KIT, "build", "selftest", "similarity-calibration"))
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help="compare with each lab's measured/similarity.conf")
    what.add_argument("--write", action="store_true", help="write each lab's measured/similarity.conf")
    args = ap.parse_args()
    labs = args.labs or sorted(os.path.basename(p)[3] for p in glob.glob(os.path.join(KIT, "labs", "lab[0-9]-*")))
    for num in labs:
        if similarity.conf_path(num) is None:
            sys.exit(f"calibrate: there is no lab {num} in {os.path.join(KIT, 'labs')}")
    shutil.rmtree(args.out, ignore_errors=True)
    status = 0
    for num in labs:
        fig = figures(num, args.out)
        line = conf_line(fig)
        print(f"{num} {line}")
        if args.write:
            write_conf(num, line)
        if not args.check:
            continue
        conf = similarity.conf_row(num)
        if conf != line.split():
            where = os.path.relpath(similarity.conf_path(num), KIT)
            print(f"FAILED  lab {num}: {where} says {' '.join(conf or ['nothing (no line)'])}, "
                  f"measured: {line} (remake it: calibrate.py --write {num})", file=sys.stderr)
            status = 1
        bad = misjudged(fig, *similarity.thresholds_of(num))
        if bad:
            print(f"FAILED  lab {num}: misjudged at its thresholds: {', '.join(bad[:5])}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
