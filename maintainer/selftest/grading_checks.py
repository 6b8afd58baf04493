"""The checks of the grading self-test (maintainer/selftest/grading.sh) on
what instructor/grade wrote for the generated lab 1 class: each prints
'ok      ...' or 'FAILED  ...' lines in the self-test's words.

    python3 maintainer/selftest/grading_checks.py perf-points LAB NAME
        prints perf.conf's points, full_at and zero_at of a performance case
    python3 maintainer/selftest/grading_checks.py gradebook GRADEBOOK EXPECTED
        every submission's status and total as expected.csv says
    python3 maintainer/selftest/grading_checks.py link-refused GRADEBOOK
    python3 maintainer/selftest/grading_checks.py schema STUDENTS
        every results.json in Gradescope's schema
    python3 maintainer/selftest/grading_checks.py perf STUDENTS TESTS_MAX
        the performance points of the timed class (perf.conf's lab 1 blk)
    python3 maintainer/selftest/grading_checks.py gradescope RESULTS WANT WHAT
        run_autograder's results.json scores WANT
"""
import csv
import json
import os
import sys

from grading.perf import perf_config

NOT_TESTS = ("student", "status", "total", "max", "review")


def line(ok, what):
    return ("ok      " if ok else "FAILED  ") + what


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def perf_case(lab, name):
    (p,) = [p for p in perf_config(lab) if p.name == name]
    return p


def gradebook(book, expected):
    """book: the gradebook's rows; expected: expected.csv's (student,
    status, lost, maybe, why). Expected totals come from the tests each
    submission should lose and the points the reference's row shows."""
    book = {r["student"]: r for r in book}
    tests = [k for k in next(iter(book.values())) if k not in NOT_TESTS]
    ref = book["c01_reference"]
    points = {t: float(ref[t]) for t in tests}
    full = sum(points.values())
    out = []
    if float(ref["total"]) != full or float(ref["max"]) != full:
        out.append(line(False, f"the reference scores {ref['total']}/{ref['max']}, not every point of the tests ({full:g})"))
    for e in expected:
        g = book.get(e["student"])
        if g is None:
            out.append(line(False, f"{e['student']}: no row in the gradebook"))
            continue
        lost = set(tests) if e["lost"] == "all" else set(filter(None, e["lost"].split(";")))
        maybe = set(filter(None, e["maybe"].split(";")))
        unknown = (lost | maybe) - set(tests)
        # "rejected|graded": either outcome is right (a race the sandbox may
        # win before the attack starts); graded, the honest score must stand.
        allowed = e["status"].split("|")
        graded = g["status"] == "graded"
        want = full - sum(points[t] for t in lost & set(tests)) if graded else 0.0
        maybe_points = sum(points[t] for t in maybe & set(tests) if g.get(t) in ("", "0")) if graded else 0.0
        scored = {t for t in tests if g[t] not in ("", "0")}
        problems = []
        if unknown:
            problems.append(f"expected.csv names tests the suite lacks: {sorted(unknown)}")
        if g["status"] not in allowed:
            problems.append(f"status '{g['status']}', expected '{e['status']}'")
        if float(g["total"]) != want - maybe_points:
            problems.append(f"total {g['total']}, expected {want:g}"
                            + (f" less what it lost of {sorted(maybe)}" if maybe else ""))
        if scored & lost:
            problems.append(f"scored in tests it should lose: {sorted(scored & lost)}")
        if graded and "graded" in allowed and (set(tests) - lost - maybe) - scored:
            problems.append(f"lost tests it should pass: {sorted((set(tests) - lost - maybe) - scored)}")
        what = f"{e['student']}: {g['status']}, {g['total']}/{g['max']} ({e['why']})"
        out.append(line(False, what + ": " + "; ".join(problems)) if problems else line(True, what))
    extra = set(book) - {e["student"] for e in expected}
    if extra:
        out.append(line(False, f"the gradebook has rows for no submission: {sorted(extra)}"))
    return out


def link_refused(book):
    r = {r["student"]: r for r in book}.get("h22_link_to_reference", {})
    ok = r.get("status") == "rejected" and "symbolic link" in r.get("review", "")
    return [line(ok, "h22: a class entry that links to the kit's reference is refused, the reason in "
                 f"the review column ('{r.get('review', '')[:60]}...')")]


