"""The class page's counts and links (grading/classpage.py)."""
import json
import os
import re
import tempfile
import unittest

from grading import classpage, graded
from grading.util import KIT


class Page(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name
        with open(os.path.join(self.out, "lab.json"), "w") as f:
            json.dump({"num": "7", "name": "lab7-fft-poisson", "max_points": 53, "columns": ["t"]}, f)
        for sid, status, total in (("a", "graded", 40), ("b", "build failed", 0)):
            os.makedirs(os.path.join(self.out, "students", sid))
            graded.write(self.out, sid, {"student": sid, "status": status, "total": total, "max_score": 53,
                                          "tests": [{"name": "t", "score": total, "max_score": 53,
                                                     "status": "passed", "output": ""}] if total else [],
                                          "flags": "fork" if total else "sandbox refused: opened /etc/shadow"})
        with open(os.path.join(self.out, "students", "a", "feedback.txt"), "w") as f:
            f.write("a's feedback\n")
        with open(os.path.join(self.out, "gradebook.csv"), "w") as f:
            f.write("student,status,total,max,t,review\na,graded,40,53,40,\nb,build failed,0,53,,\nc,no submission,0,53,,\n")
        with open(os.path.join(self.out, "term.json"), "w") as f:
            json.dump({"students": {"c": {"no_submission": True}}}, f)

    def tearDown(self):
        self.tmp.cleanup()

    def page(self):
        with open(classpage.write_class_page(self.out)) as f:
            return f.read()

    def test_no_submission_is_its_own_row(self):
        text = self.page()
        self.assertIn("3 students: 1 build failed, 1 graded, 1 no submission; 1 tested", text)
        self.assertIn("mean 13.3", text)  # 40, 0, 0: the histogram's three

    def test_every_link_is_to_a_file(self):
        text = self.page()
        links = re.findall(r"href='([^']*)'", text)
        self.assertTrue(links)
        for link in links:
            self.assertTrue(os.path.exists(os.path.join(self.out, link)), link)
        self.assertIn("students/a/feedback.txt", links)
        self.assertNotIn("students/b/feedback.txt", links)  # none written here: no link

    def test_sandbox_refusals_lead_the_review(self):
        rows = classpage.review([{"student": "a", "status": "graded", "flags": "fork"},
                                 {"student": "z", "status": "graded", "flags": "sandbox refused: left 3 (x)"}])
        self.assertEqual([s for s, _ in rows], ["z", "a"])

    def test_a_held_grade_is_reviewed(self):
        with open(os.path.join(self.out, "term.json"), "w") as f:
            json.dump({"students": {"c": {"no_submission": True}}, "hold": ["a"]}, f)
        rows = dict(classpage.review(classpage.load(self.out)[1]))
        self.assertEqual(rows["a"], "fork; held for review")

    def test_a_hang_is_reviewed(self):
        # lab 6's tests run their code under mpirun: a hang is a FAIL there
        hung = {"student": "h", "status": "graded", "flags": "", "tests": [
            {"name": "baseline_four_ranks", "output": "FAIL: mpirun -np 4 lab6_check ran out of time (a hang)"}]}
        self.assertEqual(classpage.review([hung]), [("h", "time-out in baseline_four_ranks")])

    def test_default_similarity_folder_is_the_kits(self):
        here = os.getcwd()
        try:
            os.chdir(self.out)
            self.assertEqual(classpage.similarity_folder(self.out, {"num": "7"}),
                             os.path.join(KIT, "build", "similarity", "lab7"))
        finally:
            os.chdir(here)
