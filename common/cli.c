#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The one parser behind cli_parse_int and cli_parse_double: text read
 * with strtol (integer) or strtod, whole, finite and in [min, max]. A long
 * double holds every long and every double exactly (64 or more bits of
 * mantissa), so both compare and print as their own type would. */
static int parse_number(const char *text, const char *what, int integer, long double min, long double max,
                        long double *out)
{
    char *end = NULL;
    errno = 0;
    long double v = !text ? 0 : integer ? (long double)strtol(text, &end, 10) : (long double)strtod(text, &end);
    if (!text || end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        fprintf(stderr, "error: %s must be %s, got '%s'\n", what, integer ? "an integer" : "a finite number",
                text ? text : "(nothing)");
        return 1;
    }
    if (v < min || v > max) {
        if (integer)
            fprintf(stderr, "error: %s must be in [%ld, %ld], got %ld\n", what, (long)min, (long)max, (long)v);
        else
            fprintf(stderr, "error: %s must be in [%g, %g], got %g\n", what, (double)min, (double)max, (double)v);
        return 1;
    }
    *out = v;
    return 0;
}

int cli_parse_int(const char *text, const char *what, long min, long max, int *out)
{
    long double v;
    if (parse_number(text, what, 1, min, max, &v))
        return 1;
    *out = (int)(long)v;
    return 0;
}

int cli_parse_double(const char *text, const char *what, double min, double max, double *out)
{
    long double v;
    if (parse_number(text, what, 0, min, max, &v))
        return 1;
    *out = (double)v;
    return 0;
}

int cli_env_int(const char *name, int fallback, long min, long max, int *out)
{
    const char *v = getenv(name);
    if (!v || !*v) {
        *out = fallback;
        return 0;
    }
    return cli_parse_int(v, name, min, max, out);
}

int cli_env_double(const char *name, double fallback, double min, double max, double *out)
{
    const char *v = getenv(name);
    if (!v || !*v) {
        *out = fallback;
        return 0;
    }
    return cli_parse_double(v, name, min, max, out);
}
