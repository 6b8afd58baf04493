"""The package's index (grading/__init__.py) names every module it has."""
import os
import re
import unittest

import grading


def index_names(doc):
    """The modules an index lists: its lines '    name   what it does'."""
    return set(re.findall(r"^    (\w+) {2,}\S", doc, re.M))


class PackageIndex(unittest.TestCase):
    def test_every_module_listed(self):
        folder = os.path.dirname(grading.__file__)
        modules = {f[:-3] for f in os.listdir(folder) if f.endswith(".py") and f != "__init__.py"}
        listed = index_names(grading.__doc__)
        self.assertEqual(sorted(modules - listed), [], "modules missing from grading/__init__.py's index")
        self.assertEqual(sorted(listed - modules), [], "grading/__init__.py's index names modules that do not exist")

    def test_a_missing_module_is_seen(self):
        self.assertEqual(index_names("x\n    lab             the kit\n    util   u\n"), {"lab", "util"})
