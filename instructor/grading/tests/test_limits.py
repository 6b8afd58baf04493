"""A limit of the grader's told apart from a student's failure (grading/limits.py)."""
import os
import tempfile
import unittest

from grading import limits
from grading.sandbox import Limits


def failed(name, output):
    return {"name": name, "status": "failed", "output": output, "score": 0.0}


class Limit(unittest.TestCase):
    def setUp(self):
        self.limits = Limits(ranks=4, threads=27)

    def test_the_labs_largest_test_fits(self):
        # 4 ranks of 27 OpenMP threads and their runtimes' own, twice over
        self.assertGreaterEqual(self.limits.nproc, 2 * 4 * 27)
        self.assertLessEqual(Limits(threads=8).omp_threads(), 8)

    def test_a_recorded_limit_names_the_grader_not_the_code(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "4242"), "w") as f:
                f.write("limit four_ranks pthread_create in lab6_mpi_check\nopened - /etc/shadow\n")
            tests = [failed("four_ranks", "FAIL rank 3: the program exited (exit() or a return from main) "
                            "before the checker's checks ended: the code under test must return"),
                     failed("two_ranks", "FAIL: expected 3, got 4"),
                     {"name": "ok", "status": "passed", "output": "", "score": 1.0}]
            self.assertEqual(limits.mark(tests, d, self.limits), ["four_ranks"])
        self.assertTrue(tests[0]["output"].startswith("GRADER LIMIT: the grader's limit of "))
        self.assertIn("held for the instructor's review", tests[0]["output"])
        self.assertNotIn("must return", tests[0]["output"])
        self.assertEqual(tests[1]["output"], "FAIL: expected 3, got 4")
        self.assertIn("four_ranks", limits.flag(["four_ranks"]))
        self.assertEqual(limits.flag([]), "")

    def test_the_outputs_signs_without_a_record(self):
        tests = [failed("tsan", "/bin/sh: 0: cannot open /sub/build/lab6_tq_stress_tsan: Permission denied"),
                 failed("omp", "libgomp: Thread creation failed: Resource temporarily unavailable")]
        self.assertEqual(limits.mark(tests, None, self.limits), ["tsan", "omp"])
        self.assertIn("could not run a program of the kit's", tests[0]["output"])
        self.assertIn("processes and threads", tests[1]["output"])

    def test_a_run_that_ended_early(self):
        self.assertEqual(limits.whole_run(None, "FAIL: expected 1", self.limits), "")
        self.assertIn("GRADER LIMIT", limits.whole_run(None, "Error in call to fork: Resource temporarily "
                                                       "unavailable", self.limits))


if __name__ == "__main__":
    unittest.main()
