/* scalar.c — kernel scalars from f64, as Candle's T::from_f64 on the host:
 * integers like Rust `as` (truncate, saturate, NaN -> 0), f16/bf16 rounded
 * once to nearest-even, f8e4m3 via f32 with saturation to +-448. */
#include "scalar.h"
#include "../kernels/f8_encode.h"
#include <math.h>
#include <string.h>

/* Round |v| (finite, non-zero) once into a format of E exponent, M mantissa bits. */
static uint32_t narrow(double v, int E, int M) {
    const uint32_t sign = signbit(v) ? 1u << (E + M) : 0, inf = ((1u << E) - 1) << M;
    if (isnan(v)) return 0x7FFF;
    if (isinf(v)) return sign | inf;
    const int bias = (1 << (E - 1)) - 1;
    double a = fabs(v);
    if (a == 0) return sign;
    int e;
    frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int exp = e - 1;
    if (exp < 1 - bias) exp = 1 - bias;            /* subnormal range */
    const double q = nearbyint(ldexp(a, M - exp)); /* RNE at the target's ulp */
    uint64_t m = (uint64_t)q;
    if (m >> (M + 1)) m >>= 1, exp++;              /* rounded up to next binade */
    if (exp > bias) return sign | inf;
    if (m < (1ull << M)) return sign | (uint32_t)m; /* subnormal */
    return sign | ((uint32_t)(exp + bias) << M) | ((uint32_t)m & ((1u << M) - 1));
}

/* The kernels' own encoder (kernels/f8_encode.h), on the f32 bits. */
static uint8_t f32_to_f8(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return crk_f8_from_f32_bits(u);
}

static int64_t sat(double v, double lo, double hi) {
    if (isnan(v)) return 0;
    v = trunc(v);
    return v <= lo ? (int64_t)lo : v >= hi ? (int64_t)hi : (int64_t)v;
}

size_t crk_scalar_from_f64(crk_dtype dt, double v, void *out) {
    union { uint8_t u8; uint16_t u16; uint32_t u32; int16_t i16; int32_t i32; int64_t i64; float f; double d; } u;
    size_t n;
    switch (dt) {
    case CRK_U8: u.u8 = (uint8_t)sat(v, 0, 255), n = 1; break;
    case CRK_U32: u.u32 = (uint32_t)sat(v, 0, 4294967295.0), n = 4; break;
    case CRK_I16: u.i16 = (int16_t)sat(v, -32768, 32767), n = 2; break;
    case CRK_I32: u.i32 = (int32_t)sat(v, -2147483648.0, 2147483647.0), n = 4; break;
    case CRK_I64:
        u.i64 = isnan(v) ? 0 : v >= 9223372036854775807.0 ? INT64_MAX : v <= -9223372036854775808.0 ? INT64_MIN : (int64_t)v;
        n = 8;
        break;
    case CRK_BF16: u.u16 = (uint16_t)narrow(v, 8, 7), n = 2; break;
    case CRK_F16: u.u16 = (uint16_t)narrow(v, 5, 10), n = 2; break;
    case CRK_F32: u.f = (float)v, n = 4; break;
    case CRK_F64: u.d = v, n = 8; break;
    case CRK_F8E4M3: u.u8 = f32_to_f8((float)v), n = 1; break;
    default: return 0;
    }
    memcpy(out, &u, n);
    return n;
}
