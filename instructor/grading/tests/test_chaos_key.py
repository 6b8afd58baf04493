"""The chaos seeds' key (grading/chaos_key.py): the same grading folder and
files give the same key, a change in either gives another, and the folder's
secret is made once, readable by its owner only."""
import os
import stat
import tempfile
import unittest

from grading.chaos_key import KEY_FILE, chaos_key, term_secret


class ChaosKey(unittest.TestCase):
    def test_same_folder_same_key(self):
        with tempfile.TemporaryDirectory() as out:
            first = chaos_key(term_secret(out), "0123456789abcdef")
            self.assertEqual(chaos_key(term_secret(out), "0123456789abcdef"), first)
            self.assertNotEqual(chaos_key(term_secret(out), "0123456789abcdee"), first)
            mode = stat.S_IMODE(os.stat(os.path.join(out, KEY_FILE)).st_mode)
            self.assertEqual(mode & 0o077, 0, "the secret is readable by others")

    def test_another_folder_another_key(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            self.assertNotEqual(chaos_key(term_secret(a), "0123456789abcdef"),
                                chaos_key(term_secret(b), "0123456789abcdef"))

    def test_not_the_files_digest_alone(self):
        with tempfile.TemporaryDirectory() as out:
            self.assertNotEqual(chaos_key(term_secret(out), "0123456789abcdef"), "0123456789abcdef")

    def test_empty_secret_refused(self):
        with tempfile.TemporaryDirectory() as out:
            open(os.path.join(out, KEY_FILE), "w").close()
            with self.assertRaises(SystemExit) as e:
                term_secret(out)
            self.assertIn("is empty", str(e.exception))


if __name__ == "__main__":
    unittest.main()
