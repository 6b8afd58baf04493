"""The runner of these tests (grading/tests/__main__.py): one line per
test, failures and errors and failing subtests named with their reason,
and no test at all is a failure."""
import io
import unittest

from grading.tests.__main__ import run


def lines(*names):
    out = io.StringIO()
    ok = run(unittest.TestSuite(Runner.Sample(n) for n in names), out)
    return ok, out.getvalue().splitlines()


class Runner(unittest.TestCase):
    # (Nested: discovery must not run these as tests of the package.)
    class Sample(unittest.TestCase):
        def test_passes(self):
            pass

        def test_fails(self):
            self.assertEqual(1, 2)

        def test_errs(self):
            raise KeyError("gone")

        def test_subtest_fails(self):
            for i in (1, 2):
                with self.subTest(i=i):
                    self.assertEqual(i, 1)

    def test_pass(self):
        ok, got = lines("test_passes")
        self.assertTrue(ok)
        self.assertEqual(got, ["ok      grading unit: test_runner.Runner.Sample.test_passes"])

    def test_failure_and_error_say_why(self):
        ok, got = lines("test_passes", "test_fails", "test_errs")
        self.assertFalse(ok)
        self.assertIn("FAILED  grading unit: test_runner.Runner.Sample.test_fails (failed)", got)
        self.assertIn("        AssertionError: 1 != 2", got)
        self.assertIn("FAILED  grading unit: test_runner.Runner.Sample.test_errs (error)", got)
        self.assertIn("        KeyError: 'gone'", got)

    def test_failing_subtest_named(self):
        ok, got = lines("test_subtest_fails")
        self.assertFalse(ok)
        self.assertTrue(any(g.startswith("FAILED") and "(i=2)" in g for g in got), got)

    def test_no_test_is_a_failure(self):
        out = io.StringIO()
        self.assertFalse(run(unittest.TestSuite(), out))
        self.assertIn("no test found", out.getvalue())


if __name__ == "__main__":
    unittest.main()
