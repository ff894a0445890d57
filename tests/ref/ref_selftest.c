/* ref_selftest.c — self-test of the CPU reference (tests/ref/).
 *
 * Build and run from the repository root:
 *   mkdir -p build && cc -std=c11 -O2 -Wall -Wextra -Werror -ffp-contract=off \
 *       -Iinclude -Itests/ref tests/ref/ref_*.c -lm -o build/ref_selftest && build/ref_selftest
 *
 * (-ffp-contract=off keeps the C compiler from fusing the reference's own
 * f32/f64 mul+add sequences; -std=c11 already implies it for GCC.)
 *
 * Last line printed: "N passed, M failed (C comparisons, F failed)", counting
 * tests; exit status 0 iff M == 0.
 */
#include "ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long n_pass, n_fail;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (cond) {                                                         \
            n_pass++;                                                       \
        } else {                                                            \
            n_fail++;                                                       \
            if (n_fail <= 50) {                                             \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);        \
                fprintf(stderr, __VA_ARGS__);                               \
                fputc('\n', stderr);                                        \
            }                                                               \
        }                                                                   \
    } while (0)

/* ------------------------------------------------------------ helpers */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd64(void)
{ /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint32_t rnd32(void) { return (uint32_t)(rnd64() >> 32); }

static float f_from_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bits_from_f(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static float cast_f32_to(crk_dtype src, const void *in)
{
    float f;
    ref_cast(src, CRK_F32, in, &f);
    return f;
}

/* Independent decoder: generic sign/exponent/fraction with ldexp.
 * Returns NaN for NaN/inf patterns where `inf_is_value` is 0. */
static double slow_decode(uint32_t bits, int ebits, int mbits)
{
    uint32_t sign = (bits >> (ebits + mbits)) & 1u;
    uint32_t e = (bits >> mbits) & ((1u << ebits) - 1);
    uint32_t m = bits & ((1u << mbits) - 1);
    int bias = (1 << (ebits - 1)) - 1;
    double v;
    if (e == 0)
        v = ldexp((double)m, 1 - bias - mbits);
    else
        v = ldexp((double)(m + (1u << mbits)), (int)e - bias - mbits);
    return sign ? -v : v;
}

/* Slow nearest-representable encoder over a sorted table of the non-negative
 * finite values (plus, for formats with infinities, the overflow threshold
 * 2^(emax+1) standing for inf).  Binary search + midpoint comparison, ties
 * to the even bit pattern. */
typedef struct {
    double *val; /* val[i] is the value of bit pattern i, i = 0..n-1 (increasing) */
    int n;
    int saturate; /* 1: values beyond the last saturate to it (f8), 0: last = inf */
    uint32_t sign_bit;
    uint32_t nan_bits;
} table;

static uint32_t slow_encode(const table *t, double x)
{
    if (isnan(x))
        return t->nan_bits;
    uint32_t sign = signbit(x) ? t->sign_bit : 0;
    double a = fabs(x);
    if (a >= t->val[t->n - 1])
        return sign | (uint32_t)(t->n - 1);
    int lo = 0, hi = t->n - 1; /* val[lo] <= a < val[hi] */
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (t->val[mid] <= a)
            lo = mid;
        else
            hi = mid;
    }
    double midpt = 0.5 * (t->val[lo] + t->val[hi]); /* exact: few significant bits */
    uint32_t r;
    if (a < midpt)
        r = (uint32_t)lo;
    else if (a > midpt)
        r = (uint32_t)hi;
    else
        r = (uint32_t)((lo & 1) ? hi : lo);
    return sign | r;
}

static table t_f16, t_bf16, t_f8;

static void build_tables(void)
{
    /* f16: patterns 0..0x7BFF finite, 0x7C00 stands for inf = 65536 */
    t_f16.n = 0x7C01;
    t_f16.val = malloc(sizeof(double) * (size_t)t_f16.n);
    for (int i = 0; i < 0x7C00; i++)
        t_f16.val[i] = slow_decode((uint32_t)i, 5, 10);
    t_f16.val[0x7C00] = 65536.0;
    t_f16.saturate = 0;
    t_f16.sign_bit = 0x8000;
    t_f16.nan_bits = 0x7FFF;
    /* bf16: 0..0x7F7F finite, 0x7F80 = inf = 2^128 */
    t_bf16.n = 0x7F81;
    t_bf16.val = malloc(sizeof(double) * (size_t)t_bf16.n);
    for (int i = 0; i < 0x7F80; i++)
        t_bf16.val[i] = slow_decode((uint32_t)i, 8, 7);
    t_bf16.val[0x7F80] = ldexp(1.0, 128);
    t_bf16.saturate = 0;
    t_bf16.sign_bit = 0x8000;
    t_bf16.nan_bits = 0x7FFF;
    /* f8 e4m3fn: 0..0x7E finite (max 448), saturating */
    t_f8.n = 0x7F;
    t_f8.val = malloc(sizeof(double) * (size_t)t_f8.n);
    for (int i = 0; i < 0x7F; i++)
        t_f8.val[i] = slow_decode((uint32_t)i, 4, 3);
    t_f8.saturate = 1;
    t_f8.sign_bit = 0x80;
    t_f8.nan_bits = 0x7F;
}

/* ------------------------------------------------------------- tests */

static void test_dtype_info(void)
{
    static const char *const names[] = {"u8", "u32", "i16", "i32", "i64",
                                        "bf16", "f16", "f32", "f64", "f8e4m3"};
    static const size_t sizes[] = {1, 4, 2, 4, 8, 2, 2, 4, 8, 1};
    CHECK(CRK_DTYPE_COUNT == 10, "dtype count");
    for (int d = 0; d < CRK_DTYPE_COUNT; d++) {
        CHECK(strcmp(ref_dtype_name((crk_dtype)d), names[d]) == 0, "name %d", d);
        CHECK(ref_dtype_size((crk_dtype)d) == sizes[d], "size %d", d);
    }
}

static void test_f32_to_u8(void)
{
    static const struct { float x; uint8_t y; } ex[] = {
        {300.7f, 44}, {256.0f, 0}, {255.9f, 255}, {500.0f, 244}, {65520.0f, 240},
        {1e10f, 255}, {INFINITY, 255}, {-5.0f, 0}, {-INFINITY, 0}, {NAN, 0}};
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        uint8_t y = 0xAA;
        ref_cast(CRK_F32, CRK_U8, &ex[i].x, &y);
        CHECK(y == ex[i].y, "f32->u8 %g: got %u want %u", (double)ex[i].x, y, ex[i].y);
        double d = ex[i].x; /* same rule from f64 */
        y = 0xAA;
        ref_cast(CRK_F64, CRK_U8, &d, &y);
        CHECK(y == ex[i].y, "f64->u8 %g: got %u want %u", d, y, ex[i].y);
    }
}

static void test_f32_to_f8(void)
{
    static const struct { float x; uint8_t y; } ex[] = {
        {500.0f, 0x7E}, {449.0f, 0x7E}, {INFINITY, 0x7E}, {-INFINITY, 0xFE},
        {300.7f, 0x79}, {255.9f, 0x78}, {1e-9f, 0x00}, {-0.0f, 0x80},
        {448.0f, 0x7E}, {-448.0f, 0xFE}, {NAN, 0x7F}, {-NAN, 0x7F},
        {1.0f, 0x38}, {0x1p-9f, 0x01}, {0x1p-10f, 0x00} /* half min subnormal: tie->0 */,
        {0x1.8p-10f, 0x01}, {464.0f, 0x7E}};
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        uint8_t y = ref_f32_to_f8(ex[i].x);
        CHECK(y == ex[i].y, "f32->f8 %g: got 0x%02X want 0x%02X", (double)ex[i].x, y, ex[i].y);
        y = 0;
        ref_cast(CRK_F32, CRK_F8E4M3, &ex[i].x, &y);
        CHECK(y == ex[i].y, "cast f32->f8 %g: got 0x%02X want 0x%02X", (double)ex[i].x, y,
              ex[i].y);
    }
    CHECK(ref_f8_to_f32(0x7E) == 448.0f, "f8 0x7E");
    CHECK(ref_f8_to_f32(0x79) == 288.0f, "f8 0x79");
    CHECK(ref_f8_to_f32(0x78) == 256.0f, "f8 0x78");
    CHECK(isnan(ref_f8_to_f32(0x7F)) && isnan(ref_f8_to_f32(0xFF)), "f8 NaN");
}

