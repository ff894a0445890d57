/* candidates.h — the shipped targets a device may pick from (arch directory
 * names, bundle entry targets, embedded blob targets): a growing list with
 * no fixed limit, pure (no I/O), so that it is fuzzed apart (fuzz/). */
#ifndef CRK_CANDIDATES_H
#define CRK_CANDIDATES_H
#include <stddef.h>

typedef struct {
    char **names;
    size_t n, cap;
} crk_candidates;

/* Adds a copy of name when it starts with `kind` ("gfx", "nvidia"). Names of
 * CRK_CO_TARGET_MAX bytes or more are no target ID: they are skipped whole,
 * never truncated into one. 1 added, 0 skipped, -1 out of memory. */
int crk_candidates_add(crk_candidates *c, const char *name, const char *kind);
/* Sorts the names and drops repeats (O(n log n)): the pick among equally
 * good targets does not depend on directory order. */
void crk_candidates_finish(crk_candidates *c);
/* "gfx908 gfx90a ..." into out (truncated with "..." when it does not fit). */
void crk_candidates_join(const crk_candidates *c, char *out, size_t cap);
void crk_candidates_free(crk_candidates *c);
#endif
