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
 * offsets, and a NULL info read as contiguous [dst_el, E]. A block of
 * 1/R of Candle's (Lanes: R = 4 or 2; at least 32 threads) runs Candle's
 * lanes, R a thread, and gives Candle's result: libcrk launches so. */
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

/* The element offset of logical index i (32-bit divisions when the tensor
 * fits). Inline: out of line, the call cost gfx9 scalar-register spills. */
CRK_DEV size_t reduce_offset(size_t numel, size_t i, size_t nd, const size_t *info) {
    return offsets_of<1>(numel, i, nd, info).o[0];
}

/* a / b, 32-bit when both fit (a 64-bit division is a long subroutine). */
CRK_DEV size_t div_fit(size_t a, size_t b) { return (a | b) >> 32 ? a / b : (size_t)((uint32_t)a / (uint32_t)b); }

/* Candle's block for E elements an output: the power of two >= min(1024, E). */
CRK_DEV unsigned candle_block(size_t E) {
    unsigned b = 1;
    while (b < E && b < 1024) b *= 2;
    return b;
}

/* Candle's lanes a thread: a block of at least 32 threads and 1/R of
 * Candle's block (sum, min, max: R = 4 for values up to 4 bytes, 2 for
 * 8-byte ones) takes R of its lanes (thread t: lanes t, t + n, ...), so
 * libcrk's smaller blocks give Candle's result bit for bit; any other
 * block is its own lanes. One R a kernel, none for argmin/argmax: more
 * variants spilled SGPRs on gfx9. */
template <class A> struct Lanes { static constexpr int value = sizeof(A) <= 4 ? 4 : 2; };
CRK_DEV bool takes_lanes(size_t E, unsigned n, unsigned R) { return n >= 32 && candle_block(E) == R * n; }

/* Loads in flight a thread on the contiguous path: 4 (R lanes of 4 / R
 * steps); on AMD one step for gfx9 and for argmin/argmax of 8-byte values
 * (unrolled, those kernels spilled scalar registers: crk verify). */
template <int R, bool Arg = false, class A = float> struct FlatUnroll {
#if CRK_AMD
#if defined(__GFX9__)
    static constexpr int value = 1;
#else
    static constexpr int value = Arg && sizeof(A) > 4 ? 1 : 4 / R;
#endif
#else
    static constexpr int value = 4 / R;
#endif
};

/* Lane t + n·r (r < R) of the vn = n·R lanes folds the elements
 * first + n·r, + vn, ... below end, in order: f(r, i, x). Counted loops
 * (unrolled: several loads in flight), through the info buffer's layout
 * unless it is contiguous (then the logical index is the offset). */
template <int R, int Unroll, class T, class F>
CRK_DEV void for_lane_elements(size_t numel, size_t first, size_t end, unsigned n, bool flat, size_t nd,
                               const size_t *info, const T *src, F f) {
    const size_t vn = (size_t)n * R, count = first < end ? div_fit(end - first + vn - 1, vn) : 0;
    if (flat) {
#pragma unroll Unroll
        for (size_t k = 0, i0 = first; k < count; ++k, i0 += vn)
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const size_t i = i0 + (size_t)n * r;
                if (R == 1 || i < end) f(r, i, src[i]);
            }
    } else { /* a lane at a time: one decode's registers live (more spilled on NVIDIA) */
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll 1
            for (size_t i = first + (size_t)n * r; i < end; i += vn) f(r, i, src[reduce_offset(numel, i, nd, info)]);
    }
}

/* The virtual tree's steps s >= n, inside a thread: lane r takes r + s/n. */
template <int R, class V, class Step> CRK_DEV V fold_lanes(V *v, Step step) {
#pragma unroll
    for (int h = R / 2; h >= 1; h /= 2)
#pragma unroll
        for (int r = 0; r < h; ++r) v[r] = step(v[r], v[r + h]);
    return v[0];
}

template <int R, class Op, class T>
CRK_DEV void fast_values_lanes(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, T *dst,
                               typename Arith<T>::A *shr) {
    using A = typename Arith<T>::A;
    const unsigned t = threadIdx.x, n = blockDim.x;
    const size_t n_out = E ? div_fit(numel, E) : gridDim.x; /* E = 0: numel = 0, one init per block */
    const bool flat = all_contiguous<1>(nd, info);
    const auto step = [](A a, A c) { return Op::fold(a, c); };
    for (size_t b = blockIdx.x; b < n_out; b += gridDim.x) {
        A acc[R];
#pragma unroll
        for (int r = 0; r < R; ++r) acc[r] = Op::template init<A>();
        const size_t end = (b + 1) * E < numel ? (b + 1) * E : numel;
        for_lane_elements<R, FlatUnroll<R>::value>(numel, b * E + t, end, n, flat, nd, info, src,
                                                   [&](int r, size_t, T x) { acc[r] = Op::fold(acc[r], Arith<T>::in(x)); });
        const A v = halving_tree(fold_lanes<R>(acc, step), t, n, shr, step);
        if (t == 0) dst[b] = Arith<T>::out(v);
    }
}

template <class Op, class T>
CRK_DEV void fast_reduce_values(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, T *dst) {
    __shared__ typename Arith<T>::A shr[1024];
    constexpr int R = Lanes<T>::value;
    if (takes_lanes(E, blockDim.x, R)) return fast_values_lanes<R, Op>(numel, E, nd, info, src, dst, shr);
    fast_values_lanes<1, Op>(numel, E, nd, info, src, dst, shr);
}

/* argmin/argmax's index: i modulo the last reordered dim; when that is
 * the whole block (E), i's place in the block (no division). */
CRK_DEV uint32_t position(size_t i, size_t block_start, size_t last, size_t E, bool narrow) {
    if (last == E) return (uint32_t)(i - block_start);
    return !last ? 0 : narrow ? (uint32_t)i % (uint32_t)last : (uint32_t)(i % last);
}

/* argmin/argmax: every lane its own thread (Candle's lanes two a thread
 * spilled scalar registers on gfx9). */
template <class Op, class T>
CRK_DEV void fast_reduce_index(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, uint32_t *dst) {
    using A = typename Arith<T>::A;
    using P = ValAt<A>;
    __shared__ P shr[1024];
    const unsigned t = threadIdx.x, n = blockDim.x;
    const size_t n_out = E ? div_fit(numel, E) : gridDim.x;
    const size_t last = info && nd ? info[nd - 1] : E; /* index = position along the last reordered dim */
    const bool flat = all_contiguous<1>(nd, info), narrow = numel <= 0xFFFFFFFFull; /* 32-bit modulo */
    const auto step = [](P a, P c) { return Op::better(c.v, a.v) ? c : a; };
    for (size_t b = blockIdx.x; b < n_out; b += gridDim.x) {
        P m = {Op::template init<A>(), 0xFFFFFFFFu};
        bool set = false;
        const size_t end = (b + 1) * E < numel ? (b + 1) * E : numel;
        for_lane_elements<1, FlatUnroll<1, true, A>::value>(numel, b * E + t, end, n, flat, nd, info, src,
                                                            [&](int, size_t i, T x) {
            const A a = Arith<T>::in(x);
            if (!set || Op::better(a, m.v)) m.v = a, m.at = position(i, b * E, last, E, narrow), set = true;
        });
        m = halving_tree(m, t, n, shr, step);
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
