/* codeobj_util.c — arena, error formatting and byte helpers for the parsers. */
#include "codeobj.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chunked arena: the parsers allocate many small strings and arrays and free
 * them all at once, which keeps every error path leak-free. */
struct crk_co_arena {
    struct crk_co_arena *next;
    size_t used, cap;
    max_align_t data[];
};

#define ARENA_CHUNK (64 * 1024)

void crk_co_errf(char *err, size_t n, const char *fmt, ...)
{
    if (!err || n == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    /* One line of printable ASCII, always: strings taken from a file (bundle
     * ids, names) could carry newlines, terminal escapes or invalid UTF-8. */
    for (unsigned char *p = (unsigned char *)err; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
        else if (*p < 0x20 || *p >= 0x7f)
            *p = '?';
}

static void *arena_alloc(crk_codeobj *co, size_t count, size_t size, int zero)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    size_t bytes = count * size;
    const size_t al = sizeof(max_align_t);
    if (bytes > SIZE_MAX - al)
        return NULL;
    bytes = (bytes + al - 1) / al * al;
    if (bytes == 0)
        bytes = al;
    struct crk_co_arena *a = co->arena;
    if (!a || a->cap - a->used < bytes) {
        size_t cap = bytes > ARENA_CHUNK ? bytes : ARENA_CHUNK;
        if (cap > SIZE_MAX - sizeof *a)
            return NULL;
        struct crk_co_arena *c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->used = 0;
        c->cap = cap;
        if (a && bytes > ARENA_CHUNK) {
            /* Big block: keep the current chunk on top for small ones. */
            c->next = a->next;
            a->next = c;
        } else {
            c->next = a;
            co->arena = c;
        }
        a = c;
    }
    void *p = (char *)a->data + a->used;
    a->used += bytes;
    if (zero)
        memset(p, 0, bytes);
    return p;
}

void *crk_co_alloc(crk_codeobj *co, size_t count, size_t size)
{
    return arena_alloc(co, count, size, 1);
}

void *crk_co_alloc_raw(crk_codeobj *co, size_t bytes)
{
    return arena_alloc(co, bytes, 1, 0);
}

char *crk_co_strndup(crk_codeobj *co, const char *s, size_t n)
{
    if (n == SIZE_MAX)
        return NULL;
    char *d = crk_co_alloc(co, n + 1, 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

void crk_co_copy(char *dst, size_t cap, const char *s, size_t n)
{
    if (cap == 0)
        return;
    size_t i = 0;
    for (; i < n && i + 1 < cap && s[i]; i++)
        dst[i] = s[i];
    dst[i] = 0;
}

uint16_t crk_co_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
uint32_t crk_co_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
uint64_t crk_co_le64(const uint8_t *p)
{
    return (uint64_t)crk_co_le32(p) | (uint64_t)crk_co_le32(p + 4) << 32;
}

int crk_co_in_range(uint64_t off, uint64_t size, uint64_t len)
{
    return off <= len && size <= len - off;
}

void crk_codeobj_free(crk_codeobj *co)
{
    if (!co)
        return;
    struct crk_co_arena *a = co->arena;
    while (a) {
        struct crk_co_arena *next = a->next;
        free(a);
        a = next;
    }
    memset(co, 0, sizeof *co);
}

const char *crk_co_format_name(crk_co_format f)
{
    switch (f) {
    case CRK_CO_FMT_AMDGPU_ELF: return "amdgpu-elf";
    case CRK_CO_FMT_BUNDLE: return "offload-bundle";
    case CRK_CO_FMT_CCOB: return "compressed-offload-bundle";
    case CRK_CO_FMT_CUBIN: return "cubin";
    case CRK_CO_FMT_FATBIN: return "fatbin";
    }
    return "unknown";
}

const crk_co_kernel *crk_co_find_kernel(const crk_co_image *img, const char *name)
{
    for (uint32_t i = 0; img && name && i < img->nkernels; i++)
        if (img->kernels[i].name && strcmp(img->kernels[i].name, name) == 0)
            return &img->kernels[i];
    return NULL;
}
