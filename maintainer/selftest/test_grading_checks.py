"""The grading self-test's checks (maintainer/selftest/grading_checks.py), on made-up
gradebooks and results: each must pass what is right and fail what is
not, saying why."""
import json
import os
import tempfile
import unittest

import grading_checks as sg


def row(student, status, total, mx, **tests):
    return {"student": student, "status": status, "total": str(total), "max": str(mx), "review": "", **tests}


def expect(student, status="graded", lost="", maybe="", why="w"):
    return {"student": student, "status": status, "lost": lost, "maybe": maybe, "why": why}


BOOK = [row("c01_reference", "graded", 5, 5, a="2", b="3"),
        row("m01", "graded", 2, 5, a="2", b="0"),
        row("h01", "rejected", 0, 5, a="", b="")]


class Gradebook(unittest.TestCase):
    def test_as_expected(self):
        out = sg.gradebook(BOOK, [expect("c01_reference"), expect("m01", lost="b"),
                                  expect("h01", status="rejected|graded")])
        self.assertEqual([o[:8] for o in out], ["ok      "] * 3, out)

    def test_wrong_total_and_status_and_missing_rows(self):
        out = sg.gradebook(BOOK, [expect("c01_reference"), expect("m01", lost="a"), expect("h01"),
                                  expect("z99")])
        failed = [o for o in out if o.startswith("FAILED")]
        self.assertEqual(len(failed), 3, out)
        self.assertIn("total 2, expected 3", failed[0])
        self.assertIn("scored in tests it should lose: ['a']", failed[0])
        self.assertIn("status 'rejected', expected 'graded'", failed[1])
        self.assertIn("z99: no row", failed[2])

    def test_maybe_and_unknown_and_extra_rows(self):
        out = sg.gradebook(BOOK, [expect("c01_reference"), expect("m01", maybe="b")])
        self.assertTrue(out[1].startswith("ok"), out)  # lost b, which it may
        self.assertIn("the gradebook has rows for no submission: ['h01']", out[-1])
        out = sg.gradebook(BOOK, [expect("c01_reference"), expect("m01", lost="b;nope"), expect("h01", "rejected")])
        self.assertIn("names tests the suite lacks: ['nope']", out[1])

    def test_reference_short_of_full_points(self):
        book = [row("c01_reference", "graded", 4, 5, a="2", b="2")]
        self.assertTrue(sg.gradebook(book, [expect("c01_reference")])[0].startswith("FAILED  the reference scores"))

    def test_link_refused(self):
        ok = [row("h22_link_to_reference", "rejected", 0, 5)]
        ok[0]["review"] = "the entry is a symbolic link (to /kit): not graded"
        self.assertTrue(sg.link_refused(ok)[0].startswith("ok"))
        self.assertTrue(sg.link_refused(BOOK)[0].startswith("FAILED"))


def results(score, *tests):
    return {"score": score, "output": "", "tests": [
        {"name": n, "score": s, "max_score": 2, "status": "passed", "output": "", "visibility": v} for n, s, v in tests]}


class Schema(unittest.TestCase):
    def test_problems(self):
        self.assertIsNone(sg.schema_problem(results(3, ("a", 1, "visible"), ("hidden_b", 2, "after_due_date"))))
        self.assertIn("sum", sg.schema_problem(results(4, ("a", 1, "visible"))))
        self.assertIn("visibility", sg.schema_problem(results(2, ("hidden_b", 2, "visible"))))
        self.assertIn("output wanted", sg.schema_problem({"score": 0, "tests": []}))
        self.assertIn("KeyError", sg.schema_problem({"tests": [], "output": ""}))

    def test_folder(self):
        with tempfile.TemporaryDirectory() as root:
            for sid, d in (("ann", results(1, ("a", 1, "visible"))), ("bob", results(0))):
                os.makedirs(os.path.join(root, sid))
                with open(os.path.join(root, sid, "results.json"), "w") as f:
                    json.dump(d, f)
            self.assertTrue(sg.schema(root)[0].startswith("ok      2 results.json"))
            os.makedirs(os.path.join(root, "cat"))  # no results.json
            self.assertIn("cat (FileNotFoundError", sg.schema(root)[0])


class Performance(unittest.TestCase):
    def put(self, root, sid, total, perf):
        os.makedirs(os.path.join(root, sid))
        with open(os.path.join(root, sid, "results.json"), "w") as f:
            json.dump({"score": total, "tests": [{"name": "perf_blk", **perf}]}, f)

    def test_the_timed_class(self):
        blk = sg.perf_case(1, "blk")
        tests_max, full = 10.0, blk.points
        with tempfile.TemporaryDirectory() as root:
            self.put(root, "c01_reference", tests_max + full, {"score": full, "output": "1.00 x"})
            self.put(root, "s_blk_times_4", tests_max + blk.score(4.0),
                     {"score": blk.score(4.0), "output": "4 x", "extra_data": {"ratio": 4.0}})
            self.put(root, "s_blk_times_20", tests_max, {"score": 0.0, "output": "at least 10 x"})
            self.put(root, "s_blk_skips_large", tests_max, {"score": 0.0, "output": "its timed result was wrong"})
            self.put(root, "r_fails_required_test", 3.0,
                     {"score": 0.0, "output": "SKIP: performance counts only for correct code"})
            out = sg.performance(root, tests_max)
            self.assertEqual([o[:2] for o in out], ["ok"] * 5, out)
            # A score that is not the formula's for its ratio fails.
            os.remove(os.path.join(root, "s_blk_times_4", "results.json"))
            os.rmdir(os.path.join(root, "s_blk_times_4"))
            self.put(root, "s_blk_times_4", tests_max, {"score": blk.score(4.0) + 0.5, "output": "4 x",
                                                        "extra_data": {"ratio": 4.0}})
            self.assertTrue(sg.performance(root, tests_max)[1].startswith("FAILED"))

    def test_gradescope(self):
        with tempfile.TemporaryDirectory() as root:
            path = os.path.join(root, "results.json")
            self.assertIn("no valid results.json", sg.gradescope(path, 0, "x")[0])
            with open(path, "w") as f:
                json.dump({"score": 0, "output": "matmult.c:3: error: expected ';'"}, f)
            self.assertTrue(sg.gradescope(path, 0, "build-fails")[0].startswith("ok"))
            self.assertTrue(sg.gradescope(path, 5, "reference")[0].startswith("FAILED"))


if __name__ == "__main__":
    unittest.main()
