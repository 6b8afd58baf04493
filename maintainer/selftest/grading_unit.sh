#!/usr/bin/env bash
# Unit tests of class grading (run by make test): its pure parts, the
# parsing of the runner's output, perf.conf, calls.conf and the
# instructor-only list, the scoring, unpacking, the gradebook, and the ELF
# reading on objects compiled here (instructor/grading/tests/), and of the
# self-test's own grading checks (maintainer/selftest/test_*.py). Python's
# unittest; one ok/FAILED line per test.
set -u
cd "$(dirname "$0")/../.." || exit 2
rc=0
# (the runner: instructor/grading/tests/__main__.py)
(cd instructor && PYTHONPATH=../autograder${PYTHONPATH:+:$PYTHONPATH} python3 -m grading.tests) || rc=1
PYTHONPATH=instructor:autograder:maintainer/selftest${PYTHONPATH:+:$PYTHONPATH} \
    python3 -m grading.tests --start maintainer/selftest || rc=1
exit $rc
