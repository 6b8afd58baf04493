#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# from the zip that instructor/gradescope/make-zip makes: the kit is in
# /autograder/source. Made for Gradescope's Ubuntu 22.04 base image (Jammy:
# GCC 12's libgomp and libtsan2, Check, OpenBLAS, OpenMPI, FFTW there).
# Installs only what the lab's grading needs (no clang-16, GPU offloading,
# Slurm or munge: Gradescope has no GPU and no cluster), each a package of
# common/mk/debian-packages.txt, the kit's one list; prepares the lab's
# grading once (the kit copy the sandbox sees, the reference and the test
# list: instructor/grade --prepare), so that a submission does not build
# them again; and makes the reference, hidden tests and mutants root-only.
set -euo pipefail
cd "$(dirname "$0")"
LAB=$(cat gradescope-lab)
# The grader and the tests of every lab; then each lab's libraries.
base="make gcc g++ pkg-config patch check libsubunit-dev libjson-c-dev python3 python3-pyelftools bubblewrap unzip"
case $LAB in
1 | 3) extra="libopenblas-dev" ;;
2) extra="" ;;
4 | 5) extra="libopenmpi-dev openmpi-bin" ;;
6) extra="libopenmpi-dev openmpi-bin libtsan2" ;;
7) extra="libopenmpi-dev openmpi-bin libfftw3-dev" ;;
*) echo "setup.sh: no lab $LAB" >&2; exit 2 ;;
esac
known=$(common/mk/deps list instructor)
# shellcheck disable=SC2086  # word lists
for p in $base $extra; do
    grep -qx "$p" <<<"$known" || { echo "setup.sh: $p is not in the kit's package list" >&2; exit 2; }
done
export DEBIAN_FRONTEND=noninteractive
apt-get update
# shellcheck disable=SC2086
apt-get install -y --no-install-recommends $base $extra
instructor/grade --prepare /autograder/prepared --cpu-only --no-perf "$LAB"
# The reference and the hidden tests: for root (the grader) only.
chmod -R go-rwx labs/*/solution
chmod go-rwx labs/*/tests/hidden_*.c 2>/dev/null || true
