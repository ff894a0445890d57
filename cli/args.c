/* args.c — option parsing shared by the subcommands. */
#include "cli.h"

#include <string.h>

/* 1 if `name` is in the comma-separated list `allowed`. */
static int allowed_opt(const char *allowed, const char *name, size_t len)
{
    const char *p = allowed;
    while (p && *p) {
        size_t l = strcspn(p, ",");
        if (l == len && strncmp(p, name, len) == 0)
            return 1;
        p += l + (p[l] == ',');
    }
    return 0;
}

int cli_parse(int argc, char **argv, const char *cmd, const char *allowed, cli_opts *o)
{
    int no_more_opts = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (no_more_opts || a[0] != '-' || a[1] == 0) {
            if (o->npositional == (int)(sizeof o->positional / sizeof o->positional[0])) {
                fprintf(stderr, "crk %s: too many arguments\n", cmd);
                return -1;
            }
            o->positional[o->npositional++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            no_more_opts = 1;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return 1;
        if (strcmp(a, "--json") == 0) {
            o->json = 1;
            continue;
        }
        if (a[1] != '-') {
            fprintf(stderr, "crk %s: unknown option '%s' (see crk %s --help)\n", cmd, a, cmd);
            return -1;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t nlen = eq ? (size_t)(eq - name) : strlen(name);
        if (!allowed_opt(allowed, name, nlen)) {
            fprintf(stderr, "crk %s: unknown option '%.*s' (see crk %s --help)\n", cmd,
                    (int)nlen + 2, a, cmd);
            return -1;
        }
        const char *val = eq ? eq + 1 : NULL;
        if (!val) {
            if (i + 1 >= argc) {
                fprintf(stderr, "crk %s: option '%s' needs a value\n", cmd, a);
                return -1;
            }
            val = argv[++i];
        }
        if (strncmp(name, "family", nlen) == 0 && nlen == 6) o->family = val;
        else if (strncmp(name, "module", nlen) == 0 && nlen == 6) o->module = val;
        else if (strncmp(name, "dtype", nlen) == 0 && nlen == 5) o->dtype = val;
        else if (strncmp(name, "arch", nlen) == 0 && nlen == 4) o->arch = val;
        else if (strncmp(name, "dir", nlen) == 0 && nlen == 3) o->dir = val;
    }
    return 0;
}
