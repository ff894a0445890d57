/* test_rt.c — unit tests of the emulator's runtime half on real code
 * objects (hsaco/gfx942/unary.hsaco, hsaco/gfx1100/affine.hsaco, a bundle
 * built here from per-arch files), cross-checked against what
 * llvm-readelf-22 / llvm-objdump-22 print. The wave scheduler is driven by
 * fake steppers; the last test runs uneg_f32 for real once the ISA half's
 * emu_step exists (until then the weak stub below stands in and the test
 * reports itself skipped). CRK_TEST_HSACO_DIR overrides "hsaco". */
#include "gpu.h"
#include "rt_hip.h"
#include "unit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

/* ---------------------------------------------------------------- stub */
static int stub_used;
__attribute__((weak)) emu_step_result emu_step(emu_wave *w, char *err, size_t elen)
{
    (void)w, (void)err, (void)elen;
    stub_used = 1;
    return EMU_STEP_END;
}

/* ------------------------------------------------------------- helpers */
static const char *dir(void)
{
    const char *d = getenv("CRK_TEST_HSACO_DIR");
    return d && *d ? d : "hsaco";
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) free(b), b = NULL;
    fclose(f);
    if (b) *len = (size_t)n;
    return b;
}

static char gfx942_unary[512], gfx90a_unary[512], gfx1100_affine[512];
static int have(const char *p)
{
    FILE *f = fopen(p, "rb");
    if (f) fclose(f);
    return f != NULL;
}

/* Output of a shell command (NULL if it failed or printed nothing). */
static char *run(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    size_t r;
    while (s && (r = fread(s + n, 1, cap - n - 1, p)) > 0)
        if ((n += r) + 1 == cap) s = realloc(s, cap *= 2);
    int rc = pclose(p);
    if (s) s[n] = 0;
    if (!s || rc || !n) return free(s), NULL;
    return s;
}

static int have_readelf;

static rt_module *load(const char *arch, const char *path)
{
    size_t len;
    uint8_t *buf = slurp(path, &len);
    ck_assert_msg(buf, "cannot read %s", path);
    rt_module *mod;
    char err[512];
    emu_mem *m = rt_mem_new();
    int r = rt_module_load(&mod, m, rt_device_find(arch), buf, err, sizeof err);
    free(buf);
    ck_assert_msg(r == 0, "%s: %s", path, err);
    return mod;
}

static void unload(rt_module *mod)
{
    emu_mem *m = mod->mem;
    rt_module_free(mod);
    rt_mem_destroy(m);
}

static rt_kernel *kernel(rt_module *mod, const char *name)
{
    char err[512];
    rt_kernel *k = rt_module_kernel(mod, name, err, sizeof err);
    ck_assert_msg(k, "%s: %s", name, err);
    return k;
}

/* ------------------------------------------------------------- memory */
START_TEST(mem_bounds)
{
    emu_mem *m = rt_mem_new();
    uint64_t a = rt_mem_alloc(m, 100, RT_MEM_USER, "allocation");
    uint64_t b = rt_mem_alloc(m, 4096, RT_MEM_USER, "allocation");
    uint64_t c = rt_mem_alloc(m, 64, RT_MEM_RO, "kernarg segment");
    ck_assert(a && b && c && a < b && b < c && a % 65536 == 0 && b - a >= 65536);
    char err[256], want[64];
    uint32_t v = 0x12345678, r = 0;
    ck_assert_int_eq(emu_mem_write(m, a + 96, &v, 4, err, sizeof err), 0);
    ck_assert_int_eq(emu_mem_read(m, b, &r, 4, err, sizeof err), 0); /* other region, cache moves */
    ck_assert_int_eq(emu_mem_read(m, a + 96, &r, 4, err, sizeof err), 0);
    ck_assert_uint_eq(r, v);
    /* read crossing the end names the address, size and the allocation */
    ck_assert_int_eq(emu_mem_read(m, a + 98, &r, 4, err, sizeof err), -1);
    snprintf(want, sizeof want, "0x%" PRIx64, a + 98);
    ck_assert_msg(strstr(err, want) && strstr(err, "crosses the end") && strstr(err, "4 bytes"), "%s", err);
    /* just past the end: in the gap */
    ck_assert_int_eq(emu_mem_read(m, a + 100, &r, 1, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "outside every allocation") && strstr(err, "0 bytes past the end"), "%s", err);
    ck_assert_int_eq(emu_mem_read(m, 0, &r, 4, err, sizeof err), -1);
    ck_assert_int_eq(emu_mem_write(m, c, &v, 4, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "read-only kernarg segment"), "%s", err);
    ck_assert_int_eq(emu_mem_read(m, c + 60, &r, 4, err, sizeof err), 0);
    ck_assert_int_eq(rt_mem_flags(m, a), RT_MEM_USER);
    ck_assert_int_eq(rt_mem_flags(m, a + 4), -1);
    ck_assert_int_eq(rt_mem_free(m, a), 0);
    ck_assert_int_eq(rt_mem_free(m, a), -1);
    ck_assert_int_eq(emu_mem_read(m, a, &r, 4, err, sizeof err), -1); /* use after free */
    ck_assert_int_eq(emu_mem_read(m, b + 4092, &r, 4, err, sizeof err), 0);
    ck_assert_ptr_null(rt_mem_host(m, b + 4093, 4, err, sizeof err));
    uint64_t d = rt_mem_alloc(m, 16, 0, "allocation");
    ck_assert(d > c); /* addresses are never reused */
    rt_mem_destroy(m);
}
END_TEST

