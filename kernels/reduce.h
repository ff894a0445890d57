/* reduce.h — fast_{sum,min,max,argmin,argmax}_<dt> (fact sheet §4.10).
 *
 * Block b of the launch folds the logical elements [b·E, (b+1)·E) of the
 * info buffer's reordered layout (kept dims, then reduced dims), E =
 * el_to_sum_per_block. Candle's order, reproduced exactly for any block
 * size: thread t folds t, t+blockDim, ... from the init value, then a
 * halving tree (t takes t+s, s = P/2 .. 1) where thread t keeps its own
 * value unless its partner's is strictly better (argmin/argmax ties go to
 * the lower thread). So a 16-bit sum rounds where Candle's does.
 *
 * Beyond upstream: any grid (blocks loop over the outputs), any block size
 * up to 1024 (P = the largest power of two <= blockDim folds the rest in
 * first; a power-of-two block, Candle's, is unchanged by it), 64-bit
 * offsets, and a NULL info read as contiguous [dst_el, E]. */
#ifndef CRK_REDUCE_H
#define CRK_REDUCE_H
#include "elementwise.h"
#include "numeric.h"

namespace crk {

template <class A> CRK_DEV A zero_of() { return A{}; }

/* Value folds: init and combine (maxg/ming: Candle's NaN rules). */
struct RedSum {
    template <class A> static CRK_DEV A init() { return zero_of<A>(); }
    template <class A> static CRK_DEV A fold(A a, A b) { return (A)(a + b); } /* integers wrap */
};
struct RedMax {
    template <class A> static CRK_DEV A init() { return Lim<A>::lowest(); }
    template <class A> static CRK_DEV A fold(A a, A b) { return m::maxg(a, b); }
};
struct RedMin {
    template <class A> static CRK_DEV A init() { return Lim<A>::highest(); }
    template <class A> static CRK_DEV A fold(A a, A b) { return m::ming(a, b); }
};
/* Index folds: b replaces a only when strictly better (NaN never is). */
struct RedArgMax {
    static constexpr bool arg = true;
    template <class A> static CRK_DEV A init() { return Lim<A>::lowest(); }
    template <class A> static CRK_DEV bool better(A b, A a) { return b > a; }
};
struct RedArgMin {
    static constexpr bool arg = true;
    template <class A> static CRK_DEV A init() { return Lim<A>::highest(); }
    template <class A> static CRK_DEV bool better(A b, A a) { return b < a; }
};
template <class Op> struct IsArg { static constexpr bool value = false; };
template <> struct IsArg<RedArgMax> { static constexpr bool value = true; };
template <> struct IsArg<RedArgMin> { static constexpr bool value = true; };

/* argmin/argmax: a value and its index travel together. */
template <class A> struct ValAt {
    A v;
    uint32_t at;
};

/* Lane t ^ s of the first 32 lanes' values (a pair: both fields). */
template <class V> CRK_DEV V xor32(V v, int s) { return shfl_xor_bits<32>(v, s); }
template <class A> CRK_DEV ValAt<A> xor32(ValAt<A> p, int s) {
    return ValAt<A>{shfl_xor_bits<32>(p.v, s), shfl_xor_bits<32>(p.at, s)};
}

/* The halving tree over a block's values (see the header comment):
 * v(t) = step(v(t), v(t + s)) for t < s, s = P/2 .. 1. Steps with s >= 32
 * go through shr[] behind barriers; the last five are butterflies of
 * width 32 inside the first 32 lanes (lane t < s takes t ^ s = t + s, so
 * lanes < s compute exactly what the tree does; half a wave64 on gfx9).
 * Blocks under 32 threads keep shr[] all the way (no partial-wave
 * shuffles). Every thread calls it; thread 0 returns the root. */
template <class V, class Step> CRK_DEV V halving_tree(V v, unsigned t, unsigned n, V *shr, Step step) {
    unsigned p = 1;
    while (p * 2 <= n) p *= 2;
    shr[t] = v;
    if (p != n) { /* not a power of two: fold the tail into the head first */
        block_barrier();
        if (t < n - p) shr[t] = step(shr[t], shr[t + p]);
    }
    const unsigned last = p >= 32 ? 16 : 0; /* the steps left to shuffles */
    for (unsigned s = p / 2; s > last; s >>= 1) {
        block_barrier();
        if (t < s) shr[t] = step(shr[t], shr[t + s]);
    }
    block_barrier();
    v = shr[t];
    if (last && t < 32)
#pragma unroll
        for (unsigned s = 16; s > 0; s >>= 1) v = step(v, xor32(v, (int)s));
    block_barrier(); /* shr[] is read before the next output reuses it */
    return v;
}

/* Tensors past 2^32 elements: 64-bit divisions, out of line (inlined,
 * their registers made the whole loop spill on NVIDIA). */
__device__ __noinline__ size_t reduce_offset_wide(size_t i, size_t nd, const size_t *info) {
    return strided_offsets<1, size_t>(i, nd, info, info + nd).o[0];
}
CRK_DEV size_t reduce_offset(size_t numel, size_t i, size_t nd, const size_t *info) {
    return numel > 0xFFFFFFFFull ? reduce_offset_wide(i, nd, info)
                                 : strided_offsets<1, uint32_t>((uint32_t)i, nd, info, info + nd).o[0];
}

/* a / b, 32-bit when both fit (a 64-bit division is a long subroutine). */
CRK_DEV size_t div_fit(size_t a, size_t b) { return (a | b) >> 32 ? a / b : (size_t)((uint32_t)a / (uint32_t)b); }

/* [b·E + t, end) in steps of n, as a counted loop (unrolled: several loads
 * in flight), through the info buffer's layout unless it is contiguous
 * (then the logical index is the offset: no divisions). */
template <class T, class F>
CRK_DEV void for_block_elements(size_t numel, size_t first, size_t end, unsigned n, bool flat, size_t nd,
                                const size_t *info, const T *src, F f) {
    const size_t count = first < end ? div_fit(end - first + n - 1, n) : 0;
    if (flat) {
#pragma unroll 4
        for (size_t k = 0, i = first; k < count; ++k, i += n) f(i, src[i]);
    } else {
#pragma unroll 1
        for (size_t k = 0, i = first; k < count; ++k, i += n) f(i, src[reduce_offset(numel, i, nd, info)]);
    }
}

template <class Op, class T>
CRK_DEV void fast_reduce_values(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, T *dst) {
    using A = typename Arith<T>::A;
    __shared__ A shr[1024];
    const unsigned t = threadIdx.x, n = blockDim.x;
    const size_t n_out = E ? div_fit(numel, E) : gridDim.x; /* E = 0: numel = 0, one init per block */
    const bool flat = all_contiguous<1>(nd, info);
    for (size_t b = blockIdx.x; b < n_out; b += gridDim.x) {
        A acc = Op::template init<A>();
        const size_t end = (b + 1) * E < numel ? (b + 1) * E : numel;
        for_block_elements(numel, b * E + t, end, n, flat, nd, info, src,
                           [&](size_t, T x) { acc = Op::fold(acc, Arith<T>::in(x)); });
        acc = halving_tree(acc, t, n, shr, [](A a, A c) { return Op::fold(a, c); });
        if (t == 0) dst[b] = Arith<T>::out(acc);
    }
}

template <class Op, class T>
CRK_DEV void fast_reduce_index(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, uint32_t *dst) {
    using A = typename Arith<T>::A;
    using P = ValAt<A>;
    __shared__ P shr[1024];
    const unsigned t = threadIdx.x, n = blockDim.x;
    const size_t n_out = E ? div_fit(numel, E) : gridDim.x;
    const size_t last = info && nd ? info[nd - 1] : E; /* index = position along the last reordered dim */
    const bool flat = all_contiguous<1>(nd, info), narrow = numel <= 0xFFFFFFFFull; /* 32-bit modulo */
    for (size_t b = blockIdx.x; b < n_out; b += gridDim.x) {
        P m = {Op::template init<A>(), 0xFFFFFFFFu};
        bool set = false;
        const size_t end = (b + 1) * E < numel ? (b + 1) * E : numel;
        for_block_elements(numel, b * E + t, end, n, flat, nd, info, src, [&](size_t i, T x) {
            const A a = Arith<T>::in(x);
            if (!set || Op::better(a, m.v)) m.v = a, m.at = !last ? 0 : narrow ? (uint32_t)i % (uint32_t)last : (uint32_t)(i % last), set = true;
        });
        m = halving_tree(m, t, n, shr, [](P a, P c) {
            if (Op::better(c.v, a.v)) return c;
            return a;
        });
        if (t == 0) dst[b] = m.at;
    }
}

template <class Op, bool Arg = IsArg<Op>::value> struct FastReduce;
template <class Op> struct FastReduce<Op, false> {
    template <class T>
    static CRK_DEV void run(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, T *dst) {
        fast_reduce_values<Op>(numel, E, nd, info, src, dst);
    }
};
template <class Op> struct FastReduce<Op, true> {
    template <class T>
    static CRK_DEV void run(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, uint32_t *dst) {
        fast_reduce_index<Op>(numel, E, nd, info, src, dst);
    }
};

/* fast_<op>_<dt>(src_numel, el_to_sum_per_block, num_dims, info, src, dst). */
template <class Op, class T, class D>
CRK_DEV void fast_reduce(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, D *dst) {
    FastReduce<Op>::run(numel, E, nd, info, src, dst);
}

} // namespace crk
#endif
