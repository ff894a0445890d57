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

/* The element offset of logical index i (reordered layout; NULL: i). */
CRK_DEV size_t reduce_offset(size_t numel, size_t i, size_t nd, const size_t *info) {
    return info ? offsets_of<1>(numel, i, nd, info).o[0] : i;
}

/* The halving tree over shr[0..blockDim) (see the header comment); every
 * thread must call it; the result is in slot 0 after the last barrier. */
template <class Step> CRK_DEV void halving_tree(unsigned t, unsigned n, Step step) {
    unsigned p = 1;
    while (p * 2 <= n) p *= 2;
    if (p != n) { /* not a power of two: fold the tail into the head first */
        block_barrier();
        if (t < n - p) step(t, t + p);
    }
    for (unsigned s = p / 2; s > 0; s >>= 1) {
        block_barrier();
        if (t < s) step(t, t + s);
    }
    block_barrier();
}

template <class Op, class T>
CRK_DEV void fast_reduce_values(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, T *dst) {
    using A = typename Arith<T>::A;
    __shared__ A shr[1024];
    const unsigned t = threadIdx.x, n = blockDim.x;
    const size_t n_out = E ? numel / E : gridDim.x; /* E = 0: numel = 0, one init per block */
    for (size_t b = blockIdx.x; b < n_out; b += gridDim.x) {
        A acc = Op::template init<A>();
        const size_t end = (b + 1) * E < numel ? (b + 1) * E : numel;
        for (size_t i = b * E + t; i < end; i += n) acc = Op::fold(acc, Arith<T>::in(src[reduce_offset(numel, i, nd, info)]));
        shr[t] = acc;
        halving_tree(t, n, [&](unsigned a, unsigned c) { shr[a] = Op::fold(shr[a], shr[c]); });
        if (t == 0) dst[b] = Arith<T>::out(shr[0]);
        block_barrier(); /* slot 0 is read before the next output reuses shr */
    }
}

template <class Op, class T>
CRK_DEV void fast_reduce_index(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, uint32_t *dst) {
    using A = typename Arith<T>::A;
    __shared__ A shr[1024];
    __shared__ uint32_t shr_index[1024];
    const unsigned t = threadIdx.x, n = blockDim.x;
    const size_t n_out = E ? numel / E : gridDim.x;
    const size_t last = info && nd ? info[nd - 1] : E; /* index = position along the last reordered dim */
    for (size_t b = blockIdx.x; b < n_out; b += gridDim.x) {
        A v = Op::template init<A>();
        uint32_t at = 0xFFFFFFFFu;
        bool set = false;
        const size_t end = (b + 1) * E < numel ? (b + 1) * E : numel;
        for (size_t i = b * E + t; i < end; i += n) {
            const A x = Arith<T>::in(src[reduce_offset(numel, i, nd, info)]);
            if (!set || Op::better(x, v)) v = x, at = (uint32_t)(last ? i % last : 0), set = true;
        }
        shr[t] = v, shr_index[t] = at;
        halving_tree(t, n, [&](unsigned a, unsigned c) {
            if (Op::better(shr[c], shr[a])) shr[a] = shr[c], shr_index[a] = shr_index[c];
        });
        if (t == 0) dst[b] = shr_index[0];
        block_barrier();
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
