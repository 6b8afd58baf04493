"""Canvas and Moodle bulk downloads, the roster (grading/lms.py)."""
import os
import tempfile
import unicodedata
import unittest

from grading import lms


def touch(path, text="int x;\n"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class Layout(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def test_canvas_files_grouped_per_student_last_upload_wins(self):
        src = os.path.join(self.dir, "in")
        touch(f"{src}/jensenbob_12345_678910_poisson.c", "first")
        touch(f"{src}/jensenbob_12345_678911_poisson-1.c", "second")
        touch(f"{src}/jensenbob_12345_678910_mandel.c")
        touch(f"{src}/doealice_late_12346_678912_poisson.c")
        self.assertEqual(lms.layout(src), "canvas")
        folder, kind, meta = lms.stage(src, os.path.join(self.dir, "out"), ["poisson.c", "mandel.c"])
        self.assertEqual(kind, "canvas")
        self.assertEqual(sorted(os.listdir(folder)), ["doealice", "jensenbob"])
        self.assertEqual(sorted(os.listdir(f"{folder}/jensenbob")), ["mandel.c", "poisson.c"])
        with open(f"{folder}/jensenbob/poisson.c") as f:
            self.assertEqual(f.read(), "second")
        self.assertTrue(meta["doealice"]["late"])
        self.assertFalse(meta["jensenbob"]["late"])
        self.assertEqual(meta["jensenbob"]["lms_id"], "12345")

    def test_canvas_logins_in_any_script(self):
        src = os.path.join(self.dir, "in")
        touch(f"{src}/müllerjan_1004_5004_poisson.c")
        touch(f"{src}/jensenbob_12345_678910_poisson.c")
        touch(f"{src}/{unicodedata.normalize('NFD', 'øberglärs')}_1005_5005_poisson.c")  # a macOS zip's spelling
        self.assertEqual(lms.layout(src), "canvas")
        folder, _, meta = lms.stage(src, os.path.join(self.dir, "out"), ["poisson.c"])
        self.assertEqual(sorted(os.listdir(folder)), ["jensenbob", "müllerjan", "øberglärs"])
        self.assertEqual(meta["müllerjan"]["lms_id"], "1004")

    def test_a_name_no_layout_reads_is_named(self):
        src = os.path.join(self.dir, "in")
        touch(f"{src}/jensenbob_12345_678910_poisson.c")
        touch(f"{src}/doealice_12346_678911_poisson.c")
        touch(f"{src}/poisson (1).c")
        with self.assertRaises(ValueError) as e:
            lms.layout(src)
        self.assertIn("1 file is named otherwise, which no layout reads: 'poisson (1).c'", str(e.exception))
        with self.assertRaises(SystemExit) as e:
            lms.stage_class(src, os.path.join(self.dir, "out"), ["poisson.c"], None, self.dir, "grade")
        self.assertIn("grade: ", str(e.exception))
        self.assertIn("'poisson (1).c'", str(e.exception))

    def test_loose_files_named_when_nothing_is_read(self):
        touch(os.path.join(self.dir, "in", "poisson.c"))
        said = lms.no_submissions(os.path.join(self.dir, "in"), "poisson.c", "similarity")
        self.assertIn("not read: poisson.c", said)

    def test_moodle_folders_with_roster(self):
        src = os.path.join(self.dir, "in")
        touch(f"{src}/Bob Jensen_777_assignsubmission_file_/poisson.c")
        touch(f"{src}/Ana Ñúñez_778_assignsubmission_file_/sub/poisson.c")
        roster = os.path.join(self.dir, "roster.csv")
        touch(roster, "Full name,Username,Email address,ID number\nBob Jensen,bjensen,b@u.edu,777\n"
                      "Ana Ñúñez,anunez,a@u.edu,778\nNo Show,noshow,n@u.edu,779\n")
        self.assertEqual(lms.layout(src), "moodle")
        folder, kind, meta = lms.stage(src, os.path.join(self.dir, "out"), ["poisson.c"], lms.read_roster(roster))
        self.assertEqual(kind, "moodle")
        self.assertEqual(sorted(os.listdir(folder)), ["anunez", "bjensen"])
        self.assertEqual(meta["bjensen"]["email"], "b@u.edu")
        self.assertTrue(meta["noshow"].get("no_submission"))
        # Moodle's 'ID number' is the profile's idnumber, not the download's participant number
        self.assertEqual((meta["bjensen"]["idnumber"], meta["bjensen"]["lms_id"]), ("777", "777"))
        self.assertEqual(meta["anunez"]["lms"], "moodle")

    def test_a_student_the_roster_does_not_name_is_refused(self):
        src = os.path.join(self.dir, "in")
        touch(f"{src}/jensenbob_12345_678910_poisson.c")
        touch(f"{src}/doealice_12346_678911_poisson.c")
        roster = os.path.join(self.dir, "roster.csv")
        touch(roster, "Student,ID,SIS Login ID\nBob Jensen,12345,bjensen\n")
        with self.assertRaises(SystemExit) as e:
            lms.stage_class(src, os.path.join(self.dir, "out"), ["poisson.c"], roster, self.dir, "grade")
        self.assertIn("does not name 1 student of the Canvas download: doealice (user id 12346)", str(e.exception))

    def test_plain_folders_left_alone(self):
        touch(os.path.join(self.dir, "in", "ann", "poisson.c"))
        src = os.path.join(self.dir, "in")
        self.assertEqual(lms.stage(src, os.path.join(self.dir, "out"), ["poisson.c"]), (src, "folders", {}))

    def test_roster_without_names_is_an_error(self):
        roster = os.path.join(self.dir, "r.csv")
        touch(roster, "colour\nred\n")
        with self.assertRaises(SystemExit) as e:
            lms.read_roster(roster)
        self.assertIn("names no student", str(e.exception))
