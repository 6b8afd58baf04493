#!/usr/bin/env bash
# Unit tests of the grading package (run by make test): its pure parts, the
# parsing of the runner's output, perf.conf, calls.conf and the
# instructor-only list, the scoring, unpacking, the gradebook, and the ELF
# reading on objects compiled here. Python's unittest, in
# autograder/grading/tests/; one ok/FAILED line per test.
set -u
cd "$(dirname "$0")/.." || exit 2
python3 - <<'PY'
import sys
import unittest


class Lines(unittest.TestResult):
    """One line per test, in the self-test's words."""

    def addSuccess(self, test):
        super().addSuccess(test)
        print(f"ok      grading unit: {test.id().removeprefix('grading.tests.')}")

    def report(self, test, err, what):
        print(f"FAILED  grading unit: {test.id().removeprefix('grading.tests.')} ({what})")
        print("        " + self._exc_info_to_string(err, test).strip().splitlines()[-1])

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.report(test, err, "failed")

    def addError(self, test, err):
        super().addError(test, err)
        self.report(test, err, "error")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:  # a failed subTest fails the run: say which
            self.report(subtest, err, "failed")


suite = unittest.defaultTestLoader.discover("grading/tests", top_level_dir=".")
result = Lines()
suite.run(result)
if result.testsRun == 0:
    print("FAILED  grading unit: no test found in autograder/grading/tests")
sys.exit(0 if result.wasSuccessful() else 1)
PY
