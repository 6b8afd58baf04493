"""The call rules of a lab (labs/labN-name/tests/calls.conf), checked in the
student's compiled objects by `make check` (common/mk/lab.mk) and by the
instructors' class grading: calls.py reads the rules and names the tests
that fail, elf.py reads the objects' symbols and relocations."""
