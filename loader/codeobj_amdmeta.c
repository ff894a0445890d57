/* codeobj_amdmeta.c — AMDGPU code object metadata (msgpack) to crk_co_kernel.
 *
 * The walker follows the fixed shape of the metadata (map -> kernels array ->
 * kernel map -> args array -> arg map) without recursion; anything else is
 * skipped with the bounded crk_mp_skip. */
#include "codeobj.h"
#include "msgpack.h"

#include <stddef.h>
#include <string.h>

typedef struct {
    crk_codeobj *co;
    crk_mp_reader r;
    char *err;
    size_t n;
} md_ctx;

static int bad(md_ctx *c, const char *what)
{
    crk_co_errf(c->err, c->n, "corrupt AMDGPU metadata: %s (at byte %zu of %zu)", what,
                c->r.pos, c->r.len);
    return -1;
}

static int read_obj(md_ctx *c, crk_mp_obj *o)
{
    return crk_mp_read(&c->r, o) ? bad(c, "truncated or invalid msgpack") : 0;
}

/* Skips the rest of an object whose header o was read. */
static int skip_rest(md_ctx *c, const crk_mp_obj *o)
{
    return crk_mp_skip_body(&c->r, o) ? bad(c, "truncated or too deeply nested msgpack") : 0;
}

static int read_str(md_ctx *c, const char **out, const char *what)
{
    crk_mp_obj o;
    if (read_obj(c, &o))
        return -1;
    if (o.type != CRK_MP_STR)
        return bad(c, what);
    char *s = crk_co_strndup(c->co, o.ptr, o.len);
    if (!s) {
        crk_co_errf(c->err, c->n, "out of memory");
        return -1;
    }
    *out = s;
    return 0;
}

static int read_u32(md_ctx *c, uint32_t *out, const char *what)
{
    crk_mp_obj o;
    uint64_t v;
    if (read_obj(c, &o))
        return -1;
    if (crk_mp_as_u64(&o, &v) || v >= CRK_CO_UNSET)
        return bad(c, what);
    *out = (uint32_t)v;
    return 0;
}

static int parse_arg(md_ctx *c, crk_co_arg *a)
{
    crk_mp_obj m, k;
    int have_off = 0, have_size = 0;
    if (read_obj(c, &m))
        return -1;
    if (m.type != CRK_MP_MAP)
        return bad(c, "kernel argument is not a map");
    a->name = a->value_kind = a->address_space = "";
    for (uint32_t i = 0; i < m.len; i++) {
        if (read_obj(c, &k))
            return -1;
        int r;
        if (crk_mp_str_eq(&k, ".name"))
            r = read_str(c, &a->name, "argument .name is not a string");
        else if (crk_mp_str_eq(&k, ".value_kind"))
            r = read_str(c, &a->value_kind, "argument .value_kind is not a string");
        else if (crk_mp_str_eq(&k, ".address_space"))
            r = read_str(c, &a->address_space, "argument .address_space is not a string");
        else if (crk_mp_str_eq(&k, ".offset"))
            r = read_u32(c, &a->offset, "argument .offset is not an unsigned integer"),
            have_off = 1;
        else if (crk_mp_str_eq(&k, ".size"))
            r = read_u32(c, &a->size, "argument .size is not an unsigned integer"),
            have_size = 1;
        else
            r = skip_rest(c, &k) || (crk_mp_skip(&c->r) ? bad(c, "invalid msgpack value") : 0);
        if (r)
            return -1;
    }
    if (!have_off || !have_size || !a->value_kind[0])
        return bad(c, "kernel argument without .offset, .size or .value_kind");
    return 0;
}

