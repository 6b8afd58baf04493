"""Tests a race can pass by luck, run again (grading/repeat.py)."""
import json
import os
import tempfile
import unittest

from grading import repeat


class Repeat(unittest.TestCase):
    def test_lab2_conf_names_real_tests(self):
        rules = repeat.read_conf(2)
        self.assertEqual(repeat.runs_for(rules, "tolerance_stop_omp"), 2)
        self.assertEqual(repeat.runs_for(rules, "jacobi_bit_for_bit"), 0)
        self.assertEqual(repeat.read_conf(1), [])  # lab 1 has no repeat.conf

    def test_rerun_result_read_and_never_a_gift(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "r.json")
            with open(p, "w") as f:
                json.dump({"tests": [{"name": "t", "status": "passed"}]}, f)
            self.assertTrue(repeat.rerun_passed("t", p))
            self.assertFalse(repeat.rerun_passed("other", p))
            self.assertFalse(repeat.rerun_passed("t", os.path.join(d, "missing.json")))

    def test_disagreeing_runs_withhold_the_points(self):
        t = {"name": "tolerance_stop_omp", "score": 2.0, "status": "passed", "output": ""}
        flag = repeat.withhold(t, 1, 3)
        self.assertEqual((t["score"], t["status"]), (0.0, "failed"))
        self.assertIn("passed 1 of 3 runs", t["output"])
        self.assertIn("review: tolerance_stop_omp passed 1 of 3 runs", flag)
