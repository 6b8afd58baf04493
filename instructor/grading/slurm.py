"""Grading a class on a Slurm cluster: `instructor/grade --slurm` submits
the submissions still to grade as one array job (sbatch --array), each
task grading its share on its node exactly as a local run does (the same
Grader, the same sandbox, results in the same OUT on the shared
filesystem), waits for the array, then merges the gradebook, histogram and
summary as a local run does (batch.merge).

Why the command waits and merges, rather than a dependent merge job: the
merge then runs where the instructor is, prints its summary there, and
always runs, whatever became of the tasks (a dependent job with
afterok never runs once a task failed; with afterany it runs, but its
output sits in a log file). Nothing is lost if the command itself is
stopped: the array goes on, and running the same command again merges.

Correctness does not depend on any task finishing: a student is graded
once its grade.json (written last, atomically) holds the fingerprint of
its submission as it is now. A task that failed or was killed (its time
limit, a lost node) leaves its students without one, so the next run
grades them again and only them; a student graded twice (two arrays at
once) ends with one whole record, whichever was renamed last."""
import fcntl
import math
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from . import batch, graded
from .unpack import class_entries
from .util import KIT, write_atomic

PER_TASK = 8                # submissions per array task by default (each task builds the reference once)
POLL = 5                    # seconds between looks at the queue
SQUEUE_FAILURES = 24        # looks in a row that fail before the command stops waiting