static void test_misc_conversions(void)
{
    /* f16 overflow */
    CHECK(ref_f32_to_f16(65520.0f) == 0x7C00, "65520 -> f16 inf");
    CHECK(ref_f32_to_f16(65519.996f) == 0x7BFF, "65519.996 -> f16 max");
    CHECK(ref_f32_to_f16(-65520.0f) == 0xFC00, "-65520 -> f16 -inf");
    CHECK(ref_f32_to_f16(NAN) == 0x7FFF && ref_f32_to_f16(-NAN) == 0x7FFF, "f16 NaN");
    CHECK(ref_f32_to_bf16(NAN) == 0x7FFF && ref_f32_to_bf16(-NAN) == 0x7FFF, "bf16 NaN");
    CHECK(ref_f32_to_bf16(3.4e38f) == 0x7F80, "bf16 overflow -> inf");
    CHECK(ref_f32_to_f16(-0.0f) == 0x8000 && ref_f32_to_bf16(-0.0f) == 0x8000, "-0");
    /* NaN -> i64 */
    {
        float x = NAN;
        int64_t y = 0;
        ref_cast(CRK_F32, CRK_I64, &x, &y);
        CHECK(y == INT64_MIN, "NaN f32->i64");
        double d = NAN;
        y = 0;
        ref_cast(CRK_F64, CRK_I64, &d, &y);
        CHECK(y == INT64_MIN, "NaN f64->i64");
        x = INFINITY;
        ref_cast(CRK_F32, CRK_I64, &x, &y);
        CHECK(y == INT64_MAX, "inf->i64");
        x = -INFINITY;
        ref_cast(CRK_F32, CRK_I64, &x, &y);
        CHECK(y == INT64_MIN, "-inf->i64");
        x = -3.9f;
        ref_cast(CRK_F32, CRK_I64, &x, &y);
        CHECK(y == -3, "-3.9->i64");
        uint16_t h = 0x7FFF; /* f16 NaN -> i64 through f32 */
        ref_cast(CRK_F16, CRK_I64, &h, &y);
        CHECK(y == INT64_MIN, "f16 NaN->i64");
    }
    /* float -> u32 / i32 / i16 */
    {
        float x = 1e10f;
        uint32_t u = 0;
        ref_cast(CRK_F32, CRK_U32, &x, &u);
        CHECK(u == 4294967295u, "1e10->u32");
        x = -5.0f;
        ref_cast(CRK_F32, CRK_U32, &x, &u);
        CHECK(u == 0, "-5->u32");
        x = NAN;
        ref_cast(CRK_F32, CRK_U32, &x, &u);
        CHECK(u == 0, "NaN->u32");
        uint16_t hinf = 0x7C00;
        ref_cast(CRK_F16, CRK_U32, &hinf, &u);
        CHECK(u == 4294967295u, "f16 inf->u32");
        int32_t i = 1;
        x = NAN;
        ref_cast(CRK_F32, CRK_I32, &x, &i);
        CHECK(i == 0, "NaN->i32");
        x = 3e9f;
        ref_cast(CRK_F32, CRK_I32, &x, &i);
        CHECK(i == INT32_MAX, "3e9->i32");
        x = -3e9f;
        ref_cast(CRK_F32, CRK_I32, &x, &i);
        CHECK(i == INT32_MIN, "-3e9->i32");
        int16_t s = 0;
        x = 40000.0f;
        ref_cast(CRK_F32, CRK_I16, &x, &s);
        CHECK(s == INT16_MAX, "40000->i16");
        x = -40000.5f;
        ref_cast(CRK_F32, CRK_I16, &x, &s);
        CHECK(s == INT16_MIN, "-40000->i16");
        x = -7.9f;
        ref_cast(CRK_F32, CRK_I16, &x, &s);
        CHECK(s == -7, "-7.9->i16");
        uint8_t f8 = 0x79; /* 288 */
        uint8_t b = 0;
        ref_cast(CRK_F8E4M3, CRK_U8, &f8, &b);
        CHECK(b == 32, "f8 288 -> u8 = 32");
        ref_cast(CRK_F8E4M3, CRK_I32, &f8, &i);
        CHECK(i == 288, "f8 288 -> i32");
    }
    /* integer -> float: single rounding from the exact integer */
    {
        uint32_t u = 4294967295u;
        uint16_t h = 0;
        ref_cast(CRK_U32, CRK_BF16, &u, &h);
        CHECK(h == 0x4F80, "u32 max -> bf16: 0x%04X", h);
        u = 2155872257u; /* 2^31 + 2^23 + 1: through f32 would tie and give 0x4F00 */
        ref_cast(CRK_U32, CRK_BF16, &u, &h);
        CHECK(h == 0x4F01, "u32 2^31+2^23+1 -> bf16: 0x%04X", h);
        CHECK(ref_f32_to_bf16((float)u) == 0x4F00, "double-rounding witness");
        int64_t l = 2155872257LL;
        ref_cast(CRK_I64, CRK_BF16, &l, &h);
        CHECK(h == 0x4F01, "i64 -> bf16 single rounding");
        l = -2155872257LL;
        ref_cast(CRK_I64, CRK_BF16, &l, &h);
        CHECK(h == 0xCF01, "-i64 -> bf16 single rounding");
        u = 65520;
        ref_cast(CRK_U32, CRK_F16, &u, &h);
        CHECK(h == 0x7C00, "u32 65520 -> f16 inf");
        u = 65519;
        ref_cast(CRK_U32, CRK_F16, &u, &h);
        CHECK(h == 0x7BFF, "u32 65519 -> f16 max");
        l = -65520;
        ref_cast(CRK_I64, CRK_F16, &l, &h);
        CHECK(h == 0xFC00, "i64 -65520 -> f16 -inf");
        l = INT64_MIN;
        ref_cast(CRK_I64, CRK_F16, &l, &h);
        CHECK(h == 0xFC00, "i64 min -> f16 -inf");
        ref_cast(CRK_I64, CRK_BF16, &l, &h);
        CHECK(h == 0xDF00, "i64 min -> bf16 = -2^63: 0x%04X", h);
        /* i64 2^53+1 -> f64 single rounding (to even: 2^53); 2^53+3 -> 2^53+4 */
        l = (1LL << 53) + 3;
        double d = 0;
        ref_cast(CRK_I64, CRK_F64, &l, &d);
        CHECK(d == 9007199254740996.0, "i64 -> f64 RNE");
        /* 2^24 + 2^12 + 1 -> f16? overflow; -> f32 rounding: 2^24+1 ties to 2^24 */
        l = (1LL << 24) + 1;
        float f = 0;
        ref_cast(CRK_I64, CRK_F32, &l, &f);
        CHECK(f == 16777216.0f, "i64 -> f32 RNE tie");
        int16_t s = -1;
        ref_cast(CRK_I16, CRK_F16, &s, &h);
        CHECK(h == 0xBC00, "i16 -1 -> f16");
        int32_t i = 16777217;
        ref_cast(CRK_I32, CRK_F32, &i, &f);
        CHECK(f == 16777216.0f, "i32 -> f32 RNE");
        uint8_t b = 200, f8 = 0;
        ref_cast(CRK_U8, CRK_F8E4M3, &b, &f8);
        /* 200 is the midpoint of 192 (0x74) and 208 (0x75): tie -> even */
        CHECK(f8 == 0x74, "u8 200 -> f8: got 0x%02X", f8);
    }
    /* integer <-> integer: modular */
    {
        int64_t l = 0x123456789ABCDEF0LL;
        uint8_t b = 0;
        ref_cast(CRK_I64, CRK_U8, &l, &b);
        CHECK(b == 0xF0, "i64 -> u8 low byte");
        uint32_t u = 0;
        ref_cast(CRK_I64, CRK_U32, &l, &u);
        CHECK(u == 0x9ABCDEF0u, "i64 -> u32 low bits");
        int16_t s = -1;
        ref_cast(CRK_I16, CRK_U32, &s, &u);
        CHECK(u == 0xFFFFFFFFu, "i16 -1 -> u32");
        b = 200;
        ref_cast(CRK_U8, CRK_I64, &b, &l);
        CHECK(l == 200, "u8 -> i64 zero-extend");
        u = 0xFFFFFFFFu;
        ref_cast(CRK_U32, CRK_I64, &u, &l);
        CHECK(l == 4294967295LL, "u32 -> i64 zero-extend");
        ref_cast(CRK_U32, CRK_I16, &u, &s);
        CHECK(s == -1, "u32 -> i16 modular");
        int32_t i = 0;
        u = 0x80000000u;
        ref_cast(CRK_U32, CRK_I32, &u, &i);
        CHECK(i == INT32_MIN, "u32 -> i32 modular");
        l = -1;
        ref_cast(CRK_I64, CRK_I32, &l, &i);
        CHECK(i == -1, "i64 -> i32");
        u = 0x00018000u;
        ref_cast(CRK_U32, CRK_I16, &u, &s);
        CHECK(s == INT16_MIN, "u32 0x18000 -> i16");
    }
    /* f64 -> f16/bf16: single rounding; f64 -> f8: through f32 */
    {
        double d = 1.0 + 0x1p-11 + 0x1p-40;
        uint16_t h = 0;
        CHECK(ref_f64_to_f16(d) == 0x3C01, "f64->f16 single rounding");
        CHECK(ref_f32_to_f16((float)d) == 0x3C00, "f64->f32->f16 witness");
        ref_cast(CRK_F64, CRK_F16, &d, &h);
        CHECK(h == 0x3C01, "cast f64->f16 single rounding");
        d = 1.0 + 0x1p-8 + 0x1p-40;
        CHECK(ref_f64_to_bf16(d) == 0x3F81, "f64->bf16 single rounding");
        ref_cast(CRK_F64, CRK_BF16, &d, &h);
        CHECK(h == 0x3F81, "cast f64->bf16 single rounding");
        d = 1.0625 + 0x1p-40;
        uint8_t f8 = 0;
        ref_cast(CRK_F64, CRK_F8E4M3, &d, &f8);
        CHECK(f8 == 0x38, "f64->f8 through f32 (double rounding): 0x%02X", f8);
        d = 65519.99;
        ref_cast(CRK_F64, CRK_F16, &d, &h);
        CHECK(h == 0x7BFF, "f64 65519.99 -> f16 max");
        d = 1e300;
        ref_cast(CRK_F64, CRK_BF16, &d, &h);
        CHECK(h == 0x7F80, "f64 1e300 -> bf16 inf");
        ref_cast(CRK_F64, CRK_F8E4M3, &d, &f8);
        CHECK(f8 == 0x7E, "f64 1e300 -> f8 448");
        d = -1e-300;
        ref_cast(CRK_F64, CRK_F16, &d, &h);
        CHECK(h == 0x8000, "f64 tiny -> f16 -0");
    }
    /* f16 <-> bf16 through f32, float identities */
    {
        uint16_t h = 0x3C01, b = 0;
        ref_cast(CRK_F16, CRK_BF16, &h, &b);
        CHECK(b == 0x3F80, "f16->bf16");
        h = 0x7C00;
        ref_cast(CRK_F16, CRK_BF16, &h, &b);
        CHECK(b == 0x7F80, "f16 inf->bf16 inf");
        b = 0x4780; /* 65536 */
        ref_cast(CRK_BF16, CRK_F16, &b, &h);
        CHECK(h == 0x7C00, "bf16 65536->f16 inf");
        b = 0x0001; /* tiny bf16 -> f16 0 */
        ref_cast(CRK_BF16, CRK_F16, &b, &h);
        CHECK(h == 0x0000, "bf16 tiny -> f16 0");
        uint8_t f8 = 0xFF, o8 = 0;
        ref_cast(CRK_F8E4M3, CRK_F8E4M3, &f8, &o8);
        CHECK(o8 == 0x7F, "f8 -NaN -> f8 canonical NaN");
        f8 = 0x80;
        ref_cast(CRK_F8E4M3, CRK_F16, &f8, &h);
        CHECK(h == 0x8000, "f8 -0 -> f16 -0");
        f8 = 0x01;
        float f = cast_f32_to(CRK_F8E4M3, &f8);
        CHECK(f == 0x1p-9f, "f8 min subnormal");
        f8 = 0x7F;
        double d = 0;
        ref_cast(CRK_F8E4M3, CRK_F64, &f8, &d);
        CHECK(isnan(d), "f8 NaN -> f64 NaN");
        h = 0x7E00;
        ref_cast(CRK_F16, CRK_F16, &h, &b);
        CHECK(b == 0x7E00, "f16 identity keeps bits");
    }
}

