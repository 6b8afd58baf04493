"""Grading through Slurm, without a cluster: how the class is shared among
the array's tasks, the GPUs a lab's tasks ask for, the sbatch command, and
a failed command of a task being stopped that is no record."""
import shlex
import threading
import unittest

from grading import command, sandbox, slurm


class Slurm(unittest.TestCase):
    def test_shares_cover_the_class_once(self):
        pending = [f"s{i:02d}" for i in range(13)]
        for count in (1, 2, 5, 13):
            shares = [slurm.share(pending, i, count) for i in range(count)]
            self.assertEqual(sorted(sum(shares, [])), pending)
            self.assertLessEqual(max(map(len, shares)) - min(map(len, shares)), 1)

    def test_gpus_from_the_tests_registrations(self):
        # Lab 1 and 2 run on CPUs; lab 3's tests need one GPU at most; lab 4
        # has a test of 4 ranks on 4 GPUs (autograder/lab4/test_lab4.c).
        self.assertEqual([slurm.gpus_wanted(n) for n in (1, 2, 3, 4)], [0, 0, 1, 4])

    def test_sbatch_command(self):
        args = command.arguments("grade\n", ["--slurm", "--slurm-opts", "--partition=gpu --time=2:00:00 --gres=gpu:2",
                                           "-j", "3", "--no-perf", "4", "/tmp"])
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
