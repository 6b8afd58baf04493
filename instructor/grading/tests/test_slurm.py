"""Grading through Slurm, without a cluster: how the class is shared among
the array's tasks, the GPUs a lab's tasks ask for (its test program's
list), the sbatch command, and
a failed command of a task being stopped that is no record."""
import os
import shlex
import tempfile
import threading
import unittest
from unittest import mock

from grading import command, sandbox, slurm


class Slurm(unittest.TestCase):
    def test_shares_cover_the_class_once(self):
        pending = [f"s{i:02d}" for i in range(13)]
        for count in (1, 2, 5, 13):
            shares = [slurm.share(pending, i, count) for i in range(count)]
            self.assertEqual(sorted(sum(shares, [])), pending)
            self.assertLessEqual(max(map(len, shares)) - min(map(len, shares)), 1)

    def test_gpus_from_the_test_programs_list(self):
        # What the test program's --list says (autograder/sched/gpus): the
        # most GPUs of one test; none when no test needs one; a program of
        # the old list format ("(needs a GPU)", no count) is refused.
        lists = {"two": "a  2 points  visible\nb  1 points  visible  (needs 1 GPU)\n"
                        "c  3 points  hidden  (needs 4 GPUs)\n",
                 "none": "a  2 points  visible\n",
                 "old": "b  1 points  visible  (needs a GPU)\n"}
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in lists.items():
                os.makedirs(os.path.join(tmp, name))
                prog = os.path.join(tmp, name, "test_lab9")
                with open(prog, "w") as f:
                    f.write(f"#!/bin/sh\nprintf '{text}'\n")
                os.chmod(prog, 0o755)
            self.assertEqual(slurm.gpus_wanted(9, os.path.join(tmp, "two")), 4)
            self.assertEqual(slurm.gpus_wanted(9, os.path.join(tmp, "none")), 0)
            with self.assertRaises(SystemExit) as e:
                slurm.gpus_wanted(9, os.path.join(tmp, "old"))
            self.assertIn("predates", str(e.exception))

    def test_sbatch_command(self):
        args = command.arguments("grade\n", ["--slurm", "--slurm-opts", "--partition=gpu --time=2:00:00 --gres=gpu:2",
                                           "-j", "3", "--no-perf", "4", "/tmp"])
        with mock.patch.object(slurm, "gpus_wanted", return_value=4):
            cmd = slurm.sbatch_command(args, "/out", "/out/slurm/share.txt", 5)
        self.assertEqual(cmd[:6], ["sbatch", "--parsable", "--array=0-4", "--job-name=grade-lab4",
                                   "--output=/out/slurm/%A_%a.log", "--cpus-per-task=3"])
        # The lab's GPUs, then the instructor's options, which win.
        self.assertLess(cmd.index("--gres=gpu:4"), cmd.index("--gres=gpu:2"))
        self.assertIn("--partition=gpu", cmd)
        task = shlex.split(cmd[cmd.index("--wrap") + 1])
        self.assertEqual(task[1:3], ["--slurm-task", "/out/slurm/share.txt"])
        self.assertEqual(task[-2:], ["4", "/tmp"])
        self.assertIn("--no-perf", task)
        self.assertNotIn("--slurm", task)
        self.assertEqual(task[task.index("-j") + 1], "3")

    def test_failed_command_of_a_stopped_task_is_no_record(self):
        stopping = threading.Event()
        box = sandbox.Sandbox("/kit", "off", stopping=stopping)
        self.assertEqual(box.confirmed(0, "ok"), (0, "ok"))
        self.assertEqual(box.confirmed(2, "failed"), (2, "failed"))  # after KILL_GRACE: believed
        stopping.set()
        self.assertEqual(box.confirmed(0, "ok"), (0, "ok"))
        with self.assertRaises(sandbox.Stopped):
            box.confirmed(143, "killed")
        self.assertFalse(issubclass(sandbox.Stopped, Exception))  # not caught as a grader error


if __name__ == "__main__":
    unittest.main()