def gpus_wanted(lab, build=None):
    """The most GPUs one test of lab N asks for, as its test program lists
    them (autograder/sched/gpus; the tests' registrations are the one place
    the kit states it). Each task asks for that many (--gres=gpu:N), or a
    test that needs them would be skipped, not passed. build: a built lab's
    folder to ask; by default grading's own, build/grade/gpus/labN, brought
    up to date first (the instructor's build/labN may predate the kit's
    tests, or hold a student's files)."""
    if build is None:
        build = os.path.join(KIT, "build", "grade", "gpus", f"lab{lab}")
        os.makedirs(os.path.dirname(build), exist_ok=True)
        # Two gradings of the lab at once (an instructor's two classes, the
        # self-test's suites) share this folder: one builds and asks it at
        # a time, or each would find the other's half-copied files.
        with open(build + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            made = subprocess.run(["make", "--no-print-directory", "-s", "-f", "common/mk/lab.mk", f"LAB={lab}",
                                   f"BUILD={build}", "tests"],
                                  cwd=KIT, capture_output=True, text=True)
            if made.returncode != 0:
                with open(build + ".log", "w") as f:
                    f.write(made.stdout + made.stderr)
                sys.exit(f"grade: lab {lab}'s test program does not build from labs/ (see {build}.log): "
                         "the GPUs its tests need are unknown")
            return listed_gpus(lab, build)
    return listed_gpus(lab, build)


def listed_gpus(lab, build):
    """The most GPUs one test asks for, as build's test program lists them."""
    run = subprocess.run([os.path.join(KIT, "autograder", "sched", "gpus"), str(lab), build],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"grade: the GPUs of lab {lab}'s tests are unknown: {run.stderr.strip()}")
    return int(run.stdout)


def share(pending, index, count):
    """Task index's students of the array's count: every count-th, so that
    the slow and the quick (sorted by name, alike) spread over the tasks."""
    return pending[index::count]


def task_command(args, out, share_file):
    """What one array task runs: this grader, for its share, with the
    submitting run's options."""
    cmd = [os.path.join(KIT, "instructor", "grade"), "--slurm-task", share_file, "-o", out, "-j", str(args.jobs),
           "--wall", str(args.wall), "--build-wall", str(args.build_wall), "--sandbox", args.sandbox]
    cmd += [flag for flag, on in (("--force", args.force), ("--no-perf", args.no_perf), ("--keep", args.keep)) if on]
    return cmd + [args.lab, os.path.abspath(args.submissions)]


def sbatch_command(args, out, share_file, tasks):
    """The array: tasks tasks, each with -j cores (and the lab's GPUs), its
    output in OUT/slurm/JOB_TASK.log; the instructor's options last, so
    that theirs win (sbatch keeps the last of an option given twice)."""
    cmd = ["sbatch", "--parsable", f"--array=0-{tasks - 1}", f"--job-name=grade-lab{args.lab}",
           f"--output={out}/slurm/%A_%a.log", f"--cpus-per-task={args.jobs}"]
    gpus = gpus_wanted(args.lab)
    if gpus:
        cmd.append(f"--gres=gpu:{gpus}")
    return cmd + shlex.split(args.slurm_opts) + ["--wrap", shlex.join(task_command(args, out, share_file))]


def submit(args, out):
    entries = class_entries(args.submissions, args.only)
    t0 = time.time()
    fps = graded.fingerprints(args.submissions, entries)
    pending = sorted(sid for sid in entries if args.force or not graded.graded_now(out, fps, sid))
    before = {sid: graded.stamp(out, sid) for sid in pending} if args.force else None
    if pending:
        if not shutil.which("sbatch"):
            sys.exit("grade: --slurm: no sbatch here (run it on the cluster's login node)")
        os.makedirs(os.path.join(out, "slurm"), exist_ok=True)
        tasks = max(1, min(args.slurm_tasks or math.ceil(len(pending) / PER_TASK), len(pending)))
        # The share list is this submission's own: a later run's never
        # changes what the tasks of this one grade.
        share_file = os.path.join(out, "slurm", f"share-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt")
        write_atomic(share_file, "".join(sid + "\n" for sid in pending))
        cmd = sbatch_command(args, out, share_file, tasks)
        job = subprocess.run(cmd, capture_output=True, text=True)
        if job.returncode != 0:
            sys.exit(f"grade: sbatch refused the array ({shlex.join(cmd[:-2])}):\n{job.stderr.strip()}")
        jobid = job.stdout.strip().split(";")[0]
        print(f"grade: lab {args.lab}, {len(entries)} submissions, {len(pending)} to grade: Slurm array job {jobid} "
              f"of {tasks} task(s), logs in {out}/slurm/{jobid}_*.log; waiting for it (Ctrl-C stops the waiting, "
              f"not the job: run the same command again to merge)", file=sys.stderr, flush=True)
        try:
            wait(jobid, lambda: sum(graded.graded_now(out, fps, sid, before) for sid in pending), len(pending))
        except KeyboardInterrupt:
            sys.exit(f"\ngrade: the array {jobid} goes on (scancel {jobid} stops it); run the same command "
                     "again when it is over to merge its results")
    else:
        print(f"grade: lab {args.lab}: all {len(entries)} submissions are graded already; merging",
              file=sys.stderr)
    missing = [sid for sid in pending if not graded.graded_now(out, fps, sid, before)]
    batch.merge(out, len(pending) - len(missing), len(entries) - len(pending), t0,
                leaderboard=not args.no_leaderboard)
    if missing:
        print(f"grade: {len(missing)} submission(s) have no result (a task failed or was killed: see "
              f"{out}/slurm/*.log): {', '.join(missing[:10])}{' ...' if len(missing) > 10 else ''}\n"
              "grade: run the same command again: it grades only these", file=sys.stderr)
        return 1
    return 0


def wait(jobid, count_done, total):
    """Until no task of the array is in the queue; prints how many of the
    students are graded as they come."""
    done, failures = -1, 0
    while True:
        q = subprocess.run(["squeue", "-h", "-r", "-j", jobid, "-o", "%i"], capture_output=True, text=True)
        if q.returncode == 0 and not q.stdout.strip() or "Invalid job id" in q.stderr:
            return
        failures = 0 if q.returncode == 0 else failures + 1
        if failures >= SQUEUE_FAILURES:
            print(f"grade: squeue fails ({q.stderr.strip()}); no longer waiting for {jobid}", file=sys.stderr)
            return
        now = count_done()
        if now != done:
            done = now
            print(f"grade: {done}/{total} graded, {len(q.stdout.split())} task(s) queued or running",
                  file=sys.stderr, flush=True)
        time.sleep(POLL)


def task(args, out):
    """One array task: grades its share (share()) of the list the
    submission wrote, in a scratch folder on the node's own disk (its kit
    copy and reference build are the node's: perf points time against a
    reference built and run there; no task removes another's). Exit status
    1 if one of its students has no result."""
    with open(args.slurm_task) as f:
        pending = f.read().split()
    index, count = int(os.environ["SLURM_ARRAY_TASK_ID"]), int(os.environ["SLURM_ARRAY_TASK_COUNT"])
    entries = class_entries(args.submissions, args.only)
    mine = {sid: entries[sid] for sid in share(pending, index, count) if sid in entries}
    work = tempfile.mkdtemp(prefix=f"kit-grade-lab{args.lab}-{os.environ.get('SLURM_JOB_ID', '')}-")
    args.stopping = threading.Event()

    def killed(signum, frame):
        # Slurm's SIGTERM at the time limit (or scancel) reaches the
        # sandboxes too: a command it ended must not become a student's
        # record ("build failed"); the grading threads see this Event before
        # they write one (Sandbox.confirmed). Then the node's scratch folder
        # goes, and the process, threads and all. A result being written
        # is a temporary file, never half a record.
        args.stopping.set()
        shutil.rmtree(work, ignore_errors=True)
        os._exit(128 + signum)
    signal.signal(signal.SIGTERM, killed)
    print(f"grade: Slurm task {index} of {count} on {os.uname().nodename}: {len(mine)} submission(s)",
          file=sys.stderr, flush=True)
    before = {sid: graded.stamp(out, sid) for sid in mine} if args.force else None
    batch.grade_here(args, out, mine, work)
    fps = graded.fingerprints(args.submissions, mine)
    missing = [sid for sid in mine if not graded.graded_now(out, fps, sid, before)]
    if missing:
        print(f"grade: no result for {', '.join(missing)}", file=sys.stderr)
    return 1 if missing else 0
