"""The grading package's unit tests in the self-test's words, one
'ok'/'FAILED' line per test (maintainer/selftest/grading_unit.sh):

    cd instructor && PYTHONPATH=../autograder python3 -m grading.tests

Exit status 1 when a test fails or none is found."""
import os
import sys
import unittest


class Lines(unittest.TestResult):
    """One line per test, in the self-test's words."""

    def __init__(self, out=sys.stdout):
        super().__init__()
        self.out = out

    def name(self, test):
        return test.id().removeprefix("grading.tests.")

    def addSuccess(self, test):
        super().addSuccess(test)
        print(f"ok      grading unit: {self.name(test)}", file=self.out)

    def report(self, test, err, what):
        print(f"FAILED  grading unit: {self.name(test)} ({what})", file=self.out)
        print("        " + self._exc_info_to_string(err, test).strip().splitlines()[-1], file=self.out)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.report(test, err, "failed")

    def addError(self, test, err):
        super().addError(test, err)
        self.report(test, err, "error")

    def addSubTest(self, test, subtest, err):
        # A failing subTest fails the run: it must say which and why.
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.report(subtest, err, "failed")


def run(suite, out=sys.stdout):
    """Runs suite, one line a test; True when all passed and there was one."""
    result = Lines(out)
    suite.run(result)
    if result.testsRun == 0:
        print("FAILED  grading unit: no test found in instructor/grading/tests", file=out)
    return result.wasSuccessful() and result.testsRun > 0


def main(argv):
    """No argument: instructor/grading/tests. --start DIR: the test_*.py of
    DIR instead (the self-test's checks of its own, maintainer/selftest)."""
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if argv[:1] == ["--start"] and len(argv) == 2:
        start = os.path.abspath(argv[1])
        suite = unittest.defaultTestLoader.discover(start, top_level_dir=start)
    else:
        suite = unittest.defaultTestLoader.discover(os.path.join(top, "grading", "tests"), top_level_dir=top)
    return 0 if run(suite) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