/* every one of the 100 pairs: consistency of ref_cast with the value path */
static void test_all_pairs(void)
{
    static const double samples[] = {0.0, 1.0, -1.0, 2.5, -2.5, 100.75, 127.0, 255.0, 300.7,
                                     -300.7, 65504.0, 1e6, -1e6, 0.3};
    for (int s = 0; s < CRK_DTYPE_COUNT; s++) {
        for (int d = 0; d < CRK_DTYPE_COUNT; d++) {
            for (size_t k = 0; k < sizeof samples / sizeof samples[0]; k++) {
                unsigned char in[8] = {0}, out[8] = {0};
                /* build the source element: Rust `as` for ints, RNE for floats */
                ref_scalar_from_f64((crk_dtype)s, samples[k], in);
                double v = ref_value_f64((crk_dtype)s, in);
                ref_cast((crk_dtype)s, (crk_dtype)d, in, out);
                double w = ref_value_f64((crk_dtype)d, out);
                int sf = ref_dtype_is_float((crk_dtype)s), df = ref_dtype_is_float((crk_dtype)d);
                double expect;
                if (df) {
                    /* expected: v rounded to the destination (single rounding for
                     * these small exactly-representable-in-f32 samples) */
                    unsigned char e[8];
                    ref_scalar_from_f64((crk_dtype)d, v, e);
                    expect = ref_value_f64((crk_dtype)d, e);
                } else if (sf) {
                    /* float -> int: trunc, saturating for i16/i32/u32/i64,
                     * u8 = sat_u32 mod 256 */
                    double t = trunc(v); /* may be ±inf (f16 source of 1e6) */
                    double lo = 0, hi = 4294967295.0;
                    switch (d) {
                    case CRK_I16: lo = -32768.0; hi = 32767.0; break;
                    case CRK_I32: lo = -2147483648.0; hi = 2147483647.0; break;
                    case CRK_I64: lo = -9223372036854775808.0; hi = 9223372036854775807.0; break;
                    default: break;
                    }
                    t = t < lo ? lo : (t > hi ? hi : t);
                    if (d == CRK_U8)
                        t = fmod(t, 256.0);
                    expect = t;
                } else {
                    /* int -> int modular */
                    int64_t iv = (int64_t)v;
                    uint64_t u = (uint64_t)iv;
                    switch (d) {
                    case CRK_U8: expect = (double)(u & 0xFF); break;
                    case CRK_U32: expect = (double)(u & 0xFFFFFFFFu); break;
                    case CRK_I16: expect = (double)(int16_t)(u & 0xFFFF); break;
                    default: expect = (double)iv; break;
                    }
                }
                CHECK(w == expect, "cast %s->%s of %g: got %.17g want %.17g",
                      ref_dtype_name((crk_dtype)s), ref_dtype_name((crk_dtype)d), samples[k], w,
                      expect);
            }
        }
    }
}

static void test_exhaustive(void)
{
    /* f16: decode vs independent decoder; round trip */
    for (uint32_t i = 0; i < 65536; i++) {
        uint16_t h = (uint16_t)i;
        float f = ref_f16_to_f32(h);
        int isnan_pat = ((h & 0x7C00) == 0x7C00) && (h & 0x3FF);
        int isinf_pat = (h & 0x7FFF) == 0x7C00;
        if (isnan_pat) {
            CHECK(isnan(f) && ref_f32_to_f16(f) == 0x7FFF, "f16 NaN %04X", h);
            continue;
        }
        double want = isinf_pat ? ((h & 0x8000) ? -INFINITY : INFINITY) : slow_decode(h, 5, 10);
        CHECK((double)f == want && !!signbit(f) == !!signbit(want), "f16 decode %04X", h);
        CHECK(ref_f32_to_f16(f) == h, "f16 round trip %04X -> %04X", h, ref_f32_to_f16(f));
        CHECK(ref_f64_to_f16((double)f) == h, "f16 round trip f64 %04X", h);
    }
    for (uint32_t i = 0; i < 65536; i++) {
        uint16_t b = (uint16_t)i;
        float f = ref_bf16_to_f32(b);
        int isnan_pat = ((b & 0x7F80) == 0x7F80) && (b & 0x7F);
        int isinf_pat = (b & 0x7FFF) == 0x7F80;
        if (isnan_pat) {
            CHECK(isnan(f) && ref_f32_to_bf16(f) == 0x7FFF, "bf16 NaN %04X", b);
            continue;
        }
        double want = isinf_pat ? ((b & 0x8000) ? -INFINITY : INFINITY) : slow_decode(b, 8, 7);
        CHECK((double)f == want && !!signbit(f) == !!signbit(want), "bf16 decode %04X", b);
        CHECK(ref_f32_to_bf16(f) == b, "bf16 round trip %04X", b);
        CHECK(ref_f64_to_bf16((double)f) == b, "bf16 round trip f64 %04X", b);
    }
    for (uint32_t i = 0; i < 256; i++) {
        uint8_t q = (uint8_t)i;
        float f = ref_f8_to_f32(q);
        if ((q & 0x7F) == 0x7F) {
            CHECK(isnan(f) && ref_f32_to_f8(f) == 0x7F, "f8 NaN %02X", q);
            continue;
        }
        double want = slow_decode(q, 4, 3);
        CHECK((double)f == want && !!signbit(f) == !!signbit(want), "f8 decode %02X", q);
        CHECK(ref_f32_to_f8(f) == q, "f8 round trip %02X", q);
    }
}

static void check_encoders(float x)
{
    uint32_t h = slow_encode(&t_f16, x), b = slow_encode(&t_bf16, x), q = slow_encode(&t_f8, x);
    CHECK(ref_f32_to_f16(x) == h, "f32->f16 %a (0x%08X): got %04X want %04X", (double)x,
          bits_from_f(x), ref_f32_to_f16(x), h);
    CHECK(ref_f32_to_bf16(x) == b, "f32->bf16 %a: got %04X want %04X", (double)x,
          ref_f32_to_bf16(x), b);
    CHECK(ref_f32_to_f8(x) == q, "f32->f8 %a: got %02X want %02X", (double)x, ref_f32_to_f8(x),
          q);
}

static void test_bruteforce(void)
{
    /* 1. uniformly random bit patterns */
    for (int i = 0; i < 100000; i++)
        check_encoders(f_from_bits(rnd32()));
    /* 2. exponents in and around the 16-bit / f8 ranges, incl. subnormals */
    for (int i = 0; i < 100000; i++) {
        uint32_t u = rnd32();
        int e = (int)(rnd32() % 60u) - 40; /* 2^-40 .. 2^19 */
        float x = ldexpf(1.0f + (float)(u & 0x7FFFFF) * 0x1p-23f, e);
        if (u & 0x80000000u)
            x = -x;
        check_encoders(x);
    }
    /* 3. exact ties (midpoints) and their neighbours, for each format */
    for (int i = 0; i < 60000; i++) {
        int which = i % 3;
        double lo, hi;
        if (which == 0) {
            uint32_t p = rnd32() % 0x7BFFu; /* f16 */
            lo = slow_decode(p, 5, 10);
            hi = slow_decode(p + 1, 5, 10);
        } else if (which == 1) {
            uint32_t p = rnd32() % 0x7F7Fu; /* bf16 */
            lo = slow_decode(p, 8, 7);
            hi = slow_decode(p + 1, 8, 7);
        } else {
            uint32_t p = rnd32() % 0x7Du; /* f8 */
            lo = slow_decode(p, 4, 3);
            hi = slow_decode(p + 1, 4, 3);
        }
        float m = (float)(0.5 * (lo + hi)); /* exact in f32 except bf16 subnormal-of-f32 */
        float s = (rnd32() & 1) ? -1.0f : 1.0f;
        check_encoders(s * m);
        check_encoders(s * nextafterf(m, 0.0f));
        check_encoders(s * nextafterf(m, INFINITY));
    }
    /* 4. around the overflow / saturation thresholds */
    static const float edges[] = {65504.0f, 65519.0f, 65520.0f, 65536.0f, 448.0f, 463.9f,
                                  464.0f, 464.1f, 480.0f, 3.3895314e38f, 3.4028235e38f,
                                  0x1p-24f, 0x1p-25f, 0x1p-133f, 0x1p-134f, 0x1p-149f,
                                  0x1p-10f, 0x1p-9f, 0x1.8p-11f};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        for (int k = -3; k <= 3; k++) {
            float x = edges[i];
            for (int j = 0; j < (k < 0 ? -k : k); j++)
                x = nextafterf(x, k < 0 ? 0.0f : INFINITY);
            check_encoders(x);
            check_encoders(-x);
        }
    }
    /* 5. f64 -> f16 / bf16 single rounding vs the slow encoder */
    for (int i = 0; i < 100000; i++) {
        uint64_t u = rnd64();
        int e = (int)(rnd32() % 300u) - 150;
        double x = ldexp(1.0 + (double)(u >> 12) * 0x1p-52, e);
        if (u & 1u)
            x = -x;
        CHECK(ref_f64_to_f16(x) == slow_encode(&t_f16, x), "f64->f16 %a", x);
        CHECK(ref_f64_to_bf16(x) == slow_encode(&t_bf16, x), "f64->bf16 %a", x);
    }
    /* 6. i64 / u32 -> f16 / bf16 single rounding: midpoints +-1 */
    for (int i = 0; i < 30000; i++) {
        int sh = (int)(rnd32() % 62u);
        int64_t v = (int64_t)(rnd64() >> (1 + sh));
        if (rnd32() & 1)
            v = -v;
        uint16_t h, b;
        ref_cast(CRK_I64, CRK_F16, &v, &h);
        ref_cast(CRK_I64, CRK_BF16, &v, &b);
        /* exact comparison needs the integer: exact in double only below 2^53;
         * above that, verify through a midpoint argument on integers */
        double dv = (double)v;
        if (v > -(1LL << 53) && v < (1LL << 53)) {
            CHECK(h == slow_encode(&t_f16, dv), "i64->f16 %lld", (long long)v);
            CHECK(b == slow_encode(&t_bf16, dv), "i64->bf16 %lld", (long long)v);
        } else {
            /* bf16 result must be one of the two neighbours and the nearer one */
            double r = ref_bf16_to_f32(b);
            uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
            uint64_t rm = (uint64_t)fabs(r); /* |r| <= 2^63: exact */
            uint16_t other = (uint16_t)((uint64_t)fabs(r) > mag ? b - 1 : b + 1);
            uint64_t om = (uint64_t)fabs((double)ref_bf16_to_f32(other));
            uint64_t d1 = rm > mag ? rm - mag : mag - rm, d2 = om > mag ? om - mag : mag - om;
            CHECK(d1 < d2 || (d1 == d2 && !(b & 1)), "i64->bf16 big %lld", (long long)v);
            CHECK(h == (v < 0 ? 0xFC00 : 0x7C00), "i64 big -> f16 inf");
        }
        uint32_t u = rnd32() >> (rnd32() % 32u);
        ref_cast(CRK_U32, CRK_F16, &u, &h);
        ref_cast(CRK_U32, CRK_BF16, &u, &b);
        CHECK(h == slow_encode(&t_f16, (double)u), "u32->f16 %u", u);
        CHECK(b == slow_encode(&t_bf16, (double)u), "u32->bf16 %u", u);
    }
}