/* ---------------------------------------------------------- image size */
START_TEST(image_size_elf)
{
    size_t len, got;
    uint8_t *buf = slurp(gfx942_unary, &len);
    char err[256];
    ck_assert_int_eq(rt_image_size(buf, &got, err, sizeof err), 0);
    ck_assert_uint_eq(got, len);
    free(buf);
}
END_TEST

/* An offload bundle like clang-offload-bundler writes: host entry, then
 * the given code objects, ids "hipv4-amdgcn-amd-amdhsa--<arch>". */
static uint8_t *make_bundle(const char *const *archs, const char *const *paths, int n, size_t *len)
{
    uint8_t *img[8];
    size_t sz[8], hdr = 24 + 8, total;
    char ids[9][64];
    snprintf(ids[0], sizeof ids[0], "host-x86_64-unknown-linux-gnu-");
    for (int i = 0; i < n; i++) {
        img[i] = slurp(paths[i], &sz[i]);
        ck_assert(img[i]);
        snprintf(ids[i + 1], sizeof ids[i + 1], "hipv4-amdgcn-amd-amdhsa--%s", archs[i]);
    }
    for (int i = 0; i <= n; i++) hdr += 24 + strlen(ids[i]);
    total = (hdr + 4095) / 4096 * 4096;
    size_t off[9];
    off[0] = total;
    for (int i = 0; i < n; i++) off[i + 1] = total, total += (sz[i] + 4095) / 4096 * 4096;
    uint8_t *b = calloc(1, total);
    memcpy(b, "__CLANG_OFFLOAD_BUNDLE__", 24);
    uint64_t cnt = (uint64_t)n + 1;
    memcpy(b + 24, &cnt, 8);
    size_t p = 32;
    for (int i = 0; i <= n; i++) {
        uint64_t o = off[i], s = i ? sz[i - 1] : 0, l = strlen(ids[i]);
        memcpy(b + p, &o, 8), memcpy(b + p + 8, &s, 8), memcpy(b + p + 16, &l, 8);
        memcpy(b + p + 24, ids[i], l);
        p += 24 + l;
        if (i) memcpy(b + o, img[i - 1], s), free(img[i - 1]);
    }
    *len = off[n] + sz[n - 1];
    return b;
}

START_TEST(bundle_pick)
{
    const char *archs[] = {"gfx90a", "gfx942"};
    const char *paths[] = {gfx90a_unary, gfx942_unary};
    size_t len, got, l942;
    uint8_t *b = make_bundle(archs, paths, 2, &len), *f942 = slurp(gfx942_unary, &l942);
    char err[512];
    ck_assert_int_eq(rt_image_size(b, &got, err, sizeof err), 0);
    ck_assert_uint_eq(got, len);
    emu_mem *m = rt_mem_new();
    rt_module *mod;
    ck_assert_int_eq(rt_module_load(&mod, m, rt_device_find("gfx942"), b, err, sizeof err), 0);
    ck_assert_uint_eq(mod->img->size, l942);
    ck_assert(!memcmp(mod->img->data, f942, l942));
    ck_assert_ptr_nonnull(kernel(mod, "uneg_f32"));
    rt_module_free(mod);
    ck_assert_int_eq(rt_module_load(&mod, m, rt_device_find("gfx90a"), b, err, sizeof err), 0);
    ck_assert_msg(!strncmp(mod->img->target, "gfx90a", 6), "%s", mod->img->target);
    rt_module_free(mod);
    ck_assert_int_eq(rt_module_load(&mod, m, rt_device_find("gfx1100"), b, err, sizeof err), -2);
    ck_assert_msg(strstr(err, "gfx1100") && strstr(err, "gfx942"), "%s", err);
    /* the same bundle compressed: CCOB v2 and v3, zstd */
    size_t cap = ZSTD_compressBound(len);
    uint8_t *z = malloc(32 + cap);
    size_t zn = ZSTD_compress(z + 32, cap, b, len, 3);
    ck_assert(!ZSTD_isError(zn));
    for (unsigned version = 2; version <= 3; version++) {
        size_t hdr = version == 2 ? 24 : 32, total = hdr + zn;
        uint8_t *c = malloc(total);
        memcpy(c, "CCOB", 4);
        uint16_t ver = (uint16_t)version, method = 1;
        memcpy(c + 4, &ver, 2), memcpy(c + 6, &method, 2);
        if (version == 2) {
            uint32_t t = (uint32_t)total, u = (uint32_t)len;
            memcpy(c + 8, &t, 4), memcpy(c + 12, &u, 4), memset(c + 16, 0, 8);
        } else {
            uint64_t t = total, u = len;
            memcpy(c + 8, &t, 8), memcpy(c + 16, &u, 8), memset(c + 24, 0, 8);
        }
        memcpy(c + hdr, z + 32, zn);
        ck_assert_int_eq(rt_image_size(c, &got, err, sizeof err), 0);
        ck_assert_uint_eq(got, total);
        ck_assert_msg(rt_module_load(&mod, m, rt_device_find("gfx942"), c, err, sizeof err) == 0, "CCOB v%u: %s",
                      version, err);
        ck_assert_int_eq(mod->co.format, CRK_CO_FMT_CCOB);
        ck_assert(!memcmp(mod->img->data, f942, l942));
        free(c); /* the module keeps its own copy */
        ck_assert_ptr_nonnull(kernel(mod, "uneg_f32"));
        rt_module_free(mod);
    }
    free(z);
    rt_mem_destroy(m);
    free(b), free(f942);
}
END_TEST

