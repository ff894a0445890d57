/* fnv1a.h — the name hash shared by the generator (which lays out the
 * registry's hash table) and the loader (which probes it). */
#ifndef CRK_FNV1A_H
#define CRK_FNV1A_H
#include <stdint.h>

static inline uint32_t crk_fnv1a(const char *s) {
    uint32_t h = 2166136261u;
    while (*s) h = (h ^ (uint8_t)*s++) * 16777619u;
    return h;
}
#endif
