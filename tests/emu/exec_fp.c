/* exec_fp.c — floating-point pieces the VALU needs that C does not give
 * directly: f16 conversions with one rounding, the division helpers
 * (div_scale / div_fmas / div_fixup as the ISA documents describe them),
 * frexp parts, and v_trig_preop_f64's table of 2/pi. */
#include <fenv.h>
#include "exec.h"
#include "exec_fp.h"

/* Bit arithmetic, no libm: the emulated runs convert f16 on most lanes of
 * every 16-bit kernel (ldexpf/nearbyint were a sixth of an f16 sort run). */
float ex_h2f(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023;
    if (e == 31)
        return ex_f(s | 0x7f800000u | m << 13);
    if (e == 0) { /* subnormal or zero: m * 2^-24, exact in f32 */
        float v = (float)m * 0x1p-24f;
        return s ? -v : v;
    }
    return ex_f(s | (e + 112) << 23 | m << 13); /* rebias 15 -> 127 */
}

/* Round-to-nearest-even narrowing to binary16 from double (exact for
 * any float input, so f32 -> f16 rounds once). NaNs stay NaN, quieted. */
uint16_t ex_d2h(double d)
{
    uint64_t u = ex_ud(d);
    uint16_t s = (uint16_t)((u >> 63) << 15);
    if (isnan(d))
        return s | 0x7e00 | (uint16_t)((u >> 42) & 0x1ff);
    double a = fabs(d);
    if (a >= 65520.0) /* halfway between 65504 and 2^16 rounds up to inf */
        return s | 0x7c00;
    if (a < 0x1p-14) { /* subnormal (or zero): units of 2^-24 (the scaling is exact) */
        double q = nearbyint(a * 0x1p24);
        return s | (uint16_t)q;
    }
    /* normal: 52 mantissa bits -> 10, RNE; a carry out of the mantissa
     * steps the exponent (never to inf: a < 65520) */
    uint64_t m = u & ((1ull << 52) - 1), r = (m + ((1ull << 41) - 1) + ((m >> 42) & 1)) >> 42;
    uint32_t e = (uint32_t)((u >> 52) & 0x7ff) - 1023 + 15;
    return s | (uint16_t)((e << 10) + r);
}

uint16_t ex_f2h(float f)
{
    return ex_d2h((double)f);
}

/* ---- division helpers ---- */

static int exp32(float f) { return (int)((ex_u(f) >> 23) & 0xff); }
static int exp64(double d) { return (int)((ex_ud(d) >> 52) & 0x7ff); }
static int denorm32(float f) { return fpclassify(f) == FP_SUBNORMAL; }
static int denorm64(double d) { return fpclassify(d) == FP_SUBNORMAL; }

float ex_div_scale_f32(float s0, float s1, float s2, int *vcc)
{
    float d = s0;
    *vcc = 0;
    if (s2 == 0.0f || s1 == 0.0f) {
        d = NAN;
    } else if (exp32(s2) - exp32(s1) >= 96) { /* quotient near overflow */
        *vcc = 1;
        if (s0 == s1)
            d = ldexpf(s0, 64);
    } else if (denorm32(s1)) {
        d = ldexpf(s0, 64);
    } else if (denorm32(1.0f / s1) && denorm32(s2 / s1)) {
        /* huge denominator, subnormal quotient: scale the denominator
         * down only; div_fmas scales the (small) estimate back down */
        *vcc = 1;
        if (s0 == s1)
            d = ldexpf(s0, -64);
    } else if (denorm32(1.0f / s1)) {
        d = ldexpf(s0, -64);
    } else if (denorm32(s2 / s1)) { /* quotient would be subnormal */
        *vcc = 1;
        if (s0 == s2)
            d = ldexpf(s0, 64);
    } else if (exp32(s2) <= 23) { /* numerator tiny */
        d = ldexpf(s0, 64);
    }
    return d;
}

