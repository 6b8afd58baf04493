"""Parsing: the runner's test list and results, a lab's perf.conf (and the
GRADE_PERF_CONF and KIT_TIMED_CONF tables), calls.conf, the student copy's
list, inotify events."""
import os
import struct
import tempfile
import unittest

from callrules import calls
from grading import perf, results, student_copy, watch
from grading.lab import parse_test_list
from perf import timed


class TestList(unittest.TestCase):
    def test_visibility_points_gpu(self):
        text = ("seed_examples                          1 points  visible\n"
                "hidden_large_shapes                    3 points  hidden\n"
                "gpu5_sizes                           2.5 points  visible  (needs a GPU)\n"
                "lab1-matmult: not a test line\n")
        self.assertEqual(parse_test_list(text), [
            {"name": "seed_examples", "points": 1.0, "hidden": False, "gpu": False},
            {"name": "hidden_large_shapes", "points": 3.0, "hidden": True, "gpu": False},
            {"name": "gpu5_sizes", "points": 2.5, "hidden": False, "gpu": True}])


class Results(unittest.TestCase):
    expected = [{"name": "a", "points": 2.0, "hidden": False}, {"name": "b", "points": 1.0, "hidden": True}]

    def data(self, a=("passed", 2), b=("failed", 0)):
        return {"tests": [{"name": "a", "score": a[1], "max_score": 2, "status": a[0], "output": "PASS"},
                          {"name": "b", "score": b[1], "max_score": 1, "status": b[0], "output": "FAIL: x"}]}

    def test_valid(self):
        tests = results.check_results(self.data(), self.expected, 1)
        self.assertEqual([t["score"] for t in tests], [2.0, 0.0])
        self.assertTrue(tests[1]["hidden"])

    def test_each_tests_time_kept_when_a_number(self):
        d = self.data()
        d["tests"][0]["extra_data"] = {"seconds": 1.25, "result": "PASS"}
        d["tests"][1]["extra_data"] = {"seconds": "a lot"}
        tests = results.check_results(d, self.expected, 1)
        self.assertEqual(tests[0]["extra_data"], {"seconds": 1.25})
        self.assertNotIn("extra_data", tests[1])

    def test_score_disagreeing_with_status(self):
        with self.assertRaises(ValueError):
            results.check_results(self.data(b=("failed", 1)), self.expected, 1)

    def test_exit_status_contradicting_results(self):
        with self.assertRaises(ValueError):
            results.check_results(self.data(), self.expected, 0)
        results.check_results(self.data(b=("passed", 1)), self.expected, 0)

    def test_missing_unknown_or_twice(self):
        d = self.data()
        with self.assertRaises(ValueError):
            results.check_results({"tests": d["tests"][:1]}, self.expected, 1)
        with self.assertRaises(ValueError):
            results.check_results({"tests": d["tests"] + [dict(d["tests"][0], name="c")]}, self.expected, 1)
        with self.assertRaises(ValueError):
            results.check_results({"tests": d["tests"] + d["tests"][:1]}, self.expected, 1)

    def test_call_rules_override_a_pass(self):
        tests = results.check_results(self.data(b=("passed", 1)), self.expected, 0)
        results.apply_call_rules(tests, [("b*", "f calls g")])
        self.assertEqual((tests[0]["score"], tests[1]["score"]), (2.0, 0.0))
        self.assertEqual(tests[1]["output"], "FAIL: f calls g")


class PerfConf(unittest.TestCase):
    def test_line_and_cache_size(self):
        text = ("# comment\n"
                "1 blk 4 2.0 10.0 1 t1,t2 lab1_blk 256 {N_BEYOND_LLC} {N_BEYOND_LLC} 256  # a note\n"
                "2 jac 3 1.5 6.0 all t3 lab2_jacobi 100\n")
        (p,) = perf.parse(text, 1, cache_bytes=32 << 20)
        self.assertEqual((p.name, p.points, p.full_at, p.zero_at, p.requires), ("blk", 4.0, 2.0, 10.0, ["t1", "t2"]))
        self.assertEqual(p.harness_args, ["256", "2048", "2048", "256"])  # 2048^2 * 8 = 32 MiB
        (q,) = perf.parse(text, 2)
        self.assertEqual(q.threads, "all")

    def test_bad_thresholds(self):
        with self.assertRaises(ValueError):
            perf.parse("1 x 4 10 2 1 t h\n", 1)


def kit_with(files):
    """A scratch kit: {path: text} under a temporary folder (the caller
    removes it)."""
    kit = tempfile.mkdtemp(prefix="kit-perfconf-")
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(kit, path)), exist_ok=True)
        with open(os.path.join(kit, path), "w") as f:
            f.write(text)
    return kit


