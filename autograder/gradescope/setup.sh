#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# from the zip that autograder/gradescope/make-zip makes: the kit is in
# /autograder/source. Installs the kit's Debian packages (make deps) and
# Python 3 (the grader), and builds the lab once so that a broken kit shows
# here rather than in a student's result.
set -euo pipefail
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends make python3
make deps
make "lab$(cat gradescope-lab)" IMPL=reference
# The reference, hidden tests and mutants: for root (the grader) only.
chmod -R go-rwx reference autograder/mutants
chmod go-rwx autograder/lab*/hidden_*.c 2>/dev/null || true