static int f32_eq(float a, float b)
{
    return (isnan(a) && isnan(b)) || bits_from_f(a) == bits_from_f(b);
}

static float un_f32(const char *op, float x, double p)
{
    float y;
    ref_unary(op, CRK_F32, &x, &y, p);
    return y;
}
static uint16_t un_16(const char *op, crk_dtype dt, uint16_t x, double p)
{
    uint16_t y;
    ref_unary(op, dt, &x, &y, p);
    return y;
}
static uint8_t un_f8(const char *op, uint8_t x, double p)
{
    uint8_t y;
    ref_unary(op, CRK_F8E4M3, &x, &y, p);
    return y;
}

static void test_unary(void)
{
    /* round: half away from zero */
    CHECK(un_f32("round", 2.5f, 0) == 3.0f, "round 2.5");
    CHECK(un_f32("round", -2.5f, 0) == -3.0f, "round -2.5");
    CHECK(un_f32("round", 0.5f, 0) == 1.0f, "round 0.5");
    CHECK(un_16("round", CRK_F16, 0x4100 /*2.5*/, 0) == 0x4200, "f16 round 2.5");
    CHECK(un_16("round", CRK_BF16, 0xC020 /*-2.5*/, 0) == 0xC040, "bf16 round -2.5");
    {
        double d = 2.5, y;
        ref_unary("round", CRK_F64, &d, &y, 0);
        CHECK(y == 3.0, "f64 round 2.5");
    }
    /* gelu constants in f16 */
    CHECK(ref_f16_to_f32(ref_f64_to_f16(0.7978845608028654)) == 0.7978515625f, "f16 sqrt(2/pi)");
    CHECK(ref_f16_to_f32(ref_f64_to_f16(0.044715)) == 0.044708251953125f, "f16 0.044715");
    CHECK(ref_f16_to_f32(ref_f64_to_f16(1.1283791670955126 * 0.7071067811865476)) ==
              0.7978515625f, "f16 M_2_SQRTPI*M_SQRT1_2");
    /* relu NaN rules */
    CHECK(un_f32("relu", NAN, 0) == 0.0f, "f32 relu NaN -> 0");
    {
        double d = NAN, y = 1;
        ref_unary("relu", CRK_F64, &d, &y, 0);
        CHECK(y == 0.0, "f64 relu NaN -> 0");
    }
    CHECK(un_16("relu", CRK_F16, 0x7E00, 0) == 0x7FFF, "f16 relu NaN -> NaN");
    CHECK(un_16("relu", CRK_BF16, 0xFFC0, 0) == 0x7FFF, "bf16 relu NaN -> NaN");
    CHECK(un_f8("relu", 0x7F, 0) == 0x00, "f8 relu NaN -> 0");
    CHECK(un_16("relu", CRK_F16, 0xBC00, 0) == 0x0000, "f16 relu -1");
    CHECK(un_f32("relu", 3.0f, 0) == 3.0f, "relu 3");
    /* sign */
    CHECK(f32_eq(un_f32("sign", NAN, 0), 0.0f), "sign NaN -> +0");
    CHECK(f32_eq(un_f32("sign", -0.0f, 0), 0.0f), "sign -0 -> +0");
    CHECK(un_f32("sign", -3.0f, 0) == -1.0f && un_f32("sign", 1e-30f, 0) == 1.0f, "sign");
    CHECK(un_16("sign", CRK_F16, 0x8000, 0) == 0x0000, "f16 sign -0");
    CHECK(un_16("sign", CRK_BF16, 0xC000, 0) == 0xBF80, "bf16 sign -2");
    CHECK(un_f8("sign", 0xB8, 0) == 0xB8, "f8 sign -1");
    /* abs / neg: sign bit */
    CHECK(un_16("abs", CRK_F16, 0x8000, 0) == 0x0000, "f16 abs -0");
    CHECK(un_16("neg", CRK_F16, 0x3C00, 0) == 0xBC00, "f16 neg");
    CHECK(un_16("neg", CRK_BF16, 0x7FC1, 0) == 0xFFC1, "bf16 neg NaN flips sign");
    CHECK(bits_from_f(un_f32("neg", 0.0f, 0)) == 0x80000000u, "f32 neg 0");
    CHECK(un_f8("abs", 0xFE, 0) == 0x7E, "f8 abs");
    /* 16-bit rounding of each op */
    CHECK(un_16("sqr", CRK_F16, 0x5CB0 /*300*/, 0) == 0x7C00, "f16 sqr 300 -> inf");
    CHECK(un_16("sqr", CRK_F16, 0x3C01, 0) == 0x3C02, "f16 sqr (1+2^-10) rounds");
    CHECK(un_16("recip", CRK_F16, 0x4200 /*3*/, 0) == ref_f64_to_f16(1.0 / 3.0), "f16 recip 3");
    CHECK(un_16("recip", CRK_F16, 0x0000, 0) == 0x7C00, "f16 recip 0 -> inf");
    CHECK(un_f8("recip", 0x40 /*2*/, 0) == 0x30, "f8 recip 2 = 0.5");
    CHECK(un_f8("sqr", 0x5C /*24*/, 0) == 0x7E, "f8 sqr 24 -> 448 saturate");
    CHECK(un_f32("exp", 1.0f, 0) == expf(1.0f), "f32 exp");
    CHECK(un_16("exp", CRK_BF16, 0x3F80, 0) == ref_f32_to_bf16(expf(1.0f)), "bf16 exp");
    /* elu / powf params go through T::from_f64 */
    {
        uint16_t x = 0xBC00; /* -1 */
        uint16_t al = ref_f64_to_f16(0.3);
        double a = ref_f16_to_f32(al);
        double e = ref_f16_to_f32(ref_f32_to_f16(expf(-1.0f)));
        double t = ref_f16_to_f32(ref_f64_to_f16(e - 1.0));
        CHECK(un_16("elu", CRK_F16, x, 0.3) == ref_f64_to_f16(a * t), "f16 elu");
        CHECK(un_16("elu", CRK_F16, 0x4000, 0.3) == 0x4000, "f16 elu x>0");
        CHECK(un_16("elu", CRK_F16, 0x7E00, 0.3) == 0x7FFF, "f16 elu NaN");
        CHECK(un_16("powf", CRK_F16, 0x4400 /*4*/, 0.5) == 0x4000, "f16 powf 4^0.5");
        CHECK(un_f8("powf", 0x48 /*4*/, 0.5) == 0x40, "f8 powf 4^0.5");
        /* f8 exponent is quantized: 0.3 -> f8 0.3125 (0x2A) */
        float pq = ref_f8_to_f32(ref_f32_to_f8(0.3f));
        CHECK(pq == 0.3125f, "f8 0.3 -> %g", (double)pq);
        CHECK(un_f8("powf", 0x48, 0.3) == ref_f32_to_f8(powf(4.0f, 0.3125f)), "f8 powf param");
        CHECK(un_f32("powf", 2.0f, 10.0) == 1024.0f, "f32 powf");
    }
    /* gelu in f16 with the exact operation order */
    {
        uint16_t xs[] = {0x3C00, 0xBC00, 0x4000, 0x3800, 0xC200, 0x4500, 0x0001, 0x7BFF, 0xFBFF};
        for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
            double x = ref_f16_to_f32(xs[i]);
#define H(v) ((double)ref_f16_to_f32(ref_f64_to_f16(v)))
            double c1 = H(0.044715), c2 = H(0.7978845608028654);
            double xsq = H(x * x), xc = H(xsq * x), al = H(x + H(c1 * xc));
            double th = H((double)tanhf((float)H(c2 * al)));
            uint16_t want = ref_f64_to_f16(H(0.5 * x) * H(1.0 + th));
#undef H
            CHECK(un_16("gelu", CRK_F16, xs[i], 0) == want, "f16 gelu %04X", xs[i]);
        }
        /* f16 gelu(1) is within 1 ulp of the exact value */
        uint16_t g = un_16("gelu", CRK_F16, 0x3C00, 0), e = ref_f64_to_f16(ref_unary_exact("gelu", 1.0, 0));
        CHECK(ref_ulp_diff(CRK_F16, &g, &e) <= 1, "f16 gelu(1) ulp");
    }
    /* sanity sweep: every op, every float dtype, close to the exact value */
    {
        static const double xs[] = {-3.0, -1.5, -0.75, -0.125, 0.0, 0.1, 0.5, 0.9, 1.0, 2.0, 3.25};
        for (int op = 1; op < REF_UNARY_OP_COUNT; op++) {
            const char *name = ref_unary_ops[op];
            for (int dt = CRK_BF16; dt <= CRK_F8E4M3; dt++) {
                for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
                    unsigned char in[8], out[8], ex[8];
                    double p = (strcmp(name, "powf") == 0) ? 2.0 : 1.0;
                    ref_scalar_from_f64((crk_dtype)dt, xs[i], in);
                    double x = ref_value_f64((crk_dtype)dt, in);
                    if ((op == 4 || op == 15) && x <= 0) /* log, sqrt */
                        continue;
                    if (strcmp(name, "powf") == 0 && x < 0)
                        continue;
                    ref_unary(name, (crk_dtype)dt, in, out, p);
                    double want = ref_unary_exact(name, x, p);
                    ref_scalar_from_f64((crk_dtype)dt, want, ex);
                    int64_t u = ref_ulp_diff((crk_dtype)dt, out, ex);
                    /* f32/f64: a few ulps; composites with cancellation (elu,
                     * gelu near 0) are excluded by the inputs; 16-bit/f8: <= 2 */
                    int64_t tol = (dt == CRK_F32 || dt == CRK_F64) ? 8 : 2;
                    /* gelu (1 + tanh cancellation for x < 0) and elu (exp(x) - 1)
                     * lose relative accuracy by design: bound the absolute error
                     * by 2 epsilons of the dtype instead */
                    int absolute = strcmp(name, "gelu") == 0 || strcmp(name, "elu") == 0;
                    static const double eps[] = {0x1p-7, 0x1p-10, 0x1p-23, 0x1p-52, 0x1p-3};
                    double err = fabs(ref_value_f64((crk_dtype)dt, out) - want);
                    CHECK(absolute ? err <= 2 * eps[dt - CRK_BF16] : u <= tol, "%s %s x=%g: got %g want %.17g (%lld ulp)", name,
                          ref_dtype_name((crk_dtype)dt), x, ref_value_f64((crk_dtype)dt, out), want,
                          (long long)u);
                }
            }
        }
    }
    CHECK(ref_unary_supported("copy", CRK_I16) && !ref_unary_supported("exp", CRK_U8) &&
              !ref_unary_supported("nope", CRK_F32),
          "supported");
    {
        int64_t a = -5, b = 0;
        ref_unary("copy", CRK_I64, &a, &b, 0);
        CHECK(b == -5, "copy i64");
    }
}

