/* ref_convert.c — bit conversions, scalar conversion and ref_cast.
 * Semantics: candle-cuda-kernels.md §3.3 (conversion table) and §4.4. */
#include "ref.h"
#include "ref_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------ decoding */

float ref_bf16_to_f32(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

float ref_f16_to_f32(uint16_t h)
{
    unsigned sign = h >> 15, e = (h >> 10) & 0x1F, m = h & 0x3FF;
    if (e == 0x1F) {
        /* inf or NaN: widen keeping sign and payload */
        uint32_t u = ((uint32_t)sign << 31) | 0x7F800000u | ((uint32_t)m << 13);
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    double v = (e == 0) ? ldexp((double)m, -24) : ldexp((double)(m | 0x400), (int)e - 25);
    return (float)(sign ? -v : v); /* exact */
}

float ref_f8_to_f32(uint8_t f)
{
    unsigned sign = f >> 7, e = (f >> 3) & 0xF, m = f & 0x7;
    if (e == 0xF && m == 0x7)
        return sign ? -NAN : NAN;
    double v = (e == 0) ? ldexp((double)m, -9) : ldexp((double)(m | 0x8), (int)e - 10);
    return (float)(sign ? -v : v); /* exact */
}

/* ------------------------------------------------------------ encoding */

/* Magnitude bits of the RNE rounding of finite a >= 0 into a binary format
 * with `ebits` exponent bits (IEEE bias) and `mbits` fraction bits, with
 * subnormals and an unbounded exponent (the caller clamps overflow).
 * One rounding from the exact double value. */
uint64_t refi_round_mag(double a, int ebits, int mbits)
{
    if (a == 0.0)
        return 0;
    int bias = (1 << (ebits - 1)) - 1;
    int emin = 1 - bias;
    int e;
    (void)frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int E = e - 1;      /* a = 1.x * 2^E */
    if (E < emin)
        E = emin;       /* subnormal: quantum 2^(emin - mbits) */
    double q = ldexp(a, mbits - E); /* exact: scaling by a power of two */
    double fl = floor(q);
    double diff = q - fl;           /* exact (q < 2^(mbits+1) <= 2^53) */
    uint64_t r = (uint64_t)fl;
    if (diff > 0.5 || (diff == 0.5 && (r & 1u)))
        r++;
    /* normal: ((E+bias) << mbits) + (r - 2^mbits); subnormal (E == emin): r.
     * Both equal ((E+bias-1) << mbits) + r; a carry of r into 2^(mbits+1)
     * bumps the exponent naturally. */
    return ((uint64_t)(E + bias - 1) << mbits) + r;
}

static uint16_t enc16(double x, int ebits, int mbits, uint16_t inf_bits)
{
    if (isnan(x))
        return 0x7FFF;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (isinf(a))
        return sign | inf_bits;
    uint64_t m = refi_round_mag(a, ebits, mbits);
    if (m >= inf_bits)
        m = inf_bits;
    return (uint16_t)(sign | m);
}

uint16_t ref_f64_to_f16(double x) { return enc16(x, 5, 10, 0x7C00); }
uint16_t ref_f64_to_bf16(double x) { return enc16(x, 8, 7, 0x7F80); }
/* float -> double is exact, so these are single roundings as well */
uint16_t ref_f32_to_f16(float x) { return ref_f64_to_f16((double)x); }
uint16_t ref_f32_to_bf16(float x) { return ref_f64_to_bf16((double)x); }

uint8_t ref_f32_to_f8(float x)
{
    if (isnan(x))
        return 0x7F;
    uint8_t sign = signbit(x) ? 0x80 : 0;
    double a = fabs((double)x);
    uint64_t m = isinf(a) ? 0x7E : refi_round_mag(a, 4, 3);
    if (m > 0x7E) /* SATFINITE: everything above 448 (0x7F would be NaN) */
        m = 0x7E;
    return (uint8_t)(sign | m);
}

/* ------------------------------------------------------ element access */

size_t ref_dtype_size(crk_dtype dt)
{
    switch (dt) {
    case CRK_U8: case CRK_F8E4M3: return 1;
    case CRK_I16: case CRK_BF16: case CRK_F16: return 2;
    case CRK_U32: case CRK_I32: case CRK_F32: return 4;
    case CRK_I64: case CRK_F64: return 8;
    default: return 0;
    }
}

const char *ref_dtype_name(crk_dtype dt)
{
    static const char *const names[CRK_DTYPE_COUNT] = {
        "u8", "u32", "i16", "i32", "i64", "bf16", "f16", "f32", "f64", "f8e4m3"};
    return ((unsigned)dt < CRK_DTYPE_COUNT) ? names[dt] : "?";
}

int ref_dtype_is_float(crk_dtype dt)
{
    return dt == CRK_BF16 || dt == CRK_F16 || dt == CRK_F32 || dt == CRK_F64 ||
           dt == CRK_F8E4M3;
}

/* Two's complement reinterpretation without implementation-defined casts. */
static int64_t u64_to_i64(uint64_t v)
{
    return v <= (uint64_t)INT64_MAX ? (int64_t)v : -(int64_t)(~v) - 1;
}

/* Integer dtypes: the value sign-/zero-extended to 64 bits (as bits). */
uint64_t refi_int_bits(crk_dtype dt, const void *p)
{
    switch (dt) {
    case CRK_U8: { uint8_t v; memcpy(&v, p, 1); return v; }
    case CRK_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case CRK_I16: { int16_t v; memcpy(&v, p, 2); return (uint64_t)(int64_t)v; }
    case CRK_I32: { int32_t v; memcpy(&v, p, 4); return (uint64_t)(int64_t)v; }
    case CRK_I64: { int64_t v; memcpy(&v, p, 8); return (uint64_t)v; }
    default: return 0;
    }
}

/* Store the low bits of v (modular conversion) into an integer dtype. */
void refi_store_int_bits(crk_dtype dt, uint64_t v, void *p)
{
    switch (dt) {
    case CRK_U8: { uint8_t o = (uint8_t)(v & 0xFFu); memcpy(p, &o, 1); break; }
    case CRK_U32: { uint32_t o = (uint32_t)(v & 0xFFFFFFFFu); memcpy(p, &o, 4); break; }
    case CRK_I16: {
        uint64_t lo = v & 0xFFFFu;
        int16_t o = (int16_t)(lo >= 0x8000u ? (int32_t)lo - 0x10000 : (int32_t)lo);
        memcpy(p, &o, 2);
        break;
    }
    case CRK_I32: {
        uint64_t lo = v & 0xFFFFFFFFu;
        int32_t o = (int32_t)(lo >= 0x80000000u ? (int64_t)lo - 0x100000000LL : (int64_t)lo);
        memcpy(p, &o, 4);
        break;
    }
    case CRK_I64: { int64_t o = u64_to_i64(v); memcpy(p, &o, 8); break; }
    default: break;
    }
}

static int is_signed_int(crk_dtype dt)
{
    return dt == CRK_I16 || dt == CRK_I32 || dt == CRK_I64;
}

double ref_value_f64(crk_dtype dt, const void *p)
{
    switch (dt) {
    case CRK_BF16: { uint16_t v; memcpy(&v, p, 2); return ref_bf16_to_f32(v); }
    case CRK_F16: { uint16_t v; memcpy(&v, p, 2); return ref_f16_to_f32(v); }
    case CRK_F32: { float v; memcpy(&v, p, 4); return v; }
    case CRK_F64: { double v; memcpy(&v, p, 8); return v; }
    case CRK_F8E4M3: { uint8_t v; memcpy(&v, p, 1); return ref_f8_to_f32(v); }
    case CRK_I16: case CRK_I32: case CRK_I64:
        return (double)u64_to_i64(refi_int_bits(dt, p));
    case CRK_U8: case CRK_U32:
        return (double)refi_int_bits(dt, p);
    default: return 0.0;
    }
}

int ref_is_nan(crk_dtype dt, const void *p)
{
    return ref_dtype_is_float(dt) && isnan(ref_value_f64(dt, p));
}

/* Store an f32-representable/f64 value into a float dtype with the device
 * conversion rules: f16/bf16 single RNE from the double, f8 through f32. */
void refi_store_float(crk_dtype dt, double v, void *p)
{
    switch (dt) {
    case CRK_BF16: { uint16_t o = ref_f64_to_bf16(v); memcpy(p, &o, 2); break; }
    case CRK_F16: { uint16_t o = ref_f64_to_f16(v); memcpy(p, &o, 2); break; }
    case CRK_F32: { float o = (float)v; memcpy(p, &o, 4); break; }
    case CRK_F64: memcpy(p, &v, 8); break;
    case CRK_F8E4M3: { uint8_t o = ref_f32_to_f8((float)v); memcpy(p, &o, 1); break; }
    default: break;
    }
}

/* ---------------------------------------------------- float -> integer */

/* Truncate toward zero and saturate to [lo, hi]; NaN -> nan_val. */
static int64_t trunc_sat_i(double x, double lo, double hi, int64_t ilo, int64_t ihi,
                           int64_t nan_val)
{
    if (isnan(x))
        return nan_val;
    double t = trunc(x);
    if (t <= lo)
        return ilo;
    if (t >= hi)
        return ihi;
    return (int64_t)t;
}

static uint32_t trunc_sat_u32(double x)
{
    if (isnan(x))
        return 0;
    double t = trunc(x);
    if (t <= 0.0)
        return 0;
    if (t >= 4294967295.0)
        return 0xFFFFFFFFu;
    return (uint32_t)t;
}

/* Device float -> integer conversion (cvt.rzi.* + store), §3.3. */
static void float_to_int(double x, crk_dtype dst, void *out)
{
    switch (dst) {
    case CRK_U8: { uint8_t o = (uint8_t)(trunc_sat_u32(x) & 0xFFu); memcpy(out, &o, 1); break; }
    case CRK_U32: { uint32_t o = trunc_sat_u32(x); memcpy(out, &o, 4); break; }
    case CRK_I16: {
        int16_t o = (int16_t)trunc_sat_i(x, -32768.0, 32767.0, INT16_MIN, INT16_MAX, 0);
        memcpy(out, &o, 2);
        break;
    }
    case CRK_I32: {
        int32_t o = (int32_t)trunc_sat_i(x, -2147483648.0, 2147483647.0, INT32_MIN, INT32_MAX, 0);
        memcpy(out, &o, 4);
        break;
    }
    case CRK_I64: {
        /* 9223372036854775807.0 == 2^63 as a double */
        int64_t o = trunc_sat_i(x, -9223372036854775808.0, 9223372036854775807.0, INT64_MIN,
                                INT64_MAX, INT64_MIN);
        memcpy(out, &o, 8);
        break;
    }
    default: break;
    }
}

/* ---------------------------------------------------- integer -> float */

/* Exact integer magnitude rounded RNE to p significant bits, as an (exact)
 * double. */
static double round_u64_to_bits(uint64_t mag, int p)
{
    int len = 0;
    for (uint64_t t = mag; t; t >>= 1)
        len++;
    if (len <= p)
        return (double)mag; /* exact: p <= 53 */
    int s = len - p;
    uint64_t kept = mag >> s;
    uint64_t rem = mag & ((1ull << s) - 1);
    uint64_t half = 1ull << (s - 1);
    if (rem > half || (rem == half && (kept & 1u)))
        kept++;
    return ldexp((double)kept, s);
}

/* cvt.rn.<dst>.<int>: one RNE rounding from the exact integer.
 * bits = value sign-extended (signed) or zero-extended (unsigned). */
static void int_to_float(uint64_t bits, int is_signed, crk_dtype dst, void *out)
{
    int neg = is_signed && (bits >> 63);
    uint64_t mag = neg ? (~bits + 1u) : bits; /* INT64_MIN -> 2^63 */
    int p;
    switch (dst) {
    case CRK_F64: p = 53; break;
    case CRK_F32: p = 24; break;
    case CRK_F16: p = 11; break;
    case CRK_BF16: p = 8; break;
    case CRK_F8E4M3: p = 24; break; /* to f32 first, then f32 -> f8 */
    default: return;
    }
    double v = round_u64_to_bits(mag, p);
    if (neg)
        v = -v;
    /* v has <= p significant bits and |v| >= 1 (or 0): the store below only
     * clamps (f16 overflow -> inf, f8 saturation), it never rounds again. */
    refi_store_float(dst, v, out);
}

/* ---------------------------------------------------------------- cast */

void ref_cast(crk_dtype src, crk_dtype dst, const void *in, void *out)
{
    int sf = ref_dtype_is_float(src), df = ref_dtype_is_float(dst);

    if (!sf && !df) { /* integer -> integer: C modular conversion */
        refi_store_int_bits(dst, refi_int_bits(src, in), out);
        return;
    }
    if (!sf) { /* integer -> float */
        int_to_float(refi_int_bits(src, in), is_signed_int(src), dst, out);
        return;
    }
    if (src == dst && src != CRK_F8E4M3) { /* identity: plain copy */
        memcpy(out, in, ref_dtype_size(src));
        return;
    }
    double x = ref_value_f64(src, in); /* exact for every float dtype */
    if (!df) { /* float -> integer (f16/bf16/f8 through f32: exact anyway) */
        float_to_int(x, dst, out);
        return;
    }
    /* float -> float */
    if (dst == CRK_F8E4M3) { /* always through f32 (f64: double rounding) */
        uint8_t o = ref_f32_to_f8((float)x);
        memcpy(out, &o, 1);
        return;
    }
    /* f64 -> f16/bf16: single rounding; the other sources are exact in
     * double, so a single rounding from the double equals "through f32".
     * NaN -> f16/bf16: 0x7FFF; NaN -> f32/f64: C conversion (sign kept). */
    refi_store_float(dst, x, out);
}

/* ----------------------------------------------------- T::from_f64 */

void ref_scalar_from_f64(crk_dtype dt, double v, void *out)
{
    switch (dt) {
    case CRK_U8: {
        uint8_t o = (uint8_t)trunc_sat_i(v, 0.0, 255.0, 0, 255, 0);
        memcpy(out, &o, 1);
        break;
    }
    case CRK_U32: {
        uint32_t o = trunc_sat_u32(v);
        memcpy(out, &o, 4);
        break;
    }
    case CRK_I16: case CRK_I32:
        float_to_int(v, dt, out); /* saturating, NaN -> 0 */
        break;
    case CRK_I64: {
        int64_t o = trunc_sat_i(v, -9223372036854775808.0, 9223372036854775807.0, INT64_MIN,
                                INT64_MAX, 0); /* Rust: NaN -> 0 */
        memcpy(out, &o, 8);
        break;
    }
    default:
        refi_store_float(dt, v, out);
        break;
    }
}
