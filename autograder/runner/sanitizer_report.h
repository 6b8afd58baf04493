/* The grading layer's reading of AddressSanitizer and
 * UndefinedBehaviorSanitizer reports (labs whose lab.mk sets SANITIZE: the
 * student's files built with the sanitizers for the test program).
 *
 * A read one past a buffer that leaves the answer unchanged passes every
 * comparison; built with ASan it stops the test's process. The runner sends
 * the reports to files of a fresh folder (one per process), and a test that
 * did not pass gets, as its message, the first lines of the report made in
 * its process: what went wrong, and where in the student's files. Without
 * the sanitizers linked in, all of this does nothing. */
#ifndef KIT_SANITIZER_REPORT_H
#define KIT_SANITIZER_REPORT_H

#include <stddef.h>

/* The exit status of a process a sanitizer stopped. */
#define AG_SANITIZER_EXIT 86

/* Before the tests are forked: the folder for the reports. */
void ag_sanitizer_setup(void);

/* A report whose stack passes through the test function of test (Check's
 * TEST_fn): its summary into message (at most cap bytes), the report files
 * read removed; returns 1, or 0 when there is none. */
int ag_sanitizer_report(const char *test, char *message, size_t cap);

/* A test whose process a sanitizer stopped (status AG_SANITIZER_EXIT) but
 * whose report names no test function (a signal caught by ASan, its stack
 * not symbolised): the newest report's summary, as ag_sanitizer_report's,
 * that file removed; 0 when there is none. */
int ag_sanitizer_report_newest(char *message, size_t cap);

/* The reports of the processes of folder dir (the MPI checker programs'
 * ranks, ASAN_OPTIONS' log_path: launch.c): the first one's summary into
 * message, as ag_sanitizer_report's; the reports and the folder removed.
 * Returns 0 when there is none. */
int ag_sanitizer_summary(const char *dir, char *message, size_t cap);

/* The run is over: the folder and what is left in it removed. */
void ag_sanitizer_cleanup(void);

#endif