double ex_div_scale_f64(double s0, double s1, double s2, int *vcc)
{
    double d = s0;
    *vcc = 0;
    if (s2 == 0.0 || s1 == 0.0) {
        d = NAN;
    } else if (exp64(s2) - exp64(s1) >= 768) {
        *vcc = 1;
        if (s0 == s1)
            d = ldexp(s0, 128);
    } else if (denorm64(s1)) {
        d = ldexp(s0, 128);
    } else if (denorm64(1.0 / s1) && denorm64(s2 / s1)) {
        *vcc = 1;
        if (s0 == s1)
            d = ldexp(s0, -128);
    } else if (denorm64(1.0 / s1)) {
        d = ldexp(s0, -128);
    } else if (denorm64(s2 / s1)) {
        *vcc = 1;
        if (s0 == s2)
            d = ldexp(s0, 128);
    } else if (exp64(s2) <= 53) {
        d = ldexp(s0, 128);
    }
    return d;
}

/* With VCC set, the quotient estimate s2 was computed on scaled operands:
 * a large one (denominator scaled up) is scaled back up, a small one
 * (numerator scaled up for a subnormal quotient) back down. */
float ex_div_fmas_f32(float a, float b, float c, int vcc)
{
    if (!vcc)
        return fmaf(a, b, c);
    const int k = exp32(c) >= 127 ? 64 : -64;
    /* One rounding, as the hardware does: an fma in float, then an exact
     * scale, unless the scaled result is subnormal (then the scale decides
     * where it rounds: round once from double's 53 bits, rare). */
    const float r = fmaf(a, b, c), s = ldexpf(r, k);
    if (isnormal(r) && fpclassify(s) != FP_SUBNORMAL)
        return s;
    return (float)ldexp(fma((double)a, (double)b, (double)c), k);
}

double ex_div_fmas_f64(double a, double b, double c, int vcc)
{
    if (!vcc)
        return fma(a, b, c);
    const int k = exp64(c) >= 1023 ? 128 : -128;
    /* As for f32: a double fma and an exact scale round once. (An 80-bit
     * fmal first would round twice: seen as 1-ulp errors in urecip_f64.)
     * A subnormal result rounds where the scale puts it: from a*b + c in
     * binary128 (a*b exact, one rounding at 113 bits), never from 64 bits
     * (2 of 128000 random subnormal quotients came out 1 ulp off). */
    const double r = fma(a, b, c), s = ldexp(r, k);
    if (isnormal(r) && fpclassify(s) != FP_SUBNORMAL)
        return s;
#if defined(__SIZEOF_FLOAT128__)
    const __float128 e = (__float128)a * b + c;
    return (double)(e * (__float128)ldexp(1.0, k));
#else /* long double is binary128 on the other 64-bit targets */
    return (double)ldexpl(fmal((long double)a, (long double)b, (long double)c), k);
#endif
}

float ex_div_fixup_f32(float q, float den, float num)
{
    int neg = signbit(den) != signbit(num);
    if (isnan(num))
        return ex_f(ex_u(num) | 0x400000);
    if (isnan(den))
        return ex_f(ex_u(den) | 0x400000);
    if (den == 0.0f && num == 0.0f)
        return ex_f(0xffc00000u);
    if (isinf(den) && isinf(num))
        return ex_f(0xffc00000u);
    if (den == 0.0f || isinf(num))
        return neg ? -INFINITY : INFINITY;
    if (isinf(den) || num == 0.0f)
        return neg ? -0.0f : 0.0f;
    if (exp32(num) - exp32(den) < -150)
        return neg ? -0.0f : 0.0f;
    if (exp32(den) == 255)
        return neg ? -INFINITY : INFINITY;
    if (isnan(q)) /* the scaled estimate overflowed: the quotient does */
        return neg ? -INFINITY : INFINITY;
    return neg ? -fabsf(q) : fabsf(q);
}

