"""The late policy, manual marks and the LMS exports (grading/term.py)."""
import csv
import json
import os
import tempfile
import unittest

from grading import gradebook, term


class Late(unittest.TestCase):
    def test_days_late_counts_started_days(self):
        self.assertEqual(term.days_late("2026-11-20T23:59", "2026-11-20T23:59"), 0)
        self.assertEqual(term.days_late("2026-11-21T00:00", "2026-11-20T23:59"), 1)
        self.assertEqual(term.days_late("2026-11-23T00:00+01:00", "2026-11-20T23:59Z"), 2)  # 22nd, 23:00 UTC
        self.assertEqual(term.days_late("", "2026-11-20T23:59"), 0)

    def test_penalty_capped(self):
        self.assertEqual(term.late_penalty(2, 10, 50, 40), 8)
        self.assertEqual(term.late_penalty(9, 10, 50, 40), 20)


class Export(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name
        recs = [{"student": "adoe", "status": "graded", "total": 30, "max_score": 40, "tests": []},
                {"student": "bjensen", "status": "graded", "total": 40, "max_score": 40, "tests": []}]
        with open(os.path.join(self.out, "manual.csv"), "w") as f:
            f.write("student,points,comment\nadoe,5,report\nadoe,-1,style\n")
        t = {"deadline": "2026-11-20T23:59", "late_per_day": 10, "late_cap": 50,
             "manual": os.path.join(self.out, "manual.csv"),
             "students": {"adoe": {"lms_id": "12346", "name": "Alice Doe", "submitted": "2026-11-22T10:00"},
                          "bjensen": {"lms_id": "12345", "name": "Bob Jensen", "email": "b@u.edu"}}}
        with open(os.path.join(self.out, "term.json"), "w") as f:
            json.dump(t, f)
        with open(os.path.join(self.out, "lab.json"), "w") as f:
            json.dump({"num": "2", "name": "lab2-openmp", "max_points": 40}, f)
        self.finals = term.finals(t, recs)
        with open(os.path.join(self.out, "gradebook.csv"), "w") as f:
            f.write(gradebook.gradebook_csv([], recs, self.finals))

    def tearDown(self):
        self.tmp.cleanup()

    def test_finals(self):
        # 2 days late: 20% of 40 = 8 taken; manual 5 - 1 added
        self.assertEqual(self.finals["adoe"]["final"], 30 - 8 + 4)
        self.assertEqual(self.finals["bjensen"]["final"], 40)

    def read(self, fmt):
        path, n, _, _ = term.export(self.out, fmt)
        with open(path, newline="") as f:
            return list(csv.reader(f))

    def test_canvas(self):
        rows = self.read("canvas")
        self.assertEqual(rows[0], ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Lab 2"])
        self.assertEqual(rows[1][-1], "40")  # Points Possible
        self.assertEqual(rows[2][:2] + rows[2][-1:], ["Alice Doe", "12346", "26"])

    def test_moodle(self):
        rows = self.read("moodle")
        self.assertEqual(rows[0][:4], ["Full name", "Email address", "ID number", "Lab 2"])
        # 'ID number' is the profile's idnumber: the roster's, else empty (never the LMS's user id)
        self.assertEqual(rows[2][:4], ["Bob Jensen", "b@u.edu", "", "40"])
        self.assertIn("late 2 day(s)", rows[1][4])

    def test_unknown_format(self):
        with self.assertRaises(SystemExit):
            term.export(self.out, "blackboard")

    def test_held_for_review(self):
        path, _, _, held = term.export(self.out, "moodle", hold="adoe")
        self.assertEqual(held, ["adoe"])
        self.assertEqual(term.load(self.out)["hold"], ["adoe"])  # kept for the next export
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[1][3:], ["", "held for review"])  # a blank grade, the comment
        self.assertEqual(rows[2][3], "40")
        self.assertEqual(self.read("canvas")[2][-1], "")
        _, _, _, held = term.export(self.out, "csv", hold="none")
        self.assertEqual((held, term.load(self.out)["hold"]), ([], []))

    def test_unknown_ids_refused_with_what_they_likely_mean(self):
        with self.assertRaises(SystemExit) as e:
            term.export(self.out, "canvas", hold="DoeAlice,adeo,zed")
        said = str(e.exception)
        self.assertIn("HOLD names 3 students not in the class", said)
        self.assertIn("DoeAlice (did you mean adoe (Alice Doe)?)", said)
        self.assertIn("adeo (did you mean adoe (Alice Doe)?)", said)
        self.assertIn("zed.", said)
        self.assertNotIn("hold", term.load(self.out))

    def test_moodle_export_of_a_canvas_download_refused(self):
        t = term.load(self.out)
        for info in t["students"].values():
            info["lms"] = "canvas"
        with open(os.path.join(self.out, "term.json"), "w") as f:
            json.dump(t, f)
        with self.assertRaises(SystemExit) as e:
            term.export(self.out, "moodle")
        self.assertIn("the class is a Canvas download", str(e.exception))
        self.assertNotIn("\n", str(e.exception))  # one line
        self.assertEqual(self.read("canvas")[0][-1], "Lab 2")


class Account(unittest.TestCase):
    """The term's settings, the partial grading, and each grade's account."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name
        self.recs = [{"student": "late", "status": "graded", "total": 41, "max_score": 53, "tests": []}]
        self.term = {"deadline": "2026-11-20T23:59", "late_per_day": 10, "late_cap": 50,
                     "students": {"late": {"lms_id": "7", "name": "Late Lee", "sis_id": "S-7", "idnumber": "u7",
                                           "email": "l@u.edu", "submitted": "2026-11-22T10:00"}}}
        with open(os.path.join(self.out, "term.json"), "w") as f:
            json.dump(self.term, f)
        with open(os.path.join(self.out, "lab.json"), "w") as f:
            json.dump({"num": "7", "name": "lab7-fft-poisson", "max_points": 53, "gpu_points": 12}, f)
        finals = term.finals(self.term, self.recs, 12)
        with open(os.path.join(self.out, "gradebook.csv"), "w") as f:
            f.write(gradebook.gradebook_csv([], self.recs, finals))

    def tearDown(self):
        self.tmp.cleanup()

    def test_penalty_on_the_points_graded(self):
        f = term.finals(self.term, self.recs, 12)["late"]
        self.assertEqual((f["late_days"], f["late_penalty"], f["graded"]), (2, 8.2, 41))  # 20% of 41, not of 53
        self.assertEqual(term.finals(self.term, self.recs)["late"]["late_penalty"], 10.6)  # all graded: of 53

    def test_partial_export_refused_without_the_choice(self):
        with self.assertRaises(SystemExit) as e:
            term.export(self.out, "canvas")
        self.assertIn("could award 41 of lab 7's 53", str(e.exception))
        self.assertIn("PARTIAL=awarded", str(e.exception))
        self.assertIn("PARTIAL=scaled", str(e.exception))

    def test_partial_export_out_of_what_was_graded(self):
        path, n, said, _ = term.export(self.out, "canvas", partial="awarded")
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        self.assertIn("give the assignment 41 points in the LMS", said)
        self.assertEqual(rows[1][-1], "41")                    # Points Possible: what this host could award
        self.assertEqual(rows[2], ["Late Lee", "7", "S-7", "late", "", "32.8"])  # SIS User ID from the roster

    def test_partial_export_scaled(self):
        path, n, said, _ = term.export(self.out, "canvas", partial="scaled")
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        self.assertIn("scaled to 53", said)
        self.assertEqual(rows[1][-1], "53")
        self.assertEqual(rows[2][-1], "42.4")  # (41 - 8.2) x 53/41

    def test_moodle_idnumber_from_the_roster(self):
        path, _, _, _ = term.export(self.out, "moodle", partial="awarded")
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[1][:4], ["Late Lee", "l@u.edu", "u7", "32.8"])

    def test_cpu_only_kept(self):
        class Args:
            cpu_only, no_leaderboard = True, False
        term.save(self.out, Args, {})
        self.assertTrue(term.load(self.out)["cpu_only"])
        Args.cpu_only = None  # a run that does not say keeps it
        term.save(self.out, Args, {})
        self.assertTrue(term.load(self.out)["cpu_only"])
        Args.cpu_only = False  # --no-cpu-only forgets it
        term.save(self.out, Args, {})
        self.assertFalse(term.load(self.out)["cpu_only"])
