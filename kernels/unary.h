/* unary.h — u<op>_<dtype> (fact sheet §4.1).
 * Ops are written once over an arithmetic type A: float, double, or H<f16>/
 * H<bf16> (every + - * / rounded to 16 bits, libm through f32 as upstream's
 * 16-bit helpers do). fp8 decodes to f32, computes in f32, encodes SATFINITE. */
#ifndef CRK_UNARY_H
#define CRK_UNARY_H
#include "elementwise.h"
#include "math_fns.h"

namespace crk {
#define CRK_OP(Name, expr)                                                       \
    struct Name {                                                                \
        template <class A> CRK_DEV A operator()(A x, A p) const {                \
            (void)p;                                                             \
            return expr;                                                         \
        }                                                                        \
    };
CRK_OP(OpNeg, -x)
CRK_OP(OpRecip, m::cst<A>(1.0) / x)
CRK_OP(OpExp, m::exp(x))
CRK_OP(OpLog, m::log(x))
CRK_OP(OpSin, m::sin(x))
CRK_OP(OpCos, m::cos(x))
CRK_OP(OpTanh, m::tanh(x))
CRK_OP(OpErf, m::erf(x))
CRK_OP(OpCeil, m::ceil(x))
CRK_OP(OpFloor, m::floor(x))
CRK_OP(OpRound, m::round(x))
CRK_OP(OpNormcdf, m::normcdf(x))
CRK_OP(OpAbs, m::abs(x))
CRK_OP(OpSqr, x * x)
CRK_OP(OpSqrt, m::sqrt(x))
CRK_OP(OpGeluErf, x * m::normcdf(x))
CRK_OP(OpRelu, m::maxg(x, m::cst<A>(0.0)))
CRK_OP(OpElu, x > m::cst<A>(0.0) ? x : p * (m::exp(x) - m::cst<A>(1.0)))
CRK_OP(OpSilu, x / (m::cst<A>(1.0) + m::exp(-x)))
CRK_OP(OpPowf, m::pow(x, p))
CRK_OP(OpSign, m::cst<A>(x > m::cst<A>(0.0) ? 1.0 : 0.0) - m::cst<A>(x < m::cst<A>(0.0) ? 1.0 : 0.0))
CRK_OP(OpSigmoid, m::cst<A>(1.0) / (m::cst<A>(1.0) + m::exp(-x)))
#undef CRK_OP

/* gelu, tanh form, upstream's evaluation order and T-rounded constants. */
struct OpGelu {
    template <class A> CRK_DEV A operator()(A x, A) const {
        const A x_sq = x * x, x_cube = x_sq * x;
        const A alpha = x + m::cst<A>(0.044715) * x_cube;
        /* M_2_SQRTPI * M_SQRT1_2 = sqrt(2/pi), evaluated in double upstream */
        const A k = m::cst<A>(1.12837916709551257390 * 0.70710678118654752440);
        return (m::cst<A>(0.5) * x) * (m::cst<A>(1.0) + m::tanh(k * alpha));
    }
};

/* Storage type T -> arithmetic type, applying Op with its scalar. */
template <class Op, class T> struct Apply {
    T p;
    CRK_DEV T operator()(T x) const {
        using R = Arith<T>;
        return R::out(Op{}(R::in(x), R::in(p)));
    }
#if CRK_NV
    /* y0, y1 = the op on x0, x1 (PairApply) */
    CRK_DEV void pair(T x0, T x1, T &y0, T &y1) const {
        using A = typename Arith<T>::A;
        using S2 = m::H2<T>;
        const A a = Arith<T>::in(x0), b = Arith<T>::in(x1), q = Arith<T>::in(p);
        const S2 y = Op{}(S2{m::pair(a, b)}, S2{m::pair(q, q)});
        A r0, r1;
        m::unpair(y.v, r0, r1);
        y0 = Arith<T>::out(r0), y1 = Arith<T>::out(r1);
    }
#endif
};

/* Ops run on two 16-bit values at once where the target pairs them
 * (m::H2, NVIDIA): gelu, whose bf16 form is issue-bound at the H200's
 * bandwidth: 3139 -> 3446 GB/s contiguous through libcrk (0.86 -> 0.947x
 * torch; docs/runs/2026-11-28d-h200-candle-shape-experiments.txt §9). The
 * same values lane for lane. zip_packs takes pairs when PairApply<F> says
 * so; the one-element paths (Candle's launch) keep one value a step. */
template <class Op> struct PairOp { static constexpr bool value = false; };
template <> struct PairOp<OpGelu> { static constexpr bool value = true; };
#if CRK_NV
template <class Op, class S> struct PairApply<Apply<Op, S>> {
    static constexpr bool value = PairOp<Op>::value && (sizeof(S) == 2) && m::Paired<typename Arith<S>::A>::value;
};
#endif

/* ucopy is a plain copy for every dtype (fp8 too: a byte copy). */
struct OpCopy {};
template <class T> struct Apply<OpCopy, T> {
    T p;
    CRK_DEV T operator()(T x) const { return x; }
};
template <class T> struct Moves<Apply<OpCopy, T>> { static constexpr bool value = true; };

/* Elements per thread for long libm calls (register budget, see run_map). */
template <class Op, class T> struct MaxVec { static constexpr int value = SoftVec<T>::value; };
template <class T> struct MaxVec<OpCopy, T> { static constexpr int value = 16; }; /* fp8 too: bytes */
template <class T> struct MaxVec<OpPowf, T> { static constexpr int value = 2; };
/* f64 erf/normcdf/pow: ~40 64-bit constants each; one element per thread
 * keeps them in SGPRs without spills on gfx9. */
template <> struct MaxVec<OpPowf, double> { static constexpr int value = 1; };
template <> struct MaxVec<OpErf, double> { static constexpr int value = 1; };
template <> struct MaxVec<OpNormcdf, double> { static constexpr int value = 1; };
template <> struct MaxVec<OpGeluErf, double> { static constexpr int value = 1; };
/* gfx9-generic, 8 a thread: the 16-bit sin's large-argument reduction keeps
 * its 6-dword table in scratch (24 bytes, crk verify); at 4 it stays in
 * registers. */
template <> struct MaxVec<OpSin, f16> { static constexpr int value = 4; };
template <> struct MaxVec<OpSin, bf16> { static constexpr int value = 4; };

/* UNARY_OP: (numel, num_dims, info, inp, out); UNARY_OP1 (elu, powf): the
 * scalar comes before inp. */
template <class Op, class T>
CRK_DEV void unary(size_t numel, size_t nd, const size_t *info, T param, const T *inp, T *out) {
    run_map<MaxVec<Op, T>::value>(numel, nd, info, inp, out, Apply<Op, T>{param});
}
template <class Op, class T> CRK_DEV void unary(size_t numel, size_t nd, const size_t *info, const T *inp, T *out) {
    unary<Op, T>(numel, nd, info, T{}, inp, out);
}

} // namespace crk
#endif
