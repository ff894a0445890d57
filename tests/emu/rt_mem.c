/* rt_mem.c — emulated device memory: a table of regions (hipMalloc
 * allocations, kernarg segments, dispatch packets, loaded code objects),
 * each backed by host memory. Every kernel access is checked against it.
 *
 * Addresses are handed out by a bump pointer, 64 KiB aligned with a 64 KiB
 * gap after each region and never reused, so an access past an end or after
 * a free lands in no region and is reported instead of hitting a neighbour.
 * The table stays sorted by address; lookups try the region of the previous
 * hit first (kernels stream through one buffer at a time), then bisect. */
#include "rt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE 0x00007e0000000000ull /* first address: looks like a device VA */
#define ALIGN ((uint64_t)64 << 10)
#define GAP ((uint64_t)64 << 10)
#define LIMIT 0x00007fe000000000ull

typedef struct {
    uint64_t base, size;
    uint8_t *host;
    int flags;
    const char *what;
} region;

struct emu_mem {
    region *r;
    size_t n, cap;
    size_t last;   /* index of the last region hit */
    uint64_t next; /* next free address */
};

emu_mem *rt_mem_new(void)
{
    emu_mem *m = calloc(1, sizeof *m);
    if (m) m->next = BASE;
    return m;
}

void rt_mem_destroy(emu_mem *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->n; i++) free(m->r[i].host);
    free(m->r);
    free(m);
}

uint64_t rt_mem_alloc(emu_mem *m, size_t bytes, int flags, const char *what)
{
    uint64_t span = ((uint64_t)bytes + ALIGN - 1) / ALIGN * ALIGN;
    if (bytes == 0 || span < bytes || span > LIMIT - m->next - GAP) return 0;
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        region *r = realloc(m->r, cap * sizeof *r);
        if (!r) return 0;
        m->r = r, m->cap = cap;
    }
    uint8_t *host = calloc(1, bytes); /* large ones come from mmap: lazily zeroed */
    if (!host) return 0;
    region *r = &m->r[m->n++];
    *r = (region){m->next, bytes, host, flags, what};
    m->next += span + GAP;
    return r->base;
}

/* Index of the region containing addr, or of the first region above it
 * (m->n if none): bisection over the sorted table. */
static size_t lower(const emu_mem *m, uint64_t addr)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->r[mid].base + m->r[mid].size <= addr) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

int rt_mem_free(emu_mem *m, uint64_t addr)
{
    size_t i = lower(m, addr);
    if (i == m->n || m->r[i].base != addr) return -1;
    free(m->r[i].host);
    memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof *m->r);
    m->n--;
    m->last = 0;
    return 0;
}

int rt_mem_flags(emu_mem *m, uint64_t addr)
{
    size_t i = lower(m, addr);
    return i < m->n && m->r[i].base == addr ? m->r[i].flags : -1;
}

int rt_mem_contains(emu_mem *m, uint64_t addr)
{
    size_t i = lower(m, addr);
    return i < m->n && addr >= m->r[i].base;
}

/* Why [addr, addr+bytes) is not inside one region, for the message. */
static void explain(const emu_mem *m, const char *op, uint64_t addr, uint64_t bytes, char *err,
                    size_t n)
{
    if (!err || !n) return;
    size_t i = lower(m, addr);
    if (i < m->n && addr >= m->r[i].base) {
        const region *r = &m->r[i];
        snprintf(err, n,
                 "%s of %" PRIu64 " bytes at 0x%" PRIx64 " crosses the end of %s 0x%" PRIx64
                 " (%" PRIu64 " bytes) by %" PRIu64 " bytes",
                 op, bytes, addr, r->what, r->base, r->size, addr + bytes - (r->base + r->size));
        return;
    }
    if (i > 0 && addr - (m->r[i - 1].base + m->r[i - 1].size) < GAP) { /* in the guard gap */
        const region *r = &m->r[i - 1];
        snprintf(err, n,
                 "%s of %" PRIu64 " bytes at 0x%" PRIx64 " is outside every allocation (%" PRIu64
                 " bytes past the end of %s 0x%" PRIx64 ", %" PRIu64 " bytes)",
                 op, bytes, addr, addr - (r->base + r->size), r->what, r->base, r->size);
        return;
    }
    snprintf(err, n, "%s of %" PRIu64 " bytes at 0x%" PRIx64 " is outside every allocation", op,
             bytes, addr);
}

/* The region holding all of [addr, addr+bytes), or NULL. */
static inline region *find(emu_mem *m, uint64_t addr, uint64_t bytes)
{
    if (m->last < m->n) {
        region *r = &m->r[m->last];
        uint64_t off = addr - r->base;
        if (off < r->size && bytes <= r->size - off) return r;
    }
    size_t i = lower(m, addr);
    if (i == m->n) return NULL;
    region *r = &m->r[i];
    uint64_t off = addr - r->base;
    if (addr < r->base || off >= r->size || bytes > r->size - off) return NULL;
    m->last = i;
    return r;
}

void *rt_mem_host(emu_mem *m, uint64_t addr, size_t bytes, char *err, size_t n)
{
    region *r = find(m, addr, bytes ? bytes : 1);
    if (!r) explain(m, "access", addr, bytes, err, n);
    return r ? r->host + (addr - r->base) : NULL;
}

int emu_mem_read(emu_mem *m, uint64_t addr, void *dst, unsigned bytes, char *err, size_t elen)
{
    region *r = find(m, addr, bytes);
    if (!r) return explain(m, "read", addr, bytes, err, elen), -1;
    memcpy(dst, r->host + (addr - r->base), bytes);
    return 0;
}

int emu_mem_write(emu_mem *m, uint64_t addr, const void *src, unsigned bytes, char *err, size_t elen)
{
    region *r = find(m, addr, bytes);
    if (!r) return explain(m, "write", addr, bytes, err, elen), -1;
    if (r->flags & RT_MEM_RO) {
        if (err && elen)
            snprintf(err, elen, "write of %u bytes at 0x%" PRIx64 " into read-only %s 0x%" PRIx64,
                     bytes, addr, r->what, r->base);
        return -1;
    }
    memcpy(r->host + (addr - r->base), src, bytes);
    return 0;
}
