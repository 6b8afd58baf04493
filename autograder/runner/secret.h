/* The grader's secrets: random bytes from the kernel, from which the runner
 * draws the exit code that says a forked test reached its end, and the
 * launcher the token that says a checker program did. Internal to the
 * grader (autograder/runner/). */
#ifndef KIT_GRADER_SECRET_H
#define KIT_GRADER_SECRET_H

#include <stddef.h>

/* n random bytes from the kernel into buf; 0 when it gave fewer. */
int ag_random_bytes(void *buf, size_t n);

#endif
