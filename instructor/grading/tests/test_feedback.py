"""Each grade's account where the student reads it (report.explain), and
the zips an LMS takes them from (lms_feedback), read back by the LMSs'
own rules."""
import csv
import json
import os
import re
import tempfile
import unittest
import zipfile

from grading import gradebook, lms_feedback, report, term


def canvas_reads(name):
    """canvas-lms's infer_comment_context_from_filename: the first two
    all-digit parts of the name, split at '_', are the user and the file."""
    return [p for p in os.path.basename(name).split("_") if re.fullmatch(r"\d+", p)][:2]


def moodle_reads(path):
    """importziplib.php: the first path part that splits at '_' into at
    least 4 fields with a number second: (participant, plugin type, name)."""
    for part in path.split("/"):
        info = part.split("_", 4)
        if len(info) >= 4 and info[1].isdigit():
            return info[1], info[2], info[3]
    return None


class Explain(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name
        self.lab = {"num": "1", "name": "lab1-matmult", "max_points": 40}
        self.recs = [{"student": "late", "status": "graded", "total": 30, "max_score": 40, "lab": "lab1-matmult",
                      "tests": [{"name": "t", "score": 30, "max_score": 40, "status": "failed", "output": "FAIL: x"}]},
                     {"student": "gone", "status": report.STATUS_NONE, "total": 0, "max_score": 40, "tests": []}]
        os.makedirs(os.path.join(self.out, "students", "late"))
        with open(os.path.join(self.out, "manual.csv"), "w") as f:
            f.write("student,points,comment\nlate,3,report\n")
        self.term = {"deadline": "2026-11-20T23:59", "late_per_day": 10, "late_cap": 50,
                     "manual": os.path.join(self.out, "manual.csv"),
                     "students": {"late": {"lms": "canvas", "lms_id": "12346", "lms_attachment": "678911",
                                           "lms_login": "doealice", "name": "Late Lee",
                                           "submitted": "2026-11-22T10:00"},
                                  "gone": {"lms": "canvas", "lms_id": "12347", "no_submission": True}}}
        self.finals = term.finals(self.term, self.recs)
        report.explain(self.out, self.lab, self.recs, self.finals)

    def tearDown(self):
        self.tmp.cleanup()

    def read(self, sid, name):
        with open(os.path.join(self.out, "students", sid, name)) as f:
            return f.read()

    def test_feedback_carries_the_account(self):
        text = self.read("late", "feedback.txt")
        self.assertIn("autograded  30 of 40", text)
        self.assertIn("late        -8 (2 day(s) late: 10% of 40 a day, at most 50%)", text)
        self.assertIn("manual      +3 (report)", text)
        self.assertIn("final       25 of 40", text)

    def test_results_json_the_same_final_as_the_export(self):
        res = json.loads(self.read("late", "results.json"))
        with open(os.path.join(self.out, "gradebook.csv"), "w") as f:
            f.write(gradebook.gradebook_csv([], self.recs, self.finals))
        with open(os.path.join(self.out, "lab.json"), "w") as f:
            json.dump(self.lab, f)
        with open(os.path.join(self.out, "term.json"), "w") as f:
            json.dump(self.term, f)
        path, _, _, _ = term.export(self.out, "csv")
        with open(path, newline="") as f:
            row = next(r for r in csv.DictReader(f) if r["student"] == "late")
        self.assertEqual((res["score"], float(row["final"])), (25, 25))
        self.assertEqual(res["extra_data"]["grade"]["late"].split()[0], "-8")
        self.assertIn("manual      +3", res["output"])

    def test_nothing_handed_in_has_its_files(self):
        self.assertIn("Nothing was handed in", self.read("gone", "feedback.txt"))
        self.assertEqual(json.loads(self.read("gone", "results.json"))["score"], 0)

    def test_partial_grading_said(self):
        lines, final = report.grade_account({"total": 30, "max_score": 53}, None, 12)
        self.assertIn("this host could award 41: 12 need a GPU", lines[1])
        self.assertEqual((lines[-1], final), ("  final       30 of 41", 30))


class Zips(unittest.TestCase):
    students = {"adoe": {"lms": "canvas", "lms_id": "12346", "lms_attachment": "678911", "lms_login": "adoe"},
                "bob_j": {"lms": "moodle", "lms_id": "777", "name": "Bob_Jensen"},
                "nolms": {},
                "carl": {"lms": "canvas", "lms_id": "12347", "no_submission": True}}

    def build(self, fmt, held=()):
        with tempfile.TemporaryDirectory() as out:
            for sid in self.students:
                os.makedirs(os.path.join(out, "students", sid))
                with open(os.path.join(out, "students", sid, "feedback.txt"), "w") as f:
                    f.write(f"feedback of {sid}\n")
            path, put, left = lms_feedback.build(out, fmt, self.students, sorted(self.students), held)
            with zipfile.ZipFile(path) as z:
                return {n: z.read(n).decode() for n in z.namelist()}, put, left

    def test_canvas_names_read_back_by_canvas(self):
        files, put, left = self.build("canvas")
        self.assertEqual(put, ["adoe"])
        self.assertEqual(sorted(left), ["bob_j", "carl", "nolms"])  # carl: no file of his to comment on
        (name, text), = files.items()
        self.assertEqual(canvas_reads(name), ["12346", "678911"])
        self.assertEqual(text, "feedback of adoe\n")

    def test_a_held_grade_is_not_in_the_feedback(self):
        files, put, _ = self.build("canvas", held={"adoe"})
        self.assertEqual(put, ["adoe"])
        (text,) = files.values()
        self.assertIn("held for review", text)
        self.assertNotIn("feedback of adoe", text)

    def test_moodle_names_read_back_by_moodle(self):
        files, put, left = self.build("moodle")
        self.assertEqual(put, ["bob_j"])
        (name, _), = files.items()
        self.assertEqual(name, "Bob Jensen_777_assignfeedback_file/feedback.txt")
        self.assertEqual(moodle_reads(name), ("777", "assignfeedback", "file"))

    def test_a_digit_login_does_not_take_the_user_ids_place(self):
        name = lms_feedback.entry_name("canvas", "x", {"lms": "canvas", "lms_id": "5", "lms_attachment": "6",
                                                       "lms_login": "2024"})
        self.assertEqual(canvas_reads(name), ["5", "6"])