/* ---------------------------------------------------------- descriptor */
START_TEST(kd_uneg_f32)
{
    rt_module *mod = load("gfx942", gfx942_unary);
    rt_kernel *k = kernel(mod, "uneg_f32");
    ck_assert_uint_eq(k->kd.kernarg_size, k->md->kernarg_segment_size);
    ck_assert_uint_eq(k->kd.group_segment_fixed_size, k->md->group_segment_fixed_size);
    ck_assert_int_eq(k->kd.kernarg_segment_ptr, 1);
    ck_assert_int_eq(k->kd.private_segment_buffer, 0); /* gfx942: architected flat scratch */
    ck_assert_int_eq(k->kd.wave32, 0);
    ck_assert_int_eq(k->kd.wgid_x, 1);
    ck_assert_int_ge(k->kd.user_sgpr_count, 2);
    ck_assert_ptr_eq(kernel(mod, "uneg_f32"), k); /* cached */
    char err[256];
    ck_assert_ptr_null(rt_module_kernel(mod, "no_such_kernel", err, sizeof err));
    /* entry = the function symbol; its first bytes = what objdump decodes */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "llvm-objdump-22 -d --disassemble-symbols=uneg_f32 %s | grep -m1 '//'", gfx942_unary);
    char *line = run(cmd);
    if (line) {
        unsigned long long addr;
        unsigned w0, w1;
        const char *c = strstr(line, "// ");
        ck_assert_msg(c && sscanf(c, "// %llx: %x %x", &addr, &w0, &w1) >= 2, "%s", line);
        ck_assert_uint_eq(k->entry, addr);
        uint32_t got;
        memcpy(&got, mod->host + k->entry, 4);
        ck_assert_uint_eq(got, w0);
        free(line);
    } else {
        ck_assert_uint_eq(k->entry % 256, 0);
    }
    unload(mod);
}
END_TEST

/* Args of `kernel` as llvm-readelf-22 --notes prints them: offset, size, kind. */
typedef struct {
    unsigned off, size;
    char kind[48];
} note_arg;

static int readelf_args(const char *path, const char *kname, note_arg *out, int max)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "llvm-readelf-22 --notes %s", path);
    char *text = run(cmd);
    if (!text) return -1;
    int n = 0, found = 0;
    note_arg cur[64];
    int nc = 0, in_args = 0;
    for (char *ln = strtok(text, "\n"); ln && !found; ln = strtok(NULL, "\n")) {
        if (!strncmp(ln, "  - ", 4)) nc = 0, in_args = 0; /* a new kernel */
        char *k = ln + strspn(ln, " -");
        if (!strncmp(k, ".args:", 6)) in_args = 1;
        else if (in_args && strstr(ln, "      - ") == ln && nc < 64) cur[nc++] = (note_arg){0, 0, ""};
        else if (in_args && !strncmp(ln, "    .", 5)) in_args = 0;
        if (in_args && nc) {
            sscanf(k, ".offset: %u", &cur[nc - 1].off);
            sscanf(k, ".size: %u", &cur[nc - 1].size);
            sscanf(k, ".value_kind: %47s", cur[nc - 1].kind);
        }
        char nm[128];
        if (!strncmp(ln, "    .name:", 10) && sscanf(ln + 10, "%127s", nm) == 1 && !strcmp(nm, kname)) {
            found = 1;
            for (int i = 0; i < nc && i < max; i++) out[n++] = cur[i];
        }
    }
    free(text);
    return found ? n : -1;
}

static unsigned rd(const uint8_t *p, unsigned size)
{
    uint64_t v = 0;
    memcpy(&v, p, size < 8 ? size : 8);
    return (unsigned)v;
}

