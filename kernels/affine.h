/* affine.h — affine_<dtype> (fact sheet §4.6): out = x*mul + add in T.
 * f32/f64: one fused multiply-add (what nvcc's contraction emits upstream);
 * f16/bf16: rounded mul, then rounded add; fp8: fused in f32, then SATFINITE;
 * integers wrap. */
#ifndef CRK_AFFINE_H
#define CRK_AFFINE_H
#include "elementwise.h"

namespace crk {
namespace m {
CRK_DEV float muladd(float x, float a, float b) { return fmaf(x, a, b); }
CRK_DEV double muladd(double x, double a, double b) { return ::fma(x, a, b); }
template <class S> CRK_DEV H<S> muladd(H<S> x, H<S> a, H<S> b) { return x * a + b; }
/* Unsigned arithmetic at least 32 bits wide: wraps, never signed overflow. */
template <class I, class W> CRK_DEV I muladd_wrap(I x, I a, I b) {
    return (I)((W)x * (W)a + (W)b);
}
CRK_DEV uint8_t muladd(uint8_t x, uint8_t a, uint8_t b) { return muladd_wrap<uint8_t, uint32_t>(x, a, b); }
CRK_DEV uint32_t muladd(uint32_t x, uint32_t a, uint32_t b) { return muladd_wrap<uint32_t, uint32_t>(x, a, b); }
CRK_DEV int16_t muladd(int16_t x, int16_t a, int16_t b) { return muladd_wrap<int16_t, uint32_t>(x, a, b); }
CRK_DEV int32_t muladd(int32_t x, int32_t a, int32_t b) { return muladd_wrap<int32_t, uint32_t>(x, a, b); }
CRK_DEV int64_t muladd(int64_t x, int64_t a, int64_t b) { return muladd_wrap<int64_t, uint64_t>(x, a, b); }
} // namespace m

template <class T> struct AffineOp {
    T mul, add;
    CRK_DEV T operator()(T x) const {
        using R = Arith<T>;
        return R::out(m::muladd(R::in(x), R::in(mul), R::in(add)));
    }
};
template <class T> struct Moves<AffineOp<T>> { static constexpr bool value = true; };
template <> struct Moves<AffineOp<f8>> { static constexpr bool value = false; };
/* The scalars come after out. */
template <class T>
CRK_DEV void affine(size_t numel, size_t nd, const size_t *info, const T *inp, T *out, T mul, T add) {
    run_map<SoftVec<T>::value>(numel, nd, info, inp, out, AffineOp<T>{mul, add});
}
} // namespace crk
#endif
