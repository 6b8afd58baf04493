"""The class standing: records of `make check SCHED=slurm|lsf` runs in the
course's spool (course.conf), the board built from them, a student's own
history. Advisory: a run is the student's own job, so a record can be
written by hand; each carries the hash of the code it measured, and class
grading flags a best record the graded code does not reproduce."""
