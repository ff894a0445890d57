/* rope.h — rotary embeddings rope_i_<dt>, rope_<dt>, rope_thd_<dt> (fact
 * sheet §4.13): one rotated pair per index, arithmetic in T.
 *
 * Beyond upstream: a grid-stride loop (any grid is correct; Candle's
 * for_num_elems(el/2) gives one pair per thread) and 64-bit index math
 * (upstream's u32 products wrap past 2^32 elements). */
#ifndef CRK_ROPE_H
#define CRK_ROPE_H
#include "elementwise.h"
#include "numeric.h"

namespace crk {

/* a·b + c rounded once to S, as the hardware's bf16/f16 fma (HFMA2 on
 * sm_80+) does: a·b is exact in f32 (at most 22 bits), the sum exact as
 * s + t (TwoSum), and s rounded to odd when t != 0 so that S's round to
 * nearest even of it is the single rounding (f32 has 13 bits more than f16). */
template <class S> CRK_DEV H<S> fma_once(H<S> a, H<S> b, H<S> c) {
#if CRK_NV /* the instruction itself */
    return Native<S>::to(__hfma(Native<S>::of(a), Native<S>::of(b), Native<S>::of(c)));
#endif
    const float p = a.f() * b.f(), q = c.f(), s = p + q;
    const float v = s - q, t = (p - v) + (q - (s - v)); /* Knuth's TwoSum: v is p's share of s */
    uint32_t u = f32_bits(s);
    if (t != 0.f && !(u & 1u) && isfinite(s)) u += (t > 0.f) == (s > 0.f) ? 1u : ~0u; /* toward t */
    return H<S>::make(bits_f32(u));
}

/* (x0, x1) rotated by (c, s): x0·c − x1·s and x0·s + x1·c as nvcc compiles
 * upstream for sm_90 (Candle's own reduce.cubin, cuobjdump): the second
 * product rounded, the first fused, fma(x0, c, −x1·s) and fma(x0, s, x1·c),
 * in T (16-bit: HMUL2, HFMA2; f32: FMUL, FFMA; f64: DMUL, DFMA). */
template <class S> CRK_DEV void rotate(H<S> x0, H<S> x1, H<S> c, H<S> s, H<S> &d0, H<S> &d1) {
    d0 = fma_once(x0, c, -(x1 * s));
    d1 = fma_once(x0, s, x1 * c);
}
template <class F> CRK_DEV void rotate(F x0, F x1, F c, F s, F &d0, F &d1) {
    d0 = fma(x0, c, -mul_rn(x1, s));
    d1 = fma(x0, s, mul_rn(x1, c));
}

/* Rotates P pairs: element k of x0 with element k of x1 (P = 1: Candle's
 * one pair; P > 1: libcrk's runs of 16 bytes), cos/sin entry k. */
template <int P, class T> CRK_DEV void rotate_pack(Pack<T, P> &x0, Pack<T, P> &x1, const Pack<T, P> &c, const Pack<T, P> &s) {
    using A = typename Arith<T>::A;
#pragma unroll
    for (int k = 0; k < P; ++k) {
        A d0, d1;
        rotate(Arith<T>::in(x0.v[k]), Arith<T>::in(x1.v[k]), Arith<T>::in(c.v[k]), Arith<T>::in(s.v[k]), d0, d1);
        x0.v[k] = Arith<T>::out(d0), x1.v[k] = Arith<T>::out(d1);
    }
}

/* Element m of the 2P values lo, hi (m a constant after unrolling). */
template <int P, class T> CRK_DEV T &at2(Pack<T, P> &lo, Pack<T, P> &hi, int m) { return m < P ? lo.v[m] : hi.v[m - P]; }

/* P pairs at x[i1 + k] and x[i2 + k] (rotate-half), or at x[i1 + 2k] and
 * x[i1 + 2k + 1] (interleaved: 2P values from i1), cos/sin at cs + k. */
template <int P, class T>
CRK_DEV void rope_pairs(const T *src, const T *cos, const T *sin, T *dst, size_t i1, size_t i2, size_t cs,
                        bool interleaved) {
    const Pack<T, P> c = load_pack<T, P>(cos + cs), s = load_pack<T, P>(sin + cs);
    if (interleaved) i2 = i1 + P;
    Pack<T, P> lo = load_pack<T, P>(src + i1), hi = load_pack<T, P>(src + i2), x0, x1;
    if (!interleaved) {
        rotate_pack<P>(lo, hi, c, s);
    } else {
#pragma unroll
        for (int k = 0; k < P; ++k) x0.v[k] = at2(lo, hi, 2 * k), x1.v[k] = at2(lo, hi, 2 * k + 1);
        rotate_pack<P>(x0, x1, c, s);
#pragma unroll
        for (int k = 0; k < P; ++k) at2(lo, hi, 2 * k) = x0.v[k], at2(lo, hi, 2 * k + 1) = x1.v[k];
    }
    store_pack<T, P>(dst + i1, lo), store_pack<T, P>(dst + i2, hi);
}

/* The batch term of cos/sin: with 3-D cos/sin (stride_b > 0) batch
 * 2·idx / stride_b starts `per_batch` entries further. */
template <class I> CRK_DEV I batch_cs(I idx, uint32_t stride_b, I per_batch) {
    return stride_b ? (2 * idx / stride_b) * per_batch : 0;
}

/* Index math in I: 32-bit when the tensor's elements fit (Candle's, and
 * several times cheaper than 64-bit divisions), else 64-bit. */
#define CRK_ROPE_INDEX(n, call) ((n) <= 0xFFFFFFFFull ? call(uint32_t) : call(size_t))

/* Pairs in 16 bytes: libcrk's crk_rope*_vec a thread, and Candle's kernels
 * a thread where rope_grouped holds. */
template <class T> struct RopeVec { static constexpr int P = 16 / (int)sizeof(T); };

/* Candle's kernels (P = 1) where for_num_elems gave them a thread a pair
 * and the pairs fall in runs of V = RopeVec<T>::P (the crk_rope*_vec
 * contract: `run` pairs share a row and batch, a multiple of V; every
 * pointer 16-byte aligned): V pairs a thread (for_block_groups), the same
 * arithmetic a pair. */
template <class T>
CRK_DEV bool rope_grouped(size_t pairs, size_t run, const T *src, const T *cos, const T *sin, const T *dst) {
    constexpr int V = RopeVec<T>::P;
    return run % V == 0 && pairs % V == 0 && grid_groups_fit<V>(pairs / V) && aligned_for<T, V>(src) &&
           aligned_for<T, V>(cos) && aligned_for<T, V>(sin) && aligned_for<T, V>(dst);
}

/* CALL(I) over the n elements with Q pairs a step and G (grouped) in
 * scope: P as given, or for Candle's kernels 16 bytes of pairs grouped
 * where rope_grouped holds; index type I as CRK_ROPE_INDEX. */
#define CRK_ROPE_WALK(n, run, CALL)                                                                                    \
    do {                                                                                                               \
        if constexpr (P == 1) {                                                                                        \
            if (rope_grouped<T>((n) / 2, (run), src, cos, sin, dst)) {                                                 \
                constexpr int Q = RopeVec<T>::P;                                                                       \
                constexpr bool G = true;                                                                               \
                CRK_ROPE_INDEX((n), CALL);                                                                             \
                break;                                                                                                 \
            }                                                                                                          \
        }                                                                                                              \
        constexpr int Q = P;                                                                                           \
        constexpr bool G = false;                                                                                      \
        CRK_ROPE_INDEX((n), CALL);                                                                                     \
    } while (0)

/* A thread takes P pairs at a time, i = P·j (P = 1 in Candle's kernels;
 * 16 bytes' worth in libcrk's crk_rope*_vec, whose contract keeps a
 * thread's pairs in one row of d and one batch: see rope_vec below). */

/* f(j) for j < n: Candle's kernels (P = 1) without a loop under
 * for_num_elems; libcrk's always loop (two copies of the 16-byte body
 * spilled crk_rope_i_vec_bf16 on gfx908); G: groups of P pairs by a
 * block's first threads (for_block_groups: Candle's kernels under
 * for_num_elems where the pairs fall in 16-byte runs, rope_grouped). */
template <int P, bool G, class F> CRK_DEV void rope_each(size_t n, F f) {
    if constexpr (G) for_block_groups<P>(n, f);
    else if constexpr (P == 1) for_each_grid(n, f);
    else
        for (size_t j = global_id(); j < n; j += global_stride()) f(j);
}

/* Interleaved pairs (2i, 2i+1) of bh·td elements. */
template <int P, bool G, class I, class T>
CRK_DEV void rope_i_in(const T *src, const T *cos, const T *sin, T *dst, I pairs, I half, uint32_t stride_b) {
    rope_each<P, G>(pairs / P, [&](size_t j) { /* 64-bit: any grid ends */
        const I i = (I)j * P;
        rope_pairs<P>(src, cos, sin, dst, 2 * (size_t)i, 0, i % half + batch_cs<I>(i, stride_b, half), true);
    });
}
template <int P, class T>
CRK_DEV void rope_i_p(const T *src, const T *cos, const T *sin, T *dst, uint32_t bh, uint32_t td, uint32_t stride_b) {
    const size_t n = (size_t)bh * td;
    if (td / 2 == 0) return;
#define CALL(I) rope_i_in<Q, G, I>(src, cos, sin, dst, (I)(n / 2), (I)(td / 2), stride_b)
    CRK_ROPE_WALK(n, td / 2, CALL);
#undef CALL
}

/* Rotate-half: x[j] with x[j + d/2] within each row of d, t rows of d per
 * (b, h). */
template <int P, bool G, class I, class T>
CRK_DEV void rope_in(const T *src, const T *cos, const T *sin, T *dst, I pairs, I td, I d, uint32_t stride_b) {
    const I half_td = td / 2, half_d = d / 2;
    rope_each<P, G>(pairs / P, [&](size_t j) {
        const I i = (I)j * P;
        const I i_bh = i / half_td, i_td = i - i_bh * half_td, i_t = i_td / half_d, i_d = i_td - i_t * half_d;
        const I i1 = i_bh * td + i_t * d + i_d; /* < the elements: fits I */
        rope_pairs<P>(src, cos, sin, dst, i1, i1 + half_d, i_t * half_d + i_d + batch_cs<I>(i, stride_b, half_td), false);
    });
}
template <int P, class T>
CRK_DEV void rope_p(const T *src, const T *cos, const T *sin, T *dst, uint32_t bh, uint32_t td, uint32_t d,
                    uint32_t stride_b) {
    const size_t n = (size_t)bh * td;
    if (td / 2 == 0 || d / 2 == 0) return;
#define CALL(I) rope_in<Q, G, I>(src, cos, sin, dst, (I)(n / 2), (I)td, (I)d, stride_b)
    CRK_ROPE_WALK(n, d / 2, CALL);
#undef CALL
}

/* Rotate-half over a (b, t, h, d) layout. */
template <int P, bool G, class I, class T>
CRK_DEV void rope_thd_in(const T *src, const T *cos, const T *sin, T *dst, I pairs, I t, I h, I half_d,
                         uint32_t stride_b) {
    rope_each<P, G>(pairs / P, [&](size_t j) {
        const I i = (I)j * P;
        const I i_bth = i / half_d, i_d = i - i_bth * half_d, i_t = (i_bth / h) % t;
        const I i1 = i_bth * (2 * half_d) + i_d;
        rope_pairs<P>(src, cos, sin, dst, i1, i1 + half_d, i_t * half_d + i_d + batch_cs<I>(i, stride_b, t * half_d), false);
    });
}
template <int P, class T>
CRK_DEV void rope_thd_p(const T *src, const T *cos, const T *sin, T *dst, uint32_t b, uint32_t t, uint32_t h,
                        uint32_t d, uint32_t stride_b) {
    const size_t n = (size_t)b * t * h * d;
    if (d / 2 == 0 || h == 0 || t == 0) return;
#define CALL(I) rope_thd_in<Q, G, I>(src, cos, sin, dst, (I)(n / 2), (I)t, (I)h, (I)(d / 2), stride_b)
    CRK_ROPE_WALK(n, d / 2, CALL);
#undef CALL
}

/* Candle's rope_i_<dt>, rope_<dt>, rope_thd_<dt>: a pair a thread. */
template <class T>
CRK_DEV void rope_i(const T *src, const T *cos, const T *sin, T *dst, uint32_t bh, uint32_t td, uint32_t stride_b) {
    rope_i_p<1>(src, cos, sin, dst, bh, td, stride_b);
}
template <class T>
CRK_DEV void rope(const T *src, const T *cos, const T *sin, T *dst, uint32_t bh, uint32_t td, uint32_t d,
                  uint32_t stride_b) {
    rope_p<1>(src, cos, sin, dst, bh, td, d, stride_b);
}
template <class T>
CRK_DEV void rope_thd(const T *src, const T *cos, const T *sin, T *dst, uint32_t b, uint32_t t, uint32_t h,
                      uint32_t d, uint32_t stride_b) {
    rope_thd_p<1>(src, cos, sin, dst, b, t, h, d, stride_b);
}

/* libcrk's crk_rope_i_vec_<dt>, crk_rope_vec_<dt>, crk_rope_thd_vec_<dt>:
 * Candle's parameters and arithmetic, P = 16 / sizeof(T) pairs a thread
 * in 16-byte loads. Contract (crk_rope checks it, else it launches
 * Candle's kernel): t·d/2 (rope_i) or d/2 (rope, rope_thd) a multiple of
 * P, so a thread's pairs share their row and batch; src, cos, sin and dst
 * 16-byte aligned. */
template <class T>
CRK_DEV void rope_i_vec(const T *src, const T *cos, const T *sin, T *dst, uint32_t bh, uint32_t td, uint32_t stride_b) {
    rope_i_p<RopeVec<T>::P>(src, cos, sin, dst, bh, td, stride_b);
}
template <class T>
CRK_DEV void rope_vec(const T *src, const T *cos, const T *sin, T *dst, uint32_t bh, uint32_t td, uint32_t d,
                      uint32_t stride_b) {
    rope_p<RopeVec<T>::P>(src, cos, sin, dst, bh, td, d, stride_b);
}
template <class T>
CRK_DEV void rope_thd_vec(const T *src, const T *cos, const T *sin, T *dst, uint32_t b, uint32_t t, uint32_t h,
                          uint32_t d, uint32_t stride_b) {
    rope_thd_p<RopeVec<T>::P>(src, cos, sin, dst, b, t, h, d, stride_b);
}

} // namespace crk
#endif
