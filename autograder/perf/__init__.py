"""What is timed for performance (timed.conf, the harnesses beside it):
read by class grading (which adds the points) and by the run a student records on a course's cluster
(autograder/sched/record_run)."""