def schema_problem(d):
    """Why a results.json (parsed) is not in Gradescope's schema, or None."""
    try:
        assert isinstance(d["score"], (int, float)) and isinstance(d["tests"], list) and "output" in d, \
            "score, tests and output wanted"
        assert abs(d["score"] - sum(t["score"] for t in d["tests"])) < 1e-9, "score is not the sum of the tests'"
        for t in d["tests"]:
            assert {"name", "score", "max_score", "status", "output", "visibility"} <= set(t), f"{t.get('name')}: a key missing"
            assert t["visibility"] == ("after_due_date" if t["name"].startswith("hidden_") else "visible"), \
                f"{t['name']}: visibility {t['visibility']}"
    except (AssertionError, KeyError, TypeError) as e:
        return f"{type(e).__name__} {e}"
    return None


def schema(root):
    bad, n = [], 0
    for sid in sorted(os.listdir(root)):
        n += 1
        try:
            with open(os.path.join(root, sid, "results.json")) as f:
                why = schema_problem(json.load(f))
        except (OSError, ValueError) as e:
            why = f"{type(e).__name__} {e}"
        if why:
            bad.append(f"{sid} ({why})")
    return [line(False, f"results.json not in Gradescope's schema: {bad}") if bad else
            line(True, f"{n} results.json in Gradescope's schema (score = sum of tests; hidden tests after the due date)")]


def perf_entry(root, sid, name="perf_blk"):
    """(results.json, its entry name, a word on it) of a student."""
    try:
        with open(os.path.join(root, sid, "results.json")) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        return None, None, f"no results ({e})"
    t = next((t for t in d["tests"] if t["name"] == name), None)
    return d, t, t["output"] if t else f"no {name} entry"


def performance(root, tests_max):
    """The timed class: the reference against itself, the blocked product
    4 and 20 times over, one that skips large products, one failing a
    required test. The points and the formula are perf.conf's and the
    grader's own (perf.PerfCase.score), never a copy."""
    blk = perf_case(1, "blk")
    points, zero_at = blk.points, blk.zero_at
    out = []

    def check(ok, what, detail):
        out.append(line(ok, f"performance: {what}" + ("" if ok else f" ({detail})")))

    d, t, o = perf_entry(root, "c01_reference")
    check(t and t["score"] == points and d["score"] == tests_max + points,
          f"the reference gets all {points:g} points against itself ({tests_max + points:g}/{tests_max + points:g})", o)
    d, t, o = perf_entry(root, "s_blk_times_4")
    ratio = t.get("extra_data", {}).get("ratio", 0) if t else 0
    check(t and 2.5 <= ratio <= 7.0 and t["score"] == blk.score(ratio) and t["score"] < points,
          f"a matmult_blk doing the product 4 times measures {ratio:.2f} x and gets {t and t['score']} of {points:g}, "
          f"the formula's value for that ratio", o)
    d, t, o = perf_entry(root, "s_blk_times_20")
    check(t and t["score"] == 0.0 and "at least 10" in t["output"] and d["score"] == tests_max,
          f"a matmult_blk doing it 20 times gets no performance points (past {zero_at:g} x), all its tests' points", o)
    d, t, o = perf_entry(root, "s_blk_skips_large")
    check(t and t["score"] == 0.0 and "result was wrong" in t["output"] and d["score"] == tests_max,
          "a matmult_blk that skips large products passes every test but its timed result is refused: "
          "no performance points", o)
    d, t, o = perf_entry(root, "r_fails_required_test")
    check(t and t["score"] == 0.0 and t["output"].startswith("SKIP: performance counts only for correct code"),
          "a matmult_blk failing a test that perf.conf requires is not timed", o)
    return out


def gradescope(path, want, what):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        return [line(False, f"gradescope run_autograder ({what}): no valid results.json ({e})")]
    ok = d["score"] == want and (what != "build-fails" or "error:" in d["output"])
    return [line(ok, f"gradescope run_autograder ({what}): results.json with score {d['score']:g}"
                 + (", the compiler's errors in its output" if what == "build-fails" else ""))]


def main(argv):
    cmd, args = (argv[0], argv[1:]) if argv else ("", [])
    if cmd == "perf-points" and len(args) == 2:
        p = perf_case(int(args[0]), args[1])
        print(f"{p.points:g} {p.full_at:g} {p.zero_at:g}")
        return 0
    checks = {
        "gradebook": (2, lambda a: gradebook(read_csv(a[0]), read_csv(a[1]))),
        "link-refused": (1, lambda a: link_refused(read_csv(a[0]))),
        "schema": (1, lambda a: schema(a[0])),
        "perf": (2, lambda a: performance(a[0], float(a[1]))),
        "gradescope": (3, lambda a: gradescope(a[0], float(a[1]), a[2])),
    }
    if cmd not in checks or len(args) != checks[cmd][0]:
        print(__doc__, file=sys.stderr)
        return 2
    for out in checks[cmd][1](args):
        print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
