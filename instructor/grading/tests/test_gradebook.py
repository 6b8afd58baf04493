"""The gradebook and the histogram, and the student's feedback."""
import csv
import io
import unittest

from grading import gradebook, report


def record(student, status, tests, flags=""):
    return {"student": student, "status": status, "total": sum(t["score"] for t in tests), "max_score": 6,
            "tests": tests, "flags": flags}


class Gradebook(unittest.TestCase):
    def test_rows(self):
        rows = [record("ann", "graded", [{"name": "a", "score": 2.0}, {"name": "perf_blk", "score": 1.5}]),
                record("bob", "rejected", [], "the entry is a symbolic link")]
        text = gradebook.gradebook_csv(["a", "b", "perf_blk"], rows)
        got = list(csv.DictReader(io.StringIO(text)))
        self.assertEqual(list(got[0]), ["student", "status", "total", "max", "a", "b", "perf_blk", "review"])
        self.assertEqual((got[0]["total"], got[0]["a"], got[0]["b"], got[0]["perf_blk"]), ("3.5", "2", "", "1.5"))
        self.assertEqual((got[1]["status"], got[1]["total"], got[1]["review"]),
                         ("rejected", "0", "the entry is a symbolic link"))

    def test_a_hang_in_the_review_column(self):
        rows = [record("ann", "graded", [{"name": "a", "score": 0.0, "output": "TIMEOUT: no result"}], "fork")]
        got = list(csv.DictReader(io.StringIO(gradebook.gradebook_csv(["a"], rows))))
        self.assertEqual(got[0]["review"], "fork; time-out in a")

    def test_histogram(self):
        self.assertEqual(gradebook.histogram_counts([0, 4, 34, 34, 17], 34), [1, 1, 0, 0, 0, 1, 0, 0, 0, 2])
        text = gradebook.histogram_text([0, 34], 34, 1)
        self.assertIn("Totals of 2 submissions (lab 1, out of 34):", text)
        self.assertEqual(gradebook.histogram_counts([1], 0), [1] + [0] * 9)  # no points at all: no division by 0

    def test_histogram_of_a_partial_grading_spans_the_points_awarded(self):
        text = gradebook.histogram_text([31, 31, 0], 43, 6, gpu_points=12)
        self.assertIn("out of 31 (this host could award 31 of 43; 12 need a GPU)", text)
        self.assertIn("27.9 -  31.0]    2 ##", text)  # full marks here fill the top bin


class Feedback(unittest.TestCase):
    def test_hidden_details_kept_back(self):
        r = record("ann", "graded", [{"name": "a", "score": 0.0, "max_score": 2, "status": "failed",
                                      "output": "FAIL: expected 1, got 2"},
                                     {"name": "hidden_x", "score": 0.0, "max_score": 1, "status": "failed",
                                      "output": "FAIL: secret", "hidden": True}])
        r.update(total=0.0, max_score=3)
        text = report.feedback(r, "", 1, "lab1-matmult")
        self.assertIn("expected 1, got 2", text)
        self.assertNotIn("secret", text)
        self.assertIn("hidden test: failed; its details are kept back", text)
        g = report.gradescope_json(r, "")
        self.assertEqual([t["visibility"] for t in g["tests"]], ["visible", "after_due_date"])

    def test_skipped_tests_are_not_failed_in_results_json(self):
        r = record("ann", "graded", [{"name": "gpu1_sizes", "score": 0.0, "max_score": 3, "status": "failed",
                                      "output": "SKIP: needs 1 GPU; this host has none (skipped, not passed)"},
                                     {"name": "cpu", "score": 0.0, "max_score": 2, "status": "failed",
                                      "output": "FAIL: expected 1, got 2"}])
        gpu, cpu = report.gradescope_json(r, "")["tests"]
        self.assertNotIn("status", gpu)
        self.assertNotIn("max_score", gpu)  # Gradescope would infer failed from 0 of 3
        self.assertEqual((gpu["tags"], gpu["extra_data"]), (["skipped"], {"skipped": True, "points": 3}))
        self.assertEqual((cpu["status"], cpu["max_score"]), ("failed", 2))

    def test_build_log_cleaned(self):
        log = "gcc -O2 -c /sub/build/student/matmult.c\n/sub/build/student/matmult.c:3:1: error: expected ';'\n"
        self.assertEqual(report.clean_log(log), "matmult.c:3:1: error: expected ';'")


if __name__ == "__main__":
    unittest.main()
