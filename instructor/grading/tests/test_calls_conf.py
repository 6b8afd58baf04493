"""Every lab's calls.conf against the lab as it is: each function glob names
a function of the lab's headers (a renamed function would otherwise turn a
rule off silently). That each test glob names a test of the lab is checked
against the built reference's --list (maintainer/selftest/calls.sh): table
tests name their rows at run time, which no reading of the sources sees."""
import fnmatch
import glob
import os
import re
import unittest

from callrules import calls
from grading.util import KIT


class LabCallRules(unittest.TestCase):
    def test_every_lab(self):
        confs = sorted(glob.glob(os.path.join(KIT, "labs", "lab*-*", "tests", "calls.conf")))
        self.assertGreaterEqual(len(confs), 4)
        for conf in confs:
            labdir = os.path.dirname(os.path.dirname(conf))
            lab = os.path.basename(labdir)
            with self.subTest(lab=lab):
                with open(conf) as f:
                    rules = calls.parse(f.read(), conf)
                headers = ""
                for h in glob.glob(os.path.join(labdir, "*.h")):
                    with open(h) as f:
                        headers += f.read()
                declared = set(re.findall(r"\b(\w+)\s*\(", headers))
                # Functions the kit gives (the headers' static inline ones and
                # the lab's LAB_KIT_SRCS, never in a student's objects) may
                # match a glob and need no tests line.
                given = set(re.findall(r"static\s+inline\s+[\w \*]*?\b(\w+)\s*\(", headers))
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

    def test_unknown_tests_names_the_globs_that_match_nothing(self):
        rules = calls.parse("f tests a_* gone\nf require G_* => b renamed_*\n", "c.conf")
        self.assertEqual(calls.unknown_tests(rules, ["a_one", "b"]),
                         [("c.conf:1", "gone"), ("c.conf:2", "renamed_*")])


if __name__ == "__main__":
    unittest.main()
