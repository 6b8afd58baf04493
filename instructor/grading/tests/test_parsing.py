"""Parsing: the runner's test list and results, perf.conf, calls.conf, the
the student copy's list, inotify events."""
import struct
import unittest

from callrules import calls
from grading import perf, results, student_copy, watch
from grading.lab import parse_test_list


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
