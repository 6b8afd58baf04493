/* A table's entry by name: see named_table.h. */
#include "named_table.h"

#include <string.h>

#include <check.h>

const void *ag_find_named(const void *table, int count, size_t stride, const char *name)
{
    for (int i = 0; i < count; i++) {
        const char *const *entry = (const char *const *)((const char *)table + (size_t)i * stride);
        if (!strcmp(*entry, name))
            return entry;
    }
    ck_abort_msg("test bug: no entry named %s", name);
    return NULL;
}
