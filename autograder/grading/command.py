"""The command line of autograder/grade: its options, and the choice between
grading here (batch) and on a Slurm cluster (slurm). Kept apart from batch,
which slurm's array tasks call back into, so that the two do not import
each other."""
import argparse
import os
import sys
import time

from . import slurm
from .batch import class_entries, grade_here, merge
from .sandbox import UID_BLOCK
from .util import KIT


def arguments(doc, argv=None):
    ap = argparse.ArgumentParser(description=doc.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=doc)
    ap.add_argument("lab", help="the lab's number")
    ap.add_argument("submissions", help="the folder of submissions")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="submissions graded at once [1]")
    ap.add_argument("-o", "--out", help="where results go [build/grade/labN]")
    ap.add_argument("--force", action="store_true", help="grade again what is already graded")
    ap.add_argument("--wall", type=int, default=600, help="seconds for all the tests of one submission [600]")
    ap.add_argument("--build-wall", type=int, default=180, help="seconds for one build [180]")
    ap.add_argument("--no-perf", action="store_true", help="no performance points (autograder/perf/perf.conf)")
    ap.add_argument("--keep", action="store_true", help="keep the work folders (OUT/work)")
    ap.add_argument("--no-leaderboard", action="store_true",
                    help="no anonymised leaderboard of the performance points on the class's page (class.html)")
    ap.add_argument("--only", help="grade only these students (comma-separated)")
    ap.add_argument("--sandbox", choices=("required", "off"), default="required",
                    help="'off' runs student code unconfined: only for code you trust [required]")
    ap.add_argument("--slurm", action="store_true",
                    help="grade as a Slurm array job (sbatch --array) and wait for it, then merge")
    ap.add_argument("--slurm-opts", default="", help="more sbatch options, e.g. '--partition=gpu --account=cs101 "
                    "--time=2:00:00' (after the grader's own, so they win)")
    ap.add_argument("--slurm-tasks", type=int, help=f"array tasks [one per {slurm.PER_TASK} submissions to grade]")
    ap.add_argument("--slurm-task", help=argparse.SUPPRESS)  # an array task: its class's share list
    args = ap.parse_args(argv)
    if not args.lab.isdigit():
        sys.exit("grade: LAB is a lab's number, e.g. 1")
    if not os.path.isdir(args.submissions):
        sys.exit(f"grade: {args.submissions} is not a folder")
    args.jobs = max(1, args.jobs)
    if args.jobs > UID_BLOCK:
        sys.exit(f"grade: at most {UID_BLOCK} jobs at once")
    return args


def main(doc, argv=None):
    args = arguments(doc, argv)
    out = os.path.abspath(args.out or os.path.join(KIT, "build", "grade", f"lab{args.lab}"))
    os.makedirs(os.path.join(out, "students"), exist_ok=True)
    if args.slurm:
        sys.exit(slurm.submit(args, out))
    if args.slurm_task:
        sys.exit(slurm.task(args, out))
    t0 = time.time()
    subs = class_entries(args)
    fresh = grade_here(args, out, subs)
    merge(out, fresh, len(subs) - fresh, t0, not args.no_leaderboard)
