"""What is timed for performance (each lab's tests/perf.conf and the
harnesses beside it in tests/perf/, timed.py reads them):
read by class grading (which adds the points) and by the run a student records on a course's cluster
(autograder/sched/record_run)."""