static void test_affine(void)
{
    uint8_t b = 200, bo = 0;
    ref_affine(CRK_U8, &b, &bo, 2.0, 100.0);
    CHECK(bo == 244, "u8 affine wraps");
    ref_affine(CRK_U8, &b, &bo, 300.0, 0.0); /* mul -> 255 (saturating `as`) */
    CHECK(bo == (uint8_t)(200u * 255u), "u8 affine mul saturates to 255: %u", bo);
    ref_affine(CRK_U8, &b, &bo, 1.0, -7.0); /* add -> 0 */
    CHECK(bo == 200, "u8 affine negative add -> 0");
    int32_t i = 1 << 30, io = 1;
    ref_affine(CRK_I32, &i, &io, 4.0, 0.0);
    CHECK(io == 0, "i32 affine wraps");
    i = -3;
    ref_affine(CRK_I32, &i, &io, 2.9, -1.9); /* mul 2, add -1 */
    CHECK(io == -7, "i32 affine truncating scalars");
    int16_t s = 300, so = 0;
    ref_affine(CRK_I16, &s, &so, 300.0, 0.0); /* 90000 mod 2^16 = 24464 */
    CHECK(so == 24464, "i16 affine wraps: %d", so);
    int64_t l = 5, lo = 1;
    ref_affine(CRK_I64, &l, &lo, NAN, 3.0);
    CHECK(lo == 3, "i64 affine NaN mul -> 0");
    uint32_t u = 0xFFFFFFFFu, uo = 0;
    ref_affine(CRK_U32, &u, &uo, 1.0, 2.0);
    CHECK(uo == 1, "u32 affine wraps");
    float x = 1.0f + 0x1p-12f, xo = 0;
    ref_affine(CRK_F32, &x, &xo, 1.0 + 0x1p-12, -1.0);
    CHECK(xo == 0x1p-11f + 0x1p-24f, "f32 affine is fused: %a", (double)xo);
    double d = 1.0 + 0x1p-30, dout = 0;
    ref_affine(CRK_F64, &d, &dout, 1.0 + 0x1p-30, -1.0);
    CHECK(dout == 0x1p-29 + 0x1p-60, "f64 affine fused");
    uint16_t h = 0x3C01, ho = 0;
    ref_affine(CRK_F16, &h, &ho, 1.0 + 0x1p-10, -1.0);
    CHECK(ho == 0x1800, "f16 affine rounded mul then add: %04X", ho);
    uint16_t bb = 0x3F81, bbo = 0;
    ref_affine(CRK_BF16, &bb, &bbo, 1.0 + 0x1p-7, -1.0); /* (1+2^-7)^2 -> 1+2^-6 */
    CHECK(bbo == 0x3C80, "bf16 affine rounded: %04X", bbo);
    uint8_t q = 0x38, qo = 0; /* 1.0 */
    ref_affine(CRK_F8E4M3, &q, &qo, 500.0, 0.0); /* mul -> 448 */
    CHECK(qo == 0x7E, "f8 affine");
    ref_affine(CRK_F8E4M3, &q, &qo, 1.0, 0.0625); /* 1.0625 tie -> 1.0 */
    CHECK(qo == 0x38, "f8 affine tie");
}

static void test_where_ulp(void)
{
    uint8_t c0 = 0, c2 = 2;
    CHECK(!ref_is_true(CRK_U8, &c0) && ref_is_true(CRK_U8, &c2), "u8 cond");
    uint32_t u = 0x100;
    CHECK(ref_is_true(CRK_U32, &u), "u32 cond");
    int64_t l = INT64_MIN;
    CHECK(ref_is_true(CRK_I64, &l), "i64 cond");
    l = 0;
    CHECK(!ref_is_true(CRK_I64, &l), "i64 cond 0");
    int16_t s = -1;
    CHECK(ref_is_true(CRK_I16, &s), "i16 cond");
    float fz = -0.0f, fn = NAN;
    CHECK(!ref_is_true(CRK_F32, &fz) && ref_is_true(CRK_F32, &fn), "f32 cond");
    uint8_t q = 0x80;
    CHECK(!ref_is_true(CRK_F8E4M3, &q), "f8 -0 false");

    float a = 0.0f, b = -0.0f;
    CHECK(ref_ulp_diff(CRK_F32, &a, &b) == 0, "ulp +-0");
    a = 1.0f;
    b = nextafterf(1.0f, 2.0f);
    CHECK(ref_ulp_diff(CRK_F32, &a, &b) == 1, "ulp 1");
    a = 0x1p-149f;
    b = -0x1p-149f;
    CHECK(ref_ulp_diff(CRK_F32, &a, &b) == 2, "ulp across 0");
    b = NAN;
    CHECK(ref_ulp_diff(CRK_F32, &a, &b) == INT64_MAX, "ulp NaN");
    a = NAN;
    CHECK(ref_ulp_diff(CRK_F32, &a, &b) == 0, "ulp NaN NaN");
    uint16_t h1 = 0x7BFF, h2 = 0x7C00;
    CHECK(ref_ulp_diff(CRK_F16, &h1, &h2) == 1, "ulp f16 inf");
    uint8_t q1 = 0x01, q2 = 0x81;
    CHECK(ref_ulp_diff(CRK_F8E4M3, &q1, &q2) == 2, "ulp f8");
    double d1 = -INFINITY, d2 = INFINITY;
    CHECK(ref_ulp_diff(CRK_F64, &d1, &d2) > 0, "ulp f64 extremes no overflow");
    int64_t i1 = INT64_MIN, i2 = INT64_MAX;
    CHECK(ref_ulp_diff(CRK_I64, &i1, &i2) == INT64_MAX, "int diff saturates");
    uint8_t b1 = 3, b2 = 250;
    CHECK(ref_ulp_diff(CRK_U8, &b1, &b2) == 247, "u8 diff");
}

/* Each test_* is one test; its CHECKs are comparisons, counted apart so that
 * the closing line counts tests (the unit `make check` adds up). */
static int run(const char *name, void (*fn)(void))
{
    const long p0 = n_pass, f0 = n_fail;
    fn();
    printf("ref: %-22s %8ld comparisons  %s\n", name, n_pass + n_fail - p0 - f0,
           n_fail == f0 ? "ok" : "FAILED");
    return n_fail == f0;
}