START_TEST(kernarg_layout)
{
    rt_module *mod = load("gfx942", gfx942_unary);
    rt_kernel *k = kernel(mod, "uneg_f32");
    note_arg na[64];
    int n = readelf_args(gfx942_unary, "uneg_f32", na, 64);
    ck_assert_int_eq(n, (int)k->md->nargs);
    for (int i = 0; i < n; i++) {
        ck_assert_uint_eq(na[i].off, k->md->args[i].offset);
        ck_assert_uint_eq(na[i].size, k->md->args[i].size);
        ck_assert_str_eq(na[i].kind, k->md->args[i].value_kind);
    }
    /* explicit: numel, num_dims, info, in, out */
    uint64_t numel = 1000, nd = 1, info = 0, in = 0x7e0000010000ull, out = 0x7e0000030000ull;
    void *params[] = {&numel, &nd, &info, &in, &out};
    rt_dims d = {{7, 1, 1}, {256, 1, 1}, 0};
    uint8_t ka[512];
    char err[256];
    ck_assert_int_eq(rt_kernarg_build(k, &d, params, NULL, ka, sizeof ka, err, sizeof err), 0);
    int seen = 0;
    for (int i = 0; i < n; i++) {
        const uint8_t *p = ka + na[i].off;
        const char *kind = na[i].kind;
        uint64_t v = 0;
        memcpy(&v, p, na[i].size);
        long want = -1; /* expected hidden value; -1: must be 0 */
        if (!strcmp(kind, "hidden_block_count_x")) want = 7;
        else if (!strcmp(kind, "hidden_group_size_x")) want = 256;
        else if (!strcmp(kind, "hidden_block_count_y") || !strcmp(kind, "hidden_block_count_z") ||
                 !strcmp(kind, "hidden_group_size_y") || !strcmp(kind, "hidden_group_size_z") ||
                 !strcmp(kind, "hidden_grid_dims"))
            want = 1;
        if (i < 5) ck_assert(v == *(uint64_t *)params[i]);
        else if (want >= 0) {
            ck_assert_uint_eq(rd(p, na[i].size), (unsigned long)want);
            seen++;
        }
        else ck_assert_uint_eq(v, 0); /* remainders, offsets */
    }
    ck_assert_int_eq(seen, 7);
    /* 3-D launch: dims 3; the extra-buffer form gives the same bytes */
    rt_dims d3 = {{2, 3, 4}, {8, 4, 2}, 0};
    uint8_t kb[512];
    ck_assert_int_eq(rt_kernarg_build(k, &d3, params, NULL, ka, sizeof ka, err, sizeof err), 0);
    uint8_t buf[40];
    for (int i = 0; i < 5; i++) memcpy(buf + 8 * i, params[i], 8);
    size_t bsize = sizeof buf;
    void *extra[] = {(void *)1, buf, (void *)2, &bsize, (void *)3};
    ck_assert_int_eq(rt_kernarg_build(k, &d3, NULL, extra, kb, sizeof kb, err, sizeof err), 0);
    ck_assert(!memcmp(ka, kb, sizeof ka));
    for (int i = 0; i < n; i++)
        if (!strcmp(na[i].kind, "hidden_grid_dims")) ck_assert_uint_eq(rd(ka + na[i].off, 2), 3);
        else if (!strcmp(na[i].kind, "hidden_block_count_z")) ck_assert_uint_eq(rd(ka + na[i].off, 4), 4);
        else if (!strcmp(na[i].kind, "hidden_group_size_y")) ck_assert_uint_eq(rd(ka + na[i].off, 2), 4);
    ck_assert_int_eq(rt_kernarg_build(k, &d, NULL, NULL, ka, sizeof ka, err, sizeof err), -1);
    /* dispatch packet (hsa_kernel_dispatch_packet_t) */
    uint8_t pkt[64];
    rt_dispatch_packet(pkt, k, &d3, 0x7e0000400000ull, 0);
    ck_assert_uint_eq(pkt[0], 2);               /* KERNEL_DISPATCH */
    ck_assert_uint_eq(rd(pkt + 2, 2), 3);       /* setup: dims */
    ck_assert_uint_eq(rd(pkt + 4, 2), 8);       /* workgroup_size_x */
    ck_assert_uint_eq(rd(pkt + 6, 2), 4);
    ck_assert_uint_eq(rd(pkt + 8, 2), 2);
    ck_assert_uint_eq(rd(pkt + 12, 4), 16);     /* grid_size_x: work-items */
    ck_assert_uint_eq(rd(pkt + 16, 4), 12);
    ck_assert_uint_eq(rd(pkt + 20, 4), 8);
    uint64_t ko, kaddr;
    memcpy(&ko, pkt + 32, 8), memcpy(&kaddr, pkt + 40, 8);
    ck_assert_uint_eq(ko, k->kd_addr);
    ck_assert_uint_eq(kaddr, 0x7e0000400000ull);
    unload(mod);
}
END_TEST

