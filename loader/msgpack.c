/* msgpack.c — bounded msgpack reader (see msgpack.h). */
#include "msgpack.h"

#include <string.h>

void crk_mp_init(crk_mp_reader *r, const uint8_t *buf, size_t len)
{
    r->buf = buf;
    r->len = buf ? len : 0;
    r->pos = 0;
}

static size_t left(const crk_mp_reader *r) { return r->len - r->pos; }

/* Big-endian unsigned of n bytes; caller checked the bounds. */
static uint64_t be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

static int take(crk_mp_reader *r, size_t n, const uint8_t **p)
{
    if (n > left(r))
        return -1;
    *p = r->buf + r->pos;
    r->pos += n;
    return 0;
}

static int take_uint(crk_mp_reader *r, int n, uint64_t *v)
{
    const uint8_t *p;
    if (take(r, (size_t)n, &p))
        return -1;
    *v = be(p, n);
    return 0;
}

/* STR/BIN/EXT payload of length n. */
static int payload(crk_mp_reader *r, crk_mp_obj *o, crk_mp_type t, uint64_t n)
{
    const uint8_t *p;
    if (n > UINT32_MAX || take(r, (size_t)n, &p))
        return -1;
    o->type = t;
    o->ptr = (const char *)p;
    o->len = (uint32_t)n;
    return 0;
}

/* Container header: every element needs at least one byte, which bounds n. */
static int container(crk_mp_reader *r, crk_mp_obj *o, crk_mp_type t, uint64_t n)
{
    uint64_t need = t == CRK_MP_MAP ? 2 * n : n;
    if (n > UINT32_MAX || need > left(r))
        return -1;
    o->type = t;
    o->len = (uint32_t)n;
    return 0;
}

static int sized_int(crk_mp_reader *r, crk_mp_obj *o, int n, int is_signed)
{
    uint64_t u;
    if (take_uint(r, n, &u))
        return -1;
    if (!is_signed) {
        o->type = CRK_MP_UINT;
        o->v.u = u;
        return 0;
    }
    int64_t s;
    switch (n) {
    case 1: s = (int8_t)(uint8_t)u; break;
    case 2: s = (int16_t)(uint16_t)u; break;
    case 4: s = (int32_t)(uint32_t)u; break;
    default: memcpy(&s, &u, sizeof s); break;
    }
    if (s >= 0) {
        o->type = CRK_MP_UINT;
        o->v.u = (uint64_t)s;
    } else {
        o->type = CRK_MP_INT;
        o->v.i = s;
    }
    return 0;
}

