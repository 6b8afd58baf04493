#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int cli_parse_int(const char *text, const char *what, long min, long max, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || end == text || *end != '\0' || errno == ERANGE) {
        fprintf(stderr, "error: %s must be an integer, got '%s'\n", what, text ? text : "(nothing)");
        return 1;
    }
    if (v < min || v > max) {
        fprintf(stderr, "error: %s must be in [%ld, %ld], got %ld\n", what, min, max, v);
        return 1;
    }
    *out = (int)v;
    return 0;
}

int cli_parse_double(const char *text, const char *what, double min, double max, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = text ? strtod(text, &end) : 0.0;
    if (!text || end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        fprintf(stderr, "error: %s must be a finite number, got '%s'\n", what, text ? text : "(nothing)");
        return 1;
    }
    if (v < min || v > max) {
        fprintf(stderr, "error: %s must be in [%g, %g], got %g\n", what, min, max, v);
        return 1;
    }
    *out = v;
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
