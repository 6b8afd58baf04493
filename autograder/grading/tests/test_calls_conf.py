"""Every lab's calls.conf against the lab as it is: each test glob names a
test the lab registers, each function glob a function of the lab's headers
(a renamed test or function would otherwise turn a rule off silently)."""
import fnmatch
import glob
import os
import re
import unittest

from grading import calls
from grading.util import KIT


class LabCallRules(unittest.TestCase):
    def test_every_lab(self):
        confs = sorted(glob.glob(os.path.join(KIT, "autograder", "lab*", "calls.conf")))
        self.assertGreaterEqual(len(confs), 4)
        for conf in confs:
            lab = os.path.basename(os.path.dirname(conf))
            with self.subTest(lab=lab):
                with open(conf) as f:
                    rules = calls.parse(f.read(), conf)
                tests = set()
                for src in glob.glob(os.path.join(KIT, "autograder", lab, "*.c")):
                    with open(src) as f:
                        tests |= set(re.findall(r"\.test\s*=\s*(\w+)", f.read()))
                headers = ""
                for h in glob.glob(os.path.join(KIT, "labs", lab + "-*", "*.h")):
                    with open(h) as f:
                        headers += f.read()
                declared = set(re.findall(r"\b(\w+)\s*\(", headers))
                # Functions the kit gives (the headers' static inline ones and
                # the lab's LAB_KIT_SRCS, never in a student's objects) may
                # match a glob and need no tests line.
                given = set(re.findall(r"static\s+inline\s+[\w \*]*?\b(\w+)\s*\(", headers))
                labdir = glob.glob(os.path.join(KIT, "labs", lab + "-*"))[0]
                with open(os.path.join(labdir, "lab.mk")) as f:
                    kit_srcs = re.findall(r"\$\(LAB_DIR\)/(\w+\.(?:cu|c))\b", "".join(
                        line for line in f if line.startswith("LAB_KIT_SRCS")))
                for src in kit_srcs:
                    with open(os.path.join(labdir, src)) as f:
                        given |= set(re.findall(r"^[A-Za-z_][\w \*]*?\b(\w+)\s*\((?!.*\);\s*$)", f.read(), re.M))
                with_tests = {f for r in rules if r.kind == "tests" for f in fnmatch.filter(declared, r.function)}
                for r in rules:
                    self.assertTrue(fnmatch.filter(declared, r.function),
                                    f"{r.where}: {r.function} names no function of the lab's headers")
                    for f in set(fnmatch.filter(declared, r.function)) - given:
                        self.assertIn(f, with_tests, f"{r.where}: {f} has a {r.kind} rule but no tests line")
                    if r.kind == "tests":
                        for p in r.patterns:
                            self.assertTrue(fnmatch.filter(tests, p), f"{r.where}: {p} names no test of {lab}")


if __name__ == "__main__":
    unittest.main()


class RuleTests(unittest.TestCase):
    """'=> TEST...' at the end of a rule: the tests that rule fails."""

    def test_arrow_names_the_tests_of_one_rule(self):
        rules = calls.parse("f tests a_* b\nf require G_* => only_this\nf forbid bad\n")
        found = calls.violations(rules, ["f"], lambda fn: {"bad": []})
        self.assertEqual(sorted((tuple(t), m.split(" ")[1]) for _, t, m in found),
                         [(("a_*", "b"), "calls"), (("only_this",), "makes")])

    def test_arrow_without_tests_is_an_error(self):
        with self.assertRaises(ValueError):
            calls.parse("f require G_* =>\n")