double ex_div_fixup_f64(double q, double den, double num)
{
    int neg = signbit(den) != signbit(num);
    if (isnan(num))
        return ex_d(ex_ud(num) | 0x8000000000000ull);
    if (isnan(den))
        return ex_d(ex_ud(den) | 0x8000000000000ull);
    if ((den == 0.0 && num == 0.0) || (isinf(den) && isinf(num)))
        return ex_d(0xfff8000000000000ull);
    if (den == 0.0 || isinf(num))
        return neg ? -INFINITY : INFINITY;
    if (isinf(den) || num == 0.0)
        return neg ? -0.0 : 0.0;
    if (exp64(num) - exp64(den) < -1075)
        return neg ? -0.0 : 0.0;
    if (exp64(den) == 2047)
        return neg ? -INFINITY : INFINITY;
    if (isnan(q))
        return neg ? -INFINITY : INFINITY;
    return neg ? -fabs(q) : fabs(q);
}

/* 2/pi, 1248 fraction bits (computed with Machin's formula in exact
 * integer arithmetic: floor(2^1248 * 2/pi)). */
static const uint32_t two_over_pi[39] = {
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
    0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
    0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
    0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b,
    0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08, 0x56033046, 0xfc7b6bab, 0xf0cfbc20,
};

static unsigned frac_bit(unsigned k) /* k-th bit after the binary point, from 1 */
{
    if (k < 1 || k > 1201) /* the ISA uses 1201 bits of 2/pi */
        return 0;
    k -= 1;
    return (two_over_pi[k / 32] >> (31 - k % 32)) & 1;
}

double ex_trig_preop_f64(double s0, uint32_t sel)
{
    unsigned shift = (sel & 31) * 53;
    int e = exp64(s0);
    if (e > 1077)
        shift += (unsigned)(e - 1077);
    uint64_t r = 0;
    for (unsigned j = 0; j < 53; j++)
        r = r << 1 | frac_bit(shift + 1 + j);
    int scale = -53 - (int)shift;
    if (e >= 1968)
        scale += 128;
    return ldexp((double)r, scale);
}

float ex_frexp_mant_f32(float f)
{
    if (isnan(f) || isinf(f))
        return f;
    int e;
    return frexpf(f, &e);
}

int32_t ex_frexp_exp_f32(float f)
{
    if (isnan(f) || isinf(f))
        return 0;
    int e;
    frexpf(f, &e);
    return e;
}

double ex_frexp_mant_f64(double f)
{
    if (isnan(f) || isinf(f))
        return f;
    int e;
    return frexp(f, &e);
}

int32_t ex_frexp_exp_f64(double f)
{
    if (isnan(f) || isinf(f))
        return 0;
    int e;
    frexp(f, &e);
    return e;
}

/* Float -> int conversions: truncate, NaN -> 0, saturate. */
int32_t ex_cvt_i32(double d)
{
    if (isnan(d))
        return 0;
    d = trunc(d);
    if (d >= 2147483647.0)
        return INT32_MAX;
    if (d <= -2147483648.0)
        return INT32_MIN;
    return (int32_t)d;
}

uint32_t ex_cvt_u32(double d)
{
    if (isnan(d) || d <= 0.0)
        return 0;
    d = trunc(d);
    if (d >= 4294967295.0)
        return UINT32_MAX;
    return (uint32_t)d;
}

/* Class mask bit of v_cmp_class: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal,
 * 4 -subnormal, 5 -0, 6 +0, 7 +subnormal, 8 +normal, 9 +inf. */
unsigned ex_class_f64(double d, int quiet_bit_set)
{
    int neg = signbit(d) != 0;
    switch (fpclassify(d)) {
    case FP_NAN: return quiet_bit_set ? 1 : 0;
    case FP_INFINITE: return neg ? 2 : 9;
    case FP_NORMAL: return neg ? 3 : 8;
    case FP_SUBNORMAL: return neg ? 4 : 7;
    default: return neg ? 5 : 6;
    }
}
