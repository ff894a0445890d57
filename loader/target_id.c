/* target_id.c — LLVM AMDGPU target-ID parsing and matching (see target_id.h). */
#include "target_id.h"

#include <string.h>

/* Generic processors and the processors they cover (LLVM AMDGPUUsage,
 * "Generic Processor Versioning" / generic processor table). */
static const struct {
    const char *generic;
    const char *members[9];
} generic_families[] = {
    {"gfx9-generic", {"gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"}},
    {"gfx9-4-generic", {"gfx940", "gfx941", "gfx942", "gfx950"}},
    {"gfx10-1-generic", {"gfx1010", "gfx1011", "gfx1012", "gfx1013"}},
    {"gfx10-3-generic",
     {"gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036"}},
    {"gfx11-generic",
     {"gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", "gfx1152",
      "gfx1153"}},
    {"gfx12-generic", {"gfx1200", "gfx1201"}},
};
#define NFAMILIES (sizeof generic_families / sizeof generic_families[0])

/* Today only sramecc and xnack exist; any lowercase name is accepted so a
 * newer runtime reporting a new feature still parses (and an unknown
 * feature the code object requires still has to match). */
static int valid_feature(const char *name, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') ||
              name[i] == '_'))
            return 0;
    return len > 0;
}

/* Drops a triple prefix: everything up to the last "--". */
static const char *strip_triple(const char *s)
{
    const char *last = NULL;
    for (const char *p = strstr(s, "--"); p; p = strstr(p + 1, "--"))
        last = p;
    return last ? last + 2 : s;
}

int crk_target_parse(const char *s, crk_target_id *out)
{
    if (!s || !out)
        return -1;
    memset(out, 0, sizeof *out);
    s = strip_triple(s);
    size_t plen = strcspn(s, ":");
    if (plen == 0 || plen >= sizeof out->processor)
        return -1;
    memcpy(out->processor, s, plen);
    for (size_t i = 0; i < plen; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            return -1;
    }
    s += plen;
    while (*s == ':') {
        s++;
        size_t flen = strcspn(s, ":");
        if (flen < 2 || out->nfeatures == CRK_TID_MAX_FEATURES)
            return -1;
        char sign = s[flen - 1];
        size_t nlen = flen - 1;
        if ((sign != '+' && sign != '-') || nlen >= sizeof out->features[0].name ||
            !valid_feature(s, nlen))
            return -1;
        for (size_t i = 0; i < out->nfeatures; i++)
            if (strlen(out->features[i].name) == nlen &&
                memcmp(out->features[i].name, s, nlen) == 0)
                return -1; /* repeated feature */
        memcpy(out->features[out->nfeatures].name, s, nlen);
        out->features[out->nfeatures].name[nlen] = 0;
        out->features[out->nfeatures].mode = sign == '+' ? CRK_FEAT_ON : CRK_FEAT_OFF;
        out->nfeatures++;
        s += flen;
    }
    return *s == 0 ? 0 : -1;
}

crk_feat_mode crk_target_feature(const crk_target_id *t, const char *name)
{
    for (size_t i = 0; i < t->nfeatures; i++)
        if (strcmp(t->features[i].name, name) == 0)
            return t->features[i].mode;
    return CRK_FEAT_ANY;
}

int crk_target_is_generic(const char *processor)
{
    size_t n = processor ? strlen(processor) : 0;
    return n > 8 && strcmp(processor + n - 8, "-generic") == 0;
}

int crk_target_generic_covers(const char *generic, const char *proc)
{
    for (size_t i = 0; i < NFAMILIES; i++) {
        if (strcmp(generic_families[i].generic, generic) != 0)
            continue;
        for (size_t j = 0; j < 9 && generic_families[i].members[j]; j++)
            if (strcmp(generic_families[i].members[j], proc) == 0)
                return 1;
        return 0;
    }
    return 0;
}

const char *crk_target_generic_for(const char *proc)
{
    for (size_t i = 0; i < NFAMILIES; i++)
        if (crk_target_generic_covers(generic_families[i].generic, proc))
            return generic_families[i].generic;
    return NULL;
}

/* Score of a compatible pair, 0 if incompatible. */
static int score(const crk_target_id *co, const crk_target_id *dev, int generic_ok)
{
    int s;
    if (strcmp(co->processor, dev->processor) == 0)
        s = 1000;
    else if (generic_ok && crk_target_generic_covers(co->processor, dev->processor))
        s = 100;
    else
        return 0;
    for (size_t i = 0; i < co->nfeatures; i++) {
        /* Specified in the code object: the device must report the same. */
        if (crk_target_feature(dev, co->features[i].name) != co->features[i].mode)
            return 0;
        s += 10;
    }
    return s;
}

int crk_target_compatible(const char *code_object_target, const char *device_target,
                          int runtime_supports_generic)
{
    crk_target_id co, dev;
    if (crk_target_parse(code_object_target, &co) || crk_target_parse(device_target, &dev))
        return 0;
    return score(&co, &dev, runtime_supports_generic) > 0;
}

int crk_target_pick(const char *device_target, const char *const *candidates, size_t n,
                    int supports_generic)
{
    crk_target_id dev, co;
    if (crk_target_parse(device_target, &dev) || (!candidates && n))
        return -1;
    int best = -1, best_score = 0;
    for (size_t i = 0; i < n && i < (size_t)0x7fffffff; i++) {
        if (!candidates[i] || crk_target_parse(candidates[i], &co))
            continue;
        int s = score(&co, &dev, supports_generic);
        if (s > best_score) {
            best_score = s;
            best = (int)i;
        }
    }
    return best;
}
