"""Grading a class: each submission in a fresh work folder (copy in the
student files only, build in the sandbox, check the objects, run the suite
in the sandbox, check its results against the reference's test list, score
performance), several at once, resumable. See instructor/grade."""
import concurrent.futures
import datetime
import json
import os
import queue
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time

from callrules import calls
from . import current, graded, limits, perf, perf_feedback, perf_rounds, prepared, reference, repeat, standing, term
from callrules.elf import ObjectFile, startup_code, unsafe_symbols
from .chaos_key import chaos_key, term_secret
from .classpage import write_class_page
from .gradebook import Progress, write_gradebook, write_histogram
from .lab import Lab
from .reference import line as reference_line
from .report import explain, feedback, gradescope_json
from .results import apply_call_rules, read_results
from .review import REFUSALS_DIR, refusals, refusals_text, review_flags
from .sandbox import SANDBOX, Sandbox, claim_uids, lock_down
from .unpack import collect
from .util import (KIT, STATUS_BUILD, STATUS_ERROR, STATUS_GRADED, STATUS_REJECTED, STATUS_TIMEOUT, Interrupted,
                   Problem, Running, write_atomic)
from .watch import ResultsWatch


class Grader:
    def __init__(self, lab, out, args, parts=None):
        self.lab, self.out, self.args = lab, out, args
        self.parts = parts or {}  # current.parts: what beside the files decides a grade
        self.sandbox = Sandbox(lab.view, args.sandbox, args.first_uid, getattr(args, "stopping", None), lab.limits)
        self.slots = queue.Queue()
        for s in range(args.jobs):
            self.slots.put(s)
        self.perf_lock = threading.Lock()  # one timing at a time
        self.perf_reuse = perf_rounds.Reuse()  # identical files are timed once a run
        # A call the lab's own code makes is no finding in a student's.
        self.baseline = [os.path.join(KIT, "labs", lab.name), os.path.join(KIT, "labs", lab.name, "solution")]
        # The chaos seeds' secret (chaos_key.py), read once: a --prepared
        # folder's where there is one (Gradescope grades each run into a fresh
        # OUT, from one prepared image), else OUT's.
        self.chaos_secret = term_secret(getattr(args, "prepared", None) or out)
        self.forced = ""  # the review note of a grading forced past the reference check

    def grade(self, sid, src):
        if Running.stopping.is_set():
            raise Interrupted()
        final = os.path.join(self.out, "students", sid)
        why_not, fp = graded.fingerprint(self.args.submissions, src)
        old, why = (None, "--force") if self.args.force else graded.current_record(self.out, sid, fp, self.parts)
        if old:
            return old, True
        slot = self.slots.get()
        t0 = time.time()
        work = os.path.join(self.lab.work, "work", sid)
        logs = os.path.join(self.out, "logs", sid)
        try:
            shutil.rmtree(work, ignore_errors=True)
            shutil.rmtree(logs, ignore_errors=True)
            os.makedirs(work)
            # (exist_ok: another Slurm task may grade the same submission at once.)
            os.makedirs(logs, exist_ok=True)
            try:
                if why_not:
                    raise Problem(STATUS_REJECTED, why_not)
                result = self.grade_in(src, work, logs, slot)
            except Problem as p:
                result = {"status": p.status, "message": p.message, "tests": [], "log": p.log,
                          "flags": joined(refusals(os.path.join(work, REFUSALS_DIR)), getattr(p, "flags", ""))
                          or (why_not or "")}
            except Exception as e:  # a grader bug must not stop the batch
                result = {"status": STATUS_ERROR, "message": f"{type(e).__name__}: {e}", "tests": [], "log": ""}
        finally:
            self.slots.put(slot)
        refused = refusals_text(os.path.join(work, REFUSALS_DIR))
        if refused:  # what the sandbox refused, line by line, for the instructor
            write_atomic(os.path.join(logs, "sandbox-refused.log"), refused)
        result["flags"] = joined(self.forced, result.get("flags", ""))
        result.update(student=sid, fingerprint=fp, grading=self.parts, graded_because=why, seconds=round(time.time() - t0, 1), lab=self.lab.name,
                      host=socket.gethostname(), graded_at=datetime.datetime.now(datetime.timezone.utc)
                      .strftime("%Y-%m-%d %H:%M UTC"))
        standing.add_review(result, self.lab, sid, os.path.join(work, "src"))  # a best cluster record not reproduced
        self.finish(result, final, logs)
        if not self.args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return result, False

    def grade_in(self, src, work, logs, slot, timed=True):
        srcdir = os.path.join(work, "src")
        os.makedirs(srcdir)
        collect(src, srcdir, self.lab.student_files, work, self.lab.optional_files)
        flags = review_flags(srcdir, self.baseline)
        build, out, refused = (os.path.join(work, d) for d in ("build", "results", REFUSALS_DIR))
        for d in (build, out, refused):
            os.makedirs(d)
        os.chmod(work, 0o755)
        self.sandbox.give_to(slot, srcdir, build, out, refused)
        try:
            return self.build_and_test(srcdir, work, logs, slot, flags, timed)
        except Problem as p:
            p.flags = joined(flags, getattr(p, "flags", ""))
            raise

    def build_and_test(self, srcdir, work, logs, slot, flags, timed=True):
        lab = self.lab
        build, out, refused = (os.path.join(work, d) for d in ("build", "results", REFUSALS_DIR))
        kit, sub = self.sandbox.paths(work)
        binds = [(srcdir, "/sub/src", False), (build, "/sub/build", True)]
        make = ["make", "--no-print-directory", "-f", "common/mk/lab.mk", f"LAB={lab.num}",
                f"BUILD={sub}/build", f"KIT_BUILD={lab.kit_build}", f"CUDA_ARCH={lab.cuda_arch}"]
        rc, log = self.sandbox.run(slot, binds, make + [f"SUBMISSION={sub}/src", "tests"], self.args.build_wall,
                                   refusals=refused, watch=False)
        write_atomic(os.path.join(logs, "build.log"), log)
        if rc == 124:
            raise Problem(STATUS_TIMEOUT, f"the build took longer than {self.args.build_wall} s", log)
        if rc != 0:
            raise Problem(STATUS_BUILD, "the build failed: the compiler's messages follow", log)

        lock_down(build)
        objects = lab.student_objects(build)
        self.check_objects(objects)
        broken = self.check_calls(objects, build)

        binds = [(build, "/sub/build", False), (out, "/sub/results", True)]
        env = self.check_env(current.tree_digest(srcdir))
        gpu = any(t["gpu"] for t in lab.tests)
        check = make + ["check", f"RESULTS={sub}/results/results.json",
                        f"CALL_VIOLATIONS={sub}/build/call-violations"]
        watch = ResultsWatch(out)
        try:
            rc, log = self.sandbox.run(slot, binds, check, self.args.wall, env, gpu, lab.sanitized, refused)
        finally:
            tampered = watch.finish()
        write_atomic(os.path.join(logs, "check.log"), log)
        if tampered:
            raise Problem(STATUS_REJECTED, "its code tampered with the test runner's results file "
                          f"({tampered}): no test is counted", log)
        if rc == 124:
            raise Problem(STATUS_TIMEOUT, f"the tests took longer than {self.args.wall} s in all "
                          "(each test has its own limit too): an endless loop in several tests?")
        try:
            tests = read_results(os.path.join(out, "results.json"), lab.tests, rc)
        except Problem as p:
            reached = limits.whole_run(refused, log, lab.limits)
            if reached:
                p.message = f"{p.message}. {reached}"
                p.flags = limits.flag(["the test runner"])
            raise
        limited = limits.mark(tests, refused, lab.limits)
        tests = apply_call_rules(tests, broken)
        flags = [flags, limits.flag(limited)] + self.repeat_racy(tests, slot, binds, make, sub, env, gpu, logs, refused)
        files = current.tree_digest(srcdir) if lab.perf else None
        for p in lab.perf if timed else []:
            entry = perf.measure(p, lab, self.sandbox, slot, work, build, tests, logs, self.perf_lock,
                                 self.args.build_wall, self.perf_reuse, files)
            flags.append(entry.pop("review", ""))
            tests.append(entry)
        # The sandbox's refusals lead: what the code tried, before what it names.
        return {"status": STATUS_GRADED, "message": "", "tests": tests, "log": "",
                "flags": joined(refusals(refused), *flags)}

    def check_env(self, files):
        """The tests' environment, for the files whose digest is files."""
        env = {"CK_TIMEOUT_MULTIPLIER": os.environ.get("CK_TIMEOUT_MULTIPLIER", "1"),
               # The chaos seeds (autograder/runner/runner.h): a function of the
               # files' contents, the test and the grading folder's secret, so a
               # regrade draws the same ones and a student cannot know them.
               "AG_CHAOS_KEY": chaos_key(self.chaos_secret, files)}
        # (CUDA_VISIBLE_DEVICES: the GPUs Slurm gave this task, not all of the node's.)
        for var in ("KIT_GPU_COUNT", "CUDA_VISIBLE_DEVICES"):
            if var in os.environ:
                env[var] = os.environ[var]
        return env

    def repeat_racy(self, tests, slot, binds, make, sub, env, gpu, logs, refused=None):
        """The passed tests that labs/labN-name/tests/repeat.conf names, run again
        alone (grading/repeat.py); returns the review flags of those whose
        runs disagree (their points withheld)."""
        flags, notes = [], []
        for t in tests:
            more = repeat.runs_for(self.lab.repeat, t["name"])
            if t["status"] != "passed" or not more:
                continue
            passes = 1
            for k in range(more):
                path = os.path.join(binds[1][0], f"rerun-{k}.json")
                rc, log = self.sandbox.run(slot, binds, make + [
                    "check", f"RESULTS={sub}/results/rerun-{k}.json", f"CALL_VIOLATIONS={sub}/build/call-violations",
                    f"CHECK_ARGS=--only {t['name']}"], self.args.wall, env, gpu, self.lab.sanitized, refused)
                notes.append(f"== {t['name']}, run {k + 2}: status {rc}\n{log[-2000:]}")
                passes += repeat.rerun_passed(t["name"], path)
            if passes != more + 1:
                flags.append(repeat.withhold(t, passes, more + 1))
        if notes:
            write_atomic(os.path.join(logs, "reruns.log"), "\n".join(notes))
        return flags

    def check_objects(self, objects):
        """Student code must not run in the test runner's own process (only
        in the tests it forks), nor replace a function the runner calls: no
        constructors or destructors (but nvcc's own, exactly, in .cu
        objects), no IFUNC resolvers, no global symbol that the kit or a
        library it loads defines. Read here, outside the sandbox, by
        pyelftools (pure Python: parsing runs none of the object's code)."""
        bad = []
        for path in objects:
            try:
                obj = ObjectFile(path)
            except ValueError as e:
                raise Problem(STATUS_REJECTED, f"the compiled objects could not be inspected: {e}")
            bad += [f"has {what} (code that runs before or after main)" for what in startup_code(obj, self.lab.from_cu(path))]
            bad += [f"defines {name}, which belongs to the C library or the grader (make it static, or rename it)"
                    for name in unsafe_symbols(obj, self.lab.forbidden)]
        if bad:
            raise Problem(STATUS_REJECTED, "the submission was not run: its code " + "; ".join(sorted(set(bad))))

    def check_calls(self, objects, build):
        """The lab's call rules, decided here; the runner gets the verdicts
        (to fail those tests with the reason) and they are applied again to
        its results."""
        if not self.lab.calls_conf:
            found = []
        else:
            try:
                found = calls.check(self.lab.calls_conf, objects)
            except ValueError as e:
                raise Problem(STATUS_REJECTED, f"the compiled objects could not be inspected: {e}")
        write_atomic(os.path.join(build, "call-violations"), calls.format_lines(found))
        os.chmod(os.path.join(build, "call-violations"), 0o644)
        return calls.read_lines(calls.format_lines(found))

    def finish(self, result, final, logs):
        os.makedirs(final, exist_ok=True)
        tests = result["tests"]
        result["total"] = round(sum(t["score"] for t in tests), 2)
        result["max_score"] = self.lab.max_points
        log = result.pop("log", "")
        if log:
            write_atomic(os.path.join(logs, "problem.log"), log)
        result["performance_chart"] = perf_feedback.write_chart(
            final, tests, f"Lab {self.lab.num}: {result['student']} beside the reference, timed together")
        write_atomic(os.path.join(final, "results.json"), json.dumps(gradescope_json(result, log), indent=1))
        write_atomic(os.path.join(final, "feedback.txt"), feedback(result, log, self.lab.num, self.lab.name))
        graded.write(self.out, result["student"], result)


