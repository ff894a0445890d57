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
 * lanes, R consecutive ones a thread (one R-wide load a step), and gives
 * Candle's result: libcrk launches so. Candle's launch over the middle dim
 * of a contiguous tensor (a column a block) runs cols_body instead: the
 * same result, with a window of columns a block (the other blocks idle)
 * read a memory sector of a row at a time. */
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
 * fits). Inline: out of line, the call cost gfx9 scalar-register spills.
 * fast_sum/min/max at 32 registers (two 1024-thread blocks an SM, as
 * Candle's): H100, 8192x4096 f32 under Candle's shape, sum 0.93 -> 1.35x
 * Candle's kernel with these two paths, sum over dim 0 0.95 -> 0.92.
 * Matrix: sum/min/max only (argmin/argmax spilled SGPRs on gfx12 with it). */
template <bool Matrix> CRK_DEV size_t reduce_offset(size_t numel, size_t i, size_t nd, const size_t *info) {
    if (Matrix && nd == 2 && numel <= 0xFFFFFFFFull) { /* a matrix (a reduction over dim 0): one 32-bit division */
        const uint32_t d1 = (uint32_t)info[1], q = (uint32_t)i / d1;
        return (size_t)((uint32_t)i - q * d1) * info[3] + (size_t)q * info[2];
    }
    return numel > 0xFFFFFFFFull ? strided_offsets<1, size_t, true>(i, nd, info, info + nd).o[0]
                                 : strided_offsets<1, uint32_t, true>((uint32_t)i, nd, info, info + nd).o[0];
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
 * 8-byte ones) takes R of its lanes (thread t: lanes R·t .. R·t + R - 1), so
 * libcrk's smaller blocks give Candle's result bit for bit; any other
 * block is its own lanes. One R a kernel, none for argmin/argmax: more
 * variants spilled SGPRs on gfx9. */
template <class A> struct Lanes { static constexpr int value = sizeof(A) <= 4 ? 4 : 2; };
CRK_DEV bool takes_lanes(size_t E, unsigned n, unsigned R) { return n >= 32 && candle_block(E) == R * n; }

/* Steps of the contiguous loop unrolled (loads in flight a thread: R
 * lanes' elements in one access a step); on AMD one step for gfx9 and for
 * argmin/argmax of 8-byte values (unrolled, those kernels spilled scalar
 * registers: crk verify). */
template <bool Arg = false, class A = float> struct FlatUnroll {
#if CRK_AMD && defined(__GFX9__)
    static constexpr int value = 1;
#elif CRK_AMD
    static constexpr int value = Arg && sizeof(A) > 4 ? 1 : 4;
#else
    static constexpr int value = 4;
#endif
};

/* Lane R·t + r of the P = n·R lanes (thread t holds R consecutive lanes;
 * first = the block's start + R·t) folds the elements first + r, + P, ...
 * below end, in order: f(r, i, x). Counted loops (unrolled: several loads
 * in flight). Contiguous views (the logical index is the offset) whose
 * lanes start R-aligned (`packed`) load a thread's R elements as one
 * access; other views go through the info buffer's layout (Matrix:
 * reduce_offset's). */
template <int R, int Unroll, bool Matrix, class T, class F>
CRK_DEV void for_lane_elements(size_t numel, size_t first, size_t end, unsigned n, bool flat, bool packed,
                               size_t nd, const size_t *info, const T *src, F f) {
    const size_t P = (size_t)n * R, count = first < end ? div_fit(end - first + P - 1, P) : 0;
    if (flat) {
#pragma unroll Unroll
        for (size_t k = 0, i0 = first; k < count; ++k, i0 += P) {
            if (R == 1 || (packed && i0 + R <= end)) { /* R == 1: i0 < end by the count */
                const Pack<T, R> p = load_pack<T, R>(src + i0);
#pragma unroll
                for (int r = 0; r < R; ++r) f(r, i0 + r, p.v[r]);
            } else {
#pragma unroll
                for (int r = 0; r < R; ++r)
                    if (i0 + r < end) f(r, i0 + r, src[i0 + r]);
            }
        }
    } else { /* a lane at a time: one decode's registers live (more spilled on NVIDIA) */
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll 1
            for (size_t i = first + r; i < end; i += P) f(r, i, src[reduce_offset<Matrix>(numel, i, nd, info)]);
    }
}

/* A thread's R lanes cross lanes together (the tree's steps s >= R). */
template <class A, int R> CRK_DEV Pack<A, R> xor32(Pack<A, R> p, int s) {
#pragma unroll
    for (int r = 0; r < R; ++r) p.v[r] = shfl_xor_bits<32>(p.v[r], s);
    return p;
}

/* The tree's steps s < R, inside a thread: lane r takes r + s. */
template <int R, class A, class Step> CRK_DEV A fold_lanes(Pack<A, R> v, Step step) {
#pragma unroll
    for (int h = R / 2; h >= 1; h /= 2)
#pragma unroll
        for (int r = 0; r < h; ++r) v.v[r] = step(v.v[r], v.v[r + h]);
    return v.v[0];
}

/* The same over the first q lanes only (q = 1, 2, 4 or R), with constant
 * indices (a runtime count put the array in scratch memory). */
template <int R, class A, class Step> CRK_DEV A fold_lanes_n(Pack<A, R> v, unsigned q, Step step) {
    Pack<A, 4> f4;
    Pack<A, 2> f2;
#pragma unroll
    for (int r = 0; r < 4 && r < R; ++r) f4.v[r] = v.v[r];
#pragma unroll
    for (int r = 0; r < 2 && r < R; ++r) f2.v[r] = v.v[r];
    return q >= (unsigned)R ? fold_lanes<R>(v, step) : q == 4 ? fold_lanes<4>(f4, step) : q == 2 ? fold_lanes<2>(f2, step) : v.v[0];
}

/* The reduction over the middle dim of a contiguous (B, E, C) tensor:
 * dst[b·C + c] folds src[(b·E + e)·C + c] over e in Candle's order for E
 * elements an output (lane l of P = candle_block(E) folds e = l, l + P,
 * ...; then the halving tree), so the result is fast_<op>_<dt>'s bit for
 * bit, with coalesced reads. A block takes W adjacent columns at a time
 * (a warp reads runs of a row) and Y threads a column: thread (x, y), x <
 * W (x >= W idle), y < Y; tid = its place in the block, n threads. Thread
 * y folds Q lanes at once, g, g + G, ... (G = P/Q: the tree's steps s >= G
 * inside the thread, Q loads in flight), for groups g = y, y + Y, ...; a
 * column's G group values meet in sh[] (G·W values: G <= 128) for the
 * tree's last steps. Jobs (b, a window of W columns) go to blocks
 * blockIdx.x, + gridDim.x, ... */
template <class Op, class T>
CRK_DEV void cols_body(size_t B, size_t E, size_t C, unsigned W, unsigned Y, unsigned x, unsigned y, unsigned tid,
                       unsigned n, const T *src, T *dst, typename Arith<T>::A *sh) {
    using A = typename Arith<T>::A;
    constexpr int Q = 8; /* G <= 128 groups: 128·W values of sh[] */
    const unsigned P = candle_block(E), Qe = P < (unsigned)Q ? P : (unsigned)Q, G = P / Qe;
    const size_t windows = (C + W - 1) / W, steps = div_fit(E + P - 1, P), GC = (size_t)G * C, PC = (size_t)P * C;
    const auto step = [](A a, A c) { return Op::fold(a, c); };
    for (size_t job = blockIdx.x; job < B * windows; job += gridDim.x) {
        const size_t b = job / windows, c = (job - b * windows) * W + x;
        if (x < W) {
            const T *col = src + b * E * C + c;
            for (unsigned g = y; g < G; g += Y) {
                Pack<A, Q> acc;
#pragma unroll
                for (int m = 0; m < Q; ++m) acc.v[m] = Op::template init<A>();
                const T *at = col + (size_t)g * C; /* element g + k·P of the column */
#pragma unroll 1 /* Q loads in flight; unroll 2 was slower (sum over dim 0 of 8192x4096 f32, H100: 54% -> 44% of copy) */
                for (size_t k = 0, e0 = g; c < C && k < steps; ++k, e0 += P, at += PC) {
                    const T *q = at; /* stepped: one address live, not Q (H100, sum over dim 0 of
                                      * 8192x4096 f32 through crk_reduce: 67% -> 75% of copy) */
#pragma unroll
                    for (int m = 0; m < Q; ++m, q += GC)
                        if (m < (int)Qe && e0 + (size_t)m * G < E) acc.v[m] = Op::fold(acc.v[m], Arith<T>::in(*q));
                }
                sh[g * W + x] = fold_lanes_n(acc, Qe, step);
            }
        }
        for (unsigned s = G / 2; s > 0; s >>= 1) {
            block_barrier();
            for (unsigned i = tid; i < s * W; i += n) sh[i] = step(sh[i], sh[i + s * W]);
        }
        block_barrier();
        const size_t c0 = (job - b * windows) * W;
        if (tid < W && c0 + tid < C) dst[b * C + c0 + tid] = Arith<T>::out(sh[tid]);
        block_barrier(); /* sh[] is read before the next window reuses it */
    }
}

/* Candle's reordered layout of a contiguous (B, E, C) tensor reduced over
 * its middle dim (dims [B.., C, E], strides [.., 1, C]; a reduction over
 * dim 0 when B = 1): the columns cols_body reads coalesced. */
CRK_DEV bool middle_cols(size_t numel, size_t E, size_t nd, const size_t *info, size_t *B, size_t *C) {
    if (!info || nd < 2 || !E || info[nd - 1] != E) return false;
    const size_t *st = info + nd, c = info[nd - 2];
    if (c < 2 || st[nd - 2] != 1 || st[nd - 1] != c) return false;
    size_t want = E * c;
    for (size_t k = nd - 2; k-- > 0;) {
        if (info[k] != 1 && st[k] != want) return false;
        want *= info[k];
    }
    *B = numel / (E * c), *C = c;
    return true;
}

template <int R, class Op, class T>
CRK_DEV void fast_values_lanes(size_t numel, size_t E, size_t nd, const size_t *info, bool flat, const T *src, T *dst,
                               Pack<typename Arith<T>::A, R> *shr) {
    using A = typename Arith<T>::A;
    using V = Pack<A, R>;
    const unsigned t = threadIdx.x, n = blockDim.x;
    const size_t n_out = E ? div_fit(numel, E) : gridDim.x; /* E = 0: numel = 0, one init per block */
    const bool packed = E % R == 0 && aligned_for<T, R>(src);
    const auto step = [](A a, A c) { return Op::fold(a, c); };
    /* steps s >= R: thread t takes t + s/R, lane by lane */
    const auto vstep = [](V a, const V &c) {
#pragma unroll
        for (int r = 0; r < R; ++r) a.v[r] = Op::fold(a.v[r], c.v[r]);
        return a;
    };
    for (size_t b = blockIdx.x; b < n_out; b += gridDim.x) {
        V acc;
#pragma unroll
        for (int r = 0; r < R; ++r) acc.v[r] = Op::template init<A>();
        const size_t end = (b + 1) * E < numel ? (b + 1) * E : numel;
        for_lane_elements<R, FlatUnroll<>::value, true>(numel, b * E + (size_t)R * t, end, n, flat, packed, nd, info, src,
                                                  [&](int r, size_t, T x) { acc.v[r] = Op::fold(acc.v[r], Arith<T>::in(x)); });
        const V v = halving_tree(acc, t, n, shr, vstep);
        if (t == 0) dst[b] = Arith<T>::out(fold_lanes<R>(v, step));
    }
}

/* cols_body in Candle's 1-D block: windows of CW columns. Out of line on
 * NVIDIA (H100, 8192x4096 f32 under Candle's shape against Candle's
 * kernel): inlined, sum over dim 0 ran 2.9x but the rows fell from 1.35x
 * to 1.22x (the kernel's registers allocated around it); out of line, the
 * rows 1.32x and dim 0 2.2x (its call spills). */
template <class Op, unsigned CW, class T>
CRK_DEV_OUTLINE void candle_cols(size_t B, size_t E, size_t C, const T *src, T *dst, typename Arith<T>::A *sh) {
    const unsigned n = blockDim.x, t = threadIdx.x;
    cols_body<Op>(B, E, C, CW, n / CW, t % CW, t / CW, t, n, src, dst, sh);
}

template <class Op, class T>
CRK_DEV void fast_reduce_values(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, T *dst) {
    using A = typename Arith<T>::A;
    constexpr int R = Lanes<T>::value;
    constexpr unsigned CW = 32 / sizeof(T); /* a window of columns: one 32-byte memory sector of a row */
    __shared__ Pack<A, R> shr[(CW * 128 > 1024 ? CW * 128 : 1024) / R];
    const bool flat = all_contiguous<1>(nd, info);
    size_t B, C;
    /* Candle's launch over a middle dim gives a block a column, read with a
     * row's stride (one memory sector an element, 0.92x Candle's kernel):
     * windows of CW columns instead (a constant: a runtime window divided
     * and spilled on NVIDIA). Asked only when not `flat`: asked first, it
     * read the layout again before a row's loads (rows 1.32 -> 1.25x). */
    if (!flat && blockDim.x % CW == 0 && middle_cols(numel, E, nd, info, &B, &C))
        return candle_cols<Op, CW>(B, E, C, src, dst, reinterpret_cast<A *>(shr));
    if (takes_lanes(E, blockDim.x, R)) return fast_values_lanes<R, Op>(numel, E, nd, info, flat, src, dst, shr);
    fast_values_lanes<1, Op>(numel, E, nd, info, flat, src, dst, reinterpret_cast<Pack<A, 1> *>(shr));
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
        for_lane_elements<1, FlatUnroll<true, A>::value, false>(numel, b * E + t, end, n, flat, true, nd, info, src,
                                                            [&](int, size_t i, T x) {
            const A a = Arith<T>::in(x);
            if (!set || Op::better(a, m.v)) m.v = a, m.at = position(i, b * E, last, E, narrow), set = true;
        });
        m = halving_tree(m, t, n, shr, step);
        if (t == 0) dst[b] = m.at;
    }
}

