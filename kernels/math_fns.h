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

CRK_DEV float abs(float x) { return fabsf(x); }
CRK_DEV double abs(double x) { return ::fabs(x); }
template <class S> CRK_DEV H<S> abs(H<S> x) { return H<S>{(uint16_t)(x.b & 0x7FFFu)}; }

CRK_DEV float pow(float x, float p) { return powf(x, p); }
CRK_DEV double pow(double x, double p) { return ::pow(x, p); }
template <class S> CRK_DEV H<S> pow(H<S> x, H<S> p) { return H<S>::make(powf(x.f(), p.f())); }

} // namespace m

} // namespace crk
#endif