/* ------------------------------------------------------- initial state */
START_TEST(initial_state_gfx942)
{
    rt_module *mod = load("gfx942", gfx942_unary);
    rt_kernel *k = kernel(mod, "uneg_f32");
    static uint32_t regs[EMU_NVGPR][EMU_MAX_LANES];
    emu_wave w = {0};
    w.vgpr = regs;
    uint8_t kbytes[320] = {0};
    rt_dispatch ds = {0x7e0000100000ull, 0, 0x7e0000200000ull, 5, kbytes, sizeof kbytes};
    rt_dims d = {{9, 1, 1}, {100, 1, 1}, 0};
    const unsigned wg[3] = {3, 0, 0};
    rt_wave_init(&w, k, &d, &ds, wg, 1, 2);
    ck_assert_int_eq(w.isa, EMU_GFX9);
    ck_assert_int_eq(w.wave_size, 64);
    int s = 0;
    if (k->kd.dispatch_ptr) s += 2;
    ck_assert_uint_eq(w.sgpr[s], 0x00200000u);
    ck_assert_uint_eq(w.sgpr[s + 1], 0x7e00u);
    ck_assert_uint_eq(w.sgpr[k->kd.user_sgpr_count], 3); /* workgroup id x */
    ck_assert_uint_eq(w.exec, (1ull << 36) - 1);          /* lanes 64..99 */
    for (int l = 0; l < 36; l++) ck_assert_uint_eq(regs[0][l], 64u + (unsigned)l);
    ck_assert_uint_eq(w.pc, k->entry);
    ck_assert_uint_eq(w.code_base, mod->base);
    ck_assert_ptr_eq(w.code, mod->host);
    uint32_t r1 = k->kd.rsrc1;
    ck_assert_uint_eq(w.mode & 0xff, (r1 >> 12) & 0xff);
    ck_assert_uint_eq((w.mode >> 8) & 1, (r1 >> 21) & 1);
    ck_assert_uint_eq((w.mode >> 9) & 1, (r1 >> 23) & 1);
    /* a 2-D block: packed IDs carry y only if the kernel asks for it */
    rt_dims d2 = {{1, 1, 1}, {16, 4, 1}, 0};
    rt_wave_init(&w, k, &d2, &ds, wg, 0, 1);
    ck_assert_uint_eq(w.exec, ~0ull);
    ck_assert_uint_eq(regs[0][17], k->kd.tid_comp_cnt >= 1 ? (1u | 1u << 10) : 1u);
    unload(mod);
}
END_TEST

START_TEST(initial_state_gfx1100)
{
    rt_module *mod = load("gfx1100", gfx1100_affine);
    ck_assert(mod->co.nimages == 1);
    const char *name = mod->img->kernels[0].name;
    rt_kernel *k = kernel(mod, name);
    ck_assert_int_eq(k->kd.wave32, 1);
    static uint32_t regs[EMU_NVGPR][EMU_MAX_LANES];
    emu_wave w = {0};
    w.vgpr = regs;
    uint8_t kbytes[512] = {0};
    rt_dispatch ds = {0x7e0000100000ull, 0, 0x7e0000200000ull, 0, kbytes, sizeof kbytes};
    rt_dims d = {{2, 1, 1}, {40, 1, 1}, 0};
    const unsigned wg[3] = {1, 0, 0};
    rt_wave_init(&w, k, &d, &ds, wg, 1, 2);
    ck_assert_int_eq(w.isa, EMU_GFX11);
    ck_assert_int_eq(w.wave_size, 32);
    ck_assert_uint_eq(w.exec, 0xffull); /* lanes 32..39 */
    for (int l = 0; l < 8; l++) ck_assert_uint_eq(regs[0][l], 32u + (unsigned)l);
    ck_assert_uint_eq(w.sgpr[k->kd.user_sgpr_count], 1);
    unload(mod);
}
END_TEST

/* --------------------------------------------------------- scheduling */
/* Fake stepper: each wave runs 10 "instructions", meets a barrier at the
 * 5th, except the last wave of each workgroup, which ends at its 3rd. Any
 * wave past the barrier before all others reached it is a violation. */
static int arrived[16], ends, violations, steps_after;
static emu_step_result fake_barrier(emu_wave *w, char *err, size_t n)
{
    (void)err, (void)n;
    unsigned wg = w->sgpr[2], wave = (w->vgpr[0][0] & 0x3ff) / 64; /* uneg_f32: s2 = wg id x */
    unsigned step = (unsigned)(w->pc / 4);                          /* entry 0 (set below) */
    w->pc += 4;
    if (wave == 3 && step == 2) return ends++, EMU_STEP_END;
    if (step == 4) return arrived[wg]++, EMU_STEP_BARRIER;
    if (step > 4) {
        steps_after++;
        if (arrived[wg] != 3) violations++;
    }
    if (step == 9) return ends++, EMU_STEP_END;
    return EMU_STEP_OK;
}

