#!/usr/bin/env bash
# Unit tests of the grading package (run by make test): its pure parts, the
# parsing of the runner's output, perf.conf, calls.conf and the
# instructor-only list, the scoring, unpacking, the gradebook, and the ELF
# reading on objects compiled here. Python's unittest, in
# autograder/grading/tests/; one ok/FAILED line per test.
set -u
cd "$(dirname "$0")/.." || exit 2
# (the runner: grading/tests/__main__.py)
python3 -m grading.tests