int crk_mp_read(crk_mp_reader *r, crk_mp_obj *o)
{
    const uint8_t *p;
    uint64_t n;
    memset(o, 0, sizeof *o);
    if (take(r, 1, &p))
        return -1;
    uint8_t c = *p;
    if (c <= 0x7f) { o->type = CRK_MP_UINT; o->v.u = c; return 0; }
    if (c >= 0xe0) { o->type = CRK_MP_INT; o->v.i = (int8_t)c; return 0; }
    if ((c & 0xf0) == 0x80) return container(r, o, CRK_MP_MAP, c & 0x0f);
    if ((c & 0xf0) == 0x90) return container(r, o, CRK_MP_ARRAY, c & 0x0f);
    if ((c & 0xe0) == 0xa0) return payload(r, o, CRK_MP_STR, c & 0x1f);
    switch (c) {
    case 0xc0: o->type = CRK_MP_NIL; return 0;
    case 0xc2: case 0xc3: o->type = CRK_MP_BOOL; o->v.b = c == 0xc3; return 0;
    case 0xc4: case 0xc5: case 0xc6: {
        int w = 1 << (c - 0xc4);
        return take_uint(r, w, &n) ? -1 : payload(r, o, CRK_MP_BIN, n);
    }
    case 0xc7: case 0xc8: case 0xc9: {           /* ext 8/16/32: len, type, data */
        int w = 1 << (c - 0xc7);
        if (take_uint(r, w, &n) || take(r, 1, &p))
            return -1;
        return payload(r, o, CRK_MP_EXT, n);
    }
    case 0xca: {
        uint32_t u32; float f;
        if (take_uint(r, 4, &n)) return -1;
        u32 = (uint32_t)n;
        memcpy(&f, &u32, sizeof f);
        o->type = CRK_MP_FLOAT; o->v.f = f;
        return 0;
    }
    case 0xcb: {
        double d;
        if (take_uint(r, 8, &n)) return -1;
        memcpy(&d, &n, sizeof d);
        o->type = CRK_MP_FLOAT; o->v.f = d;
        return 0;
    }
    case 0xcc: return sized_int(r, o, 1, 0);
    case 0xcd: return sized_int(r, o, 2, 0);
    case 0xce: return sized_int(r, o, 4, 0);
    case 0xcf: return sized_int(r, o, 8, 0);
    case 0xd0: return sized_int(r, o, 1, 1);
    case 0xd1: return sized_int(r, o, 2, 1);
    case 0xd2: return sized_int(r, o, 4, 1);
    case 0xd3: return sized_int(r, o, 8, 1);
    case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:   /* fixext 1..16 */
        if (take(r, 1, &p)) return -1;
        return payload(r, o, CRK_MP_EXT, (uint64_t)1 << (c - 0xd4));
    case 0xd9: case 0xda: case 0xdb: {
        int w = 1 << (c - 0xd9);
        return take_uint(r, w, &n) ? -1 : payload(r, o, CRK_MP_STR, n);
    }
    case 0xdc: return take_uint(r, 2, &n) ? -1 : container(r, o, CRK_MP_ARRAY, n);
    case 0xdd: return take_uint(r, 4, &n) ? -1 : container(r, o, CRK_MP_ARRAY, n);
    case 0xde: return take_uint(r, 2, &n) ? -1 : container(r, o, CRK_MP_MAP, n);
    case 0xdf: return take_uint(r, 4, &n) ? -1 : container(r, o, CRK_MP_MAP, n);
    default: return -1; /* 0xc1 is reserved */
    }
}

/* Iterative skip: a stack of "objects still to read" per nesting level. */
static int skip_n(crk_mp_reader *r, uint64_t pending)
{
    uint64_t stack[CRK_MP_MAX_DEPTH];
    int depth = 0;
    for (;;) {
        while (pending == 0) {
            if (depth == 0)
                return 0;
            pending = stack[--depth];
        }
        crk_mp_obj o;
        if (crk_mp_read(r, &o))
            return -1;
        pending--;
        if (o.type == CRK_MP_ARRAY || o.type == CRK_MP_MAP) {
            uint64_t n = o.type == CRK_MP_MAP ? 2 * (uint64_t)o.len : o.len;
            if (n == 0)
                continue;
            if (depth == CRK_MP_MAX_DEPTH)
                return -1;
            stack[depth++] = pending;
            pending = n;
        }
    }
}

int crk_mp_skip(crk_mp_reader *r) { return skip_n(r, 1); }

int crk_mp_skip_body(crk_mp_reader *r, const crk_mp_obj *o)
{
    if (o->type == CRK_MP_ARRAY)
        return skip_n(r, o->len);
    if (o->type == CRK_MP_MAP)
        return skip_n(r, 2 * (uint64_t)o->len);
    return 0;
}

int crk_mp_as_u64(const crk_mp_obj *o, uint64_t *out)
{
    if (o->type != CRK_MP_UINT)
        return -1;
    *out = o->v.u;
    return 0;
}

int crk_mp_str_eq(const crk_mp_obj *o, const char *s)
{
    size_t n = strlen(s);
    return o->type == CRK_MP_STR && o->len == n && memcmp(o->ptr, s, n) == 0;
}