START_TEST(barrier_scheduling)
{
    rt_module *mod = load("gfx942", gfx942_unary);
    rt_kernel *k = kernel(mod, "uneg_f32");
    k->entry = 0; /* the fake stepper keeps its own pc */
    rt_step = fake_barrier;
    uint64_t numel = 0, nd = 1, z = 0;
    void *params[] = {&numel, &nd, &z, &z, &z};
    rt_dims d = {{2, 1, 1}, {256, 1, 1}, 0};
    char err[512];
    ck_assert_msg(rt_launch(k, &d, params, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(ends, 8);
    ck_assert_int_eq(arrived[0], 3);
    ck_assert_int_eq(arrived[1], 3);
    ck_assert_int_eq(steps_after, 2 * 3 * 5);
    ck_assert_int_eq(violations, 0);
    rt_step = emu_step;
    unload(mod);
}
END_TEST

static emu_step_result fake_error(emu_wave *w, char *err, size_t n)
{
    if ((w->vgpr[0][0] & 0x3ff) == 64 && w->ninst++ == 2) return snprintf(err, n, "bad thing"), EMU_STEP_ERROR;
    w->pc += 4;
    return w->pc > 1000000 ? EMU_STEP_END : EMU_STEP_OK;
}

START_TEST(error_reported)
{
    rt_module *mod = load("gfx942", gfx942_unary);
    rt_kernel *k = kernel(mod, "uneg_f32");
    rt_step = fake_error;
    uint64_t z = 0;
    void *params[] = {&z, &z, &z, &z, &z};
    rt_dims d = {{1, 1, 1}, {128, 1, 1}, 0};
    char err[512], want[64];
    ck_assert_int_eq(rt_launch(k, &d, params, NULL, err, sizeof err), RT_E_EXEC);
    snprintf(want, sizeof want, "pc 0x%" PRIx64 ":", k->entry + 8);
    ck_assert_msg(strstr(err, "kernel uneg_f32") && strstr(err, "wave 1") && strstr(err, want) &&
                      strstr(err, "bad thing"), "%s", err);
    rt_dims big = {{1, 1, 1}, {2048, 1, 1}, 0};
    ck_assert_int_eq(rt_launch(k, &big, params, NULL, err, sizeof err), RT_E_CONFIG);
    rt_dims lds = {{1, 1, 1}, {64, 1, 1}, 70000};
    ck_assert_int_eq(rt_launch(k, &lds, params, NULL, err, sizeof err), RT_E_CONFIG);
    ck_assert_msg(strstr(err, "LDS"), "%s", err);
    rt_step = emu_step;
    unload(mod);
}
END_TEST

/* The kernel sees its kernargs through emu_mem_read at s[0:1], read-only
 * and bounded. */
static uint64_t seen_numel;
static int seen_past_end, seen_ro;
static emu_step_result fake_kernarg(emu_wave *w, char *err, size_t n)
{
    uint64_t ka = w->sgpr[0] | (uint64_t)w->sgpr[1] << 32, v = 1;
    emu_mem_read(w->mem, ka, &seen_numel, 8, err, n);
    seen_past_end = emu_mem_read(w->mem, ka + 320, &v, 8, err, n) == -1 && strstr(err, "kernarg segment");
    seen_ro = emu_mem_write(w->mem, ka, &v, 8, err, n) == -1;
    return EMU_STEP_END;
}

START_TEST(kernarg_in_memory)
{
    rt_module *mod = load("gfx942", gfx942_unary);
    rt_kernel *k = kernel(mod, "uneg_f32");
    rt_step = fake_kernarg;
    uint64_t numel = 12345, z = 0;
    void *params[] = {&numel, &z, &z, &z, &z};
    rt_dims d = {{1, 1, 1}, {64, 1, 1}, 0};
    char err[512];
    ck_assert_msg(rt_launch(k, &d, params, NULL, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(seen_numel, 12345);
    ck_assert_int_eq(seen_past_end, 1);
    ck_assert_int_eq(seen_ro, 1);
    rt_step = emu_step;
    unload(mod);
}
END_TEST

/* ------------------------------------------------------------ HIP API */
START_TEST(hip_api)
{
    setenv("CRK_EMU_ARCH", "gfx942", 1);
    ck_assert_int_eq(hipInit(0), hipSuccess);
    int count = 0, ver = 0;
    ck_assert_int_eq(hipGetDeviceCount(&count), hipSuccess);
    ck_assert_int_eq(count, 1);
    ck_assert_int_eq(hipSetDevice(1), hipErrorInvalidDevice);
    ck_assert_int_eq(hipSetDevice(0), hipSuccess);
    hipDeviceProp_tR0600 p;
    ck_assert_int_eq(hipGetDevicePropertiesR0600(&p, 0), hipSuccess);
    ck_assert_str_eq(p.gcnArchName, "gfx942:sramecc+:xnack-");
    ck_assert_int_eq(p.warpSize, 64);
    ck_assert_int_eq(p.maxThreadsPerBlock, 1024);
    ck_assert_uint_eq(p.sharedMemPerBlock, 65536);
    ck_assert_int_gt(p.multiProcessorCount, 0);
    int cus = 0;
    ck_assert_int_eq(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0), hipSuccess);
    ck_assert_int_eq(cus, p.multiProcessorCount);
    ck_assert_int_eq(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 1), hipErrorInvalidDevice);
    ck_assert_int_eq(hipDeviceGetAttribute(&cus, hipDeviceAttributeWarpSize, 0), hipErrorInvalidValue);
    ck_assert_int_eq(hipRuntimeGetVersion(&ver), hipSuccess);
    ck_assert_int_eq(ver, 60400000);

    void *dptr = NULL;
    float host[256] = {1.5f}, back[256];
    ck_assert_int_eq(hipMalloc(&dptr, sizeof host), hipSuccess);
    ck_assert_ptr_nonnull(dptr);
    ck_assert_int_eq(hipMemcpy(dptr, host, sizeof host, hipMemcpyHostToDevice), hipSuccess);
    ck_assert_int_eq(hipMemcpy(back, dptr, sizeof back, hipMemcpyDefault), hipSuccess);
    ck_assert(back[0] == 1.5f);
    ck_assert_int_eq(hipMemcpy(back, (char *)dptr + 4, sizeof back, hipMemcpyDeviceToHost), hipErrorInvalidValue);
    ck_assert_int_eq(hipMemset(dptr, 0, sizeof host + 1), hipErrorInvalidValue);
    ck_assert_int_eq(hipMemset(dptr, 0, sizeof host), hipSuccess);
    ck_assert_int_eq(hipMemcpy(back, host, 8, hipMemcpyDeviceToHost), hipErrorInvalidValue); /* host as device */
    ck_assert_int_eq(hipFree(dptr), hipSuccess);
    ck_assert_int_eq(hipFree(dptr), hipErrorInvalidValue);

    size_t len;
    uint8_t *img = slurp(gfx942_unary, &len);
    hipModule_t mod;
    hipFunction_t f;
    ck_assert_int_eq(hipModuleLoadData(&mod, img), hipSuccess);
    memset(img, 0, len); /* the runtime keeps its own copy */
    ck_assert_int_eq(hipModuleLoadData(&mod, img), hipErrorInvalidImage);
    free(img);
    ck_assert_int_eq(hipModuleGetFunction(&f, mod, "nope"), hipErrorNotFound);
    ck_assert_int_eq(hipModuleGetFunction(&f, mod, "uneg_f32"), hipSuccess);
    ck_assert_int_eq(hipModuleLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, NULL, NULL), hipErrorInvalidConfiguration);
    ck_assert_int_eq(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, NULL, NULL), hipErrorInvalidValue);
    ck_assert_int_eq(hipModuleUnload(mod), hipSuccess);
    ck_assert_int_eq(hipModuleUnload(mod), hipErrorInvalidResourceHandle);
    ck_assert_int_eq(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, NULL, NULL), hipErrorInvalidResourceHandle);
    ck_assert_str_eq(hipGetErrorName(hipErrorLaunchFailure), "hipErrorLaunchFailure");
    hipEvent_t e0, e1;
    float ms = -1;
    ck_assert_int_eq(hipEventCreate(&e0), hipSuccess);
    ck_assert_int_eq(hipEventCreate(&e1), hipSuccess);
    ck_assert_int_eq(hipEventRecord(e0, NULL), hipSuccess);
    ck_assert_int_eq(hipEventRecord(e1, NULL), hipSuccess);
    ck_assert_int_eq(hipEventSynchronize(e1), hipSuccess);
    ck_assert_int_eq(hipEventElapsedTime(&ms, e0, e1), hipSuccess);
    ck_assert(ms >= 0);
    ck_assert_int_eq(hipEventDestroy(e0), hipSuccess);
    ck_assert_int_eq(hipEventDestroy(e1), hipSuccess);
}
END_TEST

