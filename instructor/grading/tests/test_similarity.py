"""The similarity report's own parts: reading sim_c's output, leaving the
skeleton's code out, the pair scores and their ranking, one class's text."""
import argparse
import contextlib
import io
import json
import os
import tarfile
import tempfile
import unittest

from grading import similarity as sim

OUTPUT = """File a.c: 120 tokens, 30 lines
File b.c: 80 tokens, 20 lines
File skel.c: 0 tokens, 3 lines
Total input: 3 files (3 new, 0 old), 200 tokens

a.c: line 3-12                 |b.c: line 1-9                   [60]

b.c: line 1-9                  |a.c: line 3-12                  [60]

a.c: line 20-25                |b.c: line 12-15                 [30]

a.c: line 1-2                  |a.c: line 26-27                 [25]
"""


class Similarity(unittest.TestCase):
    def test_parse_runs_and_tokens(self):
        runs = sim.parse_runs(OUTPUT)
        self.assertEqual(runs[0], ("a.c", 3, 12, "b.c", 1, 9, 60))
        self.assertEqual(len(runs), 4)
        self.assertEqual(sim.parse_tokens(OUTPUT), {"a.c": 120, "b.c": 80, "skel.c": 0})

    def test_scores_both_directions_and_self_runs_ignored(self):
        scores = sim.pair_scores(sim.parse_tokens(OUTPUT), sim.parse_runs(OUTPUT))
        # a: 60 + 30 of 120 matched; b: 60 of 80 (a's run with itself ignored)
        self.assertEqual(scores[("a", "b")], (round(100 * 150 / 200, 1), 90, 60))
        # a text with no token left (only the skeleton) scores 0, not a division by zero
        self.assertEqual(scores[("a", "skel")], (0.0, 0, 0))
        self.assertEqual(scores[("b", "skel")], (0.0, 0, 0))

    def test_matched_never_exceeds_size(self):
        scores = sim.pair_scores({"x.c": 10, "y.c": 10}, [("x.c", 1, 5, "y.c", 1, 5, 30)])
        self.assertEqual(scores[("x", "y")], (50.0, 10, 0))

    def test_ranking_most_alike_first_ties_by_name(self):
        scores = {("c", "d"): (40.0, 1, 1), ("a", "b"): (90.0, 1, 1), ("a", "c"): (40.0, 1, 1)}
        self.assertEqual([p for p, _ in sim.ranked(scores)], [("a", "b"), ("a", "c"), ("c", "d")])

    def test_boilerplate_inner_lines_always_ends_only_when_skeleton_like(self):
        skeleton = ["void f(int m, double *C)\n", "{\n", "    (void)m, (void)C;\n", "}\n"]
        student = ["    for (int i = 0; i < m; i++) s += x[i];\n",   # the run starts mid-line here
                   "}\n",
                   "\n",
                   "void f(int rows, double *out)\n",              # renamed: still the skeleton's shape
                   "{\n",
                   "    total = 0;\n"]                              # the run ends mid-line here
        runs = [("s.c", 1, 6, "skel", 1, 2, 30), ("s.c", 4, 5, "skel", 1, 2, 20)]
        self.assertEqual(sim.boilerplate_lines(runs, student, skeleton), {2, 3, 4, 5})

    def test_blank_keeps_line_numbers(self):
        self.assertEqual(sim.blank(["a\n", "b\n", "c"], {2}), "a\n\nc\n")

    def test_joined_names_each_file_in_a_comment(self):
        lines = sim.joined([("x.c", "int a;\n"), ("k.cu", "__global__ void g() {}")])
        self.assertEqual(lines, ["/* ==== x.c ==== */\n", "int a;\n", "\n", "/* ==== k.cu ==== */\n",
                                 "__global__ void g() {}\n"])

    def test_gather_reads_the_class_as_the_grader_does(self):
        with tempfile.TemporaryDirectory() as root:
            cls, work = os.path.join(root, "class"), os.path.join(root, "work")
            os.makedirs(os.path.join(cls, "anna", "deep", "lab1"))
            with open(os.path.join(cls, "anna", "deep", "lab1", "matmult.c"), "w") as f:
                f.write("int a;\r\n")
            os.makedirs(os.path.join(root, "tmp"))
            with open(os.path.join(root, "tmp", "matmult.c"), "w") as f:
                f.write("int b;\n")
            with tarfile.open(os.path.join(cls, "bob.tar.gz"), "w:gz") as t:
                t.add(os.path.join(root, "tmp", "matmult.c"), "lab1/matmult.c")
            os.makedirs(os.path.join(cls, "empty"))
            os.symlink(os.path.join(root, "tmp"), os.path.join(cls, "linked"))
            os.makedirs(work)
            texts, skipped = sim.gather(["matmult.c"], cls, work)
            self.assertEqual(texts, {"anna": [("matmult.c", "int a;\n")], "bob": [("matmult.c", "int b;\n")]})
            self.assertEqual(sorted(skipped), ["empty", "linked"])
            self.assertIn("symbolic link", skipped["linked"])


