"""new_lab.sh's check of a new lab's performance entry, run in the kit
with the lab built from its reference (make labN IMPL=reference):

    PYTHONPATH=instructor:autograder python3 maintainer/selftest/new_lab_perf.py N

grading reads exactly one entry from the lab's tests/perf.conf, the tests
it requires are the lab's, and its harness (tests/perf/) links with the
built objects as grading links it and times them. Prints one line; exit 1
when any of it fails."""
import os
import subprocess
import sys

from grading.perf import perf_config
from perf import timed


def main(lab):
    entries = perf_config(lab)
    if len(entries) != 1:
        return f"grading reads {len(entries)} performance entries of lab {lab}, not 1"
    (p,) = entries
    build, kit_build = f"build/lab{lab}", f"build/kit/lab{lab}"
    listed = subprocess.run([f"{build}/test_lab{lab}", "--list"], capture_output=True, text=True).stdout.split()
    missing = [t for t in p.requires if t not in listed]
    if missing:
        return f"{p.name} requires tests the lab lacks: {' '.join(missing)}"
    out = f"{build}/perf_{p.name}"
    cmd = timed.link_cmd(p.harness, p.device, os.getcwd(), lab, build, kit_build, out)
    link = subprocess.run(cmd, capture_output=True, text=True)
    if link.returncode:
        return f"{p.harness} does not link: {link.stderr.strip()[-500:]}"
    run = subprocess.run([out, *p.harness_args], capture_output=True, text=True, env={**os.environ, **p.env()})
    if run.returncode:
        return f"{p.harness} {' '.join(p.harness_args)} exits {run.returncode}: {run.stderr.strip()[-300:]}"
    print(f"{p.name}: {p.points:g} points, requires {','.join(p.requires)}, timed {run.stdout.strip()} s")
    return None


if __name__ == "__main__":
    why = main(sys.argv[1])
    if why:
        print(why)
    sys.exit(1 if why else 0)
