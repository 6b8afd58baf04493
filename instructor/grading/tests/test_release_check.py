"""The student copy's search for reference code (grading/release_check.py):
which lines count, what a copy is refused for, and the kit's own secrets
found in a copy that holds them."""
import os
import shutil
import tempfile
import unittest

from grading import release_check
from grading.util import KIT

LONG = ["double total_of_every_row = 0.0;", "for (int row = 0; row < m; row++)", "total_of_every_row += A[row];",
        "return total_of_every_row / m;"]


class Lines(unittest.TestCase):
    def test_short_lines_and_spacing(self):
        self.assertEqual(release_check.norm_lines("  int x;\n  double   total_of_every_row = 0.0;\n}\n"),
                         {"double total_of_every_row = 0.0;"})

    def test_a_patch_counts_its_added_lines_only(self):
        patch = ("+++ b/matmult_with_a_long_name.c\n-    double removed_line_of_reference;\n"
                 "     double context_line_of_reference;\n+    double added_line_of_the_mutant;\n")
        self.assertEqual(release_check.norm_lines(patch, patch=True), {"double added_line_of_the_mutant;"})
        self.assertEqual(len(release_check.norm_lines(patch)), 4)


class Findings(unittest.TestCase):
    def setUp(self):
        self.copy = tempfile.mkdtemp()
        self.secret = "\n".join(LONG) + "\n"
        self.secrets = {"reference/labX/sum.c": (self.secret.encode(), release_check.norm_lines(self.secret))}

    def tearDown(self):
        shutil.rmtree(self.copy)

    def put(self, rel, text):
        p = os.path.join(self.copy, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
        return p

    def found(self):
        return release_check.findings(self.copy, self.secrets)

    def test_clean_copy(self):
        self.put("labs/labX/sum.c", "/* TODO */\n" + LONG[0] + "\n" + LONG[1] + "\n")  # two lines: allowed
        self.put("autograder/notes.txt", "see reference/labX\n")  # only labs/ may not name it
        self.assertEqual(self.found(), [])

    def test_equal_file(self):
        self.put("labs/labX/copy.c", self.secret)
        self.assertEqual(len(self.found()), 1)
        self.assertTrue(self.found()[0].startswith("labs/labX/copy.c holds reference/labX/sum.c"))

    def test_three_distinctive_lines(self):
        self.put("labs/labX/sum.c", "/* mine */\n" + "\n".join(LONG[1:]) + "\n")
        (f,) = self.found()
        self.assertIn("3 of its distinctive lines", f)

    def test_a_large_secret_held_whole(self):
        big = self.secret * 8
        self.secrets = {"reference/labX/big.c": (big.encode(), set())}
        self.put("common/blob.txt", "header\n" + big + "footer\n")
        self.assertEqual(self.found(), ["common/blob.txt holds reference/labX/big.c"])

    def test_labs_naming_the_reference(self):
        self.put("labs/labX/results/notes.md", "made with reference/labX\n")
        self.assertEqual(self.found(), ["labs/labX/results/notes.md names reference/"])

    def test_links_are_not_read(self):
        os.symlink(self.put("outside.c", self.secret), os.path.join(self.copy, "link.c"))
        self.assertEqual([f.split(" ")[0] for f in self.found()], ["outside.c"])


class TheKit(unittest.TestCase):
    def test_a_reference_file_in_a_copy_is_found(self):
        secrets = release_check.secret_files(KIT)
        ref = "labs/lab1-matmult/solution/matmult.c"
        data, distinctive = secrets[ref]
        self.assertTrue(distinctive)
        # The skeleton's own lines and the shared headers' are not distinctive.
        with open(os.path.join(KIT, "labs", "lab1-matmult", "matmult.c")) as f:
            self.assertFalse(release_check.norm_lines(f.read()) & distinctive)
        self.assertFalse(any("/results/" in name for name in secrets))
        with tempfile.TemporaryDirectory() as copy:
            os.makedirs(os.path.join(copy, "labs", "lab1-matmult"))
            shutil.copy(os.path.join(KIT, "labs", "lab1-matmult", "matmult.c"), os.path.join(copy, "labs", "lab1-matmult"))
            self.assertEqual(release_check.findings(copy, secrets), [])
            shutil.copy(os.path.join(KIT, ref), os.path.join(copy, "labs", "lab1-matmult", "matmult.c"))
            found = release_check.findings(copy, secrets)
            self.assertTrue(any(f.startswith(f"labs/lab1-matmult/matmult.c holds {ref} (") for f in found), found)


if __name__ == "__main__":
    unittest.main()
