/* Looking up a lab's variants or solvers by name in a table of structs. */
#ifndef KIT_GRADER_NAMED_TABLE_H
#define KIT_GRADER_NAMED_TABLE_H

#include <stddef.h>

/* The entry named `name` of a table of count structs of `stride` bytes
 * whose first member is `const char *name` (a lab's variants or solvers);
 * fails the test when there is none (a bug of the test). */
const void *ag_find_named(const void *table, int count, size_t stride, const char *name);

#endif
