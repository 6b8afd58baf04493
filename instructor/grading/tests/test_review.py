"""Review reasons from code, and the sandbox's record (grading/review.py)."""
import os
import tempfile
import unittest

from grading import review


class Code(unittest.TestCase):
    def test_comments_and_strings_are_not_code(self):
        text = ('/* Thomas solves tridiagonal systems: system(s) of ... */\n'
                '// fork() here would be wrong\n'
                'const char *s = "kill the system";\nchar c = \'"\';\n'
                'int f(void) { return 0; }\n')
        self.assertEqual(review.flags_of(text), set())
        # a blanked text keeps its lines
        self.assertEqual(review.code_only(text).count("\n"), text.count("\n"))

    def test_calls_in_code_are(self):
        text = 'int f(void) { /* fine */ system("ls"); return fork(); }\n'
        self.assertEqual(review.flags_of(text), {"system", "fork"})

    def test_a_string_does_not_hide_what_follows(self):
        self.assertEqual(review.flags_of('puts("a \\" b"); popen("x", "r");'), {"popen"})

    def test_the_labs_own_calls_are_no_finding(self):
        with tempfile.TemporaryDirectory() as d:
            for name, text in (("sub/a.c", "void g(void) { kill(0, 9); fork(); }"),
                               ("ref/a.c", "void g(void) { fork(); }")):
                os.makedirs(os.path.join(d, os.path.dirname(name)), exist_ok=True)
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            self.assertEqual(review.review_flags(os.path.join(d, "sub")), "fork kill")
            self.assertEqual(review.review_flags(os.path.join(d, "sub"), [os.path.join(d, "ref")]), "kill")


class Hung(unittest.TestCase):
    def test_every_kind_of_time_out_is_found(self):
        outs = {"t1": "TIMEOUT: no result within the time limit of 10 s (an endless loop, ...)",
                "mpi": "FAIL: mpirun -np 4 lab6_tq_check 4 ran out of time (a hang: a missing or mismatched "
                       "exchange?) (exit status 124)",
                "watchdog": "FAIL: rank 0: FAIL TIMEOUT: case 3: no end within the case's time limit",
                "refusal": "FAIL: mpirun -np 2 prog bad: no end within 20 s (expected a clean refusal)",
                "wrong": "FAIL: expected 1, got 2", "ok": "PASS"}
        r = {"tests": [{"name": n, "output": o} for n, o in outs.items()]}
        self.assertEqual(review.timeouts(r), ["t1", "mpi", "watchdog", "refusal"])
        self.assertEqual(review.timeout_flag(r), "time-out in t1, mpi, watchdog, refusal")
        self.assertEqual(review.timeout_flag({"tests": []}), "")


class Record(unittest.TestCase):
    def test_refusals_in_words(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "12"), "w") as f:
                f.write("opened /etc/shadow\nopened /etc/shadow\ndenied /kit/x (Read-only file system)\n"
                        "garbage\nopened /a\nopened /b\nopened /c\nopened /d\n")
            with open(os.path.join(d, "processes"), "w") as f:
                f.write("left 5 (test_lab1)\n")
            said = review.refusals(d)
        self.assertTrue(said.startswith("sandbox refused: opened outside the sandbox's view: /etc/shadow, /a, /b, "
                                        "/c and 1 more; writes denied: /kit/x"), said)
        self.assertTrue(said.endswith("processes left running (killed): 5 (test_lab1)"), said)

    def test_the_record_kept_as_written(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "7"), "w") as f:
                f.write("opened /etc/shadow\n")
            self.assertEqual(review.refusals_text(d), "== 7\nopened /etc/shadow\n")
            self.assertEqual(review.refusals_text(os.path.join(d, "none")), "")

    def test_nothing_refused(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(review.refusals(d), "")
        self.assertEqual(review.refusals("/nonexistent"), "")