/* ----------------------------------------------------- real end to end */
START_TEST(uneg_f32_end_to_end)
{
    rt_step = emu_step;
    setenv("CRK_EMU_ARCH", "gfx942", 1);
    size_t len;
    uint8_t *img = slurp(gfx942_unary, &len);
    hipModule_t mod;
    hipFunction_t f;
    ck_assert_int_eq(hipModuleLoadData(&mod, img), hipSuccess);
    free(img);
    ck_assert_int_eq(hipModuleGetFunction(&f, mod, "uneg_f32"), hipSuccess);
    enum { N = 1000 };
    float in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = (float)i * 0.25f - 100.0f;
    void *din, *dout;
    ck_assert_int_eq(hipMalloc(&din, sizeof in), hipSuccess);
    ck_assert_int_eq(hipMalloc(&dout, sizeof out), hipSuccess);
    ck_assert_int_eq(hipMemcpy(din, in, sizeof in, hipMemcpyHostToDevice), hipSuccess);
    uint64_t numel = N, nd = 1, info = 0;
    void *params[] = {&numel, &nd, &info, &din, &dout};
    ck_assert_int_eq(hipModuleLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, NULL, params, NULL), hipSuccess);
    ck_assert_int_eq(hipMemcpy(out, dout, sizeof out, hipMemcpyDeviceToHost), hipSuccess);
    for (int i = 0; i < N; i++) ck_assert_msg(out[i] == -in[i], "out[%d] = %g, want %g", i, out[i], -in[i]);
    hipFree(din), hipFree(dout), hipModuleUnload(mod);
}
END_TEST

/* libcrk's HIP back end (loader/gpu_hip.c, compiled in) on the stand-in
 * library, opened through CRK_HIP_LIBRARY as libcrk does. */
