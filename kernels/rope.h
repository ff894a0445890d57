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

/* (x0, x1) rotated by (c, s): x0·c − x1·s and x0·s + x1·c. 16-bit types
 * round every operation; f32/f64 keep the first as mul, mul, sub and fuse
 * the second into one fma, as nvcc compiles upstream. */
template <class S> CRK_DEV void rotate(H<S> x0, H<S> x1, H<S> c, H<S> s, H<S> &d0, H<S> &d1) {
    d0 = x0 * c - x1 * s;
    d1 = x0 * s + x1 * c;
}
template <class F> CRK_DEV void rotate(F x0, F x1, F c, F s, F &d0, F &d1) {
    d0 = mul_rn(x0, c) - mul_rn(x1, s);
    d1 = fma(x0, s, mul_rn(x1, c));
}

template <class T> CRK_DEV void rope_pair(const T *src, const T *cos, const T *sin, T *dst, size_t i1, size_t i2,
                                          size_t cs) {
    using A = typename Arith<T>::A;
    A d0, d1;
    rotate(Arith<T>::in(src[i1]), Arith<T>::in(src[i2]), Arith<T>::in(cos[cs]), Arith<T>::in(sin[cs]), d0, d1);
    dst[i1] = Arith<T>::out(d0), dst[i2] = Arith<T>::out(d1);
}

/* The batch term of cos/sin: with 3-D cos/sin (stride_b > 0) batch
 * 2·idx / stride_b starts `per_batch` entries further. */
CRK_DEV size_t batch_cs(size_t idx, uint32_t stride_b, size_t per_batch) {
    return stride_b ? (2 * idx / stride_b) * per_batch : 0;
}

/* Interleaved pairs (2i, 2i+1) of bh·td elements. */
template <class T>
CRK_DEV void rope_i(const T *src, const T *cos, const T *sin, T *dst, uint32_t bh, uint32_t td, uint32_t stride_b) {
    const size_t pairs = (size_t)bh * td / 2, half = td / 2;
    if (half == 0) return;
    for (size_t i = global_id(); i < pairs; i += global_stride())
        rope_pair(src, cos, sin, dst, 2 * i, 2 * i + 1, i % half + batch_cs(i, stride_b, half));
}

/* Rotate-half: x[j] with x[j + d/2] within each row of d, t rows of d per
 * (b, h). */
template <class T>
CRK_DEV void rope(const T *src, const T *cos, const T *sin, T *dst, uint32_t bh, uint32_t td, uint32_t d,
                  uint32_t stride_b) {
    const size_t pairs = (size_t)bh * td / 2, half_td = td / 2, half_d = d / 2;
    if (half_td == 0 || half_d == 0) return;
    for (size_t i = global_id(); i < pairs; i += global_stride()) {
        const size_t i_bh = i / half_td, i_td = i - i_bh * half_td, i_t = i_td / half_d, i_d = i_td - i_t * half_d;
        const size_t i1 = i_bh * td + i_t * d + i_d;
        rope_pair(src, cos, sin, dst, i1, i1 + half_d, i_t * half_d + i_d + batch_cs(i, stride_b, half_td));
    }
}

/* Rotate-half over a (b, t, h, d) layout. */
template <class T>
CRK_DEV void rope_thd(const T *src, const T *cos, const T *sin, T *dst, uint32_t b, uint32_t t, uint32_t h,
                      uint32_t d, uint32_t stride_b) {
    const size_t half_d = d / 2, pairs = (size_t)b * t * h * d / 2;
    if (half_d == 0 || h == 0 || t == 0) return;
    for (size_t i = global_id(); i < pairs; i += global_stride()) {
        const size_t i_bth = i / half_d, i_d = i - i_bth * half_d, i_t = (i_bth / h) % t;
        const size_t i1 = i_bth * d + i_d;
        rope_pair(src, cos, sin, dst, i1, i1 + half_d, i_t * half_d + i_d + batch_cs(i, stride_b, (size_t)t * half_d));
    }
}

} // namespace crk
#endif
