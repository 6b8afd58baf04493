/* Command-line and environment parsing with errors a person can act on.
 *
 * Every parser rejects trailing garbage ("12x"), overflow and out-of-range
 * values, prints which argument was wrong and what was expected, and returns
 * nonzero; a driver then prints its usage and exits with status 2. */
#ifndef KIT_CLI_H
#define KIT_CLI_H

#ifdef __cplusplus
extern "C" {
#endif

/* Parses text as an int in [min, max] into *out. what names the argument in
 * the error message, e.g. "m (rows of A and C)". Returns 0 on success. */
int cli_parse_int(const char *text, const char *what, long min, long max, int *out);
int cli_parse_double(const char *text, const char *what, double min, double max, double *out);

/* Environment variable name as an int or double, or fallback where it is
 * unset or empty; a malformed value is an error (returns nonzero). */
int cli_env_int(const char *name, int fallback, long min, long max, int *out);
int cli_env_double(const char *name, double fallback, double min, double max, double *out);

#ifdef __cplusplus
}
#endif
#endif
