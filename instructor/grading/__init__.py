"""The kit's class grading, one module a job.

instructor/grade (the instructors' batch grader) is a thin entry point over
this package; the call rules it shares with make check are
autograder/callrules/ (calls, elf). Run with PYTHONPATH=instructor:autograder.

The lab and its submissions
    lab             the kit copy the sandbox sees, the reference build, the test list
    prepared        those kept between gradings, per lab, kit version and host
    student_copy    the one reader of instructor/student-copy (what students get)
    kitfiles        the kit's own files, for the copies made of it
    release_check   the student copy's search for reference code (instructor/release)
    unpack          the class folder, archives, copying the student's files
    lms             submissions and rosters as a learning-management system hands them out
    review          hints for the instructor (suspicious calls in the sources)
Running a submission
    sandbox         running one command of a submission confined
    seccomp         the sandbox's seccomp filter (the calls that fail with EPERM)
    watch           watching the runner's results folder for tampering (inotify)
    repeat          tests a race can pass by luck, run again (labs/labN-name/tests/repeat.conf)
    chaos_key       the key of a submission's chaos seeds: its files and the grading folder's secret
    perf            performance points: the student's function timed against the reference's
    perf_rounds     how many alternating rounds a performance entry is timed for, and its points
    results         reading the runner's results.json against the test list
    limits          a limit of the grader's (processes, memory, a program it could not run) named as its own
    reference       the grader's own check: the reference's files graded as a student's, before the class
Grading a class
    command         instructor/grade's options: grading here (batch) or through Slurm
    batch           grading a class: one submission after another, several at once
    slurm           the same batch as a Slurm array job, merged as a local run is
    graded          the per-submission records that make grading resumable
    current         what decides a grade besides the files, so that records stay current
    util            statuses, Problem, atomic writes, capped command output
What comes out
    report          the student's feedback.txt and Gradescope's results.json
    perf_feedback   the student's measured speed beside the reference's: text, chart
    gradebook       gradebook.csv, the histogram, progress
    charts          the bar charts as PNG files (gnuplot, else matplotlib)
    classpage       the class on one page (class.html)
    standing        the class standing at grading time (make check SCHED=...'s records)
    term            the late policy, manual marks, the LMS's grade-import CSV (make export)
    lms_feedback    each student's feedback.txt as the LMS takes it in bulk
    similarity      pairs of a class's submissions unusually alike (sim_c; instructor/similarity)

Unit tests of the pure parts: instructor/grading/tests/ (make test runs them
through maintainer/selftest/grading_unit.sh).
"""
