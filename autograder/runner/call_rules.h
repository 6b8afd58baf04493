/* The runner's reading of a lab's call rules (labs/labN-name/tests/calls.conf,
 * checked in the student's objects before the run by
 * autograder/callrules/calls.py). Internal to the grader. */
#ifndef KIT_GRADER_CALL_RULES_H
#define KIT_GRADER_CALL_RULES_H

#include <stddef.h>

/* AG_CALL_VIOLATIONS names a file of lines "TEST-GLOB<TAB>MESSAGE". A test
 * that a glob names fails with the message, unrun: what its code computes
 * proves nothing when the function under test called a solution (or
 * skipped the work it is graded for). Returns 1 and the messages (each
 * rule's in full once, at the first test it fails) for such a test. */
int ag_call_rule_broken(const char *test, char *message, size_t len);

/* A test that ran out of time: appends to message the student functions
 * that the lab's call rules (AG_CALLS_CONF, lines "FUNCTION tests GLOB...")
 * map to it, so that the line says where to look for the loop that never
 * ends. */
void ag_name_hung_functions(const char *test, char *message, size_t len);

#endif
