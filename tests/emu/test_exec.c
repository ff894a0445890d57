/* test_exec.c — unit tests of the ISA half's executor: hand-assembled
 * sequences (bytes from llvm-mc-22 -show-encoding, pasted; the assembly is
 * in the comments) run with emu_step on one wave, results checked against
 * values computed here. A tiny emu_mem stands in for the runtime's.
 * Usage: build/emu/test_exec   (exit 0 when every check passes) */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include "isa.h"
#include "exec.h" /* ex_h2f, ex_d2h */

/* ---- test memory: one buffer at a fixed device address ---- */
struct emu_mem { uint64_t base; uint8_t buf[4096]; };

int emu_mem_read(emu_mem *m, uint64_t a, void *dst, unsigned n, char *err, size_t elen)
{
    if (a < m->base || a + n > m->base + sizeof m->buf) {
        snprintf(err, elen, "0x%llx outside the test buffer", (unsigned long long)a);
        return -1;
    }
    memcpy(dst, m->buf + (a - m->base), n);
    return 0;
}

int emu_mem_write(emu_mem *m, uint64_t a, const void *src, unsigned n, char *err, size_t elen)
{
    if (a < m->base || a + n > m->base + sizeof m->buf) {
        snprintf(err, elen, "0x%llx outside the test buffer", (unsigned long long)a);
        return -1;
    }
    memcpy(m->buf + (a - m->base), src, n);
    return 0;
}

static int fails, checks;
#define CHECK(cond, ...)                                     \
    do {                                                     \
        checks++;                                            \
        if (!(cond)) {                                       \
            fails++;                                         \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);      \
            printf(__VA_ARGS__);                             \
            printf("\n");                                    \
        }                                                    \
    } while (0)

static uint32_t (*vgpr)[EMU_MAX_LANES];
static emu_mem mem;

static void wave(emu_wave *w, emu_isa isa, const uint8_t *code, size_t n)
{
    memset(w, 0, sizeof *w);
    memset(vgpr, 0, sizeof(uint32_t) * EMU_NVGPR * EMU_MAX_LANES);
    w->isa = isa;
    w->wave_size = isa == EMU_GFX11 ? 32 : 64;
    w->vgpr = vgpr;
    w->exec = isa == EMU_GFX11 ? 0xFFFFFFFFull : ~0ull;
    w->mode = 0xF0 | 1u << 8 | 1u << 9; /* what our kernels' descriptors set */
    w->code = code;
    w->code_size = n;
    w->mem = &mem;
    w->kernel = "test";
}

static int run_n(emu_wave *w, long max)
{
    char err[400];
    for (long i = 0; i < max; i++) {
        emu_step_result r = emu_step(w, err, sizeof err);
        if (r == EMU_STEP_END)
            return 0;
        if (r == EMU_STEP_ERROR) {
            printf("emu_step error: %s\n", err);
            return -1;
        }
    }
    printf("no s_endpgm\n");
    return -1;
}

static int run(emu_wave *w) { return run_n(w, 10000); }

