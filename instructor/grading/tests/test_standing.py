"""The class standing's records, board and grading check
(autograder/standing/, grading/standing.py) on records written here."""
import json
import os
import tempfile
import unittest

from grading import standing
from standing import board, course, records


def record(student, seconds, passed=True, code="c" * 64, device="CPU X", when="2026-11-27T10:00:00Z", nick=""):
    return {"v": 1, "student": student, "nickname": nick, "lab": 1, "time": when, "points": 34.0 if passed else 20.0,
            "max_points": 34.0, "all_passed": passed, "untimed": [] if passed else ["blk: not timed"],
            "figures": {"blk": {"harness": "lab1_blk", "args": "64 64 64 16", "threads": "1", "seconds": seconds,
                                "bound_name": "OpenBLAS", "bound_seconds": 1.0}} if passed else {},
            "timed_on": device, "gpu": "", "cpu": device, "code": code}


class Board(unittest.TestCase):
    def test_best_correct_run_per_student_and_device(self):
        rs = [record("a", 3.0), record("a", 2.0), record("b", 1.0, passed=False), record("c", 2.5),
              record("d", 0.5, device="GPU Y")]
        boards = records.best_runs(rs)
        self.assertEqual([(r["student"], r["figures"]["blk"]["seconds"]) for r in boards["CPU X"]], [("a", 2.0), ("c", 2.5)])
        self.assertEqual([r["student"] for r in boards["GPU Y"]], ["d"])

    def test_top_rows_and_the_few_ahead_of_the_reader(self):
        self.assertEqual(board.rows_shown(20, 15, 3, 2), [0, 1, 2, 13, 14, 15])
        self.assertEqual(board.rows_shown(20, 1, 3, 2), [0, 1, 2])
        self.assertEqual(board.rows_shown(2, None, 10, 3), [0, 1])

    def test_spool_round_trip_keeps_only_the_owners_valid_records(self):
        with tempfile.TemporaryDirectory() as spool:
            records.write(spool, record("a", 1.0))
            with open(os.path.join(spool, "lab1", "a.jsonl"), "a") as f:
                f.write("not json\n" + '{"v": 1}\n')
            records.write(spool, record("b", 2.0))
            with open(os.path.join(spool, "lab1", "b.jsonl"), "a") as f:  # b writing a's record
                f.write(json.dumps(record("a", 0.1)) + "\n")
            self.assertEqual([(r["student"], r["figures"]["blk"]["seconds"]) for r in records.load(spool, 1)],
                             [("a", 1.0), ("b", 2.0)])
            with self.assertRaises(ValueError):
                records.write(spool, record("../x", 1.0))

    def test_build_copy_and_folder_hash_alike(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "build", "student"))
            os.makedirs(os.path.join(d, "sub"))
            with open(os.path.join(d, "build", "student", "m.c"), "w") as f:
                f.write('#line 1 "x/m.c"\nint f(void) { return 1; }\n')
            with open(os.path.join(d, "sub", "m.c"), "w") as f:
                f.write("int f(void) { return 1; }\n")
            self.assertEqual(records.code_hash(records.build_files(os.path.join(d, "build"), ["m.c"])),
                             records.code_hash(records.folder_files(os.path.join(d, "sub"), ["m.c"])))


class Review(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.spool, self.src = os.path.join(self.dir.name, "spool"), os.path.join(self.dir.name, "src")
        os.makedirs(self.src)
        with open(os.path.join(self.src, "m.c"), "w") as f:
            f.write("int f(void) { return 1; }\n")
        self.code = records.code_hash(records.folder_files(self.src, ["m.c"]))
        self.conf = dict(course.DEFAULTS, STANDING_SPOOL=self.spool)

    def tearDown(self):
        self.dir.cleanup()

    def note(self, grader_seconds, grader_bound_seconds=1.0):
        tests = [{"name": "perf_blk", "extra_data": {"args": "64 64 64 16", "student_seconds": grader_seconds,
                                                     "student_rate": 1 / grader_seconds,
                                                     "bound_rate": 1 / grader_bound_seconds}}]
        return standing.review_note(1, ["m.c"], "a", self.src, tests, self.conf, host={"CPU X"})

    def test_another_hash_is_flagged(self):
        records.write(self.spool, record("a", 1.0, code="0" * 64))
        self.assertIn("measured other code (hash 000000000000)", self.note(1.0))

    def test_the_same_code_far_slower_is_flagged_beside_the_library(self):
        records.write(self.spool, record("a", 1.0, code=self.code))
        self.assertEqual(self.note(1.5), "")
        self.assertIn("3.0 x the recorded time", self.note(3.0))
        # a host three times as busy: the library slowed as much, no flag
        self.assertEqual(self.note(3.0, grader_bound_seconds=3.0), "")

    def test_the_course_sets_how_much_slower_is_flagged(self):
        records.write(self.spool, record("a", 1.0, code=self.code))
        self.conf["STANDING_SLOWER"] = "4"
        self.assertEqual(self.note(3.0), "")
        self.assertIn("5.0 x the recorded time", self.note(5.0))

    def test_no_spool_or_no_record_says_nothing(self):
        self.assertEqual(self.note(9.0), "")
        self.conf["STANDING_SPOOL"] = ""
        self.assertEqual(self.note(9.0), "")


class CourseSettings(unittest.TestCase):
    """course.conf's values are checked where they are read: a typo stops
    grading with the line, not a flag that never or always fires."""

    def settings_of(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".conf", delete=False) as f:
            f.write(text)
        try:
            return course.settings(f.name)
        finally:
            os.unlink(f.name)

    def test_standing_slower_is_read_and_defaults_to_2(self):
        self.assertEqual(self.settings_of("STANDING_SLOWER=3.5\n")["STANDING_SLOWER"], "3.5")
        self.assertEqual(self.settings_of("")["STANDING_SLOWER"], "2")

    def test_a_standing_slower_not_above_1_is_refused(self):
        for bad in ("1", "0.5", "fast", ""):
            with self.assertRaises(SystemExit) as e:
                self.settings_of(f"STANDING_SLOWER={bad}\n")
            self.assertIn("STANDING_SLOWER must be a number above 1", str(e.exception))


if __name__ == "__main__":
    unittest.main()
