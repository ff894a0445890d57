/* binary.h — module "binary": b<op>_<dt> (fact sheet §4.2) and the
 * comparisons <op>_<dt> with u8 output (§4.3).
 * info = [dims, lhs strides, rhs strides], NULL iff both are contiguous.
 * Integers wrap; integer division truncates, x/0 gives all ones (what
 * NVIDIA's div returns, so AMD and NVIDIA agree) and MIN/-1 wraps to MIN;
 * maximum/minimum follow maxg/ming; fp8 computes in f32, encodes SATFINITE;
 * 16-bit floats round after each operation. */
#ifndef CRK_BINARY_H
#define CRK_BINARY_H
#include "elementwise.h"

namespace crk {
namespace m {
/* + - * of integers in the unsigned type of at least their width: wraps,
 * never signed overflow. */
#define CRK_INT_ARITH(I, U)                                                                  \
    CRK_DEV I add(I a, I b) { return (I)((U)a + (U)b); }                                     \
    CRK_DEV I sub(I a, I b) { return (I)((U)a - (U)b); }                                     \
    CRK_DEV I mul(I a, I b) { return (I)((U)a * (U)b); }                                     \
    CRK_DEV I div(I a, I b) {                                                                \
        if (b == 0) return (I)~(I)0;                                                         \
        if (negative(b) && b == (I)-1) return (I)((U)0 - (U)a);                              \
        return (I)(a / b);                                                                   \
    }
CRK_INT_ARITH(uint8_t, uint32_t)
CRK_INT_ARITH(uint32_t, uint32_t)
CRK_INT_ARITH(int16_t, uint32_t)
CRK_INT_ARITH(int32_t, uint32_t)
CRK_INT_ARITH(int64_t, uint64_t)
#undef CRK_INT_ARITH
/* floats (f32, f64, fp8's f32) and H<S>: the type's own operators */
template <class A> CRK_DEV A add(A a, A b) { return a + b; }
template <class A> CRK_DEV A sub(A a, A b) { return a - b; }
template <class A> CRK_DEV A mul(A a, A b) { return a * b; }
template <class A> CRK_DEV A div(A a, A b) { return a / b; }

/* Comparison value: 16-bit floats compare as f32 (the same truth table as
 * CUDA's __heq/__hneu/__hlt...: only != is true on NaN). */
template <class A> CRK_DEV A cmpv(A x) { return x; }
template <class S> CRK_DEV float cmpv(H<S> x) { return x.f(); }
} // namespace m

#define CRK_BIN_OP(Name, Cmp, expr)                                                          \
    struct Name {                                                                            \
        static constexpr bool cmp = Cmp;                                                     \
        template <class A> CRK_DEV auto operator()(A a, A b) const { return expr; }         \
    };
CRK_BIN_OP(OpAdd, false, m::add(a, b))
CRK_BIN_OP(OpSub, false, m::sub(a, b))
CRK_BIN_OP(OpMul, false, m::mul(a, b))
CRK_BIN_OP(OpDiv, false, m::div(a, b))
CRK_BIN_OP(OpMaximum, false, m::maxg(a, b))
CRK_BIN_OP(OpMinimum, false, m::ming(a, b))
CRK_BIN_OP(OpEq, true, m::cmpv(a) == m::cmpv(b))
CRK_BIN_OP(OpNe, true, m::cmpv(a) != m::cmpv(b))
CRK_BIN_OP(OpLt, true, m::cmpv(a) < m::cmpv(b))
CRK_BIN_OP(OpLe, true, m::cmpv(a) <= m::cmpv(b))
CRK_BIN_OP(OpGt, true, m::cmpv(a) > m::cmpv(b))
CRK_BIN_OP(OpGe, true, m::cmpv(a) >= m::cmpv(b))
#undef CRK_BIN_OP

/* Storage values in, the op in T's arithmetic type, T (or u8 1/0) out. */
template <class Op, class T, bool Cmp = Op::cmp> struct BinApply {
    CRK_DEV T operator()(T a, T b) const {
        using R = Arith<T>;
        return R::out(Op{}(R::in(a), R::in(b)));
    }
};
template <class Op, class T> struct BinApply<Op, T, true> {
    CRK_DEV uint8_t operator()(T a, T b) const {
        using R = Arith<T>;
        return Op{}(R::in(a), R::in(b)) ? 1 : 0;
    }
};

/* One op an element: a transposed operand goes through tiles (map_tiles);
 * fp8 converts in software (ALU-bound), as casts to and from it. */
template <class Op, class T, bool Cmp> struct Moves<BinApply<Op, T, Cmp>> { static constexpr bool value = true; };
template <class Op, bool Cmp> struct Moves<BinApply<Op, f8, Cmp>> { static constexpr bool value = false; };

template <class Op, class T, class O>
CRK_DEV void binary(size_t numel, size_t nd, const size_t *info, const T *lhs, const T *rhs, O *out) {
    constexpr int N = VecWidth<T, O>::value < SoftVec<T>::value ? VecWidth<T, O>::value : SoftVec<T>::value;
    const BinApply<Op, T> f{};
    if (all_contiguous<2>(nd, info)) {
        zip_contiguous<N>(numel, out, f, lhs, rhs);
        return;
    }
    map_strided<N>(numel, nd, info, out, f, lhs, rhs);
}

} // namespace crk
#endif
