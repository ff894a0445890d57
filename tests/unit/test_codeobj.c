/* test_codeobj.c — code object parsers on valid and damaged inputs.
 *
 * Real AMDGPU code object: path in $CRK_TEST_HSACO (cases needing it are
 * skipped with a message when unset). Bundles, CCOBs, fatbins and msgpack
 * are built from it, or by hand, at test time. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include <zstd.h>

#include "codeobj.h"
#include "msgpack.h"
#include "unit.h"

/* ------------------------------------------------------------- helpers */

typedef struct {
    uint8_t *p;
    size_t n, cap;
} buf_t;

static void put(buf_t *b, const void *d, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        ck_assert_ptr_nonnull(b->p);
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
}
static void put64(buf_t *b, uint64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (uint8_t)(v >> (8 * i));
    put(b, x, 8);
}
static void put32(buf_t *b, uint32_t v) { for (int i = 0; i < 4; i++) { uint8_t c = (uint8_t)(v >> (8 * i)); put(b, &c, 1); } }
static void put16(buf_t *b, uint16_t v) { uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)}; put(b, x, 2); }
static void set64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }

static uint8_t *hsaco;
static size_t hsaco_len;

static int have_hsaco(void)
{
    if (hsaco)
        return 1;
    const char *path = getenv("CRK_TEST_HSACO");
    if (!path || !*path)
        return 0;
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open CRK_TEST_HSACO=%s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    hsaco = malloc((size_t)n);
    ck_assert(fread(hsaco, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    hsaco_len = (size_t)n;
    return 1;
}

#define NEED_HSACO()                                                                   \
    do {                                                                               \
        if (!have_hsaco()) {                                                           \
            fprintf(stderr, "%s: skipped (set CRK_TEST_HSACO to a gfx .hsaco)\n", __func__); \
            return;                                                                    \
        }                                                                              \
    } while (0)

static int open_ok(const uint8_t *b, size_t n, crk_codeobj *co)
{
    char err[512];
    int r = crk_codeobj_open(b, n, co, err, sizeof err);
    ck_assert_msg(r == 0, "open failed: %s", err);
    return r;
}

/* Expects failure with `needle` in a one-line message. */
static void open_fails(const uint8_t *b, size_t n, const char *needle)
{
    crk_codeobj co;
    char err[512] = "";
    int r = crk_codeobj_open(b, n, &co, err, sizeof err);
    ck_assert_msg(r == -1, "expected failure (%s), parse succeeded", needle ? needle : "");
    ck_assert_msg(err[0] && !strchr(err, '\n'), "bad message '%s'", err);
    if (needle)
        ck_assert_msg(strstr(err, needle), "message '%s' lacks '%s'", err, needle);
    crk_codeobj_free(&co);
}

/* Offload bundle: host entry + given device entries of the same image. */
static buf_t make_bundle(const uint8_t *img, size_t len, int ndev)
{
    buf_t b = {0};
    const char *host = "host-x86_64-unknown-linux-gnu-";
    char ids[4][64];
    size_t hdr = 24 + 8 + 24 + strlen(host);
    for (int i = 0; i < ndev; i++) {
        snprintf(ids[i], sizeof ids[i], "hipv4-amdgcn-amd-amdhsa--gfx%d", 900 + i);
        hdr += 24 + strlen(ids[i]);
    }
    size_t off = (hdr + 4095) / 4096 * 4096;
    put(&b, "__CLANG_OFFLOAD_BUNDLE__", 24);
    put64(&b, (uint64_t)ndev + 1);
    put64(&b, off); put64(&b, 0); put64(&b, strlen(host)); put(&b, host, strlen(host));
    for (int i = 0; i < ndev; i++) {
        size_t o = off + (size_t)i * ((len + 4095) / 4096 * 4096);
        put64(&b, o); put64(&b, len); put64(&b, strlen(ids[i])); put(&b, ids[i], strlen(ids[i]));
    }
    for (int i = 0; i < ndev; i++) {
        size_t o = off + (size_t)i * ((len + 4095) / 4096 * 4096);
        while (b.n < o) put(&b, "", 1);
        put(&b, img, len);
    }
    return b;
}

static buf_t make_ccob(const buf_t *bundle, int version, int method)
{
    size_t cap = method == 1 ? ZSTD_compressBound(bundle->n) : compressBound(bundle->n);
    uint8_t *z = malloc(cap);
    size_t zn = cap;
    if (method == 1) {
        zn = ZSTD_compress(z, cap, bundle->p, bundle->n, 3);
        ck_assert(!ZSTD_isError(zn));
    } else {
        uLongf l = cap;
        ck_assert_int_eq(compress(z, &l, bundle->p, bundle->n), Z_OK);
        zn = l;
    }
    buf_t c = {0};
    size_t hdr = version == 1 ? 20 : version == 2 ? 24 : 32;
    put(&c, "CCOB", 4);
    put16(&c, (uint16_t)version);
    put16(&c, (uint16_t)method);
    if (version == 1) {
        put32(&c, (uint32_t)bundle->n);
    } else if (version == 2) {
        put32(&c, (uint32_t)(hdr + zn));
        put32(&c, (uint32_t)bundle->n);
    } else {
        put64(&c, hdr + zn);
        put64(&c, bundle->n);
    }
    put64(&c, 0x1234); /* hash: not verified */
    put(&c, z, zn);
    free(z);
    return c;
}

/* --------------------------------------------------------- ELF (AMDGPU) */

START_TEST(test_elf_valid)
{
    NEED_HSACO();
    crk_codeobj co;
    open_ok(hsaco, hsaco_len, &co);
    ck_assert_int_eq(co.format, CRK_CO_FMT_AMDGPU_ELF);
    ck_assert_uint_eq(co.nimages, 1);
    const crk_co_image *im = &co.images[0];
    ck_assert(strncmp(im->target, "gfx", 3) == 0);
    ck_assert_uint_gt(im->nkernels, 0);
    ck_assert_int_ge(im->code_object_version, 4);
    for (uint32_t i = 0; i < im->nkernels; i++) {
        const crk_co_kernel *k = &im->kernels[i];
        ck_assert(k->name[0]);
        ck_assert(k->wavefront_size == 32 || k->wavefront_size == 64);
        ck_assert_uint_ne(k->kernarg_segment_size, CRK_CO_UNSET);
        ck_assert_ptr_eq(crk_co_find_kernel(im, k->name), k);
    }
    char t[96], err[256];
    ck_assert_int_eq(crk_codeobj_amdgpu_target(hsaco, hsaco_len, t, sizeof t, err, sizeof err), 0);
    ck_assert_str_eq(t, im->target);
    crk_codeobj_free(&co);
}
END_TEST

START_TEST(test_elf_truncated)
{
    NEED_HSACO();
    for (size_t n = 0; n < hsaco_len; n += n < 512 ? 1 : 61)
        open_fails(hsaco, n, NULL);
}
END_TEST

START_TEST(test_elf_corrupt_header)
{
    NEED_HSACO();
    uint8_t *b = malloc(hsaco_len);
    memcpy(b, hsaco, hsaco_len);
    b[0] = 'X';
    open_fails(b, hsaco_len, "bad magic");
    memcpy(b, hsaco, hsaco_len);
    set64(b + 40, (uint64_t)hsaco_len - 8); /* e_shoff */
    open_fails(b, hsaco_len, "section header table");
    memcpy(b, hsaco, hsaco_len);
    set64(b + 40, UINT64_MAX - 10);
    open_fails(b, hsaco_len, "past end of file");
    memcpy(b, hsaco, hsaco_len);
    b[4] = 1; /* ELFCLASS32 */
    open_fails(b, hsaco_len, "class");
    memcpy(b, hsaco, hsaco_len);
    b[18] = 3; b[19] = 0; /* EM_386 */
    open_fails(b, hsaco_len, "machine");
    memcpy(b, hsaco, hsaco_len);
    /* Every section offset pushed out of the file. */
    uint64_t shoff = crk_co_le64(b + 40);
    uint16_t shnum = crk_co_le16(b + 60);
    for (uint16_t i = 1; i < shnum; i++)
        set64(b + shoff + 64u * i + 24, (uint64_t)hsaco_len * 4);
    open_fails(b, hsaco_len, "section");
    /* Random byte damage must never crash (results may be ok or error). */
    srand(7);
    for (int round = 0; round < 2000; round++) {
        memcpy(b, hsaco, hsaco_len);
        for (int k = 0; k < 4; k++)
            b[(size_t)rand() % hsaco_len] = (uint8_t)rand();
        crk_codeobj co;
        char err[256];
        if (crk_codeobj_open(b, hsaco_len, &co, err, sizeof err) == 0)
            crk_codeobj_free(&co);
        else
            ck_assert(err[0] && !strchr(err, '\n'));
    }
    free(b);
}
END_TEST

/* ---------------------------------------------------------- ABI check */

/* Registry-like description derived from a real kernel's explicit args. */
static crk_kernel_info derive_info(const crk_co_kernel *k, crk_param *ps, size_t cap)
{
    crk_kernel_info ki;
    memset(&ki, 0, sizeof ki);
    ki.name = k->name;
    ki.module = "test";
    ki.family = "test";
    size_t n = 0;
    for (uint32_t i = 0; i < k->nargs && n < cap; i++) {
        if (crk_co_arg_is_hidden(&k->args[i]))
            continue;
        int ptr = strcmp(k->args[i].value_kind, "global_buffer") == 0;
        ps[n].name = k->args[i].name;
        ps[n].ctype = ptr ? "void *" : "scalar";
        ps[n].kind = ptr ? CRK_ARG_PTR : CRK_ARG_SCALAR;
        ps[n].size = (uint8_t)k->args[i].size;
        ps[n].dtype = -1;
        n++;
    }
    ki.nparams = (uint8_t)n;
    ki.params = ps;
    return ki;
}

START_TEST(test_abi_real)
{
    NEED_HSACO();
    crk_codeobj co;
    open_ok(hsaco, hsaco_len, &co);
    const crk_co_kernel *k = &co.images[0].kernels[0];
    crk_param ps[64];
    crk_kernel_info ki = derive_info(k, ps, 64);
    char why[256];
    ck_assert_msg(crk_check_kernel_abi(&ki, k, why, sizeof why) == 0, "%s", why);
    ck_assert_int_eq(crk_check_kernel_resources(k, why, sizeof why), 0);
    ck_assert_uint_gt(ki.nparams, 0);
    /* A wrong size must be rejected. */
    ps[0].size = ps[0].size == 8 ? 4 : 8;
    ck_assert_int_eq(crk_check_kernel_abi(&ki, k, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "size"));
    ps[0].size = (uint8_t)(ps[0].size == 8 ? 4 : 8);
    /* One parameter too many / too few. */
    ki.nparams--;
    ck_assert_int_eq(crk_check_kernel_abi(&ki, k, why, sizeof why), -1);
    ki.nparams++;
    /* Pointer <-> value swapped. */
    ps[0].kind = ps[0].kind == CRK_ARG_PTR ? CRK_ARG_SIZE : CRK_ARG_PTR;
    ck_assert_int_eq(crk_check_kernel_abi(&ki, k, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "value_kind"));
    crk_codeobj_free(&co);
}
END_TEST

START_TEST(test_abi_handmade)
{
    crk_co_arg args[] = {
        {"numel", "by_value", "", 0, 8},       {"inp", "global_buffer", "global", 8, 8},
        {"mul", "by_value", "", 16, 2},        {"add", "by_value", "", 18, 2},
        {"", "hidden_block_count_x", "", 24, 4},
    };
    crk_co_kernel k;
    memset(&k, 0, sizeof k);
    k.name = "affine_f16";
    k.args = args;
    k.nargs = 5;
    crk_param ps[] = {
        {"numel", "size_t", CRK_ARG_SIZE, 8, -1, CRK_ROLE_NUMEL, 0},
        {"inp", "const __half *", CRK_ARG_PTR, 8, 6, CRK_ROLE_INPUT, 0},
        {"mul", "__half", CRK_ARG_SCALAR, 2, 6, CRK_ROLE_SCALAR, 0},
        {"add", "__half", CRK_ARG_SCALAR, 2, 6, CRK_ROLE_SCALAR, 1},
    };
    crk_kernel_info ki = {.name = "affine_f16", .family = "affine", .op = "affine", .module = "affine",
                          .nparams = 4, .info_arrays = 2, .dtypes = {6, -1, -1}, .upstream = 1, .params = ps,
                          .family_id = CRK_FAMILY_AFFINE, .info_param = -1};
    char why[256];
    ck_assert_msg(crk_check_kernel_abi(&ki, &k, why, sizeof why) == 0, "%s", why);
    args[2].offset = 20; /* misplaced */
    ck_assert_int_eq(crk_check_kernel_abi(&ki, &k, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "offset"));
    args[2].offset = 16;
    ps[3].size = 4; /* registry says float: offset 20 expected, size 4 */
    ck_assert_int_eq(crk_check_kernel_abi(&ki, &k, why, sizeof why), -1);
    ps[3].size = 2;
    ps[1].size = 3; /* not a power of two */
    ck_assert_int_eq(crk_check_kernel_abi(&ki, &k, why, sizeof why), -1);
    ps[1].size = 8;
    k.private_segment_fixed_size = 16;
    ck_assert_int_eq(crk_check_kernel_resources(&k, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "scratch"));
    k.private_segment_fixed_size = 0;
    k.vgpr_spill_count = 2;
    ck_assert_int_eq(crk_check_kernel_resources(&k, why, sizeof why), -1);
    k.vgpr_spill_count = CRK_CO_UNSET; /* absent counts as none */
    ck_assert_int_eq(crk_check_kernel_resources(&k, why, sizeof why), 0);
}
END_TEST

/* ------------------------------------------------------------ bundles */

START_TEST(test_bundle)
{
    NEED_HSACO();
    buf_t b = make_bundle(hsaco, hsaco_len, 2);
    crk_codeobj co;
    open_ok(b.p, b.n, &co);
    ck_assert_int_eq(co.format, CRK_CO_FMT_BUNDLE);
    ck_assert_uint_eq(co.nimages, 2);
    ck_assert_str_eq(co.images[1].bundle_id, "hipv4-amdgcn-amd-amdhsa--gfx901");
    ck_assert_uint_gt(co.images[1].nkernels, 0);
    crk_codeobj_free(&co);

    for (size_t n = 0; n < b.n; n += n < 300 ? 1 : 97)
        open_fails(b.p, n, NULL);

    uint8_t *c = malloc(b.n);
    size_t e1 = 32 + 24 + 30;      /* first device entry header */
    memcpy(c, b.p, b.n);
    set64(c + 24, 0);
    open_fails(c, b.n, "zero entries");
    memcpy(c, b.p, b.n);
    set64(c + 24, 1000000);
    open_fails(c, b.n, "entry count");
    memcpy(c, b.p, b.n);
    set64(c + e1, b.n - 10);       /* offset runs past the end */
    open_fails(c, b.n, "past end of file");
    memcpy(c, b.p, b.n);
    set64(c + e1 + 8, UINT64_MAX); /* absurd size */
    open_fails(c, b.n, "past end of file");
    memcpy(c, b.p, b.n);
    size_t e2 = e1 + 24 + strlen("hipv4-amdgcn-amd-amdhsa--gfx900");
    set64(c + e2, crk_co_le64(c + e1) + 16); /* entry 2 starts inside entry 1 */
    open_fails(c, b.n, "overlaps entry");
    memcpy(c, b.p, b.n);
    set64(c + e1, 8);              /* over the header */
    open_fails(c, b.n, "overlaps the bundle header");
    memcpy(c, b.p, b.n);
    set64(c + e1 + 16, 1u << 20);  /* id length */
    open_fails(c, b.n, "id length");
    free(c);
    free(b.p);
}
END_TEST

START_TEST(test_ccob)
{
    NEED_HSACO();
    buf_t b = make_bundle(hsaco, hsaco_len, 2);
    const int variants[][2] = {{1, 1}, {2, 1}, {3, 1}, {2, 0}, {3, 0}};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        buf_t c = make_ccob(&b, variants[v][0], variants[v][1]);
        crk_codeobj co;
        open_ok(c.p, c.n, &co);
        ck_assert_int_eq(co.format, CRK_CO_FMT_CCOB);
        ck_assert_uint_eq(co.nimages, 2);
        ck_assert_int_eq(memcmp(co.images[0].data, hsaco, hsaco_len), 0);
        crk_codeobj_free(&co);
        /* every prefix of the header, then about 300 across the stream (each
         * open may decompress up to its cut: a fixed step was quadratic in
         * the module's size, 36 s for unary and past the timeout under ASan) */
        const size_t step = c.n / 300 > 37 ? c.n / 300 : 37;
        for (size_t n = 0; n + 1 < c.n; n += n < 64 ? 1 : step)
            open_fails(c.p, n, NULL);
        free(c.p);
    }
    buf_t c = make_ccob(&b, 3, 1);
    set64(c.p + 16, 1000000000000ull);
    open_fails(c.p, c.n, "exceeds limit");
    set64(c.p + 16, b.n + 1);      /* wrong uncompressed size */
    open_fails(c.p, c.n, NULL);
    set64(c.p + 16, b.n);
    set64(c.p + 8, c.n + 1);       /* total past end */
    open_fails(c.p, c.n, "total size");
    set64(c.p + 8, c.n);
    c.p[6] = 7;                    /* unknown method */
    open_fails(c.p, c.n, "method");
    c.p[6] = 1;
    c.p[4] = 9;                    /* unknown version */
    open_fails(c.p, c.n, "version");
    c.p[4] = 3;
    c.p[40] ^= 0xff;               /* damaged stream */
    open_fails(c.p, c.n, NULL);
    free(c.p);
    free(b.p);
}
END_TEST

/* A CCOB whose payload is not a bundle, and a header-only CCOB: no hsaco needed. */
START_TEST(test_ccob_handmade)
{
    buf_t inner = {0};
    put(&inner, "not a bundle, just bytes.......................", 48);
    buf_t c = make_ccob(&inner, 3, 1);
    open_fails(c.p, c.n, "not an offload bundle");
    open_fails(c.p, 10, "truncated");
    free(c.p);
    free(inner.p);
}
END_TEST

/* --------------------------------------------------------- NVIDIA */

/* Minimal cubin: ELF header only, EM_CUDA, given e_flags / ABI version. */
static void make_cubin(uint8_t *e, uint32_t flags, uint8_t abiver)
{
    memset(e, 0, 64);
    memcpy(e, "\177ELF\002\001\001", 7);
    e[7] = 0x33;
    e[8] = abiver;
    e[18] = 190;
    e[48] = (uint8_t)flags; e[49] = (uint8_t)(flags >> 8);
    e[50] = (uint8_t)(flags >> 16); e[51] = (uint8_t)(flags >> 24);
}

START_TEST(test_cubin_fatbin)
{
    uint8_t cub[64];
    crk_codeobj co;
    make_cubin(cub, 0x500050, 7);               /* old ABI: sm_80 */
    open_ok(cub, sizeof cub, &co);
    ck_assert_int_eq(co.format, CRK_CO_FMT_CUBIN);
    ck_assert_str_eq(co.images[0].target, "sm_80");
    crk_codeobj_free(&co);
    make_cubin(cub, 0x06005a04, 8);             /* new ABI: sm_90 */
    open_ok(cub, sizeof cub, &co);
    ck_assert_str_eq(co.images[0].target, "sm_90");
    crk_codeobj_free(&co);

    /* Fatbin: one cubin entry and one (fake) PTX entry. */
    buf_t f = {0};
    uint8_t eh[64];
    put32(&f, 0xBA55ED50u); put16(&f, 1); put16(&f, 16);
    put64(&f, 2 * 64 + sizeof cub + 8);
    memset(eh, 0, sizeof eh);
    eh[0] = 2; eh[4] = 64; set64(eh + 8, sizeof cub); eh[28] = 90;
    put(&f, eh, 64); put(&f, cub, sizeof cub);
    memset(eh, 0, sizeof eh);
    eh[0] = 1; eh[4] = 64; set64(eh + 8, 8); eh[28] = 80;
    put(&f, eh, 64); put(&f, ".version", 8);
    open_ok(f.p, f.n, &co);
    ck_assert_int_eq(co.format, CRK_CO_FMT_FATBIN);
    ck_assert_uint_eq(co.nimages, 2);
    ck_assert_str_eq(co.images[0].target, "sm_90");
    ck_assert_str_eq(co.images[1].target, "compute_80");
    ck_assert_int_eq(co.images[1].kind, CRK_CO_IMG_PTX);
    crk_codeobj_free(&co);
    for (size_t n = 0; n + 1 < f.n; n++)
        open_fails(f.p, n, NULL);
    uint8_t *c = malloc(f.n);
    memcpy(c, f.p, f.n);
    set64(c + 16 + 8, 1u << 30);                /* entry payload past end */
    open_fails(c, f.n, "past end");
    memcpy(c, f.p, f.n);
    set64(c + 8, 0);                            /* empty container */
    open_fails(c, f.n, "zero entries");
    memcpy(c, f.p, f.n);
    c[16 + 4] = 8;                              /* entry header too small */
    open_fails(c, f.n, NULL);
    free(c);
    free(f.p);
}
END_TEST

/* ------------------------------------- linear cost on crafted inputs */
/* Issue 11, defect 1: names were scanned to the end of their string table
 * and copied once per symbol, notes walked once per section covering them. */

typedef struct {
    uint32_t type;
    const uint8_t *data;
    size_t size;
    uint32_t link;
    uint64_t entsize;
    int same_as; /* > 0: no data of its own, the range of that section */
} sec_t;

/* An ELF64 file: header, section data, then the section headers. */
static buf_t make_elf(uint16_t machine, uint8_t osabi, uint8_t abiver, uint32_t flags, const sec_t *secs,
                      int nsec)
{
    buf_t b = {0};
    uint8_t eh[64];
    memset(eh, 0, sizeof eh);
    memcpy(eh, "\177ELF\002\001\001", 7);
    eh[7] = osabi, eh[8] = abiver, eh[16] = 2, eh[18] = (uint8_t)machine, eh[19] = (uint8_t)(machine >> 8);
    memcpy(eh + 48, &flags, 4);
    eh[52] = 64, eh[58] = 64;
    const uint16_t shnum = (uint16_t)(nsec + 1);
    memcpy(eh + 60, &shnum, 2);
    put(&b, eh, 64);
    uint64_t *off = calloc((size_t)nsec, sizeof *off);
    for (int i = 0; i < nsec; i++) {
        off[i] = secs[i].same_as > 0 ? off[secs[i].same_as - 1] : b.n;
        if (secs[i].same_as <= 0) put(&b, secs[i].data, secs[i].size);
    }
    while (b.n % 8) put(&b, "", 1);
    set64(b.p + 40, b.n); /* e_shoff */
    uint8_t sh[64];
    memset(sh, 0, sizeof sh);
    put(&b, sh, 64);
    for (int i = 0; i < nsec; i++) {
        memset(sh, 0, sizeof sh);
        memcpy(sh + 4, &secs[i].type, 4);
        set64(sh + 24, off[i]);
        set64(sh + 32, secs[i].same_as > 0 ? secs[secs[i].same_as - 1].size : secs[i].size);
        memcpy(sh + 40, &secs[i].link, 4);
        set64(sh + 56, secs[i].entsize);
        put(&b, sh, 64);
    }
    free(off);
    return b;
}

/* A symbol table of n functions named at name_off(i) in section 1. */
static uint8_t *symbols(size_t n, uint8_t other, uint32_t (*name_off)(size_t))
{
    uint8_t *t = calloc(n + 1, 24);
    for (size_t i = 1; i <= n; i++) {
        const uint32_t o = name_off(i);
        memcpy(t + 24 * i, &o, 4);
        t[24 * i + 4] = 0x12, t[24 * i + 5] = other; /* STB_GLOBAL | STT_FUNC */
    }
    return t;
}
static uint32_t at_one(size_t i) { (void)i; return 1; }
static uint32_t at_i(size_t i) { return (uint32_t)i; }

START_TEST(test_linear_on_crafted_input)
{
    crk_codeobj co;
    char err[512];
    /* 40000 kernels sharing one 4000-byte name: referenced, never copied */
    const size_t nk = 40000;
    uint8_t *str = malloc(4002);
    str[0] = 0, memset(str + 1, 'k', 4000), str[4001] = 0;
    uint8_t *sym = symbols(nk, 0x10 /* STO_CUDA_ENTRY */, at_one);
    sec_t cub[2] = {{3, str, 4002, 0, 0, 0}, {2, sym, 24 * (nk + 1), 1, 24, 0}};
    buf_t b = make_elf(190, 0x33, 7, 0x5a, cub, 2);
    ck_assert_int_eq(crk_codeobj_open(b.p, b.n, &co, err, sizeof err), 0);
    ck_assert_uint_eq(co.images[0].nkernels, nk);
    ck_assert_ptr_eq(co.images[0].kernels[0].name, co.images[0].kernels[nk - 1].name);
    ck_assert_ptr_eq(co.images[0].kernels[0].name, (const char *)b.p + 64 + 1); /* in the file's bytes */
    crk_codeobj_free(&co);
    free(b.p), free(sym), free(str);
    /* a 1 MiB string table without a NUL, 20000 functions into it: each
     * lookup stops after CRK_CO_MAX_NAME bytes (it scanned to the end) */
    const size_t big = (size_t)1 << 20, nf = 20000;
    str = malloc(big);
    memset(str, 'x', big);
    sym = symbols(nf, 0, at_i);
    cub[0] = (sec_t){3, str, big, 0, 0, 0};
    cub[1] = (sec_t){2, sym, 24 * (nf + 1), 1, 24, 0};
    b = make_elf(190, 0x33, 7, 0x5a, cub, 2);
    const clock_t t0 = clock();
    ck_assert_int_eq(crk_codeobj_open(b.p, b.n, &co, err, sizeof err), 0);
    ck_assert_uint_eq(co.images[0].nkernels, 0);
    ck_assert_msg(clock() - t0 < 2 * CLOCKS_PER_SEC, "took %.1f s", (double)(clock() - t0) / CLOCKS_PER_SEC);
    crk_codeobj_free(&co);
    free(b.p);
    /* the same as kernel entries: an error naming the limit */
    free(sym);
    sym = symbols(nf, 0x10, at_i);
    cub[1].data = sym;
    b = make_elf(190, 0x33, 7, 0x5a, cub, 2);
    ck_assert_int_eq(crk_codeobj_open(b.p, b.n, &co, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "longer than 4096 bytes"));
    free(b.p), free(sym), free(str);
    /* 4000 note sections over one area of 87000 notes: walked once */
    const size_t area = 87000 * 12, nsec = 4000;
    uint8_t *notes = calloc(area, 1); /* notes with empty names and descriptors */
    sec_t *secs = calloc(nsec, sizeof *secs);
    secs[0] = (sec_t){7 /* SHT_NOTE */, notes, area, 0, 0, 0};
    for (size_t i = 1; i < nsec; i++) secs[i] = (sec_t){7, NULL, 0, 0, 0, 1};
    b = make_elf(224, 64, 3, 0x4c, secs, (int)nsec);
    ck_assert_int_eq(crk_codeobj_open(b.p, b.n, &co, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "note sections overlap") != NULL, "%s", err);
    free(b.p), free(secs), free(notes);
}
END_TEST

/* ---------------------------------------------------- msgpack / metadata */

START_TEST(test_msgpack)
{
    static const uint8_t ok_md[] =
        "\x83" "\xae" "amdhsa.version" "\x92\x01\x02"
        "\xad" "amdhsa.target" "\xb9" "amdgcn-amd-amdhsa--gfx90a"
        "\xae" "amdhsa.kernels" "\x91" "\x84"
        "\xa5" ".name" "\xa1" "k"
        "\xa5" ".args" "\x92"
        "\x83" "\xa7" ".offset" "\x00" "\xa5" ".size" "\x08" "\xab" ".value_kind" "\xa8" "by_value"
        "\x84" "\xa7" ".offset" "\x08" "\xa5" ".size" "\x08" "\xab" ".value_kind" "\xad" "global_buffer"
        "\xa5" ".junk" "\xc0"
        "\xab" ".vgpr_count" "\xcd\x01\x00"
        "\xa8" ".unknown" "\x93\x01" "\xa1" "x" "\x81\x01\x02";
    crk_codeobj co = {0};
    crk_co_image img;
    char err[256];
    memset(&img, 0, sizeof img);
    ck_assert_msg(crk_co_parse_amdgpu_metadata(&co, &img, ok_md, sizeof ok_md - 1, err,
                                               sizeof err) == 0, "%s", err);
    ck_assert_str_eq(img.target, "gfx90a");
    ck_assert_int_eq(img.code_object_version, 5);
    ck_assert_uint_eq(img.nkernels, 1);
    ck_assert_uint_eq(img.kernels[0].nargs, 2);
    ck_assert_uint_eq(img.kernels[0].vgpr_count, 256);
    ck_assert_uint_eq(img.kernels[0].sgpr_count, CRK_CO_UNSET);
    ck_assert_str_eq(img.kernels[0].args[1].value_kind, "global_buffer");
    crk_codeobj_free(&co);
    /* Every truncation fails cleanly. */
    for (size_t n = 0; n + 1 < sizeof ok_md - 1; n++) {
        memset(&img, 0, sizeof img);
        ck_assert_int_eq(crk_co_parse_amdgpu_metadata(&co, &img, ok_md, n, err, sizeof err), -1);
        crk_codeobj_free(&co);
    }
    /* Deep nesting is refused, not recursed into. */
    uint8_t deep[4096];
    memset(deep, 0x91, sizeof deep);
    deep[sizeof deep - 1] = 0xc0;
    crk_mp_reader r;
    crk_mp_init(&r, deep, sizeof deep);
    ck_assert_int_eq(crk_mp_skip(&r), -1);
    crk_mp_init(&r, deep + sizeof deep - 40, 40);
    ck_assert_int_eq(crk_mp_skip(&r), 0);
    /* Container counts larger than the input are refused at once. */
    static const uint8_t big[] = {0xdd, 0xff, 0xff, 0xff, 0xff, 0x01};
    crk_mp_obj o;
    crk_mp_init(&r, big, sizeof big);
    ck_assert_int_eq(crk_mp_read(&r, &o), -1);
    static const uint8_t bigstr[] = {0xdb, 0x7f, 0xff, 0xff, 0xff, 'a'};
    crk_mp_init(&r, bigstr, sizeof bigstr);
    ck_assert_int_eq(crk_mp_read(&r, &o), -1);
    static const uint8_t reserved[] = {0xc1};
    crk_mp_init(&r, reserved, 1);
    ck_assert_int_eq(crk_mp_read(&r, &o), -1);
    /* Wrong types in the metadata. */
    static const uint8_t badtype[] = "\x81" "\xae" "amdhsa.kernels" "\x91\x81" "\xa5" ".name" "\x05";
    memset(&img, 0, sizeof img);
    ck_assert_int_eq(crk_co_parse_amdgpu_metadata(&co, &img, badtype, sizeof badtype - 1, err,
                                                  sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "corrupt AMDGPU metadata"));
    crk_codeobj_free(&co);
}
END_TEST

START_TEST(test_misc)
{
    open_fails((const uint8_t *)"", 0, "empty");
    open_fails((const uint8_t *)"hello world", 11, "bad magic");
    open_fails((const uint8_t *)"\177ELF", 4, "truncated");
    crk_codeobj co;
    ck_assert_int_eq(crk_codeobj_open(NULL, 5, &co, NULL, 0), -1);
    crk_codeobj_free(&co);
    crk_codeobj_free(NULL);
    ck_assert_str_eq(crk_co_amdgpu_mach_name(0x04c), "gfx942");
    ck_assert_str_eq(crk_co_amdgpu_mach_name(0x054), "gfx11-generic");
    ck_assert_ptr_null(crk_co_amdgpu_mach_name(0x0ff));
}
END_TEST

int main(void)
{
    unit_t u = unit_begin("codeobj");
    tcase_set_timeout(u.tc, 120);
    const int real = getenv("CRK_TEST_HSACO") && *getenv("CRK_TEST_HSACO");
    const char *why = "set CRK_TEST_HSACO to a gfx .hsaco";
    UNIT_ADD_IF(&u, real, why, test_elf_valid);
    UNIT_ADD_IF(&u, real, why, test_elf_truncated);
    UNIT_ADD_IF(&u, real, why, test_elf_corrupt_header);
    UNIT_ADD_IF(&u, real, why, test_abi_real);
    UNIT_ADD(&u, test_abi_handmade);
    UNIT_ADD_IF(&u, real, why, test_bundle);
    UNIT_ADD_IF(&u, real, why, test_ccob);
    UNIT_ADD(&u, test_ccob_handmade);
    UNIT_ADD(&u, test_cubin_fatbin);
    UNIT_ADD(&u, test_msgpack);
    UNIT_ADD(&u, test_misc);
    UNIT_ADD(&u, test_linear_on_crafted_input);
    const int rc = unit_run(&u);
    free(hsaco);
    return rc;
}