def nothing_new(args, out, lab, subs, gpus):
    """Is every submission graded already, by this kit on this host with
    these options? The last run's facts of the lab (lab.json) then decide,
    and nothing is prepared: the kit copy and the reference's build take
    most of a run's first half-minute."""
    if args.force or getattr(args, "prepared", None):
        return False
    try:
        with open(os.path.join(out, "lab.json")) as f:
            facts = json.load(f)
    except (OSError, ValueError):
        return False
    if facts.get("digest") != lab.digest() or facts.get("gpus") != gpus or "tests" not in facts:
        return False
    parts = current.parts(lab.num, args, facts["tests"], gpus)
    for sid, src in subs.items():
        fp = graded.fingerprint(args.submissions, src)[1]
        if graded.current_record(out, sid, fp, parts)[0] is None:
            return False
    return True


def forced_note(verdict):
    lost = sum(t["points"] for t in verdict["lost"])
    return (f"graded with FORCE=1 although the reference itself loses {lost:g} points in this sandbox "
            f"({', '.join(t['name'] for t in verdict['lost'])})")


def joined(*flags):
    return "; ".join(x for x in flags if x)


def grade_here(args, out, subs, work=None):
    """Grades subs ({student id: path}) on this machine, -j at once, each in
    the sandbox; returns how many were graded now (not already). work: the
    scratch folder (the kit copy, the reference, the work folders), by
    default OUT/.grader."""
    # The uids first: the probe runs as this run's first uid, since another
    # grading run's processes count against the process limit of the uid it
    # holds (a probe as uid 60000 beside a run holding 60000 failed so: bwrap's
    # "Creating new namespace failed: Resource temporarily unavailable").
    args.first_uid, args.uid_lock = claim_uids()  # held until this process ends
    if args.sandbox == "required":
        probe = subprocess.run([SANDBOX, "--probe", "--uid", str(args.first_uid)], capture_output=True, text=True)
        if probe.returncode != 0:
            sys.exit(probe.stderr.strip() + "\ngrade: refusing to run student code without the sandbox "
                     "(--sandbox off runs it unconfined: only for code you trust)")
        print(probe.stdout.strip(), file=sys.stderr)
    if os.geteuid() == 0:
        print(f"grade: sandbox uids {args.first_uid}-{args.first_uid + args.jobs - 1} (this run's own)",
              file=sys.stderr)

    lab = Lab(args.lab, out, args, work or getattr(args, "prepared", None))
    gpus = current.gpu_count()
    if nothing_new(args, out, lab, subs, gpus):
        print(f"grade: lab {lab.num}: every one of the {len(subs)} submissions is graded already, by this kit on "
              "this host with these options: nothing to grade", file=sys.stderr)
        args.stopped = 0
        return 0
    print(f"grade: lab {lab.num} ({lab.name}), {len(subs)} submission{'' if len(subs) == 1 else 's'} from {args.submissions}, "
          f"{args.jobs} at a time; preparing the kit copy and the reference...", file=sys.stderr)
    if getattr(args, "prepared", None):
        if lab.reuse_or_prepare():
            print(f"grade: the kit copy and the reference prepared in {lab.work} reused", file=sys.stderr)
    elif work is None or getattr(args, "slurm_task", None):
        # (a Slurm task's on the node's own disk: the kit's folder may be a
        # network file system, where locks may not hold)
        ready = prepared.use(lab, node_local=work is not None)
        print(f"grade: the kit copy and the reference: {lab.home} "
              f"({'made by an earlier grading of this kit on this host' if ready else 'kept for the next grading'})",
              file=sys.stderr)
    else:
        lab.prepare()
    # the run's own folder, the students' work folders in it (a Slurm task's
    # is a private temporary one): the sandbox's user passes through it
    os.makedirs(lab.work, exist_ok=True)
    os.chmod(lab.work, 0o755)
    need_gpu = sum(t["points"] for t in lab.tests if t["gpu"]) + sum(p.points for p in lab.perf if p.device)
    if need_gpu and not gpus and not getattr(args, "cpu_only", False):
        sys.exit(f"grade: lab {lab.num} has {need_gpu:g} of its {lab.max_points:g} points in GPU tests, and this host "
                 "has no GPU: those points would be lost by every student. Grade on a GPU host, or pass "
                 "--cpu-only (make grade ... CPU_ONLY=1) to grade the rest here.")
    # A build for other GPUs would skip every GPU test of every student.
    missing = lab.missing_gpu_code() if gpus and need_gpu else ""
    if missing:
        sys.exit(f"grade: lab {lab.num}'s reference build has no code for this host's GPUs, so every GPU test of "
                 f"every student would be skipped; nobody graded: {missing}")
    # What the merge needs of the lab (the gradebook's columns), for a merge
    # on a machine that built nothing (a Slurm array's); digest and tests:
    # what a later run with nothing new compares (nothing_new).
    facts = {"num": lab.num, "name": lab.name, "max_points": lab.max_points, "gpus": gpus,
             "gpu_points": need_gpu if not gpus else 0,
             "columns": [t["name"] for t in lab.tests] + [f"perf_{p.name}" for p in lab.perf],
             "digest": lab.digest(), "tests": lab.tests}
    parts = current.parts(lab.num, args, lab.tests, gpus)
    grader = Grader(lab, out, args, parts)
    # The grader's own check first (Gradescope's one-submission runs are
    # left out: the instructor's make grade makes it).
    if not getattr(args, "prepared", None):
        facts["reference"] = verdict = reference.check(grader, lab, args, gpus)
        grader.forced = forced_note(verdict) if verdict.get("forced") else ""
    write_atomic(os.path.join(out, "lab.json"), json.dumps(facts, indent=1))
    progress = Progress(len(subs))
    fresh, regraded = 0, {}
    pool = concurrent.futures.ThreadPoolExecutor(args.jobs)
    try:
        futures = {pool.submit(grader.grade, sid, src): sid for sid, src in subs.items()}
        for fut in concurrent.futures.as_completed(futures):
            try:
                r, skipped = fut.result()
            except (Interrupted, concurrent.futures.CancelledError):
                continue  # no record: graded on the next run
            except Exception as e:  # writing its results failed (a full disk?): say so, go on
                r, skipped = {"status": f"{STATUS_ERROR}: {type(e).__name__}: {e}", "total": 0,
                              "max_score": lab.max_points}, False
            fresh += not skipped
            why = r.get("graded_because") or ""
            if not skipped and why.startswith(("changed", "its")):
                regraded[why] = regraded.get(why, 0) + 1
            progress.step(futures[fut], r, skipped)
            if Running.stopping.is_set():
                pool.shutdown(wait=False, cancel_futures=True)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    args.stopped = len(subs) - progress.done if Running.stopping.is_set() else 0
    for why, n in sorted(regraded.items()):
        print(f"grade: regraded {n} whose record was stale: {why}", file=sys.stderr)

    try:
        os.rmdir(os.path.join(lab.work, "work"))  # empty unless --keep
    except OSError:
        pass
    if lab.work != os.path.join(out, ".grader") and not args.keep and not getattr(args, "prepared", None):
        shutil.rmtree(lab.work, ignore_errors=True)
    return fresh