static int parse_args(md_ctx *c, crk_co_kernel *k)
{
    crk_mp_obj a;
    if (read_obj(c, &a))
        return -1;
    if (a.type != CRK_MP_ARRAY)
        return bad(c, ".args is not an array");
    if (a.len > CRK_CO_MAX_ARGS)
        return bad(c, "too many kernel arguments");
    crk_co_arg *args = crk_co_alloc(c->co, a.len, sizeof *args);
    if (!args) {
        crk_co_errf(c->err, c->n, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < a.len; i++)
        if (parse_arg(c, &args[i]))
            return -1;
    k->args = args;
    k->nargs = a.len;
    return 0;
}

/* Numeric kernel fields by metadata key. */
static const struct { const char *key; size_t off; } num_fields[] = {
    {".kernarg_segment_size", offsetof(crk_co_kernel, kernarg_segment_size)},
    {".vgpr_count", offsetof(crk_co_kernel, vgpr_count)},
    {".sgpr_count", offsetof(crk_co_kernel, sgpr_count)},
    {".agpr_count", offsetof(crk_co_kernel, agpr_count)},
    {".vgpr_spill_count", offsetof(crk_co_kernel, vgpr_spill_count)},
    {".sgpr_spill_count", offsetof(crk_co_kernel, sgpr_spill_count)},
    {".group_segment_fixed_size", offsetof(crk_co_kernel, group_segment_fixed_size)},
    {".private_segment_fixed_size", offsetof(crk_co_kernel, private_segment_fixed_size)},
    {".wavefront_size", offsetof(crk_co_kernel, wavefront_size)},
    {".max_flat_workgroup_size", offsetof(crk_co_kernel, max_flat_workgroup_size)},
};
#define NUM_FIELDS (sizeof num_fields / sizeof num_fields[0])

static int parse_kernel(md_ctx *c, crk_co_kernel *k)
{
    crk_mp_obj m, key;
    if (read_obj(c, &m))
        return -1;
    if (m.type != CRK_MP_MAP)
        return bad(c, "kernel entry is not a map");
    for (size_t f = 0; f < NUM_FIELDS; f++)
        *(uint32_t *)((char *)k + num_fields[f].off) = CRK_CO_UNSET;
    k->name = k->symbol = "";
    for (uint32_t i = 0; i < m.len; i++) {
        if (read_obj(c, &key))
            return -1;
        int r = 1;
        if (crk_mp_str_eq(&key, ".name"))
            r = read_str(c, &k->name, "kernel .name is not a string");
        else if (crk_mp_str_eq(&key, ".symbol"))
            r = read_str(c, &k->symbol, "kernel .symbol is not a string");
        else if (crk_mp_str_eq(&key, ".args"))
            r = parse_args(c, k);
        for (size_t f = 0; r == 1 && f < NUM_FIELDS; f++)
            if (crk_mp_str_eq(&key, num_fields[f].key))
                r = read_u32(c, (uint32_t *)((char *)k + num_fields[f].off),
                             "kernel resource field is not an unsigned integer");
        if (r == 1)
            r = skip_rest(c, &key) || (crk_mp_skip(&c->r) ? bad(c, "invalid msgpack value") : 0);
        if (r)
            return -1;
    }
    if (!k->name[0])
        return bad(c, "kernel without .name");
    return 0;
}

static int parse_kernels(md_ctx *c, crk_co_image *img)
{
    crk_mp_obj a;
    if (read_obj(c, &a))
        return -1;
    if (a.type != CRK_MP_ARRAY)
        return bad(c, "amdhsa.kernels is not an array");
    if (a.len > CRK_CO_MAX_KERNELS)
        return bad(c, "too many kernels");
    crk_co_kernel *ks = crk_co_alloc(c->co, a.len, sizeof *ks);
    if (!ks) {
        crk_co_errf(c->err, c->n, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < a.len; i++)
        if (parse_kernel(c, &ks[i]))
            return -1;
    img->kernels = ks;
    img->nkernels = a.len;
    return 0;
}

/* "amdgcn-amd-amdhsa--gfx90a:xnack-" -> "gfx90a:xnack-". */
static int parse_target(md_ctx *c, crk_co_image *img)
{
    crk_mp_obj o;
    if (read_obj(c, &o))
        return -1;
    if (o.type != CRK_MP_STR)
        return bad(c, "amdhsa.target is not a string");
    const char *s = o.ptr;
    size_t len = o.len;
    for (size_t i = 0; i + 1 < o.len; i++)
        if (o.ptr[i] == '-' && o.ptr[i + 1] == '-') {
            s = o.ptr + i + 2;
            len = o.len - i - 2;
        }
    if (len == 0 || len >= sizeof img->target || memchr(s, 0, len))
        return bad(c, "amdhsa.target is empty, too long or has a NUL byte");
    crk_co_copy(img->target, sizeof img->target, s, len);
    return 0;
}

static int parse_version(md_ctx *c, crk_co_image *img)
{
    crk_mp_obj a, v;
    uint64_t major = 0, minor = 0;
    if (read_obj(c, &a))
        return -1;
    if (a.type != CRK_MP_ARRAY || a.len < 2)
        return bad(c, "amdhsa.version is not a [major, minor] array");
    for (uint32_t i = 0; i < a.len; i++) {
        if (read_obj(c, &v))
            return -1;
        if (i < 2 && crk_mp_as_u64(&v, i == 0 ? &major : &minor))
            return bad(c, "amdhsa.version element is not an unsigned integer");
        if (skip_rest(c, &v))
            return -1;
    }
    /* amdhsa.version 1.0 is code object v3, 1.1 v4, 1.2 v5, 1.3 v6. */
    if (!img->code_object_version && major == 1 && minor < 16)
        img->code_object_version = (int)minor + 3;
    return 0;
}

int crk_co_parse_amdgpu_metadata(crk_codeobj *co, crk_co_image *img, const uint8_t *md,
                                 size_t len, char *err, size_t n)
{
    md_ctx c = {.co = co, .err = err, .n = n};
    crk_mp_obj top, key;
    crk_mp_init(&c.r, md, len);
    if (read_obj(&c, &top))
        return -1;
    if (top.type != CRK_MP_MAP)
        return bad(&c, "top level is not a map");
    int have_kernels = 0;
    for (uint32_t i = 0; i < top.len; i++) {
        if (read_obj(&c, &key))
            return -1;
        int r;
        if (crk_mp_str_eq(&key, "amdhsa.kernels"))
            r = parse_kernels(&c, img), have_kernels = 1;
        else if (crk_mp_str_eq(&key, "amdhsa.target"))
            r = parse_target(&c, img);
        else if (crk_mp_str_eq(&key, "amdhsa.version"))
            r = parse_version(&c, img);
        else
            r = skip_rest(&c, &key) ||
                (crk_mp_skip(&c.r) ? bad(&c, "invalid msgpack value") : 0);
        if (r)
            return -1;
    }
    if (!have_kernels)
        return bad(&c, "no amdhsa.kernels");
    return 0;
}
