/* The call rules' verdicts and the functions a hung test tests: see
 * call_rules.h. */
#define _GNU_SOURCE
#include "call_rules.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ag_call_rule_broken(const char *test, char *message, size_t len)
{
    const char *path = getenv("AG_CALL_VIOLATIONS");
    if (!path || !*path)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "grader: cannot read the call rules' verdicts in %s (AG_CALL_VIOLATIONS)\n", path);
        exit(2);
    }
    /* Each rule's message is said in full once, at the first test it
     * fails; a later test it fails points back there. */
    static char *said[128];
    static const char *said_at[128];
    static int nsaid;
    char line[2048];
    const char *first_at = NULL;
    int broken = 0, said_before = 0;
    message[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        if (fnmatch(line, test, 0) != 0)
            continue;
        broken = 1;
        int k = 0;
        while (k < nsaid && strcmp(said[k], tab + 1) != 0)
            k++;
        if (k < nsaid && strcmp(said_at[k], test) != 0) {
            first_at = first_at ? first_at : said_at[k];
            said_before++;
            continue;
        }
        if (k == nsaid && nsaid < 128) {
            said[nsaid] = strdup(tab + 1);
            said_at[nsaid++] = test;
        }
        size_t used = strlen(message);
        snprintf(message + used, len - used, "%s%s", message[0] ? "; " : "", tab + 1);
    }
    fclose(f);
    if (said_before) {
        size_t used = strlen(message);
        snprintf(message + used, len - used, "%scall rule%s said at %s above", message[0] ? "; and the " : "the ",
                 said_before > 1 ? "s" : "", first_at);
    }
    return broken;
}

void ag_name_hung_functions(const char *test, char *message, size_t len)
{
    const char *path = getenv("AG_CALLS_CONF");
    FILE *f = path && *path ? fopen(path, "r") : NULL;
    if (!f)
        return;
    char line[1024], names[512] = "";
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        char func[128], kind[32];
        int used = 0;
        if (line[0] == '#' || sscanf(line, "%127s %31s %n", func, kind, &used) < 2 || strcmp(kind, "tests") != 0)
            continue;
        int hit = 0;
        for (char *tok = strtok(line + used, " \t\n"); tok; tok = strtok(NULL, " \t\n"))
            hit |= fnmatch(tok, test, 0) == 0;
        if (hit && !strstr(names, func) && strlen(names) + strlen(func) + 3 < sizeof names) {
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", found ? ", " : "", func);
            found++;
        }
    }
    fclose(f);
    if (found) {
        size_t used = strlen(message);
        snprintf(message + used, len - used, "; %s %s (or a function %s calls) never returned",
                 found > 1 ? "one of" : "the function", names, found > 1 ? "one of them" : "it");
    }
}
