"""Reading the test runner's results.json against the reference's test
list, and the call rules' verdicts over it."""
import fnmatch
import json
import os

from .util import STATUS_CRASHED, STATUS_ERROR, Problem

MAX_RESULTS = 4 << 20


def check_results(data, expected, rc):
    """The runner's results (parsed JSON) checked against the expected tests:
    every test there once, with its points, and a score of 0 or its points
    that agrees with its status; the runner exits 0 exactly when every test
    that ran passed. Raises ValueError on anything else."""
    got = {t["name"]: t for t in data["tests"]}
    if len(got) != len(data["tests"]):
        raise ValueError("a test appears twice")
    tests = []
    for e in expected:
        if e["name"] not in got:
            raise ValueError(f"test {e['name']} is missing")
        t = got.pop(e["name"])
        score, mx = float(t["score"]), float(t["max_score"])
        passed = t["status"] == "passed"
        if mx != e["points"] or score != (mx if passed else 0.0):
            raise ValueError(f"test {e['name']}: score {score}/{mx}, status {t['status']}")
        kept = {"name": e["name"], "score": score, "max_score": mx, "status": t["status"],
                "output": str(t.get("output", ""))[:4000], "visibility": t.get("visibility", "visible"),
                "hidden": e["hidden"]}
        # the test's time (its reruns and chaos seeds included), for the
        # instructor who asks which tests a class's grading spends its time on
        extra = t.get("extra_data")
        seconds = extra.get("seconds") if isinstance(extra, dict) else None
        if isinstance(seconds, (int, float)) and 0 <= seconds < 1e6:
            kept["extra_data"] = {"seconds": float(seconds)}
        tests.append(kept)
    if got:
        raise ValueError(f"unknown tests {sorted(got)}")
    all_passed = all(t["status"] == "passed" or t["output"].startswith("SKIP") for t in tests)
    if all_passed != (rc == 0):
        raise ValueError(f"the runner's exit status ({rc}) contradicts its results")
    return tests


def read_results(path, expected, rc):
    if not os.path.exists(path):
        raise Problem(STATUS_CRASHED, "the test runner ended without writing its results (killed, or out "
                      f"of memory; exit status {rc}): no test can be counted")
    try:
        if os.path.getsize(path) > MAX_RESULTS:
            raise ValueError("larger than 4 MiB")
        with open(path) as f:
            return check_results(json.load(f), expected, rc)
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise Problem(STATUS_ERROR, f"the results of the test runner are not valid ({e}): not counted")


def apply_call_rules(tests, broken):
    """The call rules decide outside the runner too: a test that a broken
    rule names (broken: [(test glob, message)]) scores 0 with the message,
    whatever the runner wrote."""
    for t in tests:
        why = [msg for glob, msg in broken if fnmatch.fnmatchcase(t["name"], glob)]
        if why:
            t.update(score=0.0, status="failed", output="FAIL: " + "; ".join(why))
    return tests
