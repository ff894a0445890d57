/* numeric.h — Candle's storage types and conversion rules (fact sheet §3.3).
 *
 * bf16/f16/f8e4m3 are stored as bit patterns (the HIP and CUDA 16-bit types
 * differ across versions); every conversion is written here so that AMD and
 * NVIDIA builds give the same bits. Arithmetic on 16-bit types rounds after
 * each operation, as CUDA's __half/__nv_bfloat16 operators do. */
#ifndef CRK_NUMERIC_H
#define CRK_NUMERIC_H
#include "crk_port.h"
#include "f8_encode.h"

namespace crk {

/* ------------------------------------------------ rounding to narrow floats */

/* Round sign * mant * 2^exp2 (exact input) once, to nearest-even, into a
 * binary format with E exponent and M mantissa bits; overflow gives inf.
 * Used where the hardware would round twice (f64 -> f16, u32 -> bf16, ...). */
template <int E, int M>
CRK_DEV uint32_t round_pack(uint32_t sign, uint64_t mant, int exp2) {
    const uint32_t s = sign << (E + M);
    if (mant == 0) return s;
    const int bias = (1 << (E - 1)) - 1, emin = 1 - bias;
    const int lz = clz64(mant);
    const uint64_t m = mant << lz;   /* value = m / 2^63 * 2^e */
    int e = exp2 + 63 - lz;
    int keep = M + 1;                /* significant bits that survive */
    if (e < emin) keep -= emin - e;  /* subnormal: fewer bits */
    uint64_t q;
    if (keep <= 0) {
        /* below the smallest subnormal: rounds to it only above half of it */
        q = (keep == 0 && m > (1ull << 63)) ? 1 : 0;
    } else {
        q = m >> (64 - keep);
        const uint64_t rest = keep < 64 ? m << keep : 0, half = 1ull << 63;
        if (rest > half || (rest == half && (q & 1))) q++;
    }
    if (e < emin) return s | (uint32_t)q; /* q == 1<<M is the smallest normal */
    if (q >> (M + 1)) { q >>= 1; e++; }
    if (e > bias) return s | (((1u << E) - 1) << M);
    return s | ((uint32_t)(e + bias) << M) | ((uint32_t)q & ((1u << M) - 1));
}

template <int E, int M>
CRK_DEV uint16_t f64_to_narrow(double d) {
    const uint64_t u = f64_bits(d);
    const uint32_t sign = (uint32_t)(u >> 63);
    const int ef = (int)((u >> 52) & 0x7FF);
    const uint64_t frac = u & ((1ull << 52) - 1);
    if (ef == 0x7FF) return frac ? 0x7FFF : (uint16_t)((sign << (E + M)) | (((1u << E) - 1) << M));
    if (ef == 0) return (uint16_t)round_pack<E, M>(sign, frac, -1074);
    return (uint16_t)round_pack<E, M>(sign, frac | (1ull << 52), ef - 1075);
}

/* Sign test that says nothing for unsigned types (no "pointless
 * comparison" warning from nvcc). */
template <class I> CRK_DEV bool negative(I v) { return v < 0; }
template <> CRK_DEV bool negative(uint8_t) { return false; }
template <> CRK_DEV bool negative(uint32_t) { return false; }

template <int E, int M, class I>
CRK_DEV uint16_t int_to_narrow(I v) {
    const bool neg = negative(v);
    const uint64_t mag = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    return (uint16_t)round_pack<E, M>(neg ? 1u : 0u, mag, 0);
}

CRK_DEV float bf16_to_f32(uint16_t b) { return bits_f32((uint32_t)b << 16); }

/* OCP e4m3fn: bias 7, no inf, NaN = S.1111.111, max 448 (0x7E). */
CRK_DEV float f8_to_f32(uint8_t b) {
    const uint32_t sign = (uint32_t)(b & 0x80) << 24;
    const uint32_t e = (b >> 3) & 0xF, m = b & 7;
    if ((b & 0x7F) == 0x7F) return bits_f32(0x7FC00000u | sign);
    if (e == 0) return bits_f32(f32_bits((float)m * 0.001953125f) | sign); /* m * 2^-9 */
    return bits_f32(sign | ((e + 120) << 23) | (m << 20));
}
/* SATFINITE encode: the one encoder, shared with libcrk's host scalars. */
CRK_DEV uint8_t f32_to_f8(float f) { return crk_f8_from_f32_bits(f32_bits(f)); }

/* ------------------------------------------------------- storage types */

struct f16 { uint16_t b; };
struct bf16 { uint16_t b; };
struct f8 { uint8_t b; };

/* Value of any storage type as float / double (exact except f64 -> f32). */
CRK_DEV float to_f32(f16 x) { return f16_to_f32(x.b); }
CRK_DEV float to_f32(bf16 x) { return bf16_to_f32(x.b); }
CRK_DEV float to_f32(f8 x) { return f8_to_f32(x.b); }

/* ---------------------------------------------- 16-bit arithmetic types */
/* H<T> wraps a 16-bit storage type so that + - * / round to 16 bits after
 * each operation (exact emulation: f32 holds every such result exactly
 * before the single final rounding). */
template <class S> struct H;
template <> struct H<f16> {
    uint16_t b;
    CRK_DEV float f() const { return f16_to_f32(b); }
    static CRK_DEV H make(float v) { return H{f32_to_f16(v)}; }
    static CRK_DEV H from_f64(double v) { return H{f64_to_narrow<5, 10>(v)}; }
};
template <> struct H<bf16> {
    uint16_t b;
    CRK_DEV float f() const { return bf16_to_f32(b); }
    static CRK_DEV H make(float v) { return H{f32_to_bf16(v)}; }
    static CRK_DEV H from_f64(double v) { return H{f64_to_narrow<8, 7>(v)}; }
};
#if CRK_NV
/* NVIDIA's own 16-bit types and instructions give the same + - * in one
 * instruction each: f32 (24 bits >= 2·11 + 2) makes the rounding of the
 * emulation innocuous, so both round the exact result once. The _rn forms
 * are never contracted into an fma. (Softmax bf16 on the H100 was
 * instruction-bound: Nsight Compute, 76% issue slots busy, 39% DRAM.) */
template <class S> struct Native;
template <> struct Native<f16> {
    static CRK_DEV __half of(H<f16> a) { return __ushort_as_half(a.b); }
    static CRK_DEV H<f16> to(__half v) { return H<f16>{__half_as_ushort(v)}; }
};
template <> struct Native<bf16> {
    static CRK_DEV __nv_bfloat16 of(H<bf16> a) { return __ushort_as_bfloat16(a.b); }
    static CRK_DEV H<bf16> to(__nv_bfloat16 v) { return H<bf16>{__bfloat16_as_ushort(v)}; }
};
template <class S> CRK_DEV H<S> operator+(H<S> a, H<S> b) { return Native<S>::to(__hadd_rn(Native<S>::of(a), Native<S>::of(b))); }
template <class S> CRK_DEV H<S> operator-(H<S> a, H<S> b) { return Native<S>::to(__hsub_rn(Native<S>::of(a), Native<S>::of(b))); }
template <class S> CRK_DEV H<S> operator*(H<S> a, H<S> b) { return Native<S>::to(__hmul_rn(Native<S>::of(a), Native<S>::of(b))); }
#else
template <class S> CRK_DEV H<S> operator+(H<S> a, H<S> b) { return H<S>::make(a.f() + b.f()); }
template <class S> CRK_DEV H<S> operator-(H<S> a, H<S> b) { return H<S>::make(a.f() - b.f()); }
template <class S> CRK_DEV H<S> operator*(H<S> a, H<S> b) { return H<S>::make(opaque(a.f() * b.f())); }
#endif
template <class S> CRK_DEV H<S> operator/(H<S> a, H<S> b) { return H<S>::make(a.f() / b.f()); }
template <class S> CRK_DEV H<S> operator-(H<S> a) { return H<S>{(uint16_t)(a.b ^ 0x8000u)}; }
template <class S> CRK_DEV bool operator>(H<S> a, H<S> b) { return a.f() > b.f(); }
template <class S> CRK_DEV bool operator<(H<S> a, H<S> b) { return a.f() < b.f(); }

/* Arithmetic type of each storage type: 16-bit types compute as H<S>, fp8
 * decodes to f32 and encodes SATFINITE, the rest compute as themselves. */
template <class T> struct Arith {
    using A = T;
    static CRK_DEV A in(T x) { return x; }
    static CRK_DEV T out(A a) { return a; }
};
template <> struct Arith<f16> {
    using A = H<f16>;
    static CRK_DEV A in(f16 x) { return A{x.b}; }
    static CRK_DEV f16 out(A a) { return f16{a.b}; }
};
template <> struct Arith<bf16> {
    using A = H<bf16>;
    static CRK_DEV A in(bf16 x) { return A{x.b}; }
    static CRK_DEV bf16 out(A a) { return bf16{a.b}; }
};
template <> struct Arith<f8> {
    using A = float;
    static CRK_DEV A in(f8 x) { return f8_to_f32(x.b); }
    static CRK_DEV f8 out(A a) { return f8{f32_to_f8(a)}; }
};

/* A type's extremes, the init values of max/min: +-inf for floats, the
 * limits for integers. */
template <class A> struct Lim;
#define CRK_LIM(A, lo, hi)                              \
    template <> struct Lim<A> {                         \
        static CRK_DEV A lowest() { return lo; }        \
        static CRK_DEV A highest() { return hi; }       \
    };
CRK_LIM(uint8_t, 0, 0xFF)
CRK_LIM(uint32_t, 0, 0xFFFFFFFFu)
CRK_LIM(int16_t, -32768, 32767)
CRK_LIM(int32_t, INT32_MIN, INT32_MAX)
CRK_LIM(int64_t, INT64_MIN, INT64_MAX)
CRK_LIM(float, -__builtin_huge_valf(), __builtin_huge_valf())
CRK_LIM(double, -__builtin_huge_val(), __builtin_huge_val())
CRK_LIM(H<f16>, H<f16>{0xFC00}, H<f16>{0x7C00})
CRK_LIM(H<bf16>, H<bf16>{0xFF80}, H<bf16>{0x7F80})
#undef CRK_LIM

/* --------------------------------------------------- float -> integer */
/* PTX cvt.rzi.{u32,s32,s64}: truncate, saturate; NaN -> 0 except s64 where
 * the measured result is INT64_MIN. */
template <class F> CRK_DEV uint32_t sat_u32(F x) {
    if (!(x > (F)-1)) return 0;                     /* also NaN */
    if (x >= (F)4294967296.0) return 0xFFFFFFFFu;
    return (uint32_t)x;
}
template <class F> CRK_DEV int64_t sat_i64(F x) {
    if (x != x) return INT64_MIN;
    if (x >= (F)9223372036854775808.0) return INT64_MAX;
    if (x < (F)-9223372036854775808.0) return INT64_MIN;
    return (int64_t)x;
}
template <class F> CRK_DEV int32_t sat_i32(F x) {
    if (x != x) return 0;
    if (x >= (F)2147483648.0) return INT32_MAX;
    if (x <= (F)-2147483648.0) return INT32_MIN;
    return (int32_t)x;
}
template <class F> CRK_DEV int16_t sat_i16(F x) {
    if (x != x) return 0;
    if (x >= (F)32767.0) return 32767;
    if (x <= (F)-32768.0) return -32768;
    return (int16_t)(int32_t)x;
}

/* ------------------------------------------------------ the cast table */
/* convert<D>(s): Candle's cast_<S>_<D> for one element. Canonical source
 * values: integers as themselves, floats as float/double, 16-bit and fp8
 * decoded to float (exact). */
template <class D> struct Conv;

template <> struct Conv<uint8_t> {
    template <class I> static CRK_DEV uint8_t from_int(I v) { return (uint8_t)v; }
    static CRK_DEV uint8_t from_f(float v) { return (uint8_t)sat_u32(v); }
    static CRK_DEV uint8_t from_f(double v) { return (uint8_t)sat_u32(v); }
};
template <> struct Conv<uint32_t> {
    template <class I> static CRK_DEV uint32_t from_int(I v) { return (uint32_t)v; }
    static CRK_DEV uint32_t from_f(float v) { return sat_u32(v); }
    static CRK_DEV uint32_t from_f(double v) { return sat_u32(v); }
};
template <> struct Conv<int16_t> {
    template <class I> static CRK_DEV int16_t from_int(I v) { return (int16_t)(uint16_t)v; }
    static CRK_DEV int16_t from_f(float v) { return sat_i16(v); }
    static CRK_DEV int16_t from_f(double v) { return sat_i16(v); }
};
template <> struct Conv<int32_t> {
    template <class I> static CRK_DEV int32_t from_int(I v) { return (int32_t)(uint32_t)v; }
    static CRK_DEV int32_t from_f(float v) { return sat_i32(v); }
    static CRK_DEV int32_t from_f(double v) { return sat_i32(v); }
};
template <> struct Conv<int64_t> {
    template <class I> static CRK_DEV int64_t from_int(I v) { return (int64_t)v; }
    static CRK_DEV int64_t from_f(float v) { return sat_i64(v); }
    static CRK_DEV int64_t from_f(double v) { return sat_i64(v); }
};
template <> struct Conv<float> {
    template <class I> static CRK_DEV float from_int(I v) { return (float)v; }
    static CRK_DEV float from_f(float v) { return v; }
    static CRK_DEV float from_f(double v) { return (float)v; }
};
template <> struct Conv<double> {
    template <class I> static CRK_DEV double from_int(I v) { return (double)v; }
    static CRK_DEV double from_f(float v) { return (double)v; }
    static CRK_DEV double from_f(double v) { return v; }
};
template <> struct Conv<f16> {
    /* int -> f16 rounds once from the exact integer (cvt.rn.f16.s64). */
    template <class I> static CRK_DEV f16 from_int(I v) { return f16{int_to_narrow<5, 10>(v)}; }
    static CRK_DEV f16 from_f(float v) { return f16{f32_to_f16(v)}; }
    static CRK_DEV f16 from_f(double v) {
#if CRK_NV /* cvt.rn.f16.f64: the same single rounding in one instruction (upsample_bilinear2d f16 1.45x) */
        return f16{v != v ? (uint16_t)0x7FFF : __half_as_ushort(__double2half(v))};
#else
        return f16{f64_to_narrow<5, 10>(v)};
#endif
    }
};
template <> struct Conv<bf16> {
    template <class I> static CRK_DEV bf16 from_int(I v) { return bf16{int_to_narrow<8, 7>(v)}; }
    static CRK_DEV bf16 from_f(float v) { return bf16{f32_to_bf16(v)}; }
    static CRK_DEV bf16 from_f(double v) {
#if CRK_NV && __CUDA_ARCH__ >= 900 /* cvt.rn.bf16.f64 (sm_90) */
        return bf16{v != v ? (uint16_t)0x7FFF : __bfloat16_as_ushort(__double2bfloat16(v))};
#else
        return bf16{f64_to_narrow<8, 7>(v)};
#endif
    }
};
template <> struct Conv<f8> {
    /* Upstream converts every source to f32 first (f64: double rounding). */
    template <class I> static CRK_DEV f8 from_int(I v) { return f8{f32_to_f8((float)v)}; }
    static CRK_DEV f8 from_f(float v) { return f8{f32_to_f8(v)}; }
    static CRK_DEV f8 from_f(double v) { return f8{f32_to_f8((float)v)}; }
};

template <class D> CRK_DEV D convert(uint8_t v) { return Conv<D>::from_int(v); }
template <class D> CRK_DEV D convert(uint32_t v) { return Conv<D>::from_int(v); }
template <class D> CRK_DEV D convert(int16_t v) { return Conv<D>::from_int(v); }
template <class D> CRK_DEV D convert(int32_t v) { return Conv<D>::from_int(v); }
template <class D> CRK_DEV D convert(int64_t v) { return Conv<D>::from_int(v); }
template <class D> CRK_DEV D convert(float v) { return Conv<D>::from_f(v); }
template <class D> CRK_DEV D convert(double v) { return Conv<D>::from_f(v); }
template <class D> CRK_DEV D convert(f16 v) { return Conv<D>::from_f(to_f32(v)); }
template <class D> CRK_DEV D convert(bf16 v) { return Conv<D>::from_f(to_f32(v)); }
template <class D> CRK_DEV D convert(f8 v) { return Conv<D>::from_f(to_f32(v)); }
/* 16-bit identity casts are plain copies upstream (CAST_OP); the fp8 one
 * goes through f32 (CAST_OP_FP8), so 0xFF becomes the canonical 0x7F. */
template <> CRK_DEV f16 convert<f16>(f16 v) { return v; }
template <> CRK_DEV bf16 convert<bf16>(bf16 v) { return v; }

/* ------------------------------------------------------ shared math */
namespace m {
/* maxg/ming, Candle's per-dtype NaN rules (§3.3): f32/f64 NaN-ignoring
 * (fmaxf), 16-bit NaN-propagating (__hmax_nan), fp8 through f32 (so
 * NaN-ignoring), integers plain max/min.
 * AMD: a signaling NaN is ignored too (CUDA's fmaxf ignores it) only once
 * quieted: v_max/v_max3 in IEEE mode return the quieted sNaN, and clang 22
 * no longer quiets fmaxf's operands (LLVM's maxnum may return NaN for an
 * sNaN). A max3 chain of unquieted loads lost window elements of
 * max_pool2d_f32 on emulated gfx942 (3x3 windows, random-bit inputs). The
 * canonicalize is one v_max_f32 x, x an operand, folded where the value is
 * already canonical (another max's result). */
#if CRK_AMD
CRK_DEV float quiet(float v) { return __builtin_canonicalizef(v); }
CRK_DEV double quiet(double v) { return __builtin_canonicalize(v); }
#else
CRK_DEV float quiet(float v) { return v; }
CRK_DEV double quiet(double v) { return v; }
#endif
CRK_DEV float maxg(float a, float b) { return fmaxf(quiet(a), quiet(b)); }
CRK_DEV double maxg(double a, double b) { return ::fmax(quiet(a), quiet(b)); }
CRK_DEV float ming(float a, float b) { return fminf(quiet(a), quiet(b)); }
CRK_DEV double ming(double a, double b) { return ::fmin(quiet(a), quiet(b)); }
#if CRK_NV /* Candle's own intrinsics (canonical NaN 0x7FFF, as below) */
template <class S> CRK_DEV H<S> maxg(H<S> a, H<S> b) { return Native<S>::to(__hmax_nan(Native<S>::of(a), Native<S>::of(b))); }
template <class S> CRK_DEV H<S> ming(H<S> a, H<S> b) { return Native<S>::to(__hmin_nan(Native<S>::of(a), Native<S>::of(b))); }
#else
template <class S> CRK_DEV H<S> maxg(H<S> a, H<S> b) {
    if (a.f() != a.f() || b.f() != b.f()) return H<S>{0x7FFF};
    return a.f() > b.f() ? a : b;
}
template <class S> CRK_DEV H<S> ming(H<S> a, H<S> b) {
    if (a.f() != a.f() || b.f() != b.f()) return H<S>{0x7FFF};
    return a.f() < b.f() ? a : b;
}
#endif
template <class I> CRK_DEV I maxg(I a, I b) { return a > b ? a : b; }
template <class I> CRK_DEV I ming(I a, I b) { return a < b ? a : b; }
} // namespace m

} // namespace crk
#endif