/* §4.2/§4.3 facts, and the definitions this project adds (x/0, MIN/-1). */
static void test_binary(void)
{
    uint8_t a8 = 200, b8 = 100, o8;
    ref_binary("add", CRK_U8, &a8, &b8, &o8);
    CHECK(o8 == 44, "u8 200+100 wraps to 44, got %u", o8);
    ref_binary("sub", CRK_U8, &b8, &a8, &o8);
    CHECK(o8 == 156, "u8 100-200 wraps to 156, got %u", o8);
    b8 = 0;
    ref_binary("div", CRK_U8, &a8, &b8, &o8);
    CHECK(o8 == 0xFF, "u8 x/0 = all ones, got %u", o8);
    int64_t mn = INT64_MIN, m1 = -1, o64, seven = -7, two = 2;
    ref_binary("div", CRK_I64, &mn, &m1, &o64);
    CHECK(o64 == INT64_MIN, "i64 MIN/-1 wraps to MIN");
    ref_binary("div", CRK_I64, &seven, &two, &o64);
    CHECK(o64 == -3, "i64 -7/2 truncates to -3, got %lld", (long long)o64);
    ref_binary("maximum", CRK_I64, &seven, &two, &o64);
    CHECK(o64 == 2, "i64 max(-7, 2) signed");
    int16_t h1 = 32767, h2 = 1, oh;
    ref_binary("add", CRK_I16, &h1, &h2, &oh);
    CHECK(oh == -32768, "i16 wrap");
    uint32_t u1 = 5, u2 = 7, ou;
    ref_binary("sub", CRK_U32, &u1, &u2, &ou);
    CHECK(ou == 0xFFFFFFFEu, "u32 5-7 wraps");
    /* maxg: f32 NaN-ignoring, f16 NaN-propagating, f8 through f32 */
    float fn = NAN, f1 = 1.0f, of;
    ref_binary("maximum", CRK_F32, &fn, &f1, &of);
    CHECK(of == 1.0f, "f32 max(NaN, 1) = 1");
    ref_binary("minimum", CRK_F32, &f1, &fn, &of);
    CHECK(of == 1.0f, "f32 min(1, NaN) = 1");
    uint64_t snan_bits = 0x7FF4000000000001ull; /* signalling: CUDA's fmax ignores it too */
    double snan, d1 = 1.0, od;
    memcpy(&snan, &snan_bits, 8);
    ref_binary("maximum", CRK_F64, &snan, &d1, &od);
    CHECK(od == 1.0, "f64 max(sNaN, 1) = 1 (PTX max), got %g", od);
    uint16_t hn = 0x7E00, hone = 0x3C00, o16;
    ref_binary("maximum", CRK_F16, &hn, &hone, &o16);
    CHECK(o16 == 0x7FFF, "f16 max(NaN, 1) = NaN 0x7FFF, got 0x%04X", o16);
    uint16_t bnan = 0x7FC0;
    ref_binary("minimum", CRK_BF16, &hone, &bnan, &o16); /* 0x3C00 is bf16 2^-7 */
    CHECK(o16 == 0x7FFF, "bf16 min(x, NaN) = NaN");
    uint8_t fa = 0x7E /* 448 */, fb = 0x7E, fo;
    ref_binary("add", CRK_F8E4M3, &fa, &fb, &fo);
    CHECK(fo == 0x7E, "f8 448+448 saturates to 448 (0x7E), got 0x%02X", fo);
    uint8_t f8nan = 0x7F, f8one = 0x38;
    ref_binary("maximum", CRK_F8E4M3, &f8nan, &f8one, &fo);
    CHECK(fo == 0x38, "f8 max(NaN, 1) = 1 (fmaxf in f32), got 0x%02X", fo);
    /* f16: 2048 + 1 rounds to even 2048; 1/3 rounds once */
    uint16_t x2048 = 0x6800, o;
    ref_binary("add", CRK_F16, &x2048, &hone, &o);
    CHECK(o == 0x6800, "f16 2048+1 = 2048 (RNE), got 0x%04X", o);
    uint16_t three = 0x4200;
    ref_binary("div", CRK_F16, &hone, &three, &o);
    CHECK(o == 0x3555, "f16 1/3 = 0x3555, got 0x%04X", o);
    /* comparisons: u8 1/0, NaN unordered except ne; i64 exact past 2^53 */
    uint8_t r;
    ref_cmp("ne", CRK_F32, &fn, &fn, &r);
    CHECK(r == 1, "NaN != NaN");
    const char *const nan_false[] = {"eq", "lt", "le", "gt", "ge"};
    for (int k = 0; k < 5; k++) {
        ref_cmp(nan_false[k], CRK_F32, &fn, &f1, &r);
        CHECK(r == 0, "%s(NaN, 1) is false", nan_false[k]);
    }
    int64_t big = (1ll << 53) + 1, big2 = 1ll << 53;
    ref_cmp("gt", CRK_I64, &big, &big2, &r);
    CHECK(r == 1, "i64 2^53+1 > 2^53");
    uint16_t pz = 0x0000, nz = 0x8000;
    ref_cmp("eq", CRK_F16, &pz, &nz, &r);
    CHECK(r == 1, "f16 +0 == -0");
}

/* Indexing (§4.9): the sentinel and range rule, zeros, sums in order. */
static void test_indexing(void)
{
    size_t row = 0;
    const uint8_t u255 = 255, u254 = 254;
    CHECK(!ref_index_row(CRK_U8, &u255, 300, &row), "u8 255 is the sentinel even with 300 rows");
    CHECK(ref_index_row(CRK_U8, &u254, 300, &row) && row == 254, "u8 254 selects row 254");
    const int64_t neg = -1, imax = INT64_MAX, last = 9, past = 10;
    CHECK(!ref_index_row(CRK_I64, &neg, 10, &row), "i64 -1 selects nothing (upstream: out of bounds)");
    CHECK(!ref_index_row(CRK_I64, &imax, 10, &row), "i64 sentinel");
    CHECK(ref_index_row(CRK_I64, &last, 10, &row) && row == 9, "i64 9 < 10");
    CHECK(!ref_index_row(CRK_I64, &past, 10, &row), "i64 10 of 10 rows is out of range");
    const int16_t s16 = 0x7FFF, n16 = -3;
    CHECK(!ref_index_row(CRK_I16, &s16, 1u << 20, &row), "i16 sentinel 32767");
    CHECK(!ref_index_row(CRK_I16, &n16, 10, &row), "i16 -3");
    const uint32_t u32max = 0xFFFFFFFFu;
    CHECK(!ref_index_row(CRK_U32, &u32max, (size_t)1 << 40, &row), "u32 sentinel");
    /* index_select: src 2 rows x 3, ids {1, 0, 255} -> row 1, row 0, zeros */
    const float src[6] = {1, 2, 3, 4, 5, 6};
    const uint8_t ids[3] = {1, 0, 255};
    float out[9];
    ref_index_select(CRK_U8, CRK_F32, ids, src, out, 1, 2, 3, 3);
    const float want[9] = {4, 5, 6, 1, 2, 3, 0, 0, 0};
    CHECK(!memcmp(out, want, sizeof want), "index_select rows and the sentinel's zeros");
    /* gather: out[i] = src[ids[i]] along dim 0 of a (2, 1) tensor */
    const uint32_t gids[2] = {1, 7};
    float g[2];
    ref_gather(CRK_U32, CRK_F32, gids, src, g, 1, 2, 2, 1);
    CHECK(g[0] == 2 && g[1] == 0, "gather src[1] and 0 for an out-of-range id, got %g %g", g[0], g[1]);
    /* index_add: duplicates accumulate, in order */
    float dst[2] = {0, 0};
    const uint32_t aids[3] = {1, 1, 0};
    const float add[3] = {1, 2, 3};
    ref_index_add(CRK_U32, CRK_F32, aids, 3, add, dst, 1, 2, 1);
    CHECK(dst[0] == 3 && dst[1] == 3, "index_add duplicates: %g %g", dst[0], dst[1]);
    /* bf16 rounds each addition: 256 + 1 + 1 stays 256 (f32 would give 258) */
    uint16_t b[1] = {0x4380}, ones[2] = {0x3F80, 0x3F80};
    const int64_t zz[2] = {0, 0};
    ref_index_add(CRK_I64, CRK_BF16, zz, 2, ones, b, 1, 1, 1);
    CHECK(b[0] == 0x4380, "bf16 256+1+1 = 256 added one at a time, got 0x%04X", b[0]);
    /* fp8 scatter_add saturates: 448 + 448 = 448 (0x7E) */
    uint8_t f8[1] = {0x7E}, f8src[1] = {0x7E};
    const uint8_t z8[1] = {0};
    ref_scatter(1, CRK_U8, CRK_F8E4M3, z8, f8src, f8, 1, 1, 1, 1);
    CHECK(f8[0] == 0x7E, "fp8 448+448 saturates to 448, got 0x%02X", f8[0]);
    /* scatter: the last j wins; u8 sums wrap */
    float sd[1] = {0};
    const float ssrc[2] = {5, 7};
    const uint8_t sz[2] = {0, 0};
    ref_scatter(0, CRK_U8, CRK_F32, sz, ssrc, sd, 1, 2, 1, 1);
    CHECK(sd[0] == 7, "scatter: last j wins, got %g", sd[0]);
    uint8_t w[1] = {200}, wsrc[2] = {100, 1};
    ref_scatter(1, CRK_U8, CRK_U8, sz, wsrc, w, 1, 2, 1, 1);
    CHECK(w[0] == 45, "u8 200+100+1 wraps to 45, got %u", w[0]);
}

/* Module sort (§4.17): Candle's network, hand-traced on short rows, and
 * crk_argsort's long-row order. */