static uint32_t fu(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float uf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t du(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

/* 64-bit add by carry chain; borrow chain; exec masks a lane off. */
static const uint8_t k_carry[] = {
    0x00,0x05,0x04,0x32, /* v_add_co_u32_e32 v2, vcc, v0, v2 */
    0x01,0x07,0x06,0x38, /* v_addc_co_u32_e32 v3, vcc, v1, v3, vcc */
    0x04,0x0a,0x19,0xd1,0x00,0x83,0x01,0x00, /* v_add_co_u32_e64 v4, s[10:11], v0, -1 */
    0x05,0x0c,0x1d,0xd1,0x01,0x01,0x29,0x00, /* v_subb_co_u32_e64 v5, s[12:13], v1, 0, s[10:11] */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static void test_carry(void)
{
    emu_wave w;
    wave(&w, EMU_GFX9, k_carry, sizeof k_carry);
    for (int l = 0; l < 64; l++) {
        vgpr[0][l] = (uint32_t)l * 0x40000000u;
        vgpr[1][l] = (uint32_t)l;
        vgpr[2][l] = 0xC0000000u + (uint32_t)l;
        vgpr[3][l] = l & 1 ? 0xFFFFFFFFu : 7;
    }
    w.exec &= ~(1ull << 5);
    if (run(&w))
        return fails++, (void)0;
    uint64_t vcc = 0, s10 = 0, s12 = 0;
    for (int l = 0; l < 64; l++) {
        uint32_t v0 = (uint32_t)l * 0x40000000u, v1 = (uint32_t)l, v2 = 0xC0000000u + (uint32_t)l;
        uint32_t v3 = l & 1 ? 0xFFFFFFFFu : 7;
        if (l == 5) {
            CHECK(vgpr[2][l] == v2 && vgpr[3][l] == v3, "inactive lane 5 written");
            continue;
        }
        unsigned __int128 a = (unsigned __int128)((uint64_t)v1 << 32 | v0), b = (unsigned __int128)((uint64_t)v3 << 32 | v2);
        unsigned __int128 s = a + b;
        CHECK(vgpr[2][l] == (uint32_t)s && vgpr[3][l] == (uint32_t)(s >> 32), "lane %d: sum %08x%08x", l, vgpr[3][l], vgpr[2][l]);
        vcc |= (uint64_t)(s >> 64 & 1) << l;
        int c = v0 != 0;
        CHECK(vgpr[4][l] == v0 - 1u, "lane %d: v4", l);
        s10 |= (uint64_t)c << l;
        CHECK(vgpr[5][l] == v1 - (uint32_t)c, "lane %d: v5", l);
        s12 |= (uint64_t)((uint32_t)c > v1) << l;
    }
    CHECK(w.vcc == vcc, "vcc %016llx want %016llx", (unsigned long long)w.vcc, (unsigned long long)vcc);
    CHECK(((uint64_t)w.sgpr[11] << 32 | w.sgpr[10]) == s10, "carry-out s[10:11]");
    CHECK(((uint64_t)w.sgpr[13] << 32 | w.sgpr[12]) == s12, "borrow-out s[12:13]");
}

/* f32 division as LLVM expands it (denormals on): div_scale, rcp, fma
 * Newton steps, div_fmas, div_fixup; must equal the correctly rounded
 * quotient, including subnormal, huge and special cases. */
static const uint8_t k_fdiv32[] = {
    0x04,0x02,0xe0,0xd1,0x01,0x03,0x02,0x04, /* v_div_scale_f32 v4, s[2:3], v1, v1, v0 */
    0x04,0x45,0x0a,0x7e, /* v_rcp_f32_e32 v5, v4 */
    0x07,0x6a,0xe0,0xd1,0x00,0x03,0x02,0x04, /* v_div_scale_f32 v7, vcc, v0, v1, v0 */
    0x08,0x00,0xcb,0xd1,0x04,0x0b,0xca,0x23, /* v_fma_f32 v8, -v4, v5, 1.0 */
    0x08,0x0b,0x0a,0x76, /* v_fmac_f32_e32 v5, v8, v5 */
    0x07,0x0b,0x10,0x0a, /* v_mul_f32_e32 v8, v7, v5 */
    0x09,0x00,0xcb,0xd1,0x04,0x11,0x1e,0x24, /* v_fma_f32 v9, -v4, v8, v7 */
    0x09,0x0b,0x10,0x76, /* v_fmac_f32_e32 v8, v9, v5 */
    0x04,0x00,0xcb,0xd1,0x04,0x11,0x1e,0x24, /* v_fma_f32 v4, -v4, v8, v7 */
    0x04,0x00,0xe2,0xd1,0x04,0x0b,0x22,0x04, /* v_div_fmas_f32 v4, v4, v5, v8 */
    0x00,0x00,0xde,0xd1,0x04,0x03,0x02,0x04, /* v_div_fixup_f32 v0, v4, v1, v0 */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static const float div32[][2] = {
    { 1.0f, 3.0f }, { 2.0f, 7.0f }, { -5.0f, 0.1f }, { 1.0f, 3e38f }, { 3e38f, 1e-5f },
    { 0.0f, 0.0f }, { 1.0f, 0.0f }, { -1.0f, 0.0f }, { 0.0f, 5.0f }, { 7.0f, 7.0f },
    { 1e-40f, 3.0f }, { 1e-40f, 1e-39f }, { 2.5e-38f, 1e10f }, { 1e30f, 1e-30f }, { 1.0f, 1e38f },
    { 3.0f, 1e-40f }, { INFINITY, 2.0f }, { INFINITY, INFINITY }, { 2.0f, INFINITY }, { NAN, 1.0f },
    { 1.17549435e-38f, 3.0f }, { 123456.789f, 0.000321f }, { -0.0f, 4.0f }, { 6.0f, -2.0f },
    { 1.5e-45f, 2.0f }, { 3.4e38f, 0.5f }, { 1.0e-38f, 0.99f }, { 1e20f, 3e-20f },
};

static void test_fdiv32(void)
{
    emu_wave w;
    wave(&w, EMU_GFX9, k_fdiv32, sizeof k_fdiv32);
    int n = (int)(sizeof div32 / sizeof div32[0]);
    for (int l = 0; l < n; l++)
        vgpr[0][l] = fu(div32[l][0]), vgpr[1][l] = fu(div32[l][1]);
    w.exec = (1ull << n) - 1;
    if (run(&w))
        return fails++, (void)0;
    for (int l = 0; l < n; l++) {
        volatile float q = div32[l][0] / div32[l][1];
        float got = uf(vgpr[0][l]);
        CHECK(isnan(q) ? isnan(got) : fu(q) == vgpr[0][l], "%g / %g = %a, want %a", (double)div32[l][0],
              (double)div32[l][1], (double)got, (double)q);
    }
}

static const uint8_t k_fdiv64[] = {
    0x08,0x04,0xe1,0xd1,0x04,0x09,0x1a,0x04, /* v_div_scale_f64 v[8:9], s[4:5], v[4:5], v[4:5], v[6:7] */
    0x08,0x4b,0x14,0x7e, /* v_rcp_f64_e32 v[10:11], v[8:9] */
    0x0c,0x6a,0xe1,0xd1,0x06,0x09,0x1a,0x04, /* v_div_scale_f64 v[12:13], vcc, v[6:7], v[4:5], v[6:7] */
    0x0e,0x00,0xcc,0xd1,0x08,0x15,0xca,0x23, /* v_fma_f64 v[14:15], -v[8:9], v[10:11], 1.0 */
    0x0a,0x1d,0x14,0x08, /* v_fmac_f64_e32 v[10:11], v[10:11], v[14:15] */
    0x0e,0x00,0xcc,0xd1,0x08,0x15,0xca,0x23, /* v_fma_f64 v[14:15], -v[8:9], v[10:11], 1.0 */
    0x0a,0x1d,0x14,0x08, /* v_fmac_f64_e32 v[10:11], v[10:11], v[14:15] */
    0x0e,0x00,0x81,0xd2,0x0c,0x15,0x02,0x00, /* v_mul_f64 v[14:15], v[12:13], v[10:11] */
    0x08,0x00,0xcc,0xd1,0x08,0x1d,0x32,0x24, /* v_fma_f64 v[8:9], -v[8:9], v[14:15], v[12:13] */
    0x08,0x00,0xe3,0xd1,0x08,0x15,0x3a,0x04, /* v_div_fmas_f64 v[8:9], v[8:9], v[10:11], v[14:15] */
    0x04,0x00,0xdf,0xd1,0x08,0x09,0x1a,0x04, /* v_div_fixup_f64 v[4:5], v[8:9], v[4:5], v[6:7] */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static const double div64[][2] = {
    { 1.0, 3.0 }, { 2.0, 7.0 }, { -5.0, 0.1 }, { 1.0, 1e308 }, { 1e308, 1e-10 }, { 0.0, 0.0 },
    { 1.0, 0.0 }, { 1e-310, 3.0 }, { 4.9e-324, 2.0 }, { 1e300, 1e-300 }, { INFINITY, 3.0 },
    { NAN, 2.0 }, { 6.0, -2.0 }, { 1e-300, 1e10 }, { 3.0, 1e-310 }, { 0.1, 0.3 },
};

static void test_fdiv64(void)
{
    emu_wave w;
    wave(&w, EMU_GFX9, k_fdiv64, sizeof k_fdiv64);
    int n = (int)(sizeof div64 / sizeof div64[0]);
    for (int l = 0; l < n; l++) {
        uint64_t a = du(div64[l][0]), b = du(div64[l][1]);
        vgpr[6][l] = (uint32_t)a, vgpr[7][l] = (uint32_t)(a >> 32);
        vgpr[4][l] = (uint32_t)b, vgpr[5][l] = (uint32_t)(b >> 32);
    }
    w.exec = (1ull << n) - 1;
    if (run(&w))
        return fails++, (void)0;
    for (int l = 0; l < n; l++) {
        volatile double q = div64[l][0] / div64[l][1];
        uint64_t got = (uint64_t)vgpr[5][l] << 32 | vgpr[4][l];
        double g;
        memcpy(&g, &got, 8);
        CHECK(isnan(q) ? isnan(g) : du(q) == got, "%g / %g = %a, want %a", div64[l][0], div64[l][1], g, q);
    }
    /* Subnormal quotients of a huge denominator (div_fmas scales the
     * estimate down into the subnormal range): rounded once. */
    uint64_t st = 0x9E3779B97F4A7C15ull;
    for (int round = 0; round < 2000; round++) {
        double x[64], y[64];
        wave(&w, EMU_GFX9, k_fdiv64, sizeof k_fdiv64);
        for (int l = 0; l < 64; l++) {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            x[l] = ldexp(1.0 + (double)(st >> 12) * 0x1p-52, -(int)(st % 9) - 1);
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            y[l] = ldexp(1.0 + (double)(st >> 12) * 0x1p-52, 1010 + (int)(st % 13));
            uint64_t a = du(x[l]), b = du(y[l]);
            vgpr[6][l] = (uint32_t)a, vgpr[7][l] = (uint32_t)(a >> 32);
            vgpr[4][l] = (uint32_t)b, vgpr[5][l] = (uint32_t)(b >> 32);
        }
        w.exec = ~0ull;
        if (run(&w))
            return fails++, (void)0;
        for (int l = 0; l < 64; l++) {
            volatile double q = x[l] / y[l];
            uint64_t got = (uint64_t)vgpr[5][l] << 32 | vgpr[4][l];
            double g;
            memcpy(&g, &got, 8);
            CHECK(du(q) == got, "%a / %a = %a, want %a (subnormal quotient)", x[l], y[l], g, q);
        }
    }
}

/* Atomics, every lane on the same words (EXEC without lane 63): add with
 * the old value returned (lane order: the emulator runs lanes in turn),
 * cmpswap 32/64 (only lane 0 matches), f32/f64 adds, a 64-bit add whose
 * carry crosses the low word; flat as global. gfx942 and gfx1100 names. */
static const uint8_t k_atomic9[] = {
    0x00,0x80,0x09,0xdd,0x00,0x03,0x7f,0x02, /* global_atomic_add v2, v[0:1], v3, off sc0 */
    0x40,0x80,0x05,0xdd,0x00,0x06,0x7f,0x04, /* global_atomic_cmpswap v4, v[0:1], v[6:7], off offset:64 sc0 */
    0x80,0x80,0x34,0xdd,0x00,0x08,0x7f,0x00, /* global_atomic_add_f32 v[0:1], v8, off offset:128 */
    0xc0,0x80,0x89,0xdd,0x00,0x0c,0x7f,0x0a, /* global_atomic_add_x2 v[10:11], v[0:1], v[12:13], off offset:192 sc0 */
    0x00,0x01,0x05,0xdd,0x00,0x06,0x00,0x05, /* flat_atomic_cmpswap v5, v[0:1], v[6:7] offset:256 sc0 */
    0x40,0x81,0x85,0xdd,0x00,0x10,0x7f,0x0e, /* global_atomic_cmpswap_x2 v[14:15], v[0:1], v[16:19], off offset:320 sc0 */
    0x80,0x81,0x3c,0xdd,0x00,0x14,0x7f,0x00, /* global_atomic_add_f64 v[0:1], v[20:21], off offset:384 */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};
static const uint8_t k_atomic11[] = {
    0x00,0x40,0xd6,0xdc,0x00,0x03,0x7c,0x02, /* global_atomic_add_u32 v2, v[0:1], v3, off glc */
    0x40,0x40,0xd2,0xdc,0x00,0x06,0x7c,0x04, /* global_atomic_cmpswap_b32 v4, v[0:1], v[6:7], off offset:64 glc */
    0x80,0x00,0x5a,0xdd,0x00,0x08,0x7c,0x00, /* global_atomic_add_f32 v[0:1], v8, off offset:128 */
    0xc0,0x40,0x0e,0xdd,0x00,0x0c,0x7c,0x0a, /* global_atomic_add_u64 v[10:11], v[0:1], v[12:13], off offset:192 glc */
    0x00,0x41,0xd0,0xdc,0x00,0x06,0x7c,0x05, /* flat_atomic_cmpswap_b32 v5, v[0:1], v[6:7] offset:256 glc */
    0x40,0x41,0x0a,0xdd,0x00,0x10,0x7c,0x0e, /* global_atomic_cmpswap_b64 v[14:15], v[0:1], v[16:19], off offset:320 glc */
    0x00,0x00,0xb0,0xbf, /* s_endpgm */
};

static void test_atomic(emu_isa isa, const uint8_t *code, size_t n)
{
    emu_wave w;
    const unsigned lanes = isa == EMU_GFX11 ? 32 : 64, on = lanes - 1;
    memset(&mem, 0, sizeof mem);
    mem.base = 0x200000000ull;
    const uint64_t b = mem.base + 0x400, u64 = 0xFFFFFFFFull, c64 = 0x123456789ull;
    const uint32_t u = 100, seven = 7;
    const float f = 0.5f;
    const double d = 1.0;
    memcpy(mem.buf + 0x400, &u, 4), memcpy(mem.buf + 0x440, &seven, 4), memcpy(mem.buf + 0x480, &f, 4);
    memcpy(mem.buf + 0x4c0, &u64, 8), memcpy(mem.buf + 0x500, &seven, 4), memcpy(mem.buf + 0x540, &c64, 8);
    memcpy(mem.buf + 0x580, &d, 8);
    wave(&w, isa, code, n);
    const float quarter = 0.25f;
    const double eighth = 0.125;
    for (unsigned l = 0; l < lanes; l++) {
        vgpr[0][l] = (uint32_t)b, vgpr[1][l] = (uint32_t)(b >> 32);
        vgpr[3][l] = l + 1;
        vgpr[6][l] = 1000 + l, vgpr[7][l] = 7;
        memcpy(&vgpr[8][l], &quarter, 4);
        vgpr[12][l] = 1, vgpr[13][l] = 0;
        vgpr[16][l] = l, vgpr[17][l] = 0xAB, vgpr[18][l] = (uint32_t)c64, vgpr[19][l] = (uint32_t)(c64 >> 32);
        uint64_t e;
        memcpy(&e, &eighth, 8);
        vgpr[20][l] = (uint32_t)e, vgpr[21][l] = (uint32_t)(e >> 32);
    }
    w.exec = (lanes == 64 ? ~0ull : 0xFFFFFFFFull) >> 1; /* the last lane off */
    if (run(&w))
        return fails++, (void)0;
    uint32_t got32;
    uint64_t got64;
    float gf;
    double gd;
    memcpy(&got32, mem.buf + 0x400, 4);
    CHECK(got32 == 100 + on * (on + 1) / 2, "add: %u", got32);
    for (unsigned l = 0; l < lanes; l++) {
        const uint32_t want = l == on ? 0 : 100 + l * (l + 1) / 2;
        CHECK(vgpr[2][l] == want, "add returned %u to lane %u, want %u", vgpr[2][l], l, want);
        CHECK(vgpr[4][l] == (l == on ? 0 : l ? 1000 : 7), "cmpswap returned %u to lane %u", vgpr[4][l], l);
        CHECK(vgpr[5][l] == (l == on ? 0 : l ? 1000 : 7), "flat cmpswap returned %u to lane %u", vgpr[5][l], l);
        const uint64_t r = (uint64_t)vgpr[11][l] << 32 | vgpr[10][l], r2 = (uint64_t)vgpr[15][l] << 32 | vgpr[14][l];
        CHECK(r == (l == on ? 0 : u64 + l), "add_x2 returned 0x%llx to lane %u", (unsigned long long)r, l);
        CHECK(r2 == (l == on ? 0 : l ? 0xAB00000000ull : c64), "cmpswap_x2 returned 0x%llx to lane %u",
              (unsigned long long)r2, l);
    }
    memcpy(&got32, mem.buf + 0x440, 4);
    CHECK(got32 == 1000, "cmpswap: %u", got32);
    memcpy(&got32, mem.buf + 0x500, 4);
    CHECK(got32 == 1000, "flat cmpswap: %u", got32);
    memcpy(&gf, mem.buf + 0x480, 4);
    CHECK(gf == 0.5f + 0.25f * (float)on, "add_f32: %g", (double)gf);
    memcpy(&got64, mem.buf + 0x4c0, 8);
    CHECK(got64 == u64 + on, "add_x2: 0x%llx", (unsigned long long)got64);
    memcpy(&got64, mem.buf + 0x540, 8);
    CHECK(got64 == 0xAB00000000ull, "cmpswap_x2: 0x%llx", (unsigned long long)got64);
    memcpy(&gd, mem.buf + 0x580, 8);
    CHECK(gd == (isa == EMU_GFX11 ? 1.0 : 1.0 + 0.125 * on), "add_f64: %g", gd);
}

/* Conversions: saturation, NaN, round-to-nearest-even, f16 range ends. */
static const uint8_t k_cvt[] = {
    0x00,0x11,0x02,0x7e, /* v_cvt_i32_f32_e32 v1, v0 */
    0x00,0x0f,0x04,0x7e, /* v_cvt_u32_f32_e32 v2, v0 */
    0x00,0x15,0x06,0x7e, /* v_cvt_f16_f32_e32 v3, v0 */
    0x03,0x17,0x08,0x7e, /* v_cvt_f32_f16_e32 v4, v3 */
    0x00,0x21,0x0c,0x7e, /* v_cvt_f64_f32_e32 v[6:7], v0 */
    0x06,0x1f,0x0a,0x7e, /* v_cvt_f32_f64_e32 v5, v[6:7] */
    0x00,0x0d,0x10,0x7e, /* v_cvt_f32_u32_e32 v8, v0 */
    0x00,0x0b,0x12,0x7e, /* v_cvt_f32_i32_e32 v9, v0 */
    0x00,0x3d,0x14,0x7e, /* v_rndne_f32_e32 v10, v0 */
    0x00,0x69,0x16,0x7e, /* v_frexp_mant_f32_e32 v11, v0 */
    0x00,0x67,0x18,0x7e, /* v_frexp_exp_i32_f32_e32 v12, v0 */
    0x0d,0x00,0x88,0xd2,0x00,0x87,0x01,0x00, /* v_ldexp_f32 v13, v0, -3 */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static void test_cvt(void)
{
    static const struct { float x; uint32_t i32, u32; uint16_t h; } t[] = {
        { NAN, 0, 0, 0x7e00 },
        { 3e9f, 0x7fffffff, 3000000000u, 0x7c00 },
        { -3e9f, 0x80000000u, 0, 0xfc00 },
        { -1.5f, (uint32_t)-1, 0, 0xbe00 },
        { 2.5f, 2, 2, 0x4100 },
        { 65520.0f, 65520, 65520, 0x7c00 },      /* halfway to 2^16: inf */
        { 65519.99f, 65519, 65519, 0x7bff },
        { 1e-8f, 0, 0, 0x0000 },                 /* below half the least subnormal */
        { 3e-8f, 0, 0, 0x0001 },
        { 1.00048828125f, 1, 1, 0x3c00 },        /* 1 + 2^-11: tie, to even */
        { 1.00146484375f, 1, 1, 0x3c02 },        /* 1 + 3*2^-11: tie, to even */
        { 4e9f, 0x7fffffff, 4000000000u, 0x7c00 },
        { 5e9f, 0x7fffffff, 0xffffffffu, 0x7c00 },
        { -0.0f, 0, 0, 0x8000 },
    };
    int n = (int)(sizeof t / sizeof t[0]);
    emu_wave w;
    wave(&w, EMU_GFX9, k_cvt, sizeof k_cvt);
    for (int l = 0; l < n; l++)
        vgpr[0][l] = fu(t[l].x), vgpr[3][l] = 0xdead0000u;
    w.exec = (1ull << n) - 1;
    if (run(&w))
        return fails++, (void)0;
    for (int l = 0; l < n; l++) {
        float x = t[l].x;
        CHECK(vgpr[1][l] == t[l].i32, "cvt_i32(%g) = %08x", (double)x, vgpr[1][l]);
        CHECK(vgpr[2][l] == t[l].u32, "cvt_u32(%g) = %08x", (double)x, vgpr[2][l]);
        if (isnan(x))
            CHECK((vgpr[3][l] & 0x7c00) == 0x7c00 && (vgpr[3][l] & 0x3ff) && vgpr[3][l] <= 0xffff,
                  "cvt_f16(NaN) = %08x", vgpr[3][l]);
        else
            CHECK(vgpr[3][l] == t[l].h, "cvt_f16(%a) = %08x want %04x (high half zeroed)", (double)x, vgpr[3][l], t[l].h);
        CHECK(isnan(x) ? isnan(uf(vgpr[5][l])) : vgpr[5][l] == fu(x), "f32->f64->f32 %g", (double)x);
        CHECK(vgpr[8][l] == fu((float)fu(x)), "cvt_f32_u32(%08x) = %a", fu(x), (double)uf(vgpr[8][l]));
        CHECK(vgpr[9][l] == fu((float)(int32_t)fu(x)), "cvt_f32_i32(%08x)", fu(x));
        if (!isnan(x)) {
            CHECK(vgpr[10][l] == fu(nearbyintf(x)), "rndne(%g) = %g", (double)x, (double)uf(vgpr[10][l]));
            int e;
            float m = frexpf(x, &e);
            CHECK(vgpr[11][l] == fu(m) && (int32_t)vgpr[12][l] == e, "frexp(%g)", (double)x);
            CHECK(vgpr[13][l] == fu(ldexpf(x, -3)), "ldexp(%g, -3)", (double)x);
        }
    }
    /* f16 -> f32 widening of what came out */
    CHECK(vgpr[4][4] == fu(2.5f), "cvt_f32_f16(0x4100)");
    CHECK(vgpr[4][8] == fu(0x1p-24f), "cvt_f32_f16(subnormal 1)");
    CHECK(vgpr[4][5] == fu(INFINITY), "cvt_f32_f16(inf)");
}

/* ex_h2f and ex_d2h (bit arithmetic) on every f16: each finite value
 * widens exactly (m * 2^(e-25), from the definition) and narrows back to
 * itself; each midpoint between neighbours rounds to the even one, and a
 * double a hair above or below it to the nearer one. */
static void test_f16_exhaustive(void)
{
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000 && bad < 8; h++) {
        const unsigned e = (h >> 10) & 31, m = h & 1023;
        const float v = ex_h2f((uint16_t)h);
        if (e == 31) {
            const int ok = m ? isnan(v) : isinf(v);
            CHECK(ok, "h2f(%04x) = %a", h, (double)v);
            bad += !ok;
            continue;
        }
        double want = e ? ldexp((double)(m | 1024), (int)e - 25) : ldexp((double)m, -24);
        if (h >> 15)
            want = -want;
        const int ok = fu(v) == fu((float)want) && ex_d2h(v) == (uint16_t)h;
        CHECK(ok, "h2f(%04x) = %a want %a, back %04x", h, (double)v, want, ex_d2h(v));
        bad += !ok;
        if ((h & 0x7fff) == 0x7bff) /* 65504: next is inf (the 65520 tie is test_cvt's) */
            continue;
        const double next = (double)ex_h2f((uint16_t)(h + 1)), mid = ((double)v + next) / 2;
        const uint16_t even = (h & 1) ? (uint16_t)(h + 1) : (uint16_t)h;
        const int rok = ex_d2h(mid) == even && ex_d2h(nextafter(mid, 2 * next)) == (uint16_t)(h + 1) &&
                        ex_d2h(nextafter(mid, (double)v)) == (uint16_t)h;
        CHECK(rok, "d2h around the midpoint of %04x and %04x", h, h + 1);
        bad += !rok;
    }
}

/* v_cmp_class (VOP3 into an SGPR pair and VOPC into VCC), v_cndmask with
 * a mask operand, ordered/unordered float compares with NaN. */
static const uint8_t k_class[] = {
    0x04,0x00,0x10,0xd0,0x00,0x03,0x02,0x00, /* v_cmp_class_f32_e64 s[4:5], v0, v1 */
    0x00,0x03,0x20,0x7c, /* v_cmp_class_f32_e32 vcc, v0, v1 */
    0x02,0x00,0x00,0xd1,0x80,0x02,0x11,0x00, /* v_cndmask_b32_e64 v2, 0, 1, s[4:5] */
    0x00,0x07,0x82,0x7c, /* v_cmp_lt_f32_e32 vcc, v0, v3 */
    0x06,0x00,0x49,0xd0,0x00,0x07,0x02,0x00, /* v_cmp_nge_f32_e64 s[6:7], v0, v3 */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static void test_class(void)
{
    static const uint32_t vals[10] = { 0xff800000u, 0xbf800000u, 0x80011111u, 0x80000000u, 0,
                                       0x00011111u, 0x3f800000u, 0x7f800000u, 0x7fc00000u, 0x7f800001u };
    static const int cls[10] = { 2, 3, 4, 5, 6, 7, 8, 9, 1, 0 };
    emu_wave w;
    wave(&w, EMU_GFX9, k_class, sizeof k_class);
    for (int l = 0; l < 64; l++) {
        int k = l % 10;
        vgpr[0][l] = l < 20 ? vals[k] : 0;
        vgpr[1][l] = l < 10 ? 1u << cls[k] : l < 20 ? ~(1u << cls[k]) : 0;
        vgpr[3][l] = fu(0.5f);
    }
    if (run(&w))
        return fails++, (void)0;
    uint64_t s45 = (uint64_t)w.sgpr[5] << 32 | w.sgpr[4], s67 = (uint64_t)w.sgpr[7] << 32 | w.sgpr[6];
    CHECK(s45 == 0x3ff, "class mask %016llx want 0x3ff", (unsigned long long)s45);
    uint64_t lt = 0, nge = 0;
    for (int l = 0; l < 64; l++) {
        CHECK(vgpr[2][l] == (l < 10), "cndmask lane %d = %u", l, vgpr[2][l]);
        float x = uf(vgpr[0][l]);
        lt |= (uint64_t)(x < 0.5f) << l;
        nge |= (uint64_t)!(x >= 0.5f) << l;
    }
    CHECK(w.vcc == lt, "v_cmp_lt vcc %016llx want %016llx", (unsigned long long)w.vcc, (unsigned long long)lt);
    CHECK(s67 == nge, "v_cmp_nge %016llx want %016llx", (unsigned long long)s67, (unsigned long long)nge);
}

/* EXEC: saveexec/restore around a masked write; v_cmpx writes EXEC and
 * (gfx9) VCC. */
static const uint8_t k_exec[] = {
    0x85,0x00,0x98,0x7d, /* v_cmp_gt_u32_e32 vcc, 5, v0 */
    0x6a,0x20,0x86,0xbe, /* s_and_saveexec_b64 s[6:7], vcc */
    0xaa,0x02,0x02,0x7e, /* v_mov_b32_e32 v1, 42 */
    0x7e,0x06,0xfe,0x87, /* s_or_b64 exec, exec, s[6:7] */
    0xbc,0x00,0xb2,0x7d, /* v_cmpx_lt_u32_e32 vcc, 60, v0 */
    0x87,0x02,0x04,0x7e, /* v_mov_b32_e32 v2, 7 */
    0xc1,0x01,0xfe,0xbe, /* s_mov_b64 exec, -1 */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static void test_exec(void)
{
    emu_wave w;
    wave(&w, EMU_GFX9, k_exec, sizeof k_exec);
    for (int l = 0; l < 64; l++)
        vgpr[0][l] = (uint32_t)l, vgpr[1][l] = 0xdead, vgpr[2][l] = 0xbeef;
    if (run(&w))
        return fails++, (void)0;
    for (int l = 0; l < 64; l++) {
        CHECK(vgpr[1][l] == (l < 5 ? 42u : 0xdeadu), "v1 lane %d", l);
        CHECK(vgpr[2][l] == (l > 60 ? 7u : 0xbeefu), "v2 lane %d", l);
    }
    CHECK(w.sgpr[6] == 0xffffffffu && w.sgpr[7] == 0xffffffffu, "saved exec");
    CHECK(w.vcc == 0xE000000000000000ull, "vcc after v_cmpx %016llx", (unsigned long long)w.vcc);
    CHECK(w.exec == ~0ull, "exec restored");
}

/* Scalar loads, global load/store with saddr, SDWA dst_sel WORD_1 with
 * UNUSED_PRESERVE, SCC carry into s_addc, s_cbranch_scc1. */
static const uint8_t k_mem9[] = {
    0x80,0x00,0x06,0xc0,0x00,0x00,0x00,0x00, /* s_load_dwordx2 s[2:3], s[0:1], 0x0 */
    0x00,0x01,0x02,0xc0,0x08,0x00,0x00,0x00, /* s_load_dword s4, s[0:1], 0x8 */
    0x7f,0xc0,0x8c,0xbf, /* s_waitcnt lgkmcnt(0) */
    0x82,0x00,0x04,0x24, /* v_lshlrev_b32_e32 v2, 2, v0 */
    0x00,0x80,0x50,0xdc,0x02,0x00,0x02,0x03, /* global_load_dword v3, v2, s[2:3] */
    0x70,0x0f,0x8c,0xbf, /* s_waitcnt vmcnt(0) */
    0x04,0x06,0x06,0x68, /* v_add_u32_e32 v3, s4, v3 */
    0xf9,0x06,0x06,0x28,0x03,0x15,0x00,0x06, /* v_or_b32_sdwa v3, v3, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:DWORD */
    0x00,0x81,0x70,0xdc,0x02,0x03,0x02,0x00, /* global_store_dword v2, v3, s[2:3] offset:256 */
    0x04,0xc1,0x08,0x80, /* s_add_u32 s8, s4, -1 */
    0x80,0x80,0x09,0x82, /* s_addc_u32 s9, 0, 0 */
    0x09,0x81,0x06,0xbf, /* s_cmp_eq_u32 s9, 1 */
    0x01,0x00,0x85,0xbf, /* s_cbranch_scc1 1 */
    0x85,0x00,0x8a,0xbe, /* s_mov_b32 s10, 5 */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static void test_mem9(void)
{
    emu_wave w;
    memset(&mem, 0, sizeof mem);
    mem.base = 0x100000000ull;
    uint64_t data = mem.base + 0x400;
    uint32_t k = 1000;
    memcpy(mem.buf, &data, 8);
    memcpy(mem.buf + 8, &k, 4);
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t d = i * 0x01010203u;
        memcpy(mem.buf + 0x400 + 4 * i, &d, 4);
    }
    wave(&w, EMU_GFX9, k_mem9, sizeof k_mem9);
    w.sgpr[0] = (uint32_t)mem.base, w.sgpr[1] = (uint32_t)(mem.base >> 32);
    for (int l = 0; l < 64; l++)
        vgpr[0][l] = (uint32_t)l;
    w.exec = ~0ull >> 1; /* lane 63 off: its store must not happen */
    if (run(&w))
        return fails++, (void)0;
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t v = i * 0x01010203u + 1000, r = (v & 0xFF) | v, want = (v & 0xFFFF) | (r & 0xFFFF) << 16, got;
        memcpy(&got, mem.buf + 0x500 + 4 * i, 4);
        CHECK(got == (i == 63 ? 0 : want), "lane %u stored %08x want %08x", i, got, want);
    }
    CHECK(w.sgpr[8] == 999 && w.sgpr[9] == 1, "s_add_u32/s_addc_u32 carry: %u %u", w.sgpr[8], w.sgpr[9]);
    CHECK(w.sgpr[10] == 0, "s_cbranch_scc1 not taken");
}

/* gfx11 wave32: vcc_lo, exec_lo, VOP3b carry into one SGPR, null sdst,
 * v_cmpx writing EXEC only, true16 high-half write, VOPD. */
static const uint8_t k_w32[] = {
    0x83,0x00,0x98,0x7c, /* v_cmp_gt_u32_e32 vcc_lo, 3, v0 */
    0x01,0x00,0x01,0xd5,0x8a,0x28,0xa9,0x01, /* v_cndmask_b32_e64 v1, 10, 20, vcc_lo */
    0x6a,0x20,0x86,0xbe, /* s_and_saveexec_b32 s6, vcc_lo */
    0x02,0x07,0x00,0xd7,0x00,0x85,0x01,0x00, /* v_add_co_u32 v2, s7, v0, -2 */
    0x03,0x7c,0x20,0xd5,0x80,0x00,0x1d,0x00, /* v_add_co_ci_u32_e64 v3, null, 0, 0, s7 */
    0x7e,0x06,0x7e,0x8c, /* s_or_b32 exec_lo, exec_lo, s6 */
    0x81,0x00,0x9a,0x7d, /* v_cmpx_ne_u32_e32 1, v0 */
    0xff,0x38,0x08,0x7f,0x34,0x12,0x00,0x00, /* v_mov_b16_e32 v4.h, 0x1234 */
    0x00,0x01,0x20,0xca,0x81,0x00,0x06,0x05, /* v_dual_mov_b32 v5, v0 :: v_dual_add_nc_u32 v6, 1, v0 */
    0xc1,0x00,0xfe,0xbe, /* s_mov_b32 exec_lo, -1 */
    0x00,0x00,0xb0,0xbf, /* s_endpgm */
};

static void test_wave32(void)
{
    emu_wave w;
    wave(&w, EMU_GFX11, k_w32, sizeof k_w32);
    for (int l = 0; l < 64; l++)
        vgpr[0][l] = (uint32_t)l, vgpr[3][l] = 0xdead, vgpr[4][l] = 0xaaaa5555u, vgpr[5][l] = vgpr[6][l] = 0;
    if (run(&w))
        return fails++, (void)0;
    for (int l = 0; l < 32; l++) {
        CHECK(vgpr[1][l] == (l < 3 ? 20u : 10u), "cndmask lane %d", l);
        CHECK(vgpr[3][l] == (l < 2 ? 0u : l == 2 ? 1u : 0xdeadu), "carry lane %d = %x", l, vgpr[3][l]);
        if (l < 3)
            CHECK(vgpr[2][l] == (uint32_t)l - 2u, "v2 lane %d", l);
        CHECK(vgpr[4][l] == (l == 1 ? 0xaaaa5555u : 0x12345555u), "v_mov_b16 .h lane %d = %08x", l, vgpr[4][l]);
        CHECK(vgpr[5][l] == (l == 1 ? 0u : (uint32_t)l) && vgpr[6][l] == (l == 1 ? 0u : (uint32_t)l + 1), "VOPD lane %d", l);
    }
    CHECK(vgpr[1][40] == 0, "lane 40 of a wave32 untouched");
    CHECK(w.sgpr[7] == 4, "carry-out sgpr %x", w.sgpr[7]);
    CHECK(w.sgpr[6] == 0xffffffffu, "saved exec_lo");
    CHECK(w.vcc == 7, "vcc_lo after v_cmpx (unchanged on gfx11): %llx", (unsigned long long)w.vcc);
    CHECK(w.exec == 0xffffffffull, "exec_lo = -1 keeps the high half 0: %llx", (unsigned long long)w.exec);
}

/* v_mul_hi_i32_i24: the high 32 bits of the signed 48-bit product of the
 * operands' low 24 bits (clang uses it for index math of the spaced
 * walk; encodings from llvm-mc-22). */
static const uint8_t k_mulhi24_11[] = {
    0x01,0x07,0x04,0x14, /* v_mul_hi_i32_i24_e32 v2, v1, v3 */
    0xcc,0x06,0x08,0x14, /* v_mul_hi_i32_i24_e32 v4, -12, v3 */
    0x00,0x00,0xb0,0xbf, /* s_endpgm */
};
static const uint8_t k_mulhi24_9[] = {
    0x01,0x07,0x04,0x0e, /* v_mul_hi_i32_i24_e32 v2, v1, v3 */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static void test_mulhi24(void)
{
    static const uint32_t a[] = {0x7fffff, 0x800000, 0xff800000u, 0x123456, 0xabcdef, 0, 0xffffff, 0x01000001};
    static const uint32_t b[] = {0x7fffff, 0x7fffff, 0x800000, 0xfedcba, 0x345678, 0x7fffff, 0xffffff, 0x00ffffff};
    for (int isa = 0; isa < 2; isa++) {
        emu_wave w;
        if (isa) wave(&w, EMU_GFX11, k_mulhi24_11, sizeof k_mulhi24_11);
        else wave(&w, EMU_GFX9, k_mulhi24_9, sizeof k_mulhi24_9);
        for (int l = 0; l < 64; l++) vgpr[1][l] = a[l % 8], vgpr[3][l] = b[l % 8];
        if (run(&w))
            return fails++, (void)0;
        for (int l = 0; l < (isa ? 32 : 64); l++) {
            const int64_t x = (int32_t)(a[l % 8] << 8) >> 8, y = (int32_t)(b[l % 8] << 8) >> 8;
            CHECK(vgpr[2][l] == (uint32_t)((uint64_t)(x * y) >> 32), "mul_hi_i32_i24 lane %d: %08x", l, vgpr[2][l]);
            if (isa) CHECK(vgpr[4][l] == (uint32_t)((uint64_t)(-12 * y) >> 32), "mul_hi_i32_i24 -12 lane %d", l);
        }
    }
}

/* Clocks (softmax_wide's stagger, kernels/crk_port.h clock_ticks): gfx9
 * s_memrealtime/s_memtime and gfx11 s_sendmsg_rtn_b64 REALTIME read the
 * wave's count of instructions, 64 bits, which moves forward between two
 * reads (a spin on it ends). Encodings from llvm-mc-22. */
static const uint8_t k_clock9[] = {
    0x80,0x00,0x94,0xc0,0x00,0x00,0x00,0x00, /* s_memrealtime s[2:3] */
    0x00,0x00,0x80,0xbf, /* s_nop 0 */
    0x00,0x01,0x94,0xc0,0x00,0x00,0x00,0x00, /* s_memrealtime s[4:5] */
    0x80,0x01,0x90,0xc0,0x00,0x00,0x00,0x00, /* s_memtime s[6:7] */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};
static const uint8_t k_clock11[] = {
    0x83,0x4d,0x82,0xbe, /* s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_REALTIME) */
    0x00,0x00,0x80,0xbf, /* s_nop 0 */
    0x83,0x4d,0x84,0xbe, /* s_sendmsg_rtn_b64 s[4:5], sendmsg(MSG_RTN_GET_REALTIME) */
    0x00,0x00,0xb0,0xbf, /* s_endpgm */
};

static void test_clock(void)
{
    for (int isa = 0; isa < 2; isa++) {
        emu_wave w;
        if (isa) wave(&w, EMU_GFX11, k_clock11, sizeof k_clock11);
        else wave(&w, EMU_GFX9, k_clock9, sizeof k_clock9);
        w.ninst = 0xFFFFFFFFull; /* the next reads cross 2^32: both halves written */
        for (int r = 2; r < 8; r++) w.sgpr[r] = 0xdeadbeefu;
        if (run(&w))
            return fails++, (void)0;
        const uint64_t a = (uint64_t)w.sgpr[3] << 32 | w.sgpr[2], b = (uint64_t)w.sgpr[5] << 32 | w.sgpr[4];
        CHECK(a == 0xFFFFFFFFull && b == a + 2, "%s clock reads %llx then %llx", isa ? "gfx11" : "gfx9",
              (unsigned long long)a, (unsigned long long)b);
        if (!isa) CHECK(((uint64_t)w.sgpr[7] << 32 | w.sgpr[6]) == a + 3, "gfx9 s_memtime");
    }
}

/* gfx11 memory: s_load_b64, global load/store with saddr + offset, d16_hi. */
static const uint8_t k_mem11[] = {
    0x80,0x00,0x04,0xf4,0x00,0x00,0x00,0xf8, /* s_load_b64 s[2:3], s[0:1], 0x0 */
    0x07,0xfc,0x89,0xbf, /* s_waitcnt lgkmcnt(0) */
    0x82,0x00,0x04,0x30, /* v_lshlrev_b32_e32 v2, 2, v0 */
    0x00,0x00,0x52,0xdc,0x02,0x00,0x02,0x03, /* global_load_b32 v3, v2, s[2:3] */
    0xf7,0x03,0x89,0xbf, /* s_waitcnt vmcnt(0) */
    0xff,0x06,0x06,0x4a,0x64,0x00,0x00,0x00, /* v_add_nc_u32_e32 v3, 0x64, v3 */
    0x80,0x00,0x6a,0xdc,0x02,0x03,0x02,0x00, /* global_store_b32 v2, v3, s[2:3] offset:128 */
    0x00,0x00,0x8e,0xdc,0x02,0x00,0x02,0x03, /* global_load_d16_hi_b16 v3, v2, s[2:3] */
    0xf7,0x03,0x89,0xbf, /* s_waitcnt vmcnt(0) */
    0x00,0x01,0x6a,0xdc,0x02,0x03,0x02,0x00, /* global_store_b32 v2, v3, s[2:3] offset:256 */
    0x00,0x00,0xb0,0xbf, /* s_endpgm */
};

static void test_mem11(void)
{
    emu_wave w;
    memset(&mem, 0, sizeof mem);
    mem.base = 0x7f0000000000ull;
    uint64_t data = mem.base + 0x400;
    memcpy(mem.buf, &data, 8);
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t d = 0x10000u * i + 7 * i + 1;
        memcpy(mem.buf + 0x400 + 4 * i, &d, 4);
    }
    wave(&w, EMU_GFX11, k_mem11, sizeof k_mem11);
    w.sgpr[0] = (uint32_t)mem.base, w.sgpr[1] = (uint32_t)(mem.base >> 32);
    for (int l = 0; l < 32; l++)
        vgpr[0][l] = (uint32_t)l;
    if (run(&w))
        return fails++, (void)0;
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t d = 0x10000u * i + 7 * i + 1, a, b;
        memcpy(&a, mem.buf + 0x480 + 4 * i, 4);
        memcpy(&b, mem.buf + 0x500 + 4 * i, 4);
        CHECK(a == d + 100, "lane %u: %08x", i, a);
        CHECK(b == (((d + 100) & 0xFFFF) | (d & 0xFFFF) << 16), "d16_hi lane %u: %08x", i, b);
    }
}


/* VOP3P: packed f32 with op_sel/op_sel_hi/neg, pk_mov, mix FMAs; v_perm,
 * SDWA word select, packed u16, trig_preop, alignbit. */
static const uint8_t k_pk[] = {
    0x04,0x01,0xb0,0xd3,0x00,0x05,0xca,0x3b, /* v_pk_fma_f32 v[4:5], v[0:1], v[2:3], 1.0 op_sel_hi:[1,1,0] neg_lo:[1,0,0] neg_hi:[1,0,0] */
    0x06,0x48,0xb2,0xd3,0x00,0x05,0x02,0x10, /* v_pk_add_f32 v[6:7], v[0:1], v[2:3] op_sel:[1,0] op_sel_hi:[0,1] */
    0x08,0x48,0xb3,0xd3,0x00,0x05,0x02,0x18, /* v_pk_mov_b32 v[8:9], v[0:1], v[2:3] op_sel:[1,0] */
    0x0a,0x00,0xa1,0xd3,0x00,0x03,0x02,0x12, /* v_fma_mixlo_f16 v10, v0, v1, 0 op_sel_hi:[0,1,0] */
    0x0b,0x10,0xa0,0xd3,0x00,0x03,0x0a,0x94, /* v_fma_mix_f32 v11, v0, v1, -v2 op_sel:[0,1,0] op_sel_hi:[0,1,0] */
    0x0c,0x00,0xed,0xd1,0x00,0x03,0x52,0x04, /* v_perm_b32 v12, v0, v1, v20 */
    0xf9,0x16,0x1a,0x7e,0x01,0x06,0x05,0x00, /* v_cvt_f32_f16_sdwa v13, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 */
    0x0e,0x40,0x81,0xd3,0x01,0x07,0x02,0x18, /* v_pk_mul_lo_u16 v14, v1, v3 */
    0x10,0x00,0x92,0xd2,0x12,0x03,0x01,0x00, /* v_trig_preop_f64 v[16:17], v[18:19], 1 */
    0x0f,0x00,0xce,0xd1,0x00,0x03,0x12,0x02, /* v_alignbit_b32 v15, v0, v1, 4 */
    0x18,0x40,0xa8,0xd3,0x1c,0x3b,0x7a,0x1c, /* v_dot4_i32_i8 v24, v28, v29, v30 */
    0x19,0xc0,0xa8,0xd3,0x1c,0x3b,0x7a,0x1c, /* v_dot4_i32_i8 v25, v28, v29, v30 clamp */
    0x1a,0x40,0xa9,0xd3,0x1c,0x3b,0x7a,0x1c, /* v_dot4_u32_u8 v26, v28, v29, v30 */
    0x1c,0x3b,0x3e,0x72,                     /* v_dot4c_i32_i8_e32 v31, v28, v29 (v31 += ...) */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};
/* gfx11's one 8-bit dot product, signedness by neg_lo */
static const uint8_t k_dot11[] = {
    0x18,0x40,0x16,0xcc,0x14,0x2b,0x5a,0x7c, /* v_dot4_i32_iu8 v24, v20, v21, v22 neg_lo:[1,1,0] */
    0x19,0x40,0x16,0xcc,0x14,0x2b,0x5a,0x3c, /* v_dot4_i32_iu8 v25, v20, v21, v22 neg_lo:[1,0,0] */
    0x1a,0x40,0x16,0xcc,0x14,0x2b,0x5a,0x1c, /* v_dot4_i32_iu8 v26, v20, v21, v22 */
    0x00,0x00,0xb0,0xbf, /* s_endpgm */
};

/* The byte products of a and b (signed or not) plus c, in 64 bits. */
static int64_t dot4_ref(uint32_t a, uint32_t b, int64_t c, int sa, int sb)
{
    for (int k = 0; k < 4; k++) {
        const int x = (int)((a >> (8 * k)) & 0xFF), y = (int)((b >> (8 * k)) & 0xFF);
        c += (int64_t)(sa && x > 127 ? x - 256 : x) * (sb && y > 127 ? y - 256 : y);
    }
    return c;
}

/* bits k..k+52 (from 1, after the binary point) of 2/pi, from its
 * well-known hex expansion, independent of the emulator's table */
static uint64_t two_over_pi_bits(unsigned k)
{
    static const char hex[] = "A2F9836E4E441529FC2757D1F534DDC0DB6295993C439041FE5163AB";
    uint64_t r = 0;
    for (unsigned j = 0; j < 53; j++) {
        unsigned b = k + j - 1, d = (unsigned)(strchr("0123456789ABCDEF", hex[b / 4]) - "0123456789ABCDEF");
        r = r << 1 | ((d >> (3 - b % 4)) & 1);
    }
    return r;
}

static void test_pk(void)
{
    emu_wave w;
    wave(&w, EMU_GFX9, k_pk, sizeof k_pk);
    uint64_t one = du(1.0);
    for (int l = 0; l < 64; l++) {
        vgpr[0][l] = fu(1.5f), vgpr[1][l] = 0xc0104200u, vgpr[2][l] = fu(3.0f), vgpr[3][l] = fu(0.25f);
        vgpr[10][l] = 0xabcd1234u, vgpr[20][l] = 0x0c050703u;
        vgpr[28][l] = 0x80FF7F05u, vgpr[29][l] = 0x81FE7F03u, vgpr[30][l] = 0x7FFFFF00u, vgpr[31][l] = (uint32_t)(-7 - l);
        vgpr[18][l] = (uint32_t)one, vgpr[19][l] = (uint32_t)(one >> 32);
    }
    if (run(&w))
        return fails++, (void)0;
    float v1 = uf(0xc0104200u);
    int l = 9;
    CHECK(vgpr[4][l] == fu(-1.5f * 3.0f + 1.0f) && vgpr[5][l] == fu(-v1 * 0.25f + 1.0f), "v_pk_fma_f32 %a %a",
          (double)uf(vgpr[4][l]), (double)uf(vgpr[5][l]));
    CHECK(vgpr[6][l] == fu(v1 + 3.0f) && vgpr[7][l] == fu(1.5f + 0.25f), "v_pk_add_f32 op_sel");
    CHECK(vgpr[8][l] == 0xc0104200u && vgpr[9][l] == fu(3.0f), "v_pk_mov_b32 op_sel");
    CHECK(vgpr[10][l] == 0xabcd4480u, "v_fma_mixlo_f16 = %08x", vgpr[10][l]);
    CHECK(vgpr[11][l] == fu(1.5f * -2.03125f - 3.0f), "v_fma_mix_f32 = %a", (double)uf(vgpr[11][l]));
    CHECK(vgpr[12][l] == 0x00003fc0u, "v_perm_b32 = %08x", vgpr[12][l]);
    CHECK(vgpr[13][l] == fu(-2.03125f), "v_cvt_f32_f16_sdwa WORD_1 = %a", (double)uf(vgpr[13][l]));
    CHECK(vgpr[14][l] == (((0xc010u * 0x3e80u) & 0xFFFF) << 16), "v_pk_mul_lo_u16 = %08x", vgpr[14][l]);
    uint64_t tp = (uint64_t)vgpr[17][l] << 32 | vgpr[16][l];
    CHECK(tp == du(ldexp((double)two_over_pi_bits(54), -106)), "v_trig_preop_f64(1.0, 1) = %016llx",
          (unsigned long long)tp);
    CHECK(vgpr[15][l] == (0xc0104200u >> 4 | fu(1.5f) << 28), "v_alignbit_b32");
    /* v28/v29: bytes with the sign bit set and not; v30: near INT32_MAX, so
     * the signed sum wraps (no clamp) or saturates (clamp) */
    const uint32_t a = 0x80FF7F05u, b = 0x81FE7F03u, acc = 0x7FFFFF00u;
    const int64_t ss = dot4_ref(a, b, (int32_t)acc, 1, 1), uu = dot4_ref(a, b, acc, 0, 0);
    CHECK(ss > INT32_MAX, "the test's signed sum overflows");
    CHECK(vgpr[24][l] == (uint32_t)ss, "v_dot4_i32_i8 = %08x", vgpr[24][l]);
    CHECK(vgpr[25][l] == 0x7FFFFFFFu, "v_dot4_i32_i8 clamp = %08x", vgpr[25][l]);
    CHECK(vgpr[26][l] == (uint32_t)uu, "v_dot4_u32_u8 = %08x", vgpr[26][l]);
    CHECK(vgpr[31][l] == (uint32_t)dot4_ref(a, b, -7 - l, 1, 1), "v_dot4c_i32_i8 = %08x", vgpr[31][l]);
}

static void test_dot11(void)
{
    emu_wave w;
    wave(&w, EMU_GFX11, k_dot11, sizeof k_dot11);
    const uint32_t a = 0x80FF7F05u, b = 0x81FE7F03u;
    for (int l = 0; l < 32; l++)
        vgpr[20][l] = a, vgpr[21][l] = b, vgpr[22][l] = (uint32_t)(-1000 - l);
    if (run(&w))
        return fails++, (void)0;
    for (int l = 0; l < 32; l++) {
        const int64_t c = -1000 - l;
        CHECK(vgpr[24][l] == (uint32_t)dot4_ref(a, b, c, 1, 1), "v_dot4_i32_iu8 signed x signed = %08x", vgpr[24][l]);
        CHECK(vgpr[25][l] == (uint32_t)dot4_ref(a, b, c, 1, 0), "v_dot4_i32_iu8 signed x unsigned = %08x", vgpr[25][l]);
        CHECK(vgpr[26][l] == (uint32_t)dot4_ref(a, b, c, 0, 0), "v_dot4_i32_iu8 unsigned = %08x", vgpr[26][l]);
    }
}

/* gfx11 true16: .h/.l in e32 (VGPR bit 7) and VOP3 (op_sel) forms */
static const uint8_t k_t16[] = {
    0x80,0x03,0x02,0x7c, /* v_cmp_lt_f16_e32 vcc_lo, v0.h, v1.l */
    0x00,0x03,0x05,0x65, /* v_add_f16_e32 v2.h, v0.l, v1.h */
    0x03,0x08,0x8b,0xd5,0x00,0x01,0x00,0x00, /* v_cvt_f32_f16_e64 v3, v0.h op_sel:[1,0] */
    0x04,0x20,0x48,0xd6,0x00,0x03,0x06,0x04, /* v_fma_f16 v4.l, v0.l, v1.l, v1.h op_sel:[0,0,1,0] */
    0x05,0x50,0x5d,0xd6,0x00,0x03,0xaa,0x01, /* v_cndmask_b16 v5.h, v0.l, v1.h, vcc_lo */
    0x07,0x15,0x0c,0x7e, /* v_cvt_f16_f32_e32 v6.l, v7 */
    0x00,0x00,0xb0,0xbf, /* s_endpgm */
};

static void test_t16(void)
{
    emu_wave w;
    wave(&w, EMU_GFX11, k_t16, sizeof k_t16);
    for (int l = 0; l < 32; l++) {
        vgpr[0][l] = (l < 16 ? 0x3e00u : 0x3400u) << 16 | 0x4000u; /* .h 1.5 or 0.25, .l 2.0 */
        vgpr[1][l] = 0xbc003800u;                                  /* .h -1.0, .l 0.5 */
        vgpr[2][l] = 0x11112222u, vgpr[4][l] = 0x33334444u, vgpr[5][l] = 0x55556666u;
        vgpr[6][l] = 0x77778888u, vgpr[7][l] = fu(1.0f / 3.0f);
    }
    if (run(&w))
        return fails++, (void)0;
    CHECK(w.vcc == 0xffff0000u, "v_cmp_lt_f16 .h/.l vcc %llx", (unsigned long long)w.vcc);
    for (int l = 0; l < 32; l++) {
        CHECK(vgpr[2][l] == 0x3c002222u, "v_add_f16 .h lane %d = %08x", l, vgpr[2][l]);
        CHECK(vgpr[3][l] == fu(l < 16 ? 1.5f : 0.25f), "v_cvt_f32_f16 .h lane %d", l);
        CHECK(vgpr[4][l] == 0x33330000u, "v_fma_f16 lane %d = %08x", l, vgpr[4][l]);
        CHECK(vgpr[5][l] == ((l < 16 ? 0x4000u : 0xbc00u) << 16 | 0x6666u), "v_cndmask_b16 lane %d = %08x", l,
              vgpr[5][l]);
        CHECK(vgpr[6][l] == 0x77773555u, "v_cvt_f16_f32 .l lane %d = %08x", l, vgpr[6][l]);
    }
}

/* LDS: write/read at offsets, across lanes after a barrier, 2-address
 * forms; lane reads and writes. */
static const uint8_t k_ds[] = {
    0x82,0x00,0x02,0x24, /* v_lshlrev_b32_e32 v1, 2, v0 */
    0x10,0x00,0x1a,0xd8,0x01,0x00,0x00,0x00, /* ds_write_b32 v1, v0 offset:16 */
    0x00,0x00,0x8a,0xbf, /* s_barrier */
    0x14,0x00,0x6c,0xd8,0x01,0x00,0x00,0x02, /* ds_read_b32 v2, v1 offset:20 */
    0x40,0x80,0x1c,0xd8,0x01,0x00,0x00,0x00, /* ds_write2_b32 v1, v0, v0 offset0:64 offset1:128 */
    0x40,0x80,0x6e,0xd8,0x01,0x00,0x00,0x04, /* ds_read2_b32 v[4:5], v1 offset0:64 offset1:128 */
    0x02,0x00,0x89,0xd2,0x00,0x0b,0x01,0x00, /* v_readlane_b32 s2, v0, 5 */
    0x00,0x05,0x06,0x7e, /* v_readfirstlane_b32 s3, v0 */
    0x06,0x00,0x8a,0xd2,0x02,0x0e,0x01,0x00, /* v_writelane_b32 v6, s2, 7 */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static void test_ds(void)
{
    static uint8_t lds[4096];
    emu_wave w;
    char err[300];
    memset(lds, 0, sizeof lds);
    wave(&w, EMU_GFX9, k_ds, sizeof k_ds);
    w.lds = lds, w.lds_size = sizeof lds;
    for (int l = 0; l < 64; l++)
        vgpr[0][l] = (uint32_t)l;
    int barrier = 0;
    for (int i = 0; i < 100; i++) {
        emu_step_result r = emu_step(&w, err, sizeof err);
        barrier += r == EMU_STEP_BARRIER;
        if (r == EMU_STEP_END)
            break;
        if (r == EMU_STEP_ERROR) {
            CHECK(0, "%s", err);
            return;
        }
    }
    CHECK(barrier == 1, "s_barrier returned EMU_STEP_BARRIER");
    for (int l = 0; l < 64; l++) {
        CHECK(vgpr[2][l] == (l < 63 ? (uint32_t)l + 1 : 0), "ds_read_b32 lane %d = %u", l, vgpr[2][l]);
        CHECK(vgpr[4][l] == (uint32_t)l && vgpr[5][l] == (uint32_t)l, "ds_read2_b32 lane %d", l);
        CHECK(vgpr[6][l] == (l == 7 ? 5u : 0u), "v_writelane lane %d", l);
    }
    CHECK(w.sgpr[2] == 5 && w.sgpr[3] == 0, "readlane/readfirstlane %u %u", w.sgpr[2], w.sgpr[3]);
    /* out of the LDS: an error, not a silent wrap */
    wave(&w, EMU_GFX9, k_ds, sizeof k_ds);
    w.lds = lds, w.lds_size = 64;
    for (int l = 0; l < 64; l++)
        vgpr[0][l] = (uint32_t)l;
    emu_step(&w, err, sizeof err);
    CHECK(emu_step(&w, err, sizeof err) == EMU_STEP_ERROR && strstr(err, "LDS"), "LDS bounds: %s", err);
}

/* gfx11's 2-address LDS forms (ds_store_2addr_b32 / ds_load_2addr_b32:
 * gfx9's write2/read2; MMVQ's group sums load this way) */
static const uint8_t k_ds11[] = {
    0x82,0x00,0x02,0x30, /* v_lshlrev_b32_e32 v1, 2, v0 */
    0x40,0x80,0x38,0xd8,0x01,0x00,0x00,0x00, /* ds_store_2addr_b32 v1, v0, v0 offset0:64 offset1:128 */
    0x40,0x80,0xdc,0xd8,0x01,0x00,0x00,0x04, /* ds_load_2addr_b32 v[4:5], v1 offset0:64 offset1:128 */
    0x00,0x00,0xb0,0xbf, /* s_endpgm */
};

static void test_ds11(void)
{
    static uint8_t lds[4096];
    emu_wave w;
    memset(lds, 0, sizeof lds);
    wave(&w, EMU_GFX11, k_ds11, sizeof k_ds11);
    w.lds = lds, w.lds_size = sizeof lds;
    for (int l = 0; l < 32; l++)
        vgpr[0][l] = (uint32_t)l + 100, vgpr[4][l] = vgpr[5][l] = 0;
    if (run(&w))
        return fails++, (void)0;
    for (int l = 0; l < 32; l++) {
        uint32_t at256, at512;
        memcpy(&at256, lds + 4 * (l + 100) + 256, 4), memcpy(&at512, lds + 4 * (l + 100) + 512, 4);
        CHECK(at256 == (uint32_t)l + 100 && at512 == (uint32_t)l + 100, "ds_store_2addr_b32 lane %d", l);
        CHECK(vgpr[4][l] == (uint32_t)l + 100 && vgpr[5][l] == (uint32_t)l + 100, "ds_load_2addr_b32 lane %d", l);
    }
}

/* v_swap_b32 exchanges two VGPRs in the active lanes only (gfx9 VOP1). */
static const uint8_t k_swap[] = {
    0x0d,0xa3,0x18,0x7e, /* v_swap_b32 v12, v13 */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static void test_swap(void)
{
    emu_wave w;
    char err[300];
    wave(&w, EMU_GFX9, k_swap, sizeof k_swap);
    w.exec = 0x00000000FFFFFFFFull;
    for (int l = 0; l < 64; l++)
        vgpr[12][l] = (uint32_t)l, vgpr[13][l] = 1000u + (uint32_t)l;
    for (int i = 0; i < 4 && emu_step(&w, err, sizeof err) == EMU_STEP_OK; i++) {}
    for (int l = 0; l < 64; l++)
        CHECK(vgpr[12][l] == (l < 32 ? 1000u + (uint32_t)l : (uint32_t)l) &&
              vgpr[13][l] == (l < 32 ? (uint32_t)l : 1000u + (uint32_t)l), "v_swap_b32 lane %d: %u %u", l,
              vgpr[12][l], vgpr[13][l]);
}

/* v_{min,max,med}3 of signed and unsigned 32- and 16-bit values and
 * v_xad_u32 (gfx9 VOP3: clang forms them from unrolled reductions and
 * counted loops): v3.. = op(v0, v1, v2), on values of both signs. */
static const uint16_t K3_OPS[12] = {465, 466, 468, 469, 471, 472, 501, 502, 504, 505, 507, 508};
enum { XAD_U32 = 499 }; /* v_xad_u32: (a ^ b) + c, wrapping (clang's loop-count arithmetic) */

static int64_t sel3(int k, int64_t a, int64_t b, int64_t c)
{
    const int64_t lo = a < b ? (a < c ? a : c) : (b < c ? b : c), hi = a > b ? (a > c ? a : c) : (b > c ? b : c);
    return k % 3 == 0 ? lo : k % 3 == 1 ? hi : a + b + c - lo - hi;
}

static void test_minmax3(void)
{
    uint8_t code[13 * 8 + 4];
    for (int i = 0; i < 13; i++) { /* VOP3 op, vdst v(3+i); src0..2 = v0, v1, v2 (256 + n) */
        const uint32_t d0 = 0xD0000000u | (uint32_t)(i < 12 ? K3_OPS[i] : XAD_U32) << 16 | (uint32_t)(3 + i);
        const uint32_t d1 = 256u | 257u << 9 | 258u << 18;
        memcpy(code + 8 * i, &d0, 4), memcpy(code + 8 * i + 4, &d1, 4);
    }
    const uint8_t endpgm[4] = {0x00, 0x00, 0x81, 0xbf};
    memcpy(code + 104, endpgm, 4);
    emu_wave w;
    wave(&w, EMU_GFX9, code, sizeof code);
    for (int l = 0; l < 64; l++) /* both signs, equal pairs, the 16-bit sign bit */
        vgpr[0][l] = (uint32_t)(l * 7919 - 200000), vgpr[1][l] = (uint32_t)(l % 5 ? 0x8000 + l : l * 7919 - 200000),
        vgpr[2][l] = (uint32_t)(l * 31 - 1000);
    CHECK(run(&w) == 0, "min3/max3/med3/xad ran");
    for (int l = 0; l < 64; l++)
        CHECK(vgpr[15][l] == (vgpr[0][l] ^ vgpr[1][l]) + vgpr[2][l], "v_xad_u32 lane %d: %08x", l, vgpr[15][l]);
    for (int i = 0; i < 12; i++)
        for (int l = 0; l < 64; l++) {
            const int sixteen = i >= 6, is_signed = i % 2 == 0; /* K3_OPS: min, max, med; i then u */
            int64_t x[3];
            for (int k = 0; k < 3; k++) {
                const uint32_t r = vgpr[k][l];
                x[k] = sixteen ? (is_signed ? (int64_t)(int16_t)r : (int64_t)(uint16_t)r)
                               : (is_signed ? (int64_t)(int32_t)r : (int64_t)r);
            }
            const int64_t a = x[0], b = x[1], c = x[2];
            const uint32_t want = (uint32_t)sel3(i / 2, a, b, c), got = vgpr[3 + i][l];
            CHECK((sixteen ? (got & 0xFFFF) == (want & 0xFFFF) : got == want), "op %u lane %d: %08x, want %08x",
                  K3_OPS[i], l, got, want);
        }
}

/* gfx90a's opcode map, picked from the image's ELF header (e_flags mach
 * 0x3f): VOP2 op 0x17 is v_madmk_f32 there (unfused), v_fmamk_f32 on
 * gfx940+. Operands chosen so fused and unfused results differ. */
static void test_gfx90a(void)
{
    static const uint8_t k_mad[] = {
        0x00,0x03,0x06,0x2e,0x01,0x00,0x80,0x3f, /* v_madmk_f32 v3, v0, 0x3f800001, v1 */
        0x00,0x03,0x08,0x2c, /* v_mac_f32_e32 v4, v0, v1 */
        0x00,0x00,0x81,0xbf, /* s_endpgm */
    };
    static uint8_t img[64 + sizeof k_mad];
    memset(img, 0, 64);
    memcpy(img, "\x7f" "ELF", 4);
    img[4] = 2;     /* ELFCLASS64 */
    img[48] = 0x3f; /* e_flags: EF_AMDGPU_MACH_AMDGCN_GFX90A */
    memcpy(img + 64, k_mad, sizeof k_mad);
    emu_wave w;
    wave(&w, EMU_GFX9, img, sizeof img);
    w.pc = 64;
    for (int l = 0; l < 64; l++)
        vgpr[0][l] = 0x3f800001u, vgpr[1][l] = 0xbf800002u, vgpr[4][l] = 0x3f800002u;
    if (run(&w))
        return fails++, (void)0;
    CHECK(vgpr[3][0] == 0, "v_madmk_f32 (unfused) = %a", (double)uf(vgpr[3][0]));
    CHECK(vgpr[4][0] == fu(-0x1p-23f), "v_mac_f32 (unfused) = %a", (double)uf(vgpr[4][0]));
    /* the same bytes as gfx942 code: v_fmamk_f32, fused */
    memcpy(img + 64 + 8, "\x00\x00\x81\xbf", 4);
    img[48] = 0x4c;
    static uint8_t img2[64 + 12];
    memcpy(img2, img, sizeof img2); /* another code object: its own decode cache */
    wave(&w, EMU_GFX9, img2, sizeof img2);
    w.pc = 64;
    for (int l = 0; l < 64; l++)
        vgpr[0][l] = 0x3f800001u, vgpr[1][l] = 0xbf800002u;
    if (run(&w))
        return fails++, (void)0;
    CHECK(vgpr[3][0] == fu(0x1p-46f), "v_fmamk_f32 (fused) = %a", (double)uf(vgpr[3][0]));
}

/* The decode cache must not serve a stale decode when the bytes at an
 * address change (a new code object where an old one was). */
static void test_cache(void)
{
    static uint8_t code[12] = {
        0xff,0x02,0x02,0x7e,0x78,0x56,0x34,0x12, /* v_mov_b32_e32 v1, 0x12345678 */
        0x00,0x00,0x81,0xbf, /* s_endpgm */
    };
    emu_wave w;
    wave(&w, EMU_GFX9, code, sizeof code);
    if (run(&w))
        return fails++, (void)0;
    CHECK(vgpr[1][0] == 0x12345678u, "first run");
    code[4] = 0x99; /* only the literal changes */
    wave(&w, EMU_GFX9, code, sizeof code);
    if (run(&w))
        return fails++, (void)0;
    CHECK(vgpr[1][0] == 0x12345699u, "changed literal seen: %08x", vgpr[1][0]);
    emu_isa_forget(code);
    wave(&w, EMU_GFX9, code, sizeof code);
    CHECK(run(&w) == 0 && vgpr[1][0] == 0x12345699u, "after emu_isa_forget");
}

/* SALU: bit-field extracts, brev, flbit, mul_hi, borrow chain, 64-bit
 * shift, SOPK compare, cselect, andn2_saveexec, bcnt1 of exec. */
static const uint8_t k_salu[] = {
    0xff,0x00,0x80,0xbe,0x78,0x56,0x34,0x12, /* s_mov_b32 s0, 0x12345678 */
    0x00,0xff,0x81,0x92,0x04,0x00,0x08,0x00, /* s_bfe_u32 s1, s0, 0x80004 */
    0x00,0xff,0x02,0x93,0x18,0x00,0x04,0x00, /* s_bfe_i32 s2, s0, 0x40018 */
    0x00,0x08,0x83,0xbe, /* s_brev_b32 s3, s0 */
    0xff,0x12,0x84,0xbe,0x00,0x00,0x01,0x00, /* s_flbit_i32_b32 s4, 0x10000 */
    0x00,0x90,0x05,0x96, /* s_mul_hi_u32 s5, s0, 16 */
    0x85,0x87,0x86,0x80, /* s_sub_u32 s6, 5, 7 */
    0x8a,0x80,0x87,0x82, /* s_subb_u32 s7, 10, 0 */
    0x00,0xa4,0x88,0x8e, /* s_lshl_b64 s[8:9], s[0:1], 36 */
    0x78,0x56,0x80,0xb1, /* s_cmpk_lg_i32 s0, 0x5678 */
    0xc1,0x80,0x8a,0x85, /* s_cselect_b64 s[10:11], -1, 0 */
    0x14,0x23,0x8c,0xbe, /* s_andn2_saveexec_b64 s[12:13], s[20:21] */
    0x7e,0x0d,0x8e,0xbe, /* s_bcnt1_i32_b64 s14, exec */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static void test_salu(void)
{
    emu_wave w;
    wave(&w, EMU_GFX9, k_salu, sizeof k_salu);
    w.exec = 0x00000000ffff0000ull;
    w.sgpr[20] = 0xffffffffu, w.sgpr[21] = 0x0000ffffu;
    if (run(&w))
        return fails++, (void)0;
    uint64_t s01 = (uint64_t)0x67 << 32 | 0x12345678u, sh = s01 << 36;
    CHECK(w.sgpr[1] == 0x67 && w.sgpr[2] == 2 && w.sgpr[3] == 0x1e6a2c48u && w.sgpr[4] == 15 && w.sgpr[5] == 1,
          "bfe/brev/flbit/mul_hi: %x %x %x %u %u", w.sgpr[1], w.sgpr[2], w.sgpr[3], w.sgpr[4], w.sgpr[5]);
    CHECK(w.sgpr[6] == 0xfffffffeu && w.sgpr[7] == 9, "borrow chain %x %u", w.sgpr[6], w.sgpr[7]);
    CHECK(w.sgpr[8] == (uint32_t)sh && w.sgpr[9] == (uint32_t)(sh >> 32), "s_lshl_b64");
    CHECK(w.sgpr[10] == ~0u && w.sgpr[11] == ~0u, "s_cmpk_lg_i32 + s_cselect_b64");
    CHECK(w.sgpr[12] == 0xffff0000u && w.sgpr[13] == 0, "saved exec");
    CHECK(w.exec == 0x0000ffff0000ffffull && w.scc == 1, "andn2_saveexec exec %016llx", (unsigned long long)w.exec);
    CHECK(w.sgpr[14] == 32, "bcnt1 exec = %u", w.sgpr[14]);
}

/* An unknown encoding is an error naming pc and kernel, never a no-op. */
static void test_unknown(void)
{
    static const uint8_t bad[] = { 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x81, 0xbf };
    emu_wave w;
    char err[300];
    wave(&w, EMU_GFX9, bad, sizeof bad);
    CHECK(emu_step(&w, err, sizeof err) == EMU_STEP_ERROR && strstr(err, "test") && strstr(err, "pc 0x0"),
          "unknown encoding: %s", err);
    wave(&w, EMU_GFX9, bad, 4);
    w.pc = 4;
    CHECK(emu_step(&w, err, sizeof err) == EMU_STEP_ERROR, "pc past the end");
}

/* --bench: a VALU/SALU loop on a full wave64, lane-instructions per second */
static const uint8_t k_bench[] = {
    0xff,0x00,0x80,0xbe,0x40,0x0d,0x03,0x00, /* s_mov_b32 s0, 0x30d40 */
    0x00,0x03,0x02,0x68, /* BB0: v_add_u32_e32 v1, v0, v1 */
    0x01,0x05,0x04,0x0a, /* v_mul_f32_e32 v2, v1, v2 */
    0x03,0x00,0xcb,0xd1,0x01,0x05,0x0e,0x04, /* v_fma_f32 v3, v1, v2, v3 */
    0x01,0x01,0x98,0x7d, /* v_cmp_gt_u32_e32 vcc, v1, v0 */
    0x01,0x05,0x08,0x00, /* v_cndmask_b32_e32 v4, v1, v2, vcc */
    0x06,0x00,0x8f,0xd2,0x83,0x08,0x02,0x00, /* v_lshlrev_b64 v[6:7], 3, v[4:5] */
    0x00,0x81,0x80,0x80, /* s_sub_u32 s0, s0, 1 */
    0x00,0x80,0x07,0xbf, /* s_cmp_lg_u32 s0, 0 */
    0xf5,0xff,0x85,0xbf, /* s_cbranch_scc1 BB0 */
    0x00,0x00,0x81,0xbf, /* s_endpgm */
};

static int bench(void)
{
    emu_wave w;
    wave(&w, EMU_GFX9, k_bench, sizeof k_bench);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (run_n(&w, 100000000))
        return 1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("bench: %llu instructions in %.2f s: %.1f M inst/s, %.0f M lane-inst/s (wave64, all lanes)\n",
           (unsigned long long)w.ninst, s, (double)w.ninst / s / 1e6, (double)w.ninst * 64 / s / 1e6);
    return 0;
}

/* Literals an inline constant could have given print as objdump 22 prints
 * them: lit(V) for 32- and 16-bit operands, the double's name for an f64
 * operand's high half (encodings and text from llvm-mc-22/llvm-objdump-22). */
static const struct { emu_isa isa; uint8_t b[12]; unsigned n; const char *text; } k_lit[] = {
    { EMU_GFX11, { 0x00, 0x00, 0x13, 0xd6, 0xff, 0x02, 0x0a, 0x04, 0x01, 0x00, 0x00, 0x00 }, 12, "v_fma_f32 v0, lit(0x1), v1, v2" },
    { EMU_GFX11, { 0x00, 0x00, 0x14, 0xd6, 0x04, 0xff, 0x09, 0x04, 0x00, 0x00, 0x00, 0x40 }, 12, "v_fma_f64 v[0:1], v[4:5], 2.0, v[2:3]" },
    { EMU_GFX11, { 0x00, 0x00, 0x27, 0xd7, 0xff, 0x04, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00 }, 12, "v_add_f64 v[0:1], 0, v[2:3]" },
    { EMU_GFX11, { 0x00, 0x00, 0x27, 0xd7, 0xff, 0x04, 0x02, 0x00, 0x00, 0x00, 0x10, 0xc0 }, 12, "v_add_f64 v[0:1], -4.0, v[2:3]" },
    { EMU_GFX11, { 0x00, 0x00, 0x27, 0xd7, 0xff, 0x04, 0x02, 0x00, 0x00, 0x00, 0xe0, 0x3f }, 12, "v_add_f64 v[0:1], 0.5, v[2:3]" },
    { EMU_GFX11, { 0x00, 0x00, 0x27, 0xd7, 0xff, 0x04, 0x02, 0x00, 0x00, 0x00, 0xf0, 0x3f }, 12, "v_add_f64 v[0:1], 1.0, v[2:3]" },
    { EMU_GFX11, { 0x00, 0x00, 0x27, 0xd7, 0xff, 0x04, 0x02, 0x00, 0x01, 0x00, 0x00, 0x00 }, 12, "v_add_f64 v[0:1], 0x1, v[2:3]" },
    { EMU_GFX11, { 0x00, 0x00, 0x27, 0xd7, 0xff, 0x04, 0x02, 0x00, 0x10, 0x00, 0x00, 0x00 }, 12, "v_add_f64 v[0:1], 0x10, v[2:3]" },
    { EMU_GFX11, { 0x00, 0x00, 0x27, 0xd7, 0xff, 0x04, 0x02, 0x00, 0x30, 0x5f, 0xc4, 0x3f }, 12, "v_add_f64 v[0:1], 0x3fc45f30, v[2:3]" },
    { EMU_GFX11, { 0x00, 0x40, 0x0a, 0xcc, 0xff, 0x02, 0x02, 0x18, 0x01, 0x00, 0x00, 0x00 }, 12, "v_pk_add_u16 v0, lit(0x1), v1" },
    { EMU_GFX11, { 0x00, 0x40, 0x0f, 0xcc, 0xff, 0x02, 0x02, 0x18, 0x00, 0x3c, 0x00, 0x00 }, 12, "v_pk_add_f16 v0, lit(0x3c00), v1" },
    { EMU_GFX11, { 0x00, 0xff, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00 }, 8, "s_add_u32 s0, s0, lit(0x0)" },
    { EMU_GFX11, { 0x00, 0xff, 0x00, 0x80, 0x83, 0xf9, 0x22, 0x3e }, 8, "s_add_u32 s0, s0, lit(0x3e22f983)" },
    { EMU_GFX11, { 0xff, 0x01, 0x80, 0xbe, 0x01, 0x00, 0x00, 0x00 }, 8, "s_mov_b64 s[0:1], lit(0x1)" },
    { EMU_GFX11, { 0xff, 0x01, 0x80, 0xbe, 0x41, 0x00, 0x00, 0x00 }, 8, "s_mov_b64 s[0:1], 0x41" },
    { EMU_GFX11, { 0xff, 0x02, 0x00, 0x06, 0x00, 0x00, 0x80, 0x3f }, 8, "v_add_f32_e32 v0, lit(0x3f800000), v1" },
    { EMU_GFX11, { 0xff, 0x02, 0x00, 0x06, 0x41, 0x00, 0x00, 0x00 }, 8, "v_add_f32_e32 v0, 0x41, v1" },
    { EMU_GFX11, { 0xff, 0x02, 0x00, 0x06, 0x83, 0xf9, 0x22, 0x3e }, 8, "v_add_f32_e32 v0, lit(0x3e22f983), v1" },
    { EMU_GFX11, { 0xff, 0x02, 0x00, 0x64, 0x00, 0x3c, 0x00, 0x00 }, 8, "v_add_f16_e32 v0.l, lit(0x3c00), v1.l" },
    { EMU_GFX11, { 0xff, 0x02, 0x00, 0x64, 0x01, 0x00, 0x00, 0x00 }, 8, "v_add_f16_e32 v0.l, lit(0x1), v1.l" },
    { EMU_GFX11, { 0xff, 0x02, 0x00, 0x64, 0x18, 0x31, 0x00, 0x00 }, 8, "v_add_f16_e32 v0.l, lit(0x3118), v1.l" },
    { EMU_GFX11, { 0xff, 0x02, 0x00, 0x7e, 0x00, 0x00, 0x00, 0x3f }, 8, "v_mov_b32_e32 v0, lit(0x3f000000)" },
    { EMU_GFX11, { 0xff, 0x02, 0x00, 0x7e, 0x83, 0xf9, 0x22, 0x3e }, 8, "v_mov_b32_e32 v0, lit(0x3e22f983)" },
    { EMU_GFX9, { 0x00, 0xff, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00 }, 8, "s_add_u32 s0, s0, lit(0x0)" },
    { EMU_GFX9, { 0x00, 0xff, 0x00, 0x80, 0x83, 0xf9, 0x22, 0x3e }, 8, "s_add_u32 s0, s0, lit(0x3e22f983)" },
    { EMU_GFX9, { 0xff, 0x01, 0x80, 0xbe, 0x01, 0x00, 0x00, 0x00 }, 8, "s_mov_b64 s[0:1], lit(0x1)" },
    { EMU_GFX9, { 0xff, 0x01, 0x80, 0xbe, 0x41, 0x00, 0x00, 0x00 }, 8, "s_mov_b64 s[0:1], 0x41" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x02, 0x00, 0x00, 0x80, 0x3f }, 8, "v_add_f32_e32 v0, lit(0x3f800000), v1" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x02, 0x41, 0x00, 0x00, 0x00 }, 8, "v_add_f32_e32 v0, 0x41, v1" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x02, 0x83, 0xf9, 0x22, 0x3e }, 8, "v_add_f32_e32 v0, lit(0x3e22f983), v1" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x3e, 0x00, 0x3c, 0x00, 0x00 }, 8, "v_add_f16_e32 v0, lit(0x3c00), v1" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x3e, 0x01, 0x00, 0x00, 0x00 }, 8, "v_add_f16_e32 v0, lit(0x1), v1" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x3e, 0x18, 0x31, 0x00, 0x00 }, 8, "v_add_f16_e32 v0, lit(0x3118), v1" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x4c, 0x01, 0x00, 0x00, 0x00 }, 8, "v_add_u16_e32 v0, lit(0x1), v1" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x7e, 0x00, 0x00, 0x00, 0x3f }, 8, "v_mov_b32_e32 v0, lit(0x3f000000)" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x7e, 0x83, 0xf9, 0x22, 0x3e }, 8, "v_mov_b32_e32 v0, lit(0x3e22f983)" },
    { EMU_GFX9, { 0xff, 0x01, 0x80, 0xbe, 0xf0, 0xff, 0xff, 0xff }, 8, "s_mov_b64 s[0:1], 0xfffffff0" },
    { EMU_GFX9, { 0xff, 0x01, 0x80, 0xbe, 0x40, 0x00, 0x00, 0x00 }, 8, "s_mov_b64 s[0:1], lit(0x40)" },
    { EMU_GFX9, { 0xff, 0x70, 0x00, 0x7e, 0x40, 0x00, 0x00, 0x00 }, 8, "v_mov_b64_e32 v[0:1], lit(0x40)" },
    { EMU_GFX9, { 0xff, 0x70, 0x00, 0x7e, 0xf0, 0xff, 0xff, 0xff }, 8, "v_mov_b64_e32 v[0:1], 0xfffffff0" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x4c, 0x00, 0x3c, 0x00, 0x00 }, 8, "v_add_u16_e32 v0, 0x3c00, v1" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x4c, 0xf0, 0xff, 0x00, 0x00 }, 8, "v_add_u16_e32 v0, 0xfff0, v1" },
    { EMU_GFX9, { 0xff, 0x02, 0x00, 0x4c, 0x40, 0x00, 0x00, 0x00 }, 8, "v_add_u16_e32 v0, lit(0x40), v1" },
    { EMU_GFX9, { 0xff, 0x14, 0x00, 0x7e, 0x00, 0x00, 0x80, 0x3f }, 8, "v_cvt_f16_f32_e32 v0, lit(0x3f800000)" },
    { EMU_GFX9, { 0xff, 0x14, 0x00, 0x7e, 0x00, 0x3c, 0x00, 0x00 }, 8, "v_cvt_f16_f32_e32 v0, 0x3c00" },
    { EMU_GFX9, { 0xff, 0x16, 0x00, 0x7e, 0x00, 0x3c, 0x00, 0x00 }, 8, "v_cvt_f32_f16_e32 v0, lit(0x3c00)" },
    { EMU_GFX9, { 0x02, 0xff, 0x80, 0x86, 0x00, 0x00, 0x80, 0x3f }, 8, "s_and_b64 s[0:1], s[2:3], 0x3f800000" },
};