/* libcrk's crk_fast_<op>_cols_<dt> (sum, min, max): cols_body over info =
 * {B, E, C} (num_dims 3, E = el_to_sum_per_block), W = min(blockDim.x,
 * 32) columns a job and Y = blockDim.y·blockDim.z threads a column. Any
 * grid and block. */
template <class Op, class T>
CRK_DEV void fast_reduce_cols(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, T *dst) {
    using A = typename Arith<T>::A;
    __shared__ A sh[128 * 32];
    (void)numel;
    if (nd < 3 || !info) return;
    const unsigned W = blockDim.x < 32 ? blockDim.x : 32, Y = blockDim.y * blockDim.z;
    const unsigned y = threadIdx.y + blockDim.y * threadIdx.z;
    cols_body<Op>(info[0], E, info[2], W, Y, threadIdx.x, y, threadIdx.x + blockDim.x * y, blockDim.x * Y, src, dst, sh);
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

/* crk_fast_<op>_cols_<dt>: the functor Cols<Op> picks the column body. */
template <class Op> struct Cols {};
template <class Op> struct FastReduce<Cols<Op>, false> {
    template <class T>
    static CRK_DEV void run(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, T *dst) {
        fast_reduce_cols<Op>(numel, E, nd, info, src, dst);
    }
};

/* fast_<op>_<dt>(src_numel, el_to_sum_per_block, num_dims, info, src, dst). */
template <class Op, class T, class D>
CRK_DEV void fast_reduce(size_t numel, size_t E, size_t nd, const size_t *info, const T *src, D *dst) {
    FastReduce<Op>::run(numel, E, nd, info, src, dst);
}

} // namespace crk
#endif
