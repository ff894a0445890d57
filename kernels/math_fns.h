/* math_fns.h — libm for every arithmetic type A (float, double, H<f16>,
 * H<bf16>): f32/f64 libm, and the 16-bit forms computed in f32 then rounded
 * to 16 bits, as upstream's 16-bit helpers do. Shared by unary and the
 * row kernels (softmax's exp). */
#ifndef CRK_MATH_FNS_H
#define CRK_MATH_FNS_H
#include "numeric.h"

namespace crk {
namespace m {

template <class A> CRK_DEV A cst(double v);
template <> CRK_DEV float cst<float>(double v) { return (float)v; }
template <> CRK_DEV double cst<double>(double v) { return v; }
template <> CRK_DEV H<f16> cst<H<f16>>(double v) { return H<f16>::from_f64(v); }
template <> CRK_DEV H<bf16> cst<H<bf16>>(double v) { return H<bf16>::from_f64(v); }

/* f32 / f64 libm, and the 16-bit forms computed in f32 then rounded. */
#define CRK_MATH1(name, f32fn, f64fn)                                                     \
    CRK_DEV float name(float x) { return f32fn(x); }                                      \
    CRK_DEV double name(double x) { return f64fn(x); }                                    \
    template <class S> CRK_DEV H<S> name(H<S> x) { return H<S>::make(f32fn(x.f())); }
#if CRK_NV /* Candle's 16-bit exp is CUDA's hexp (ex2.approx of x·log2 e): the same intrinsic */
CRK_DEV float exp(float x) { return expf(x); }
CRK_DEV double exp(double x) { return ::exp(x); }
template <class S> CRK_DEV H<S> exp(H<S> x) { return Native<S>::to(hexp(Native<S>::of(x))); }
#else
CRK_MATH1(exp, expf, ::exp)
#endif
CRK_MATH1(log, logf, ::log)
CRK_MATH1(sin, sinf, ::sin)
CRK_MATH1(cos, cosf, ::cos)
CRK_MATH1(tanh, tanhf, ::tanh)
CRK_MATH1(erf, erff, ::erf)
CRK_MATH1(ceil, ceilf, ::ceil)
CRK_MATH1(floor, floorf, ::floor)
CRK_MATH1(round, roundf, ::round) /* half away from zero */
CRK_MATH1(normcdf, normcdff, ::normcdf)
CRK_MATH1(sqrt, sqrtf, ::sqrt)
#undef CRK_MATH1

/* Two values of a 16-bit type in one instruction: NVIDIA's __half2 and
 * __nv_bfloat162 forms, where each lane rounds as the one-value form does
 * (h2exp is hexp lane for lane: cuda_bf16.hpp, cuda_fp16.hpp), for kernels
 * that are issue-bound on 16-bit columns (softmax: bf16 4096x4096 +1.8% on
 * the H200, docs/runs/2026-11-28d-h200-candle-shape-experiments.txt).
 * Paired<A> says whether the target has them; kernels branch on it, so
 * that other targets keep their one-value code. */
template <class A> struct Paired { static constexpr bool value = false; };
/* The one-value forms (what the paired ones equal lane for lane), so that
 * the names exist on every target. */
template <class A> CRK_DEV void maxg2(A &m0, A &m1, A a, A b) { m0 = maxg(m0, a), m1 = maxg(m1, b); }
template <class A> CRK_DEV void exp_diff2(A &a, A &b, A m) { a = exp(a - m), b = exp(b - m); }
template <class A> CRK_DEV void scale2(A &a, A &b, A s) { a = a * s, b = b * s; }
/* maxg of the two 16-bit values of two words, lane for lane (low half
 * with low half): values as they lie in memory, no unpacking */
template <class A> CRK_DEV uint32_t maxg_word(uint32_t a, uint32_t b) {
    const A lo = maxg(A{(uint16_t)a}, A{(uint16_t)b}), hi = maxg(A{(uint16_t)(a >> 16)}, A{(uint16_t)(b >> 16)});
    return (uint32_t)lo.b | (uint32_t)hi.b << 16;
}
#if CRK_NV
template <class S> struct Paired<H<S>> { static constexpr bool value = true; };
template <class S> struct Native2;
template <> struct Native2<f16> { using P = __half2; };
template <> struct Native2<bf16> { using P = __nv_bfloat162; };
template <class S> CRK_DEV typename Native2<S>::P pair(H<S> a, H<S> b) {
    typename Native2<S>::P r;
    r.x = Native<S>::of(a), r.y = Native<S>::of(b);
    return r;
}
template <class S, class P> CRK_DEV void unpair(P r, H<S> &a, H<S> &b) { a = Native<S>::to(r.x), b = Native<S>::to(r.y); }
/* m0 = maxg(m0, a), m1 = maxg(m1, b) */
template <class S> CRK_DEV void maxg2(H<S> &m0, H<S> &m1, H<S> a, H<S> b) { unpair(__hmax2_nan(pair(m0, m1), pair(a, b)), m0, m1); }
/* the paired form of maxg_word, on the words' bits */
template <class S> CRK_DEV uint32_t maxg_word_paired(uint32_t a, uint32_t b) {
    typename Native2<S>::P x, y;
    __builtin_memcpy(&x, &a, 4), __builtin_memcpy(&y, &b, 4);
    const typename Native2<S>::P r = __hmax2_nan(x, y);
    uint32_t w;
    __builtin_memcpy(&w, &r, 4);
    return w;
}
template <> CRK_DEV uint32_t maxg_word<H<bf16>>(uint32_t a, uint32_t b) { return maxg_word_paired<bf16>(a, b); }
template <> CRK_DEV uint32_t maxg_word<H<f16>>(uint32_t a, uint32_t b) { return maxg_word_paired<f16>(a, b); }
/* a = exp(a - m), b = exp(b - m) */
template <class S> CRK_DEV void exp_diff2(H<S> &a, H<S> &b, H<S> m) { unpair(h2exp(__hsub2_rn(pair(a, b), pair(m, m))), a, b); }
/* a = a * s, b = b * s */
template <class S> CRK_DEV void scale2(H<S> &a, H<S> &b, H<S> s) { unpair(__hmul2_rn(pair(a, b), pair(s, s)), a, b); }

/* Two 16-bit values as one arithmetic operand, for ops written over A
 * (unary.h): + - * as the paired instructions, libm a lane at a time in f32
 * as H<S>'s, both lanes rounded by one paired convert (RNE, NaN canonical
 * 0x7FFF as f32_to_f16/f32_to_bf16 give). The same values lane for lane. */
template <class S> struct H2 { typename Native2<S>::P v; };
template <class S> CRK_DEV H2<S> operator+(H2<S> a, H2<S> b) { return {__hadd2_rn(a.v, b.v)}; }
template <class S> CRK_DEV H2<S> operator-(H2<S> a, H2<S> b) { return {__hsub2_rn(a.v, b.v)}; }
template <class S> CRK_DEV H2<S> operator*(H2<S> a, H2<S> b) { return {__hmul2_rn(a.v, b.v)}; }
template <> CRK_DEV H2<f16> cst<H2<f16>>(double v) { return {pair(cst<H<f16>>(v), cst<H<f16>>(v))}; }
template <> CRK_DEV H2<bf16> cst<H2<bf16>>(double v) { return {pair(cst<H<bf16>>(v), cst<H<bf16>>(v))}; }
template <class S> CRK_DEV H2<S> pack2_of(float a, float b);
template <> CRK_DEV H2<f16> pack2_of<f16>(float a, float b) { return {__floats2half2_rn(a, b)}; }
template <> CRK_DEV H2<bf16> pack2_of<bf16>(float a, float b) { return {__floats2bfloat162_rn(a, b)}; }
template <class S> CRK_DEV H2<S> tanh(H2<S> x) {
    return pack2_of<S>(tanhf(Native<S>::to(x.v.x).f()), tanhf(Native<S>::to(x.v.y).f()));
}
#endif

CRK_DEV float abs(float x) { return fabsf(x); }
CRK_DEV double abs(double x) { return ::fabs(x); }
template <class S> CRK_DEV H<S> abs(H<S> x) { return H<S>{(uint16_t)(x.b & 0x7FFFu)}; }

CRK_DEV float pow(float x, float p) { return powf(x, p); }
CRK_DEV double pow(double x, double p) { return ::pow(x, p); }
template <class S> CRK_DEV H<S> pow(H<S> x, H<S> p) { return H<S>::make(powf(x.f(), p.f())); }

} // namespace m

} // namespace crk
#endif