if __name__ == "__main__":
    unittest.main()


class ClassPage(unittest.TestCase):
    """A report is shown on a grading's class page only when that grading
    is named or the default, and holds every student compared."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.grades = os.path.join(self.tmp.name, "grades")
        os.makedirs(self.grades)
        with open(os.path.join(self.grades, "lab.json"), "w") as f:
            json.dump({"num": "1", "name": "lab1-matmult", "max_points": 34, "columns": []}, f)
        with open(os.path.join(self.grades, "gradebook.csv"), "w") as f:
            f.write("student,status,total,max,review\nann,graded,34,34,\nbob,graded,30,34,\n")
        self.out = os.path.join(self.tmp.name, "sim")

    def tearDown(self):
        self.tmp.cleanup()

    def shown(self, out, grades, texts):
        with contextlib.redirect_stderr(io.StringIO()):
            sim.show_on_class_page(argparse.Namespace(out=out, grades=grades), self.grades, self.out, texts)
        return os.path.exists(os.path.join(self.grades, "class.html"))

    def test_another_folder_leaves_the_grading_alone(self):
        self.assertFalse(self.shown(self.out, None, {"ann": [], "bob": []}))  # -o alone: its own folder only
        self.assertFalse(self.shown(self.out, self.grades, {"ann": [], "zed": []}))  # zed: not in the gradebook
        self.assertFalse(os.path.exists(os.path.join(self.grades, "term.json")))

    def test_the_gradings_own_class_is_shown(self):
        self.assertTrue(self.shown(self.out, self.grades, {"ann": [], "bob": []}))
        with open(os.path.join(self.grades, "term.json")) as f:
            self.assertEqual(json.load(f)["similarity"], self.out)


class PerFile(unittest.TestCase):
    """A pair is reported for one copied file, whatever its whole's score."""

    def test_flagged(self):
        self.assertTrue(sim.flagged(55, {}, 50, 80))
        self.assertTrue(sim.flagged(17.4, {"mandel.c": 100, "poisson.c": 3}, 50, 80))
        self.assertFalse(sim.flagged(40, {"mandel.c": 70}, 50, 80))

    def test_csv_columns(self):
        text = sim.csv_text([(("x", "y"), (21.2, 183, 183))], {("x", "y"): {"mandel.c": 100, "poisson.c": 0}})
        head, row = text.splitlines()
        self.assertEqual(head.split(",")[5:], ["most_alike_file", "its_score", "score_mandel.c", "score_poisson.c",
                                               "past"])
        self.assertEqual(row, "x,y,21.2,183,183,mandel.c,100,100,0,")
        self.assertEqual(sim.csv_text([(("x", "y"), (1, 2, 3))]).splitlines()[0].count(","), 5)


