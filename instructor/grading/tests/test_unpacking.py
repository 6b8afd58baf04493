"""Unpacking: the class folder's entries, refused links, archives, the
student's files found at any depth."""
import io
import os
import shutil
import subprocess
import tarfile
import tempfile
import unittest
import zipfile

from grading import unpack
from grading.util import Problem


class Unpacking(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.cls = os.path.join(self.root, "class")
        os.makedirs(self.cls)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, path, text="x"):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)

    def test_entries_and_ids(self):
        os.makedirs(os.path.join(self.cls, "anna"))
        self.write(os.path.join(self.cls, "bo b.tar.gz"))
        self.write(os.path.join(self.cls, "notes.txt"))
        os.makedirs(os.path.join(self.cls, ".hidden"))
        self.assertEqual(sorted(unpack.submissions(self.cls)), ["anna", "bo_b"])

    def test_links_and_outside_refused(self):
        outside = os.path.join(self.root, "reference")
        os.makedirs(outside)
        os.symlink(outside, os.path.join(self.cls, "linked"))
        os.makedirs(os.path.join(self.cls, "honest"))
        subs = unpack.submissions(self.cls)
        self.assertIn("linked", subs)
        self.assertIn("symbolic link", unpack.refused(self.cls, subs["linked"]))
        self.assertIsNone(unpack.refused(self.cls, subs["honest"]))
        self.assertIn("outside", unpack.refused(self.cls, os.path.join(self.cls, "..", "reference")))

    def test_collect_from_depth_shallowest_wins(self):
        sub = os.path.join(self.cls, "s")
        self.write(os.path.join(sub, "deep", "deeper", "matmult.c"), "deep")
        self.write(os.path.join(sub, "deep", "matmult.c"), "shallow")
        self.write(os.path.join(sub, "other.c"), "ignored")
        dest = os.path.join(self.root, "dest")
        os.makedirs(dest)
        unpack.collect(sub, dest, ["matmult.c"], os.path.join(self.root, "work"))
        self.assertEqual(os.listdir(dest), ["matmult.c"])
        with open(os.path.join(dest, "matmult.c")) as f:
            self.assertEqual(f.read(), "shallow")

    def test_collect_missing(self):
        sub = os.path.join(self.cls, "s")
        self.write(os.path.join(sub, "poisson.c"))
        with self.assertRaises(Problem) as e:
            unpack.collect(sub, self.root, ["poisson.c", "mandel.c"], os.path.join(self.root, "w"))
        self.assertIn("lacks mandel.c", e.exception.message)

    def test_collect_optional_may_be_missing(self):
        sub = os.path.join(self.cls, "s")
        self.write(os.path.join(sub, "matmult_gpu.cu"))
        dest = os.path.join(self.root, "d")
        os.makedirs(dest)
        unpack.collect(sub, dest, ["matmult_gpu.cu", "matmult_gpu6.cu"], os.path.join(self.root, "w"),
                       optional=["matmult_gpu6.cu"])
        self.assertEqual(os.listdir(dest), ["matmult_gpu.cu"])

    def test_linked_file_not_taken(self):
        sub = os.path.join(self.cls, "s")
        os.makedirs(sub)
        self.write(os.path.join(self.root, "secret.c"))
        os.symlink(os.path.join(self.root, "secret.c"), os.path.join(sub, "matmult.c"))
        with self.assertRaises(Problem):
            unpack.collect(sub, self.root, ["matmult.c"], os.path.join(self.root, "w"))

    def test_zip_skips_escaping_paths(self):
        archive = os.path.join(self.cls, "z.zip")
        with zipfile.ZipFile(archive, "w") as z:
            z.writestr("hw/matmult.c", "ok")
            z.writestr("../escaped.c", "no")
            z.writestr("/abs.c", "no")
        dest = os.path.join(self.root, "out")
        os.makedirs(dest)
        unpack.unpack(archive, dest)
        self.assertTrue(os.path.exists(os.path.join(dest, "hw", "matmult.c")))
        self.assertFalse(os.path.exists(os.path.join(self.root, "escaped.c")))

    def test_tar_keeps_files_only(self):
        archive = os.path.join(self.cls, "t.tar.gz")
        with tarfile.open(archive, "w:gz") as t:
            data = b"ok"
            info = tarfile.TarInfo("hw/matmult.c")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
            link = tarfile.TarInfo("hw/link.c")
            link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
            t.addfile(link)
        dest = os.path.join(self.root, "out")
        os.makedirs(dest)
        unpack.unpack(archive, dest)
        self.assertEqual(sorted(os.listdir(os.path.join(dest, "hw"))), ["matmult.c"])

    def test_bomb_refused(self):
        archive = os.path.join(self.cls, "big.zip")
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("a.c", b"\0" * (unpack.MAX_UNPACKED + 1))
        with self.assertRaises(Problem):
            unpack.unpack(archive, self.root)


if __name__ == "__main__":
    unittest.main()


class WholeClass(unittest.TestCase):
    def test_canvas_zip_as_downloaded(self):
        with tempfile.TemporaryDirectory() as d:
            z = os.path.join(d, "submissions.zip")
            with zipfile.ZipFile(z, "w") as f:
                f.writestr("jensenbob_12345_678910_matmult.c", "int x;\n")
                f.writestr("doealice_late_12346_678911_matmult.c", "int y;\n")
            folder = unpack.class_folder(z, os.path.join(d, "dl"), "grade")
            self.assertEqual(sorted(os.listdir(folder)), ["doealice_late_12346_678911_matmult.c",
                                                          "jensenbob_12345_678910_matmult.c"])
            self.assertEqual(unpack.class_folder(d, "unused", "grade"), d)  # a folder as it is

    @unittest.skipUnless(shutil.which("zip"), "Info-ZIP's zip is not installed")
    def test_a_utf8_name_without_the_zip_flag(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "in"))
            open(os.path.join(d, "in", "müllerjan_1004_5004_matmult.c"), "w").close()
            subprocess.run(["zip", "-q", "../submissions.zip", "müllerjan_1004_5004_matmult.c"],
                           cwd=os.path.join(d, "in"), check=True)
            folder = unpack.class_folder(os.path.join(d, "submissions.zip"), os.path.join(d, "dl"), "grade")
            self.assertEqual(os.listdir(folder), ["müllerjan_1004_5004_matmult.c"])

    def test_not_a_class(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "notes.txt")
            open(p, "w").close()
            with self.assertRaises(SystemExit) as e:
                unpack.class_folder(p, os.path.join(d, "dl"), "grade")
            self.assertIn("neither a folder nor an archive", str(e.exception))
