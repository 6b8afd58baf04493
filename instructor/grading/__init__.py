"""The kit's grading machinery, one module a job.

instructor/grade (the instructors' batch grader) is a thin entry point over
this package; make check uses its call rules (calls.py, elf.py) too.

    util            statuses, Problem, atomic writes, capped command output
    instructor_only the one reader of instructor/sandbox/instructor-only
    lab             the kit copy the sandbox sees, the reference build, the test list
    perf            performance points (instructor/perf/perf.conf)
    perf_feedback   the student's measured speed beside the reference's: text, chart
    sandbox         running one command of a submission confined
    elf             what compiled objects define, call and run at start-up (pyelftools)
    calls           the call rules of autograder/labN/calls.conf
    watch           watching the runner's results folder for tampering (inotify)
    unpack          the class folder, archives, copying the student's files
    review          hints for the instructor (suspicious calls in the sources)
    results         reading the runner's results.json against the test list
    report          the student's feedback.txt and Gradescope's results.json
    gradebook       gradebook.csv, the histogram, progress
    command         instructor/grade's options: grading here (batch) or through Slurm
    batch           grading a class: one submission after another, several at once
    slurm           the same batch as a Slurm array job, merged as a local run is
    similarity      pairs of a class's submissions unusually alike (sim_c; instructor/similarity)

Unit tests of the pure parts: instructor/grading/tests/ (make test runs them
through maintainer/selftest/grading_unit.sh).
"""
