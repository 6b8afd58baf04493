"""The reference check's key, its one-at-a-time lock and its runs (grading/reference.py)."""
import argparse
import os
import queue
import subprocess
import sys
import tempfile
import types
import unittest

from grading import reference


def fake_lab(gpu_tests, entries="blk"):
    tests = [{"name": "t", "points": 1.0, "hidden": False, "gpu": gpu_tests}]
    return types.SimpleNamespace(num=9, tests=tests, digest=lambda perf=True: "d " + (entries if perf else ""),
                                 limits=types.SimpleNamespace(nproc=64))


def key(lab, cpu_only):
    return reference.host_key(lab, argparse.Namespace(cpu_only=cpu_only, sandbox="bwrap"), 0)


class HostKey(unittest.TestCase):
    def test_cpu_only_counts_only_where_there_are_gpu_tests(self):
        self.assertEqual(key(fake_lab(False), True), key(fake_lab(False), False))
        self.assertNotEqual(key(fake_lab(True), True), key(fake_lab(True), False))

    def test_the_performance_entries_timed_do_not_count(self):
        # a grading with perf points and one with --no-perf share the verdict
        self.assertEqual(key(fake_lab(False, "blk"), False), key(fake_lab(False, ""), False))


class OneAtATime(unittest.TestCase):
    def test_a_second_check_waits_for_the_first(self):
        with tempfile.TemporaryDirectory() as d:
            lock = os.path.join(d, "lab9-key.json.lock")
            waiter = ("import sys; sys.path[:0] = sys.argv[2:]\n"
                      "import types; from grading import reference\n"
                      "with reference.one_at_a_time(sys.argv[1], types.SimpleNamespace(num=9)): print('got it')")
            with reference.one_at_a_time(lock, fake_lab(False)):
                p = subprocess.Popen([sys.executable, "-c", waiter, lock, *sys.path], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
                with self.assertRaises(subprocess.TimeoutExpired):
                    p.wait(timeout=1)
            out, err = p.communicate(timeout=30)
            self.assertEqual(out.strip(), "got it")
            self.assertIn("waiting for its verdict", err)

    def test_no_lock_where_none_can_be_made(self):
        with reference.one_at_a_time("/proc/no-such-folder/x.lock", fake_lab(False)):
            pass


def test(name, status, points=1.0):
    return {"name": name, "score": points if status == "passed" else 0.0, "max_score": points, "status": status,
            "output": "SKIP: needs a GPU" if status == "skipped" else "", "hidden": False}


class Runs(unittest.TestCase):
    """Outside the sandbox, only the tests the reference did not pass inside run again."""

    def verdict(self, inside, outside):
        asked = []
        slots = queue.Queue()
        slots.put(0)
        grader = types.SimpleNamespace(slots=slots, grade_in=lambda *a, **k: {"tests": inside},
                                       check_env=lambda digest: {})

        def run_outside(lab, env, folder, names):
            asked.append(names)
            return [t for t in outside if t["name"] in names]
        saved, reference.outside = reference.outside, run_outside
        try:
            with tempfile.TemporaryDirectory() as d:
                lab = types.SimpleNamespace(name="lab1-matmult", work=d)
                return reference.run(grader, lab, "k"), asked
        finally:
            reference.outside = saved

    def test_all_passed_inside_runs_nothing_outside(self):
        v, asked = self.verdict([test("a", "passed"), test("b", "passed", 2.0)], [])
        self.assertEqual(asked, [])
        self.assertEqual((v["inside"], v["outside"], v["awardable"], v["lost"]), (3.0, 3.0, 3.0, []))

    def test_a_test_lost_inside_is_run_outside_and_named(self):
        v, asked = self.verdict([test("a", "passed"), test("b", "failed", 2.0), test("g", "skipped")],
                                [test("b", "passed", 2.0), test("g", "skipped")])
        self.assertEqual(asked, [["b", "g"]])
        self.assertEqual((v["inside"], v["outside"], v["awardable"]), (1.0, 3.0, 3.0))
        self.assertEqual([t["name"] for t in v["lost"]], ["b"])

    def test_a_test_failed_on_both_sides_is_not_the_sandboxs(self):
        v, _ = self.verdict([test("a", "passed"), test("b", "failed")], [test("b", "failed")])
        self.assertEqual(v["lost"], [])
        self.assertEqual([t["name"] for t in v["failed_outside"]], ["b"])


if __name__ == "__main__":
    unittest.main()