static int idx_eq(const uint32_t *got, const uint32_t *want, size_t n) {
    return memcmp(got, want, n * sizeof *got) == 0;
}
static void test_sort(void)
{
    uint32_t o[8];
    const float a[3] = {3, 1, 2}; /* pad 4: [0,1,2,3] -> [1,0,3,2] -> [1,2,3,0] -> [1,2,0,3] */
    ref_asort_candle(CRK_F32, 1, a, 3, o);
    CHECK(idx_eq(o, (const uint32_t[]){1, 2, 0}, 3), "asc [3,1,2]");
    ref_asort_candle(CRK_F32, 0, a, 3, o);
    CHECK(idx_eq(o, (const uint32_t[]){0, 2, 1}, 3), "desc [3,1,2]");
    /* NaN compares false: it stays where the network leaves it (first here) */
    const float n[3] = {NAN, 1, 0};
    ref_asort_candle(CRK_F32, 1, n, 3, o);
    CHECK(idx_eq(o, (const uint32_t[]){0, 2, 1}, 3), "asc [NaN,1,0]");
    const double t[2] = {5, 5}; /* equal: never swapped */
    ref_asort_candle(CRK_F64, 1, t, 2, o);
    CHECK(idx_eq(o, (const uint32_t[]){0, 1}, 2), "asc tie");
    ref_asort_candle(CRK_F64, 0, t, 2, o);
    CHECK(idx_eq(o, (const uint32_t[]){0, 1}, 2), "desc tie");
    const uint8_t one = 7; /* one column: pad 1, no stage */
    ref_asort_candle(CRK_U8, 0, &one, 1, o);
    CHECK(o[0] == 0, "one column");
    /* i64 beyond 2^53 compares exactly */
    const int64_t big[2] = {(int64_t)1 << 60 | 1, (int64_t)1 << 60};
    ref_asort_candle(CRK_I64, 1, big, 2, o);
    CHECK(idx_eq(o, (const uint32_t[]){1, 0}, 2), "i64 exact");
    /* long-row order: stable, NaN last in both orders */
    const float s[6] = {2, NAN, 1, 2, -0.0f, 0.0f};
    ref_argsort_stable(CRK_F32, 1, s, 6, o);
    CHECK(idx_eq(o, (const uint32_t[]){4, 5, 2, 0, 3, 1}, 6), "stable asc");
    ref_argsort_stable(CRK_F32, 0, s, 6, o);
    CHECK(idx_eq(o, (const uint32_t[]){0, 3, 2, 4, 5, 1}, 6), "stable desc");
}

/* Module conv (§4.14-§4.16): the quirks and semantics the sheet states. */
static ref_view view_c(size_t d0, size_t d1, size_t d2, size_t d3)
{
    ref_view v = {{d0, d1, d2, d3}, {d1 * d2 * d3, d2 * d3, d3, 1}};
    return v;
}
static void test_conv(void)
{
    /* conv1d's dilation scales the stride term: positions (l + k)·2 */
    const float x[6] = {1, 2, 3, 4, 5, 6}, k[2] = {1, 10};
    ref_view xv = view_c(1, 1, 6, 1), kv = view_c(1, 1, 2, 1);
    float y[4];
    ref_conv1d(CRK_F32, x, &xv, k, &kv, 4, 1, 0, 2, y);
    CHECK(y[0] == 31 && y[1] == 53 && y[2] == 5 && y[3] == 0, "conv1d dilation quirk: %g %g %g %g", (double)y[0],
          (double)y[1], (double)y[2], (double)y[3]);
    /* conv_transpose1d, stride 2: out = [x0·k0, x0·k1, x1·k0, x1·k1] */
    ref_view tv = view_c(1, 1, 2, 1);
    ref_conv_transpose1d(CRK_F32, x, &tv, k, &kv, 4, 2, 0, 1, y);
    CHECK(y[0] == 1 && y[1] == 10 && y[2] == 2 && y[3] == 20, "conv_transpose1d stride 2");
    /* avg_pool2d sums u8 in u8: 4 x 200 = 800 = 32 mod 256, / 4 = 8 */
    const uint8_t u[4] = {200, 200, 200, 200};
    ref_view uv = view_c(1, 1, 2, 2);
    uint8_t a;
    ref_avg_pool2d(CRK_U8, u, &uv, 2, 2, 2, 2, &a);
    CHECK(a == 8, "avg_pool2d u8 wraps: got %u", a);
    /* max_pool2d: f32 ignores NaN, f16 propagates it */
    const float nf[4] = {NAN, 1, 3, 2};
    float mf;
    ref_max_pool2d(CRK_F32, nf, &uv, 2, 2, 1, 1, &mf);
    CHECK(mf == 3, "max_pool2d f32 NaN-ignoring");
    const uint16_t nh[4] = {0x3C00, 0x7E00, 0x4000, 0x3C00};
    uint16_t mh;
    ref_max_pool2d(CRK_F16, nh, &uv, 2, 2, 1, 1, &mh);
    CHECK((mh & 0x7C00) == 0x7C00 && (mh & 0x3FF), "max_pool2d f16 NaN-propagating");
    /* col2im1d, l_in 2, k 3, stride 2: l_out 5, the middle sums two taps */
    const float c[6] = {1, 2, 3, 40, 50, 60};
    float o[5];
    ref_col2im1d(CRK_F32, c, 1, 2, 1, 3, 2, o);
    CHECK(o[0] == 1 && o[1] == 2 && o[2] == 43 && o[3] == 50 && o[4] == 60, "col2im1d overlap");
    /* upsample_nearest2d 2x2 -> 3x3: rows and columns 0, 0, 1 */
    const float q[4] = {1, 2, 3, 4};
    float n[9];
    ref_upsample_nearest2d(CRK_F32, q, &uv, 3, 3, 2.0 / 3, 2.0 / 3, n);
    CHECK(n[0] == 1 && n[1] == 1 && n[2] == 2 && n[6] == 3 && n[8] == 4, "upsample_nearest2d floor");
    /* bilinear [0, 10] -> 3: align_corners 0, 5, 10; half-pixel 0, 5, 10 too
     * (clamped ends); -> 4 half-pixel: 0, 2.5, 7.5, 10 */
    const float r[2] = {0, 10};
    ref_view rv = view_c(1, 1, 1, 2);
    float b3[3], b4[4];
    ref_upsample_bilinear2d(CRK_F32, r, &rv, 1, 3, 1, 0, 0, 0, 0, b3);
    CHECK(b3[0] == 0 && b3[1] == 5 && b3[2] == 10, "bilinear align_corners");
    ref_upsample_bilinear2d(CRK_F32, r, &rv, 1, 4, 0, 0, 0, 0, 0, b4);
    CHECK(b4[0] == 0 && b4[1] == 2.5f && b4[2] == 7.5f && b4[3] == 10, "bilinear half-pixel: %g %g %g %g",
          (double)b4[0], (double)b4[1], (double)b4[2], (double)b4[3]);
    /* im2col1d: zero padding at both ends, (b, l_out, c, k) order */
    const float p[3] = {7, 8, 9};
    ref_view pv = view_c(1, 1, 3, 1);
    float col[9];
    ref_im2col1d(CRK_F32, p, &pv, 3, 3, 1, 1, 1, col);
    CHECK(col[0] == 0 && col[1] == 7 && col[2] == 8 && col[6] == 8 && col[7] == 9 && col[8] == 0, "im2col1d padding");
}

/* GGML blocks: packed here the way GGML's quantizers lay them out (their
 * loops, not ref_ggml.c's unpacking), from chosen integer quants, scales
 * and mins with d, dmin = odd·2^-10 so that every value is exact in f32 and
 * the expected d·sc·q − dmin·mn needs no rounding. */
static void put_half(uint8_t *p, float v) { const uint16_t h = ref_f32_to_f16(v); p[0] = (uint8_t)h, p[1] = (uint8_t)(h >> 8); }
static float dyadic(void) { return (float)(int)(rnd32() % 31 + 1) * (rnd32() & 1 ? -1.0f : 1.0f) / 1024.0f; }
static int irand(int lo, int hi) { return lo + (int)(rnd32() % (uint32_t)(hi - lo + 1)); }

static void pack_legacy(ref_ggml_type t, uint8_t *b, float *want) {
    const float d = dyadic(), m = dyadic();
    int q[32];
    put_half(b, d);
    switch (t) {
    case REF_Q4_0: case REF_Q4_1:
        for (int j = 0; j < 32; j++) q[j] = irand(0, 15);
        if (t == REF_Q4_1) put_half(b + 2, m);
        for (int j = 0; j < 16; j++) b[(t == REF_Q4_1 ? 4 : 2) + j] = (uint8_t)(q[j] | q[j + 16] << 4);
        for (int j = 0; j < 32; j++) want[j] = t == REF_Q4_0 ? d * (float)(q[j] - 8) + 0.0f /* +0 at q = 8 */ : d * (float)q[j] + m;
        return;
    case REF_Q5_0: case REF_Q5_1: {
        const int o = t == REF_Q5_1 ? 4 : 2;
        uint32_t qh = 0;
        if (t == REF_Q5_1) put_half(b + 2, m);
        for (int j = 0; j < 32; j++) q[j] = irand(0, 31), qh |= (uint32_t)(q[j] >> 4) << j;
        for (int k = 0; k < 4; k++) b[o + k] = (uint8_t)(qh >> (8 * k));
        for (int j = 0; j < 16; j++) b[o + 4 + j] = (uint8_t)((q[j] & 15) | (q[j + 16] & 15) << 4);
        for (int j = 0; j < 32; j++) want[j] = t == REF_Q5_0 ? d * (float)(q[j] - 16) : d * (float)q[j] + m;
        return;
    }
    default: { /* q8_0, q8_1 (ds: d and any sum) */
        const int o = t == REF_Q8_1 ? 4 : 2;
        if (t == REF_Q8_1) put_half(b + 2, m);
        for (int j = 0; j < 32; j++) q[j] = irand(-128, 127), b[o + j] = (uint8_t)(int8_t)q[j], want[j] = d * (float)q[j];
        return;
    }
    }
}

