"""The prepared kit copies kept between gradings (grading/prepared.py)."""
import argparse
import fcntl
import os
import subprocess
import tempfile
import unittest
from unittest import mock

from grading import prepared
from grading.lab import Lab


class Prepared(unittest.TestCase):
    def lab1(self, folder):
        return Lab(1, folder, argparse.Namespace(no_perf=True), folder)

    def test_key_follows_the_copy_and_the_reference(self):
        with tempfile.TemporaryDirectory() as d:
            lab = self.lab1(d)
            files = list(lab.copied_files())
            self.assertIn("labs/lab1-matmult/matmult.c", files)       # the skeleton, given
            self.assertIn("labs/lab1-matmult/tests/hidden_lab1.c", files)  # built, then blanked
            self.assertFalse([f for f in files if "/solution/" in f or "/mutants/" in f])
            before = prepared.key(lab)
            self.assertEqual(before, prepared.key(lab))
            with mock.patch.object(lab, "digest", return_value="another reference"):
                self.assertNotEqual(before, prepared.key(lab))
            with mock.patch.dict(os.environ, {"CC": "clang"}):
                self.assertNotEqual(before, prepared.key(lab))

    def test_copies_in_use_or_used_last_are_kept_the_others_go(self):
        with tempfile.TemporaryDirectory() as top:
            for age, name in enumerate(("lab1-new", "lab1-recent", "lab1-old", "lab1-held", "lab2-other")):
                os.makedirs(os.path.join(top, name))
                open(os.path.join(top, name, "in-use.lock"), "w").close()
                os.utime(os.path.join(top, name), (1e9 - age, 1e9 - age))
            # another grading holds lab1-held (a process of its own: flock is per open file)
            holder = subprocess.Popen(["flock", "-s", os.path.join(top, "lab1-held", "in-use.lock"),
                                       "sleep", "30"])
            try:
                for _ in range(100):
                    try:
                        with open(os.path.join(top, "lab1-held", "in-use.lock"), "a") as f:
                            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                            fcntl.flock(f, fcntl.LOCK_UN)
                    except OSError:
                        break  # held
                    subprocess.run(["sleep", "0.05"])
                prepared.prune(top, 1, os.path.join(top, "lab1-new"), spare=1)
            finally:
                holder.kill()
                holder.wait()
            # kept: the one in use, the spare one used last, the held one, another lab's
            self.assertEqual(sorted(os.listdir(top)), ["lab1-held", "lab1-new", "lab1-recent", "lab2-other"])

    def test_a_folder_others_may_write_is_not_trusted(self):
        with tempfile.TemporaryDirectory() as d:
            top = os.path.join(d, f"kit-grade-prepared-{os.geteuid()}")
            os.mkdir(top)
            os.chmod(top, 0o777)
            with mock.patch.object(prepared, "sandbox_reaches", return_value=False), \
                    mock.patch.object(prepared, "shared_top", return_value=top):
                self.assertIsNone(prepared.root())
                os.chmod(top, 0o700)
                self.assertEqual(prepared.root(), top)
                self.assertEqual(os.stat(top).st_mode & 0o777, 0o755)  # the sandbox's user reads below it


if __name__ == "__main__":
    unittest.main()