static char so_path[1024];
START_TEST(libcrk_hip_backend)
{
    crk_gpu g;
    char target[128], name[128], why[512];
    setenv("CRK_EMU_ARCH", "gfx942", 1);
    setenv("CRK_HIP_LIBRARY", "/nonexistent/libamdhip64.so", 1);
    ck_assert_int_eq(crk_gpu_open_hip(&g, 0, target, sizeof target, name, sizeof name, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "CRK_HIP_LIBRARY=/nonexistent/libamdhip64.so") && strstr(why, "No such file"), "%s", why);
    setenv("CRK_HIP_LIBRARY", so_path, 1);
    ck_assert_msg(crk_gpu_open_hip(&g, 0, target, sizeof target, name, sizeof name, why, sizeof why) == 0, "%s", why);
    ck_assert_str_eq(target, "gfx942:sramecc+:xnack-");
    ck_assert_int_eq(g.supports_generic, 1);
    ck_assert_int_eq(g.sm_count, 304); /* MI300X's CUs: libcrk's strided grids are sized by it */
    ck_assert_msg(strstr(name, "crk emulator"), "%s", name);
    size_t len;
    uint8_t *img = slurp(gfx942_unary, &len);
    void *mod, *fn, *din, *dout;
    ck_assert_int_eq(g.module_load(&g, &mod, img), 0);
    free(img);
    ck_assert_int_eq(g.get_function(&g, &fn, mod, "uneg_f32"), 0);
    enum { N = 1000 };
    float in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = (float)i - 500.5f;
    ck_assert_int_eq(g.malloc(&g, &din, sizeof in), 0);
    ck_assert_int_eq(g.malloc(&g, &dout, sizeof out), 0);
    ck_assert_int_eq(g.htod(&g, din, in, sizeof in), 0);
    ck_assert_int_eq(g.memset(&g, dout, 0, sizeof out), 0);
    ck_assert_int_ne(g.dtoh(&g, out, (char *)din + 8, sizeof in), 0); /* past the end */
    uint64_t numel = N, nd = 1, info = 0;
    void *params[] = {&numel, &nd, &info, &din, &dout};
    const unsigned grid[3] = {4, 1, 1}, block[3] = {256, 1, 1};
    ck_assert_int_eq(g.launch(&g, fn, grid, block, 0, NULL, params), 0);
    ck_assert_int_eq(g.synchronize(&g), 0);
    ck_assert_int_eq(g.dtoh(&g, out, dout, sizeof out), 0);
    for (int i = 0; i < N; i++) ck_assert_msg(out[i] == -in[i], "out[%d] = %g, want %g", i, out[i], -in[i]);
    ck_assert_str_eq(g.error_string(&g, hipErrorLaunchFailure), "unspecified launch failure");
    g.free(&g, din), g.free(&g, dout), g.module_unload(&g, mod);
    g.close(&g);
}
END_TEST

static int real_emu_step(void)
{
    static const uint8_t endpgm[4] = {0x00, 0x00, 0x81, 0xbf}; /* gfx9 s_endpgm */
    static uint32_t regs[EMU_NVGPR][EMU_MAX_LANES];
    emu_wave w = {0};
    w.isa = EMU_GFX9, w.wave_size = 64, w.vgpr = regs, w.exec = ~0ull;
    w.code = endpgm, w.code_size = 4, w.kernel = "probe";
    char err[256];
    stub_used = 0;
    emu_step(&w, err, sizeof err);
    return !stub_used;
}

int main(void)
{
    snprintf(gfx942_unary, sizeof gfx942_unary, "%s/gfx942/unary.hsaco", dir());
    snprintf(gfx90a_unary, sizeof gfx90a_unary, "%s/gfx90a/unary.hsaco", dir());
    snprintf(gfx1100_affine, sizeof gfx1100_affine, "%s/gfx1100/affine.hsaco", dir());
    char *v = run("llvm-readelf-22 --version");
    have_readelf = v != NULL;
    free(v);
    const int h942 = have(gfx942_unary), h90a = have(gfx90a_unary), h1100 = have(gfx1100_affine);
    unit_t u = unit_begin("emu runtime");
    tcase_set_timeout(u.tc, 120);
    UNIT_ADD(&u, mem_bounds);
    UNIT_ADD_IF(&u, h942, "no hsaco/gfx942/unary.hsaco", image_size_elf);
    UNIT_ADD_IF(&u, h942 && h90a, "no gfx942 + gfx90a unary.hsaco", bundle_pick);
    UNIT_ADD_IF(&u, h942, "no hsaco/gfx942/unary.hsaco", kd_uneg_f32);
    UNIT_ADD_IF(&u, h942 && have_readelf, "no gfx942 unary.hsaco or llvm-readelf-22", kernarg_layout);
    UNIT_ADD_IF(&u, h942, "no hsaco/gfx942/unary.hsaco", initial_state_gfx942);
    UNIT_ADD_IF(&u, h1100, "no hsaco/gfx1100/affine.hsaco", initial_state_gfx1100);
    UNIT_ADD_IF(&u, h942, "no hsaco/gfx942/unary.hsaco", barrier_scheduling);
    UNIT_ADD_IF(&u, h942, "no hsaco/gfx942/unary.hsaco", error_reported);
    UNIT_ADD_IF(&u, h942, "no hsaco/gfx942/unary.hsaco", kernarg_in_memory);
    UNIT_ADD_IF(&u, h942, "no hsaco/gfx942/unary.hsaco", hip_api);
    UNIT_ADD_IF(&u, h942 && real_emu_step(), "emu_step is the stub until the ISA half provides it",
                uneg_f32_end_to_end);
    const char *so = getenv("CRK_TEST_EMU_SO"); /* the library under test; default build/emu's */
    snprintf(so_path, sizeof so_path, "%s", so && *so ? so : "build/emu/libamdhip64.so");
    if (so_path[0] != '/') {
        char cwd[512];
        if (getcwd(cwd, sizeof cwd)) snprintf(so_path, sizeof so_path, "%s/%s", cwd, so && *so ? so : "build/emu/libamdhip64.so");
    }
    UNIT_ADD_IF(&u, h942 && have(so_path), "no build/emu/libamdhip64.so (needs the ISA half's emu_step)",
                libcrk_hip_backend);
    return unit_run(&u);
}
