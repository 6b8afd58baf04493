"""The check of a lab's graded class in the self-test
(maintainer/selftest/grading_labs_checks.py), on made-up classes: the reference with
every point that ran, the skeleton none, each mutant less, an early exit
nothing of the tests it names."""
import csv
import json
import os
import tempfile
import unittest

import grading_labs_checks as sgl

TESTS = ["cpu_a", "cpu_b", "gpu_c"]


class LabClass(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.rows = []

    def tearDown(self):
        self.tmp.cleanup()

    def student(self, sid, scores, status="graded"):
        """scores: {test: points of 2}; gpu_c is skipped for everyone."""
        tests = [{"name": t, "score": scores.get(t, 0), "max_score": 2,
                  "output": "SKIP: no GPU" if t == "gpu_c" else "ok"} for t in TESTS]
        os.makedirs(os.path.join(self.root, "students", sid))
        with open(os.path.join(self.root, "students", sid, "results.json"), "w") as f:
            json.dump({"tests": tests}, f)
        self.rows.append({"student": sid, "status": status, "total": sum(scores.values()), "max": 6, "review": ""})

    def check(self, mutants, named=lambda lab, m: ["cpu_a", "cpu_b", "gpu_c"]):
        with open(os.path.join(self.root, "gradebook.csv"), "w") as f:
            w = csv.DictWriter(f, ["student", "status", "total", "max", "review"])
            w.writeheader()
            w.writerows(self.rows)
        return sgl.lab_class(self.root, "9", mutants, "test", 1, 0, named)

    def test_a_good_class(self):
        self.student("reference", {"cpu_a": 2, "cpu_b": 2})
        self.student("skeleton", {})
        self.student("mutant_m1", {"cpu_a": 2})
        self.student("mutant_early_exit", {})
        out = self.check(["m1", "early_exit"])
        self.assertTrue(out.startswith("ok      lab 9 (test)"), out)
        self.assertIn("(2 points in tests this host cannot run)", out)

    def test_each_fault_named(self):
        self.student("reference", {"cpu_a": 2, "cpu_b": 1})
        self.student("skeleton", {"cpu_b": 1})
        self.student("mutant_m1", {"cpu_a": 2, "cpu_b": 1})
        self.student("mutant_early_exit", {"cpu_b": 1}, status="timed out")
        out = self.check(["m1", "early_exit"])
        self.assertTrue(out.startswith("FAILED"))
        for why in ("the reference lost ['cpu_b']", "the skeleton scored 1", "the mutant m1 scored 3",
                    "mutant_early_exit timed out", "kept points of ['cpu_b']"):
            self.assertIn(why, out)

    def test_early_exit_judged_on_its_named_tests_only(self):
        self.student("reference", {"cpu_a": 2, "cpu_b": 2})
        self.student("skeleton", {})
        self.student("mutant_early_exit", {"cpu_b": 2})
        self.assertTrue(self.check(["early_exit"], lambda lab, m: ["cpu_a"]).startswith("ok"))
        self.assertTrue(self.check(["early_exit"]).startswith("FAILED"))

    def test_missing_row_and_a_reference_short_of_points(self):
        self.student("reference", {})
        self.student("skeleton", {})
        self.assertIn("the gradebook lacks a row", self.check(["m1"]))
        self.assertIn("the reference lost ['cpu_a', 'cpu_b']", self.check([]))

    def test_perf_entry_and_kit_patches(self):
        self.student("reference", {"cpu_a": 2})
        path = os.path.join(self.root, "students", "reference", "results.json")
        self.assertEqual(sgl.perf_entry(path, "cpu_a"), "2 2 ok")
        self.assertEqual(sgl.perf_entry(path, "perf_x"), "none")
        self.assertIn("nccl_one_rank", sgl.caught_by(4, "early_exit"))


class SameGrade(unittest.TestCase):
    """The grader's own check's line: the reference's verdict (lab.json),
    and the mutant, graded as the student mutant_NAME, losing the same
    tests in the sandbox as outside it."""

    def line(self, inside_lost, outside_lost, ref=None):
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "lab.json"), "w") as f:
                json.dump({"reference": ref or {"inside": 4, "outside": 4, "awardable": 4, "lost": []}}, f)
            os.makedirs(os.path.join(root, "students", "mutant_m1"))

            def tests(lost):
                return {"tests": [{"name": t, "score": 0 if t in lost else 2, "max_score": 2, "output": "ok"}
                                  for t in TESTS[:2]]}
            with open(os.path.join(root, "students", "mutant_m1", "results.json"), "w") as f:
                json.dump(tests(inside_lost), f)
            with open(os.path.join(root, "outside.json"), "w") as f:
                json.dump(tests(outside_lost), f)
            return sgl.same_grade(root, "9", "m1", os.path.join(root, "outside.json"), 1, 0)

    def test_same_tests_lost(self):
        self.assertTrue(self.line(["cpu_a"], ["cpu_a"]).startswith("ok      lab 9: the reference earns 4 of 4"))

    def test_each_difference_named(self):
        self.assertIn("lost ['cpu_b'] only in the sandbox and ['cpu_a'] only outside", self.line(["cpu_b"], ["cpu_a"]))
        self.assertIn("lost no test outside", self.line([], []))
        out = self.line(["cpu_a"], ["cpu_a"], {"inside": 2, "outside": 4, "awardable": 4,
                                               "lost": [{"name": "cpu_b"}]})
        self.assertTrue(out.startswith("FAILED") and "earns 2 in the sandbox, 4 outside" in out, out)


if __name__ == "__main__":
    unittest.main()