static void pack_k(ref_ggml_type t, uint8_t *b, float *want) {
    const float d = dyadic(), dmin = dyadic();
    int L[256], sc[16], mn[16];
    switch (t) {
    case REF_Q2_K: /* scales[16] = sc | mn << 4; qs[j/4 + l] = 4 values 32 apart */
        for (int j = 0; j < 16; j++) sc[j] = irand(0, 15), mn[j] = irand(0, 15), b[j] = (uint8_t)(sc[j] | mn[j] << 4);
        for (int i = 0; i < 256; i++) L[i] = irand(0, 3), want[i] = d * (float)sc[i / 16] * (float)L[i] - dmin * (float)mn[i / 16];
        for (int j = 0; j < 256; j += 128)
            for (int l = 0; l < 32; l++)
                b[16 + j / 4 + l] = (uint8_t)(L[j + l] | L[j + l + 32] << 2 | L[j + l + 64] << 4 | L[j + l + 96] << 6);
        put_half(b + 80, d), put_half(b + 82, dmin);
        return;
    case REF_Q3_K: { /* L = q + 4 in 0..7: bit 2 into hmask (byte j % 32, bit j / 32), the rest into qs */
        memset(b, 0, 110);
        for (int j = 0; j < 16; j++) {
            sc[j] = irand(0, 63);
            if (j < 8) b[96 + j] = (uint8_t)(sc[j] & 0xF);
            else b[96 + j - 8] |= (uint8_t)((sc[j] & 0xF) << 4);
            b[96 + 8 + j % 4] |= (uint8_t)((sc[j] >> 4) << (2 * (j / 4)));
        }
        for (int i = 0; i < 256; i++) {
            L[i] = irand(0, 7), want[i] = d * (float)(sc[i / 16] - 32) * (float)(L[i] - 4);
            if (L[i] > 3) b[i % 32] |= (uint8_t)(1u << (i / 32)), L[i] -= 4;
        }
        for (int j = 0; j < 256; j += 128)
            for (int l = 0; l < 32; l++)
                b[32 + j / 4 + l] = (uint8_t)(L[j + l] | L[j + l + 32] << 2 | L[j + l + 64] << 4 | L[j + l + 96] << 6);
        put_half(b + 108, d);
        return;
    }
    case REF_Q4_K: case REF_Q5_K: { /* 8 six-bit scales and mins in scales[12] */
        const int five = t == REF_Q5_K;
        uint8_t *s = b + 4, *qh = b + 16, *ql = b + (five ? 48 : 16);
        memset(b, 0, five ? 176 : 144);
        put_half(b, d), put_half(b + 2, dmin);
        for (int j = 0; j < 8; j++) {
            sc[j] = irand(0, 63), mn[j] = irand(0, 63);
            if (j < 4) {
                s[j] = (uint8_t)sc[j], s[j + 4] = (uint8_t)mn[j];
            } else {
                s[j + 4] = (uint8_t)((sc[j] & 0xF) | (mn[j] & 0xF) << 4);
                s[j - 4] |= (uint8_t)((sc[j] >> 4) << 6);
                s[j] |= (uint8_t)((mn[j] >> 4) << 6);
            }
        }
        for (int i = 0; i < 256; i++)
            L[i] = irand(0, five ? 31 : 15), want[i] = d * (float)sc[i / 32] * (float)L[i] - dmin * (float)mn[i / 32];
        uint8_t m1 = 1, m2 = 2;
        for (int n = 0; n < 256; n += 64, ql += 32, m1 = (uint8_t)(m1 << 2), m2 = (uint8_t)(m2 << 2))
            for (int j = 0; j < 32; j++) {
                int l1 = L[n + j], l2 = L[n + j + 32];
                if (l1 > 15) l1 -= 16, qh[j] |= m1;
                if (l2 > 15) l2 -= 16, qh[j] |= m2;
                ql[j] = (uint8_t)(l1 | l2 << 4);
            }
        return;
    }
    case REF_Q6_K: { /* L = q + 32 in 0..63, int8 scales per 16 */
        uint8_t *ql = b, *qh = b + 128;
        for (int j = 0; j < 16; j++) sc[j] = irand(-128, 127), b[192 + j] = (uint8_t)(int8_t)sc[j];
        for (int i = 0; i < 256; i++) L[i] = irand(0, 63), want[i] = d * (float)sc[i / 16] * (float)(L[i] - 32);
        for (int j = 0; j < 256; j += 128, ql += 64, qh += 32)
            for (int l = 0; l < 32; l++) {
                ql[l] = (uint8_t)((L[j + l] & 0xF) | (L[j + l + 64] & 0xF) << 4);
                ql[l + 32] = (uint8_t)((L[j + l + 32] & 0xF) | (L[j + l + 96] & 0xF) << 4);
                qh[l] = (uint8_t)(L[j + l] >> 4 | (L[j + l + 32] >> 4) << 2 | (L[j + l + 64] >> 4) << 4 | (L[j + l + 96] >> 4) << 6);
            }
        put_half(b + 208, d);
        return;
    }
    default: /* q8_K: f32 d, int8 qs, bsums (not read) */
        memcpy(b, &d, 4);
        for (int i = 0; i < 256; i++) L[i] = irand(-128, 127), b[4 + i] = (uint8_t)(int8_t)L[i], want[i] = d * (float)L[i];
        memset(b + 260, 0xA5, 32);
        return;
    }
}

static void test_ggml(void)
{
    static const unsigned bytes[REF_GGML_COUNT] = {18, 20, 22, 24, 34, 36, 84, 110, 144, 176, 210, 292};
    for (int t = 0; t < REF_GGML_COUNT; t++) {
        const size_t nv = ref_ggml_block_values((ref_ggml_type)t), nb = ref_ggml_block_bytes((ref_ggml_type)t);
        CHECK(nb == bytes[t] && nv == (t < REF_Q2_K ? 32u : 256u), "%s: %zu bytes, %zu values", ref_ggml_name((ref_ggml_type)t), nb, nv);
        for (int rep = 0; rep < 50; rep++) {
            uint8_t blk[3 * 292], copy[3 * 292];
            float want[3][256], got[3 * 256];
            for (int k = 0; k < 3; k++) /* three blocks in a row: each reads its own bytes */
                (t < REF_Q2_K ? pack_legacy : pack_k)((ref_ggml_type)t, blk + k * nb, want[k]);
            memcpy(copy, blk, 3 * nb);
            ref_ggml_dequantize((ref_ggml_type)t, blk, 3, got);
            int bad = 0;
            for (int k = 0; k < 3; k++)
                for (size_t i = 0; i < nv; i++)
                    if (bits_from_f(got[k * nv + i]) != bits_from_f(want[k][i]) && !bad++)
                        CHECK(0, "%s block %d value %zu: got %a want %a", ref_ggml_name((ref_ggml_type)t), k, i,
                              (double)got[k * nv + i], (double)want[k][i]);
            CHECK(!bad, "%s: %d wrong values", ref_ggml_name((ref_ggml_type)t), bad);
            CHECK(!memcmp(blk, copy, 3 * nb), "%s: the source was written", ref_ggml_name((ref_ggml_type)t));
        }
    }
    CHECK(ref_ggml_dequantize(REF_GGML_COUNT, NULL, 0, NULL) == -1, "bad type");

    /* q8_1: integers with max 127 quantize to themselves (d = 1, exact sum);
     * random rows to within d/2, zero padding, an all-zero block */
    float x[96];
    uint8_t y[3 * 36];
    for (int i = 0; i < 96; i++) x[i] = (float)irand(-127, 127);
    x[5] = 127, x[40] = -127, x[70] = 127;
    ref_quantize_q8_1(x, 96, 96, y);
    for (int b = 0; b < 3; b++) {
        float sum = 0;
        for (int l = 0; l < 32; l++) sum += x[32 * b + l];
        CHECK(ref_f16_to_f32((uint16_t)(y[36 * b] | y[36 * b + 1] << 8)) == 1.0f, "q8_1 d of block %d", b);
        CHECK(ref_f16_to_f32((uint16_t)(y[36 * b + 2] | y[36 * b + 3] << 8)) == ref_f16_to_f32(ref_f32_to_f16(sum)), "q8_1 sum of block %d", b);
        for (int l = 0; l < 32; l++) CHECK((int8_t)y[36 * b + 4 + l] == (int)x[32 * b + l], "q8_1 q[%d][%d]", b, l);
    }
    for (int i = 0; i < 96; i++) x[i] = f_from_bits(rnd32() & 0xBFFFFFFF) / 1e30f; /* |x| < 2^128/1e30, sign random */
    ref_quantize_q8_1(x, 50, 96, y); /* values 50.. are padding: zero */
    for (int b = 0; b < 3; b++) {
        const float d = ref_f16_to_f32((uint16_t)(y[36 * b] | y[36 * b + 1] << 8));
        float amax = 0;
        for (int l = 0; l < 32 && 32 * b + l < 50; l++) amax = fmaxf(amax, fabsf(x[32 * b + l]));
        CHECK(d == ref_f16_to_f32(ref_f32_to_f16(amax / 127)), "q8_1 d of random block %d", b);
        for (int l = 0; l < 32; l++) {
            const float v = 32 * b + l < 50 ? x[32 * b + l] : 0.0f, dd = amax / 127;
            const int q = (int8_t)y[36 * b + 4 + l];
            CHECK(amax == 0 ? q == 0 : fabsf(v - dd * (float)q) <= dd * 0.5f * (1 + 1e-6f), "q8_1 random q[%d][%d] = %d for %a", b, l, q, (double)v);
        }
    }
}

int main(void)
{
    static const struct { const char *name; void (*fn)(void); } tests[] = {
        {"dtype_info", test_dtype_info},   {"f32_to_u8", test_f32_to_u8},
        {"f32_to_f8", test_f32_to_f8},     {"misc_conversions", test_misc_conversions},
        {"all_pairs", test_all_pairs},     {"exhaustive", test_exhaustive},
        {"bruteforce", test_bruteforce},   {"unary", test_unary},
        {"affine", test_affine},           {"where_ulp", test_where_ulp},
        {"binary", test_binary},           {"indexing", test_indexing},
        {"sort", test_sort},               {"conv", test_conv},
        {"ggml", test_ggml},
    };
    build_tables();
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        run(tests[i].name, tests[i].fn) ? passed++ : failed++;
    printf("%d passed, %d failed (%ld comparisons, %ld failed)\n", passed, failed, n_pass + n_fail, n_fail);
    return failed == 0 ? 0 : 1;
}
