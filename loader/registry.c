/* registry.c — lookups over the generated registry (build/gen/registry.c). */
#include "registry.h"
#include "error.h"
#include "fnv1a.h"
#include <stdlib.h>
#include <string.h>

size_t crk_kernel_count(void) { return crk_registry_count; }

const crk_kernel_info *crk_kernel_at(size_t i) {
    return i < crk_registry_count ? &crk_registry[i] : NULL;
}

static const crk_kernel_info *probe(const char *name) {
    for (uint32_t h = crk_fnv1a(name) & crk_registry_slot_mask;; h = (h + 1) & crk_registry_slot_mask) {
        const uint32_t slot = crk_registry_slots[h];
        if (slot == 0) return NULL;
        if (strcmp(crk_registry[slot - 1].name, name) == 0) return &crk_registry[slot - 1];
    }
}

const crk_kernel_info *crk_kernel_find(const char *name) {
    if (!name) {
        crk_fail(CRK_E_INVALID, "kernel name is NULL");
        return NULL;
    }
    const crk_kernel_info *k = probe(name);
    if (!k) {
        const char *near[3] = {0};
        size_t n = crk_kernel_suggest(name, near, 3);
        crk_fail(CRK_E_NOT_FOUND, "unknown kernel '%s'%s%s%s%s%s%s", name, n ? "; nearest: " : "",
                 n > 0 ? near[0] : "", n > 1 ? ", " : "", n > 1 ? near[1] : "", n > 2 ? ", " : "",
                 n > 2 ? near[2] : "");
    }
    return k;
}

/* Levenshtein distance, capped to names of 63 characters. */
static size_t edit_distance(const char *a, const char *b) {
    size_t la = strnlen(a, 63), lb = strnlen(b, 63), row[64];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            const size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best, diag = up;
        }
    }
    return row[lb];
}

size_t crk_kernel_suggest(const char *name, const char **out, size_t n) {
    if (!name || !out) return 0;
    size_t dist[16], got = 0;
    if (n > 16) n = 16;
    for (size_t i = 0; i < crk_registry_count; i++) {
        const size_t d = edit_distance(name, crk_registry[i].name);
        size_t pos = got < n ? got++ : n;
        while (pos > 0 && dist[pos - 1] > d) {  /* insertion into the n best */
            if (pos < n) dist[pos] = dist[pos - 1], out[pos] = out[pos - 1];
            pos--;
        }
        if (pos < n) dist[pos] = d, out[pos] = crk_registry[i].name;
    }
    return got;
}

size_t crk_module_count(void) { return crk_registry_module_count; }
const char *crk_module_name(size_t id) {
    return id < crk_registry_module_count ? crk_registry_modules[id] : NULL;
}
const char *crk_dtype_name(crk_dtype dt) {
    return (unsigned)dt < CRK_DTYPE_COUNT ? crk_registry_dtype_names[dt] : "?";
}
size_t crk_dtype_size(crk_dtype dt) {
    return (unsigned)dt < CRK_DTYPE_COUNT ? crk_registry_dtype_sizes[dt] : 0;
}
int crk_dtype_from_name(const char *name) {
    for (int i = 0; name && i < CRK_DTYPE_COUNT; i++)
        if (strcmp(crk_registry_dtype_names[i], name) == 0) return i;
    return -1;
}