def merge(out, fresh, already, t0, present=None, leaderboard=True):
    """The class's results from every student's grade.json in OUT: the
    gradebook, the histogram, the class's page, the summary. The same after
    a local run and after a Slurm array. present: the class's student ids
    now; a record of anyone else (a student who left, a renamed entry)
    leaves the gradebook (its folder stays in OUT/students) and the summary
    says so."""
    try:
        with open(os.path.join(out, "lab.json")) as f:
            lab = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"grade: {out}/lab.json: {e}: no run got as far as building the reference (see its log)")
    kept, gone = graded.the_class(out, lab["max_points"], present)
    the_term = term.load(out)
    if gone:
        print(f"grade: {len(gone)} record(s) of students no longer in the class left out of the gradebook: "
              f"{', '.join(gone)} (still in {out}/students)", file=sys.stderr)
    finals = term.finals(the_term, kept, float(lab.get("gpu_points") or 0)) if term.active(the_term) else None
    write_gradebook(out, lab["columns"], kept, finals)
    explain(out, lab, kept, finals)
    text = write_histogram(out, lab["num"], lab["name"], lab["max_points"], kept,
                           gpu_points=lab.get("gpu_points", 0))
    page = write_class_page(out, leaderboard, records=kept)
    by_status = {}
    for r in kept:
        by_status[r["status"]] = by_status.get(r["status"], 0) + 1
    totals = [r["total"] for r in kept]
    print(f"\nGraded {fresh} now ({already} already graded) in {time.time() - t0:.0f} s; "
          f"the gradebook holds {len(kept)}:", file=sys.stderr)
    print("  " + ", ".join(f"{n} {s}" for s, n in sorted(by_status.items())), file=sys.stderr)
    if totals:
        print(f"  mean {statistics.mean(totals):.1f}, median {statistics.median(totals):g} of "
              f"{lab['max_points'] - lab.get('gpu_points', 0):g}", file=sys.stderr)
    if lab.get("reference"):
        print(f"  {reference_line(lab['reference'])}", file=sys.stderr)
    if lab.get("gpu_points"):
        print(f"  this host could award {lab['max_points'] - lab['gpu_points']:g} of {lab['max_points']:g}; "
              f"{lab['gpu_points']:g} need a GPU (graded with --cpu-only: regrade on a GPU host for them)",
              file=sys.stderr)
    print(text, file=sys.stderr, end="")
    print(f"{out}/gradebook.csv, {out}/students/*/feedback.txt, results.json; {out}/histogram.png; the class on one "
          f"page: {page}", file=sys.stderr)
