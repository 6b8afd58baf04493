"""What decides a grade beside the student's files (grading/current.py).
The record that is stale when one of them changes: test_graded.py."""
import argparse
import os
import tempfile
import unittest

from grading import current


def args(**kw):
    return argparse.Namespace(**{"no_perf": False, "wall": 600, "build_wall": 180, **kw})


TESTS = [{"name": "a", "points": 2.0, "hidden": False, "gpu": False}]


class Parts(unittest.TestCase):
    def test_each_part_changes_alone(self):
        base = current.parts(1, args(), TESTS, 0)
        self.assertEqual(current.changed(base, current.parts(1, args(), TESTS, 0)), [])
        self.assertEqual(current.changed(base, current.parts(1, args(no_perf=True), TESTS, 0)),
                         [current.WHY["perf.conf"]])
        self.assertEqual(current.changed(base, current.parts(1, args(), [{**TESTS[0], "points": 3.0}], 0)),
                         [current.WHY["points"]])
        self.assertEqual(current.changed(base, current.parts(1, args(), TESTS, 1)), [current.WHY["GPUs"]])
        self.assertTrue(current.changed(None, base))  # a record from before

    def test_perf_weight_change(self):
        with tempfile.NamedTemporaryFile("w", suffix=".conf") as f:
            f.write("1 blk 4 2.0 10.0 1 x h 1\n2 jacobi 3 1.25 4.0 all y h 1\n")
            f.flush()
            os.environ["GRADE_PERF_CONF"] = f.name
            try:
                before = current.parts(1, args(), TESTS, 0)
                f.seek(0)
                f.write("1 blk 5 2.0 10.0 1 x h 1\n2 jacobi 3 1.25 4.0 all y h 1\n")
                f.flush()
                self.assertEqual(current.changed(before, current.parts(1, args(), TESTS, 0)),
                                 [current.WHY["perf.conf"]])
            finally:
                del os.environ["GRADE_PERF_CONF"]

    def test_tests_digest_leaves_perf_conf_to_its_own_part(self):
        # a lab's perf.conf lies in its tests' folder: a weight changed
        # there regrades as "performance points", not as "the lab's tests"
        with tempfile.TemporaryDirectory() as d:
            for name, text in (("test_lab9.c", "x"), ("perf.conf", "blk 4 2.0 10.0 1 t h\n")):
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            before = current.tree_digest(d, leave_out=("perf.conf",))
            with open(os.path.join(d, "perf.conf"), "w") as f:
                f.write("blk 5 2.0 10.0 1 t h\n")
            self.assertEqual(current.tree_digest(d, leave_out=("perf.conf",)), before)
            self.assertNotEqual(current.tree_digest(d), before)