static void test_literal_text(void)
{
    for (size_t k = 0; k < sizeof k_lit / sizeof k_lit[0]; k++) {
        isa_inst in;
        char err[128], buf[160];
        int rc = isa_decode(k_lit[k].isa, k_lit[k].b, k_lit[k].n, 0, &in, err, sizeof err);
        CHECK(rc == 0, "decode %s: %s", k_lit[k].text, err);
        if (rc == 0) {
            isa_disasm(k_lit[k].isa, &in, buf, sizeof buf);
            for (char *c = buf; *c; c++) /* runs of blanks count as one, as in test_decode.sh */
                while (c[0] == ' ' && c[1] == ' ')
                    memmove(c, c + 1, strlen(c));
            CHECK(!strcmp(buf, k_lit[k].text), "literal text: got '%s', objdump '%s'", buf, k_lit[k].text);
        }
    }
}

int main(int argc, char **argv)
{
    vgpr = calloc(EMU_NVGPR, sizeof *vgpr);
    if (!vgpr)
        return 2;
    if (argc > 1 && !strcmp(argv[1], "--bench"))
        return bench();
    test_carry();
    test_fdiv32();
    test_fdiv64();
    test_cvt();
    test_f16_exhaustive();
    test_class();
    test_exec();
    test_mem9();
    test_wave32();
    test_mulhi24();
    test_clock();
    test_mem11();
    test_pk();
    test_dot11();
    test_t16();
    test_ds();
    test_ds11();
    test_swap();
    test_minmax3();
    test_gfx90a();
    test_cache();
    test_salu();
    test_atomic(EMU_GFX9, k_atomic9, sizeof k_atomic9);
    test_atomic(EMU_GFX11, k_atomic11, sizeof k_atomic11);
    test_unknown();
    test_literal_text();
    printf("test_exec: %d checks, %d failed\n", checks, fails);
    free(vgpr);
    return fails != 0;
}
