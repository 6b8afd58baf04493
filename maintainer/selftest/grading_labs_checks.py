"""The checks of the self-test of grading the labs in the sandbox
(maintainer/selftest/grading_references.sh) on a graded class of a lab's
reference, skeleton and mutants, and on the grader's own check.

    python3 maintainer/selftest/grading_labs_checks.py class GRADES LAB "MUTANT..." WHAT SECONDS GPUS
        one 'ok'/'FAILED' line: the reference has every point of the tests
        that ran here, the skeleton none, each mutant less than the
        reference, an early_exit mutant nothing of the tests its patch names
    python3 maintainer/selftest/grading_labs_checks.py same-grade GRADES LAB MUTANT OUTSIDE SECONDS GPUS
        one line: the reference's own check found the same score in the
        sandbox as outside (lab.json), the mutant lost the same tests in
        both (the mutant graded as the student mutant_MUTANT)
    python3 maintainer/selftest/grading_labs_checks.py perf-entry RESULTS NAME
        'SCORE MAX OUTPUT' of a results.json's entry NAME, or 'none'
"""
import csv
import glob
import json
import os
import sys

from grading_checks import line
from grading.util import KIT


def caught_by(lab, mutant):
    """The tests a mutant's patch names ('# caught by:')."""
    with open(glob.glob(os.path.join(KIT, "labs", f"lab{lab}-*", "mutants", f"{mutant}.patch"))[0]) as f:
        return next((ln.split(":", 1)[1].split() for ln in f if ln.startswith("# caught by:")), [])


def ran_here(test):
    return not test["output"].startswith("SKIP") and "skipped" not in test["output"]


def lab_class(root, lab, mutants, what, secs, gpus, named=caught_by):
    """The line on a class graded into root (gradebook.csv, students/)."""
    with open(os.path.join(root, "gradebook.csv")) as f:
        book = {r["student"]: r for r in csv.DictReader(f)}
    ref, skel = book.get("reference"), book.get("skeleton")
    muts = {m: book.get(f"mutant_{m}") for m in mutants}
    if not (ref and skel and all(muts.values())):
        return line(False, f"lab {lab} ({what}): the gradebook lacks a row ({sorted(book)})")

    def results(sid):
        with open(os.path.join(root, "students", sid, "results.json")) as f:
            return json.load(f)["tests"]
    ran = [t for t in results("reference") if ran_here(t)]
    lost = [t["name"] for t in ran if t["score"] < t["max_score"]]
    runnable = sum(t["max_score"] for t in ran)
    problems = [f"{sid} {r['status']} ({r['review'][:80]})"
                for sid, r in [("reference", ref), ("skeleton", skel)] + [(f"mutant_{m}", r) for m, r in muts.items()]
                if r["status"] != "graded"]
    if lost:
        problems.append(f"the reference lost {lost}")
    if runnable == 0:
        problems.append("no test ran on this host")
    if float(skel["total"]) != 0:
        problems.append(f"the skeleton scored {skel['total']}")
    for m, r in muts.items():
        if float(r["total"]) >= float(ref["total"]):
            problems.append(f"the mutant {m} scored {r['total']}, the reference {ref['total']}")
        if m.startswith("early_exit"):
            names = set(named(lab, m)) & {u["name"] for u in ran}
            kept = [t["name"] for t in results(f"mutant_{m}") if t["name"] in names and t["score"] > 0]
            if kept:
                problems.append(f"the mutant {m}, which ends before the checks, kept points of {kept}")
    skipped = float(ref["max"]) - runnable
    what = (f"lab {lab} ({what}) graded in the sandbox in {secs} s, {gpus} GPU(s): reference {ref['total']}/{ref['max']}"
            + (f" ({skipped:g} points in tests this host cannot run)" if skipped else "")
            + f", skeleton {skel['total']}, " + ", ".join(f"mutant {m} {r['total']}" for m, r in muts.items()))
    return line(False, what + ": " + "; ".join(problems)) if problems else line(True, what)


def failed_here(tests):
    return {t["name"] for t in tests if ran_here(t) and t["score"] < t["max_score"]}


def same_grade(root, lab, mutant, outside, secs, gpus):
    """The line on the grader's own check: the reference earned in the
    sandbox what it earns outside (lab.json), and the mutant lost the same
    tests in the sandbox as outside it (the runner's results.json)."""
    with open(os.path.join(root, "lab.json")) as f:
        ref = json.load(f).get("reference")
    if not ref:
        return line(False, f"lab {lab}: make grade wrote no verdict of the reference's own check")
    problems = []
    if ref["lost"] or ref["inside"] != ref["outside"]:
        problems.append(f"the reference earns {ref['inside']:g} in the sandbox, {ref['outside']:g} outside "
                        f"(lost: {[t['name'] for t in ref['lost']]}; failed outside too: "
                        f"{[t['name'] + ': ' + t['reason'][:200] for t in ref.get('failed_outside', [])]})")
    try:
        with open(outside) as f:
            out = failed_here(json.load(f)["tests"])
        with open(os.path.join(root, "students", f"mutant_{mutant}", "results.json")) as f:
            inside = failed_here(json.load(f)["tests"])
    except (OSError, ValueError, KeyError) as e:
        return line(False, f"lab {lab}: the mutant {mutant}'s results are missing ({e})")
    if inside != out:
        problems.append(f"the mutant {mutant} lost {sorted(inside - out)} only in the sandbox and "
                        f"{sorted(out - inside)} only outside")
    if not out:
        problems.append(f"the mutant {mutant} lost no test outside")
    what = (f"lab {lab}: the reference earns {ref['inside']:g} of {ref['awardable']:g} in the sandbox as outside it; "
            f"the mutant {mutant} loses the same {len(inside)} test(s) in both ({secs} s, {gpus} GPU(s))")
    return line(False, what.split(";")[0] + ": " + "; ".join(problems)) if problems else line(True, what)


def perf_entry(path, name):
    with open(path) as f:
        t = next((t for t in json.load(f)["tests"] if t["name"] == name), None)
    # (A skipped entry has no max_score, so that Gradescope reads no
    # failure into it: its points are in extra_data.)
    return f"{t['score']} {t.get('max_score', t.get('extra_data', {}).get('points'))} {t['output']}" if t else "none"


def main(argv):
    if argv[:1] == ["class"] and len(argv) == 7:
        root, lab, mutants, what, secs, gpus = argv[1:]
        print(lab_class(root, lab, mutants.split(), what, secs, gpus))
        return 0
    if argv[:1] == ["same-grade"] and len(argv) == 7:
        print(same_grade(*argv[1:]))
        return 0
    if argv[:1] == ["perf-entry"] and len(argv) == 3:
        print(perf_entry(argv[1], argv[2]))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
