/* candidates.c — a list of target names, deduplicated, of any length. */
#define _POSIX_C_SOURCE 200809L
#include "candidates.h"
#include "codeobj.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int crk_candidates_add(crk_candidates *c, const char *name, const char *kind) {
    const size_t len = strnlen(name, CRK_CO_TARGET_MAX);
    if (strncmp(name, kind, strlen(kind)) || len >= CRK_CO_TARGET_MAX) return 0;
    if (c->n == c->cap) {
        const size_t cap = c->cap ? 2 * c->cap : 16;
        char **grown = realloc(c->names, cap * sizeof *grown);
        if (!grown) return -1;
        c->names = grown, c->cap = cap;
    }
    if (!(c->names[c->n] = strdup(name))) return -1;
    c->n++;
    return 1;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void crk_candidates_finish(crk_candidates *c) {
    if (c->n) qsort(c->names, c->n, sizeof *c->names, by_name);
    size_t k = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (k && !strcmp(c->names[k - 1], c->names[i])) free(c->names[i]);
        else c->names[k++] = c->names[i];
    }
    c->n = k;
}

void crk_candidates_join(const crk_candidates *c, char *out, size_t cap) {
    size_t used = 0;
    if (cap) out[0] = 0;
    for (size_t i = 0; i < c->n && cap; i++) {
        const int r = snprintf(out + used, cap - used, "%s%s", i ? " " : "", c->names[i]);
        if (r < 0 || (size_t)r >= cap - used) {
            if (cap > 4) snprintf(out + (cap - 4), 4, "...");
            return;
        }
        used += (size_t)r;
    }
}

void crk_candidates_free(crk_candidates *c) {
    for (size_t i = 0; i < c->n; i++) free(c->names[i]);
    free(c->names);
    memset(c, 0, sizeof *c);
}