class Thresholds(unittest.TestCase):
    """Each lab's line in its own labs/labN-name/measured/similarity.conf."""

    def conf(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".conf")
        f.write(text)
        f.flush()
        self.addCleanup(f.close)
        return f.name

    def test_per_lab_from_its_file(self):
        head = "# threshold file_threshold honest copied honest_file copied_file hp cp\n"
        self.assertEqual(sim.thresholds_of(1, self.conf(head + "45 - 35.4 95.4 - - 82 171\n")),
                         (45.0, sim.FILE_THRESHOLD))
        self.assertEqual(sim.thresholds_of(2, self.conf("- 70 - 90.2 55 84.5 0 210\n")),
                         (sim.THRESHOLD, 70.0))  # '-': the default
        self.assertEqual(sim.thresholds_of(3, self.conf(head)), (sim.THRESHOLD, sim.FILE_THRESHOLD))  # no line
        self.assertEqual(sim.thresholds_of(3, "/nonexistent/similarity.conf"), (sim.THRESHOLD, sim.FILE_THRESHOLD))
        self.assertIsNone(sim.conf_row(3, "/nonexistent/similarity.conf"))

    def test_a_malformed_line_is_refused_with_its_file_and_line(self):
        for text in ("45\n", "1 45 - 35.4 95.4 - - 82 171\n", "45 - x 95.4 - - 82 171\n",
                     "# head\n45 - 35.4 95.4 - - 82 171\n45 - 35.4 95.4 - - 82 171\n"):
            path = self.conf(text)
            with self.assertRaisesRegex(SystemExit, f"{path}:[123]: "):
                sim.thresholds_of(1, path)

    def test_the_kits_labs_each_have_their_line(self):
        for lab in range(1, 8):
            self.assertTrue(sim.conf_path(lab).endswith("measured/similarity.conf"))
            self.assertEqual(len(sim.conf_row(lab)), len(sim.CONF_FIELDS))
            t, ft = sim.thresholds_of(lab)
            self.assertTrue(0 < t <= 100 and 0 < ft <= 100)
        self.assertIsNone(sim.conf_path(99))


class BaseAndMemory(unittest.TestCase):
    def test_handed_out_code_is_in_the_base(self):
        names = [n for n, _ in sim.handed_out("lab7-fft-poisson", ["fp_basics.c"])]
        self.assertEqual(names[0], "fp_basics.c")
        self.assertIn("fft_poisson_main.c", names)  # a driver students do not edit

    def test_past_pairs_labelled_and_not_among_themselves(self):
        scores = sim.pair_scores({"a.c": 10, "b.c": 10, "2025~x.c": 10, "2025~y.c": 10}, [])
        self.assertNotIn(("2025~x", "2025~y"), scores)
        self.assertIn(("2025~x", "a"), scores)
        self.assertEqual(sim.past_label(("2025~x", "a")), "past term 2025")
        self.assertEqual(sim.past_label(("a", "b")), "")

    def test_median_warning(self):
        pairs = [(("a", "b"), (99.0, 0, 0)), (("a", "c"), (98.0, 0, 0)), (("b", "c"), (10.0, 0, 0)),
                 (("2025~x", "a"), (0.0, 0, 0))]
        self.assertEqual(sim.median_of(pairs), 98.0)  # the past term's pair left out
        self.assertIn("median pair scores 98%", sim.median_warning(98.0, 60))
        self.assertEqual(sim.median_warning(59.9, 60), "")

    def test_kept_term_read_back(self):
        with tempfile.TemporaryDirectory() as d:
            sim.keep_term(d, "1", "2025-fall", {"ann": [("matmult.c", "int a;\n")]})
            self.assertEqual(sim.past_terms(d, "1", ["matmult.c"]), {"2025-fall~ann": [("matmult.c", "int a;\n")]})
            self.assertEqual(sim.past_terms(d, "1", ["matmult.c"], keep="2025-fall"), {})
