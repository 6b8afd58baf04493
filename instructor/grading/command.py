"""The command line of instructor/grade: its options, and the choice between
grading here (batch) and on a Slurm cluster (slurm). The imports run one
way: command uses slurm and batch, slurm uses batch; batch and slurm keep
the resume records through graded.py, and command and slurm list the
class with unpack.py, neither of which imports any of them back."""
import argparse
import csv
import os
import signal
import sys
import time

from . import current, lms, lms_feedback, perf, slurm, term
from .batch import grade_here, merge
from .classpage import write_class_page
from .sandbox import UID_BLOCK
from .unpack import class_entries, class_folder, submissions
from .util import KIT, Interrupted, Running, make_var

GUIDE = "instructor/INSTRUCTORS.md"


def arguments(doc, argv=None):
    ap = argparse.ArgumentParser(description=doc.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=doc)
    ap.add_argument("lab", help="the lab's number")
    ap.add_argument("submissions", nargs="?", help="the folder of submissions")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="submissions graded at once [1]")
    ap.add_argument("-o", "--out", help="where results go [build/grade/labN]")
    ap.add_argument("--force", action="store_true", help="grade again what is already graded")
    ap.add_argument("--wall", type=int, default=600, help="seconds for all the tests of one submission [600]")
    ap.add_argument("--build-wall", type=int, default=180, help="seconds for one build [180]")
    ap.add_argument("--no-perf", action="store_true", help="no performance points (the lab's tests/perf.conf)")
    ap.add_argument("--keep", action="store_true", help="keep the work folders (OUT/work)")
    ap.add_argument("--no-leaderboard", action="store_true",
                    help="no anonymised leaderboard of the performance points on the class's page (class.html)")
    ap.add_argument("--only", help="grade only these students (comma-separated)")
    ap.add_argument("--sandbox", choices=("required", "off"), default="required",
                    help="'off' runs student code unconfined: only for code you trust [required]")
    ap.add_argument("--cpu-only", action="store_true", default=None,
                    help="grade a lab with GPU tests on a host without a GPU (those points are lost: the summary says "
                    "how many); kept in OUT/term.json for the next runs")
    ap.add_argument("--no-cpu-only", dest="cpu_only", action="store_false",
                    help="forget an earlier --cpu-only of OUT (a GPU host's regrade)")
    ap.add_argument("--roster", help="a CSV of the class (id, login, name, email, section, submitted): maps a "
                    "Canvas or Moodle download's names and ids (instructor/grading/lms.py)")
    ap.add_argument("--deadline", help="the due date-time (ISO, UTC unless it says), for the late policy")
    ap.add_argument("--late-per-day", type=float, help="percent of the lab's points taken per day late [0]")
    ap.add_argument("--late-cap", type=float, help="at most this percent taken for lateness [100]")
    ap.add_argument("--manual", help="a CSV 'student,points[,comment]' of manual marks added to the total")
    ap.add_argument("--hold", help="students (comma-separated ids) whose grades are held for review: make export "
                    "leaves them blank; kept in OUT/term.json ('none': hold no one)")
    ap.add_argument("--prepare", metavar="DIR", help="only prepare the lab's grading (the kit copy, the reference, "
                    "the test list) in DIR, for --prepared")
    ap.add_argument("--prepared", metavar="DIR", help="use the grading prepared in DIR (prepared again there if "
                    "the kit changed since): Gradescope's run_autograder")
    ap.add_argument("--slurm", action="store_true",
                    help="grade as a Slurm array job (sbatch --array) and wait for it, then merge")
    ap.add_argument("--slurm-opts", default="", help="more sbatch options, e.g. '--partition=gpu --account=cs101 "
                    "--time=2:00:00' (after the grader's own, so they win)")
    ap.add_argument("--slurm-tasks", type=int, help=f"array tasks [one per {slurm.PER_TASK} submissions to grade]")
    ap.add_argument("--slurm-task", help=argparse.SUPPRESS)  # an array task: its class's share list
    args = ap.parse_args(argv)
    if not args.lab.isdigit():
        sys.exit("grade: LAB is a lab's number, e.g. 1")
    if args.prepare:
        return args
    if not args.submissions or not os.path.exists(args.submissions):
        sys.exit(f"grade: {args.submissions or 'SUBMISSIONS'} is not there: give the class's folder, or the LMS's "
                 "download (a .zip) as it came")
    args.jobs = max(1, args.jobs)
    if args.jobs > UID_BLOCK:
        sys.exit(f"grade: at most {UID_BLOCK} jobs at once")
    return args


