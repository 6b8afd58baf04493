"""Tests that a race can pass by luck, run again: labs/labN-name/tests/repeat.conf
names them (a test-name glob and how many more runs, one a line, '#'
comments). A test that passed is run that many more times alone (the
runner's --only), in the same sandbox; if any run fails, its points are
withheld and the record is marked for review with the count ("passed 1 of
3 runs"), so that the same submission cannot get different grades on
different runs by luck. A rerun's own output is never counted as a pass:
it can only take points away."""
import fnmatch
import json
import os

from .util import lab_tests_dir


def read_conf(num):
    """[(test glob, more runs)] of lab num (none without a repeat.conf)."""
    path = os.path.join(lab_tests_dir(num), "repeat.conf")
    rules = []
    if not os.path.exists(path):
        return rules
    with open(path) as f:
        for n, line in enumerate(f, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) != 2 or not fields[1].isdigit() or int(fields[1]) < 1:
                raise SystemExit(f"grade: {path}:{n}: expected 'TEST-GLOB RUNS' (RUNS >= 1), got '{line.strip()}'")
            rules.append((fields[0], int(fields[1])))
    return rules


def runs_for(rules, name):
    return max((n for glob, n in rules if fnmatch.fnmatchcase(name, glob)), default=0)


def rerun_passed(name, path):
    """Did the rerun's results (path) say the test passed?"""
    try:
        with open(path) as f:
            data = json.load(f)
        return any(t.get("name") == name and t.get("status") == "passed" for t in data.get("tests", []))
    except (OSError, ValueError, AttributeError):
        return False


def withhold(t, passes, runs):
    """The test entry after reruns that disagree: no points, and why."""
    t.update(score=0.0, status="failed",
             output=f"FAIL: passed {passes} of {runs} runs: the result depends on luck (a race between threads?), "
                    "so its points are withheld until an instructor looks. First run's output: " + t["output"][:1500])
    return f"review: {t['name']} passed {passes} of {runs} runs (points withheld)"
