"""The reference check's key and its one-at-a-time lock (grading/reference.py)."""
import argparse
import os
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


if __name__ == "__main__":
    unittest.main()