class LabPerfConf(unittest.TestCase):
    """Each lab's entries in its own folder, labs/labN-name/tests/perf.conf."""

    def setUp(self):
        self.kit = kit_with({
            "labs/lab1-a/tests/perf.conf": "# name points full zero threads requires harness ARGS\n"
                                           "blk 4 2.0 10.0 1 t1,t2 lab1_blk 256 {N_BEYOND_LLC}  # note\n",
            "labs/lab2-b/tests/perf.conf": "jac 3 1.25 4.0 all t3 lab2_jacobi 100\nbad 3 1.25\n",
            "labs/lab3-c/tests/perf.conf": "x 3 4.0 1.25 1 t h\n",
            "labs/lab4-d/tests/calls.conf": "",
        })

    def tearDown(self):
        import shutil
        shutil.rmtree(self.kit)

    def test_whole_entries_with_the_lab_first(self):
        (f,) = timed.lab_entries(1, self.kit)
        self.assertEqual(f, ["1", "blk", "4", "2.0", "10.0", "1", "t1,t2", "lab1_blk", "256", "{N_BEYOND_LLC}"])
        (p,) = perf.parse(" ".join(f), 1, cache_bytes=32 << 20)
        self.assertEqual((p.name, p.points, p.threads, p.harness_args), ("blk", 4.0, "1", ["256", "2048"]))

    def test_no_file_no_entries(self):
        self.assertEqual(timed.lab_entries(4, self.kit), [])
        self.assertEqual(timed.lab_entries(9, self.kit), [])  # no such lab

    def test_malformed_line_names_file_and_line(self):
        with self.assertRaisesRegex(ValueError, r"labs/lab2-b/tests/perf.conf:2: 'bad 3 1.25': needs NAME"):
            timed.lab_entries(2, self.kit)
        with self.assertRaisesRegex(ValueError, r"labs/lab3-c/tests/perf.conf:1: x: needs 1 <= FULL_AT < ZERO_AT"):
            timed.lab_entries(3, self.kit)

    def test_the_kits_labs(self):
        # every lab's file reads, and lab 1's blk is graded and timed
        for lab in range(1, 10):
            for f in timed.lab_entries(lab):
                perf.parse(" ".join(f), lab)
        self.assertEqual([p.name for p in perf.perf_config(1)], ["blk"])
        self.assertEqual([e.name for e in timed.entries(1)], ["blk"])

    def test_grade_perf_conf_weights_and_whole_entries(self):
        entries = timed.lab_entries(1, self.kit)
        text = "1 blk 5 1.5 8.0\n1 extra 2 1.25 4.0 all t h 64\n2 jac 9 1.25 4.0\n"
        got = perf.parse(perf.joined(text, 1, entries), 1, cache_bytes=1)
        self.assertEqual([(p.name, p.points, p.full_at, p.harness) for p in got],
                         [("blk", 5.0, 1.5, "lab1_blk"), ("extra", 2.0, 1.25, "h")])
        with self.assertRaisesRegex(ValueError, "lab 1 nope: the lab's tests/perf.conf has no such entry"):
            perf.joined("1 nope 5 1.5 8.0\n", 1, entries)

    def test_grade_perf_conf_replaces_the_labs_file(self):
        with tempfile.NamedTemporaryFile("w", suffix=".conf") as f:
            f.write("1 blk 4 2.0 10.0 1 t lab1_blk 128 128 128 32\n")
            f.flush()
            os.environ["GRADE_PERF_CONF"] = f.name
            try:
                (p,) = perf.perf_config(1)
                self.assertEqual(p.harness_args, ["128", "128", "128", "32"])
                self.assertEqual(perf.perf_config(2), [])
                os.environ["GRADE_PERF_CONF"] = f.name + ".none"
                self.assertEqual(perf.perf_config(1), [])
                f.write("1 blk 4\n")
                f.flush()
                os.environ["GRADE_PERF_CONF"] = f.name
                with self.assertRaisesRegex(SystemExit, "GRADE_PERF_CONF=.*needs lab, name, points"):
                    perf.perf_config(1)
            finally:
                del os.environ["GRADE_PERF_CONF"]

    def test_kit_timed_conf(self):
        # KIT_TIMED_CONF's lines: LAB NAME THREADS REQUIRES HARNESS ARGS
        with tempfile.NamedTemporaryFile("w", suffix=".conf") as f:
            f.write("1 blk 1 t lab1_blk 256 256 256 64\n2 j all t h\n1 bad 3 t h\n")
            f.flush()
            with self.assertRaisesRegex(ValueError, "threads must be 1, all or gpu, not '3'"):
                timed.entries(1, f.name)
            (e,) = timed.entries(2, f.name)
            self.assertEqual((e.name, e.threads, e.harness), ("j", "all", "h"))