def stop_on_signals():
    """Ctrl-C (or SIGTERM): stop every running sandbox and build at once
    (util.Running), let the batch write the gradebook of what was graded;
    a second one ends the grader there and then."""
    def handler(signum, frame):
        if Running.stopping.is_set():
            os._exit(128 + signum)
        print(f"\ngrade: {signal.Signals(signum).name}: stopping the running submissions (their work is "
              "dropped), then writing the gradebook of those graded; a second Ctrl-C ends at once",
              file=sys.stderr, flush=True)
        Running.stop_all()
    signal.signal(signal.SIGINT, handler)
    signal.signal(signal.SIGTERM, handler)


def prepare_only(args):
    """--prepare DIR: the lab's kit copy, reference and test list in DIR,
    for later runs with --prepared DIR."""
    from .chaos_key import term_secret
    from .lab import Lab
    work = os.path.abspath(args.prepare)
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o755)
    lab = Lab(args.lab, work, args, work)
    reused = lab.reuse_or_prepare()
    term_secret(work)  # the chaos seeds' secret, made here once (chaos_key.py)
    print(f"grade: lab {lab.num} {'already prepared' if reused else 'prepared'} in {work} "
          f"({len(lab.tests)} tests); grade with --prepared {work}", file=sys.stderr)
    return 0


def no_submissions(folder, lab):
    return lms.no_submissions(folder, make_var(lab, "STUDENT_FILES"), "grade")


def has_gpu_tests(lab):
    """Does lab N's suite hold a test that needs a GPU? Its test program
    says (--list, the tests' registrations: slurm.gpus_wanted, which
    builds it up to date), before any submission is prepared, so that a
    grading that will be refused is refused at once."""
    return slurm.gpus_wanted(lab) > 0


def settings(args, out):
    """The term's kept settings (--cpu-only) taken up, and every setting
    that would be refused refused now, before any preparation: a lab with
    GPU tests on a host without a GPU needs --cpu-only; the deadline must
    read as a time and the manual marks as their CSV."""
    if args.deadline:
        try:
            term.parse_time(args.deadline)
        except ValueError:
            sys.exit(f"grade: --deadline {args.deadline} is not an ISO date-time (e.g. 2026-11-20T23:59)")
    term.read_manual(args.manual)
    kept = term.load(out).get("cpu_only")
    if args.cpu_only is None and kept:
        args.cpu_only = True
        print(f"grade: --cpu-only, as {os.path.join(out, 'term.json')} keeps it from an earlier run "
              "(--no-cpu-only, CPU_ONLY=0: grade the GPU tests)", file=sys.stderr)
    if (not args.cpu_only and not getattr(args, "slurm", False) and current.gpu_count() == 0
            and has_gpu_tests(args.lab)):
        sys.exit(f"grade: lab {args.lab} has GPU tests, and this host has no GPU: their points would be lost by "
                 "every student. Grade on a GPU host (or --slurm onto one), or pass --cpu-only "
                 "(make grade ... CPU_ONLY=1) to grade the rest here.")


def check_ids(args, out, meta):
    """Every id the instructor names (the manual marks', HOLD's, ONLY's)
    must be a student of the class: the entries of the class folder and
    the roster's students with nothing handed in."""
    kept = term.load(out)
    # (A Slurm task grades the staged download: the LMS's word is the term's.)
    students = meta or kept.get("students", {})
    class_ids = set(submissions(args.submissions)) | set(students)
    manual = args.manual or kept.get("manual")
    if manual:
        term.refuse_unknown(f"the manual marks {manual}", term.read_manual(manual), class_ids, students)
    if args.hold:
        term.refuse_unknown("HOLD", term.hold_ids(args.hold), class_ids, students)
    if args.only:
        term.refuse_unknown("ONLY", args.only.split(","), class_ids, students)


