"""The resume records (grading/graded.py): when a record is current, what
an entry's fingerprint is, how a new record is told from the one a run
began with, and that the grader's modules import the records one way."""
import argparse
import ast
import json
import os
import tempfile
import unittest

from grading import current, graded
from grading.unpack import class_entries
from grading.util import KIT

TESTS = [{"name": "a", "points": 2.0, "hidden": False, "gpu": False}]


def parts(**kw):
    args = argparse.Namespace(**{"no_perf": False, "wall": 600, "build_wall": 180, **kw})
    return current.parts(1, args, TESTS, 0)


class Records(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.tmp.name, "out")
        self.cls = os.path.join(self.tmp.name, "class")
        os.makedirs(self.cls)

    def tearDown(self):
        self.tmp.cleanup()

    def put(self, sid, record):
        os.makedirs(os.path.join(self.out, "students", sid), exist_ok=True)
        graded.write(self.out, sid, record)

    def test_current_record(self):
        p = parts()
        self.put("ann", {"fingerprint": "f1", "grading": p})
        self.assertEqual(graded.current_record(self.out, "ann", "f1", p)[0]["fingerprint"], "f1")
        self.assertEqual(graded.current_record(self.out, "ann", "f2", p), (None, "its files changed"))
        self.assertEqual(graded.current_record(self.out, "bob", "f1", p), (None, "new"))
        old, why = graded.current_record(self.out, "ann", "f1", parts(wall=60))
        self.assertIsNone(old)
        self.assertEqual(why, "changed: " + current.WHY["time limits"])
        # Without parts only the fingerprint counts (a Slurm task's look).
        self.assertIsNotNone(graded.current_record(self.out, "ann", "f1")[0])

    def test_a_record_from_before_parts_is_stale(self):
        self.put("ann", {"fingerprint": "f1"})
        old, why = graded.current_record(self.out, "ann", "f1", parts())
        self.assertIsNone(old)
        self.assertTrue(why.startswith("changed: how it was graded"))

    def test_unreadable_records_are_none(self):
        self.put("ann", {"fingerprint": "f1", "total": 3})
        os.makedirs(os.path.join(self.out, "students", "bob"))  # graded, never finished
        os.makedirs(os.path.join(self.out, "students", "cat"))
        with open(graded.path(self.out, "cat"), "w") as f:
            f.write("{half a rec")
        self.assertIsNone(graded.load(self.out, "bob"))
        self.assertIsNone(graded.load(self.out, "cat"))
        self.assertEqual(graded.current_record(self.out, "cat", "f1"), (None, "new"))
        self.assertEqual(graded.load_all(self.out), [("ann", {"fingerprint": "f1", "total": 3})])
        self.assertEqual(graded.load_all(os.path.join(self.tmp.name, "nothing")), [])

    def test_load_all_is_sorted_and_written_whole(self):
        for sid in ("zed", "amy", "kim"):
            self.put(sid, {"student": sid})
        self.assertEqual([sid for sid, _ in graded.load_all(self.out)], ["amy", "kim", "zed"])
        with open(graded.path(self.out, "kim")) as f:
            self.assertEqual(json.load(f), {"student": "kim"})
        self.assertEqual(os.listdir(os.path.join(self.out, "students", "kim")), [graded.NAME])

    def test_fingerprint_follows_the_files(self):
        entry = os.path.join(self.cls, "ann")
        os.makedirs(entry)
        with open(os.path.join(entry, "matmult.c"), "w") as f:
            f.write("int x;\n")
        why, fp = graded.fingerprint(self.cls, entry)
        self.assertIsNone(why)
        self.assertEqual(graded.fingerprint(self.cls, entry), (None, fp))
        with open(os.path.join(entry, "matmult.c"), "a") as f:
            f.write("int y;\n")
        self.assertNotEqual(graded.fingerprint(self.cls, entry)[1], fp)

    def test_a_refused_entry_is_fingerprinted_by_its_reason(self):
        os.symlink(os.path.join(KIT, "reference"), os.path.join(self.cls, "linked"))
        why, fp = graded.fingerprint(self.cls, os.path.join(self.cls, "linked"))
        self.assertIn("symbolic link", why)
        self.assertEqual(fp, "refused: " + why)

    def test_graded_now_and_stamps(self):
        entry = os.path.join(self.cls, "ann")
        os.makedirs(entry)
        fps = graded.fingerprints(self.cls, {"ann": entry})
        self.assertIsNone(graded.stamp(self.out, "ann"))
        self.assertFalse(graded.graded_now(self.out, fps, "ann"))
        self.put("ann", {"fingerprint": fps["ann"]})
        self.assertTrue(graded.graded_now(self.out, fps, "ann"))
        # --force: the record the run began with is not a new one; a record
        # written since (renamed over it) is.
        before = {"ann": graded.stamp(self.out, "ann")}
        self.assertIsNotNone(before["ann"])
        self.assertFalse(graded.graded_now(self.out, fps, "ann", before))
        self.put("ann", {"fingerprint": fps["ann"]})
        self.assertTrue(graded.graded_now(self.out, fps, "ann", before))
        # A record of other files is not this entry's.
        self.put("ann", {"fingerprint": "other"})
        self.assertFalse(graded.graded_now(self.out, fps, "ann"))

    def test_class_entries_only_and_links_kept(self):
        for n in ("ann", "bob"):
            os.makedirs(os.path.join(self.cls, n))
        os.symlink(os.path.join(self.cls, "ann"), os.path.join(self.cls, "eve"))
        rel = os.path.relpath(self.cls)
        entries = class_entries(rel)
        self.assertEqual(sorted(entries), ["ann", "bob", "eve"])
        self.assertTrue(all(os.path.isabs(p) for p in entries.values()))
        self.assertTrue(os.path.islink(entries["eve"]))  # refused later, not followed here
        self.assertEqual(sorted(class_entries(rel, "bob,nobody")), ["bob"])


def grading_imports(module):
    """The grading modules that grading/MODULE.py imports."""
    with open(os.path.join(KIT, "instructor", "grading", module + ".py")) as f:
        tree = ast.parse(f.read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {a.name for a in node.names}
    return found


class ImportsOneWay(unittest.TestCase):
    def test_no_module_calls_back(self):
        # command -> slurm -> batch -> graded -> (current, unpack, util)
        self.assertIn("graded", grading_imports("batch"))
        self.assertIn("graded", grading_imports("slurm"))
        for low in ("graded", "unpack", "current"):
            self.assertFalse(grading_imports(low) & {"batch", "slurm", "command"}, low)
        self.assertFalse(grading_imports("batch") & {"slurm", "command"})
        self.assertNotIn("command", grading_imports("slurm"))


if __name__ == "__main__":
    unittest.main()