class CallsConf(unittest.TestCase):
    def test_rules(self):
        rules = calls.parse("f tests t1 t2  # the tests of f\n\n# nothing\nf forbid a* b\n")
        self.assertEqual([(r.function, r.kind, r.patterns) for r in rules],
                         [("f", "tests", ["t1", "t2"]), ("f", "forbid", ["a*", "b"])])

    def test_errors(self):
        for text in ("f forbid\n", "f allow x\n"):  # no names, unknown kind
            with self.assertRaises(ValueError):
                calls.parse(text)
        with self.assertRaises(ValueError):  # a rule without a tests line could fail nothing
            calls.violations(calls.parse("f* forbid x\n"), ["f1"], lambda f: {})

    def test_lines_round_trip(self):
        found = [("f", ["t1", "t*"], "f calls g")]
        self.assertEqual(calls.read_lines(calls.format_lines(found)), [("t1", "f calls g"), ("t*", "f calls g")])


class StudentCopy(unittest.TestCase):
    def test_globs_folders_and_exceptions(self):
        kit = student_copy.Rules("# c\nlabs\nautograder/runner\n\n  !labs/*/tests/hidden_*.c  \n!labs/*/solution\n")
        self.assertEqual((kit.allow, kit.deny), (["labs", "autograder/runner"],
                                                 ["labs/*/tests/hidden_*.c", "labs/*/solution"]))
        self.assertTrue(kit.allowed("labs/lab1-matmult/matmult.c"))
        self.assertTrue(kit.allowed("labs/lab2-openmp/tests/test_lab2.c"))
        self.assertFalse(kit.allowed("labs/lab2-openmp/tests/hidden_lab2.c"))
        self.assertFalse(kit.allowed("labs/lab1-matmult/solution/matmult.c"))
        self.assertFalse(kit.allowed("labsx/a.c"))
        self.assertTrue(kit.enters("autograder"))
        self.assertFalse(kit.enters("maintainer"))
        self.assertFalse(kit.enters("labs/lab1-matmult/solution"))
        self.assertTrue(kit.enters("labs/lab1-matmult"))
        self.assertEqual(kit.hidden_tests(), ["labs/*/tests/hidden_*.c"])
        with self.assertRaises(ValueError):  # a list that allows nothing would ship an empty kit
            student_copy.Rules("!labs\n")

    def test_the_kits_list(self):
        kit = student_copy.rules()
        for path in ("labs/lab1-matmult/solution/matmult.c", "labs/lab1-matmult/mutants/x.patch", "instructor/grade",
                     "instructor/INSTRUCTORS.md", "labs/lab1-matmult/tests/hidden_lab1.c", "README.md",
                     "CONTRIBUTING.md", "datasets/README.md", "autograder/gpu-host/run"):
            self.assertFalse(kit.allowed(path), path)
        for path in ("autograder/callrules/calls.py", "labs/lab1-matmult/tests/calls.conf", "labs/lab1-matmult/matmult.c",
                     "autograder/runner/runner.c", "STUDENTS.md", "Makefile", "common/mk/lab.mk"):
            self.assertTrue(kit.allowed(path), path)


class Watch(unittest.TestCase):
    def event(self, mask, name):
        raw = name.encode() + b"\0" * (16 - len(name))
        return struct.pack("iIII", 1, mask, 0, len(raw)) + raw

    def test_the_runner_alone(self):
        buf = (self.event(watch.IN_CREATE, "results.json.tmp.7") + self.event(watch.IN_OPEN, "results.json.tmp.7")
               + self.event(watch.IN_MOVED_TO, "results.json"))
        events = watch.parse_events(buf)
        self.assertEqual([n for _, n in events], ["results.json.tmp.7", "results.json.tmp.7", "results.json"])
        self.assertEqual(watch.judge(events), "")

    def test_tampering(self):
        self.assertIn("opened 2 times", watch.judge([(watch.IN_OPEN, "results.json")] * 2))
        self.assertIn("other files", watch.judge([(watch.IN_CREATE, "fake.json")]))
        self.assertIn("changed or deleted", watch.judge([(watch.IN_DELETE, "results.json")]))


if __name__ == "__main__":
    unittest.main()