def main(doc, argv=None):
    args = arguments(doc, argv)
    if args.prepare:
        sys.exit(prepare_only(args))
    out = os.path.abspath(args.out or os.path.join(KIT, "build", "grade", f"lab{args.lab}"))
    os.makedirs(os.path.join(out, "students"), exist_ok=True)
    settings(args, out)
    args.submissions = class_folder(args.submissions, os.path.join(out, "download"), "grade")
    folder, _, meta, said = lms.stage_class(args.submissions, os.path.join(out, "lms"),
                                            make_var(args.lab, "STUDENT_FILES").split(), args.roster, out, "grade")
    if said:
        print(f"grade: {said}, staged in {folder}", file=sys.stderr)
        args.submissions = folder
    elif args.roster:
        sys.exit(f"grade: --roster maps the names and ids of a Canvas or Moodle download; {args.submissions} is a "
                 "folder per student, which the gradebook names as they are: give no roster")
    check_ids(args, out, meta)
    term.save(out, args, meta)
    # Before the Slurm array is submitted too (its tasks grade -j at once).
    warning = perf.jobs_warning(args.jobs, [] if args.no_perf else perf.perf_config(args.lab))
    if warning:
        print(warning, file=sys.stderr)
    if args.slurm:
        sys.exit(slurm.submit(args, out))
    if args.slurm_task:
        sys.exit(slurm.task(args, out))
    t0 = time.time()
    subs = class_entries(args.submissions, args.only)
    if not subs and not args.only:
        sys.exit(no_submissions(args.submissions, args.lab))
    stop_on_signals()
    try:
        fresh = grade_here(args, out, subs)
    except Interrupted:
        sys.exit("grade: stopped before any submission was graded (while preparing the reference)")
    merge(out, fresh, len(subs) - fresh - args.stopped, t0, present=set(submissions(args.submissions)),
          leaderboard=not args.no_leaderboard)
    if Running.stopping.is_set():
        print(f"grade: interrupted: {args.stopped} of {len(subs)} not graded yet; the gradebook holds those "
              "graded. Run the same command again to grade the rest (what is graded is kept).", file=sys.stderr)
        sys.exit(130)


def export_main(argv=None):
    """python3 -m grading.command export LAB FORMAT [-o OUT] [--assignment NAME] [--partial awarded|scaled]
    [--hold IDS]"""
    ap = argparse.ArgumentParser(prog="make export", description="the LMS's grade-import CSV of a graded lab, and "
                                 "its bulk feedback upload")
    ap.add_argument("lab")
    ap.add_argument("format", choices=("canvas", "moodle", "csv"))
    ap.add_argument("-o", "--out", help="the grading's folder [build/grade/labN]")
    ap.add_argument("--assignment", help="the assignment's column name in the LMS [Lab N]")
    ap.add_argument("--partial", choices=term.PARTIAL,
                    help="export a partial grading (--cpu-only) anyway: out of the points it could award "
                    "('awarded': the LMS's assignment must be worth that many), or scaled to the lab's ('scaled')")
    ap.add_argument("--hold", help="students (comma-separated ids) whose grades are left blank, 'held for review' "
                    "(kept in OUT/term.json, as make grade's HOLD; 'none': hold no one)")
    args = ap.parse_args(argv)
    out = os.path.abspath(args.out or os.path.join(KIT, "build", "grade", f"lab{args.lab}"))
    path, n, partial, held = term.export(out, args.format, args.assignment, args.partial, args.hold)
    if partial:
        print(f"export: warning: {partial}", file=sys.stderr)
    print(f"export: {n} students to {path} (import it in {args.format if args.format != 'csv' else 'any'} "
          f"gradebook; {GUIDE}, \"Importing\", says how)")
    if held:
        print(f"export: {term.HELD}, their grades left blank: {', '.join(held)} (HOLD=none releases them)")
    if args.format != "csv":
        with open(path.replace(f"export-{args.format}.csv", "gradebook.csv"), newline="") as f:
            sids = [row["student"] for row in csv.DictReader(f)]
        zpath, put, left = lms_feedback.build(out, args.format, term.load(out).get("students", {}), sids, held)
        print(f"export: {len(put)} students' feedback.txt in {zpath} (upload it in {args.format.capitalize()}: "
              f"{GUIDE}, \"Feedback through the LMS\")" +
              (f"; left out, the download names no file of theirs: {', '.join(left)}" if left else ""))
    print(f"export: the class's page: {write_class_page(out)}")


if __name__ == "__main__":
    export_main(sys.argv[2:] if sys.argv[1:2] == ["export"] else sys.argv[1:])
