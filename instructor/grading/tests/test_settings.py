"""The term's settings taken up and refused before any preparation
(grading/command.py's settings)."""
import os
import tempfile
import unittest
from unittest import mock

from grading import command, term


class Args:
    def __init__(self, lab, **kw):
        self.lab, self.deadline, self.manual, self.cpu_only, self.slurm = lab, None, None, None, False
        self.__dict__.update(kw)


class Settings(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_gpu_tests_read_from_the_test_program(self):
        self.assertTrue(command.has_gpu_tests("3"))
        self.assertFalse(command.has_gpu_tests("1"))

    def test_gpu_lab_without_gpu_refused_at_once(self):
        with mock.patch.dict(os.environ, {"KIT_GPU_COUNT": "0"}):
            with self.assertRaises(SystemExit) as e:
                command.settings(Args("3"), self.out)
            self.assertIn("--cpu-only", str(e.exception))
            command.settings(Args("1"), self.out)  # a CPU lab goes on
            command.settings(Args("3", cpu_only=True), self.out)

    def test_cpu_only_kept_from_the_term(self):
        term.keep(self.out, cpu_only=True)
        args = Args("3")
        with mock.patch.dict(os.environ, {"KIT_GPU_COUNT": "0"}):
            command.settings(args, self.out)
        self.assertTrue(args.cpu_only)
        with mock.patch.dict(os.environ, {"KIT_GPU_COUNT": "0"}), self.assertRaises(SystemExit):
            command.settings(Args("3", cpu_only=False), self.out)  # --no-cpu-only: refused again

    def test_bad_deadline_and_manual_refused(self):
        with self.assertRaises(SystemExit):
            command.settings(Args("1", deadline="friday"), self.out)
        with self.assertRaises(SystemExit):
            command.settings(Args("1", manual=os.path.join(self.out, "none.csv")), self.out)
