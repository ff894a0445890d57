/* fill.h — module "fill" (fact sheet §4.7, §4.8): fill_<dt>, const_set_<dt>
 * (writes through a strided view in place) and copy2d_<dt>. Indices are
 * 64-bit: copy2d's d1*d2 and row offsets do not wrap at 2^32 as upstream's
 * u32 arithmetic does. */
#ifndef CRK_FILL_H
#define CRK_FILL_H
#include "elementwise.h"

namespace crk {

/* const_set's walk of a strided view: runs of N consecutive logical
 * indices, one decode (divisions) a run, then a step of the last dim's
 * strides an element, re-decoding only when the last dim wraps. Idx:
 * uint32_t below 2^32 elements, else size_t. */
template <int K, class Idx> struct Cursor {
    size_t nd;
    const size_t *dims, *strides;
    Idx last, r;
    size_t step[K];
    Offsets<K> o;
    CRK_DEV Cursor(size_t nd_, const size_t *info) : nd(nd_), dims(info), strides(info + nd_) {
        last = (Idx)dims[nd - 1];
#pragma unroll
        for (int k = 0; k < K; ++k) step[k] = strides[k * nd + nd - 1];
    }
    CRK_DEV void seek(Idx i) {
        o = strided_offsets<K, Idx>(i, nd, dims, strides);
        r = i % last;
    }
    CRK_DEV void next(Idx i) { /* i: the index just visited */
        if (++r == last) {
            seek(i + 1);
            return;
        }
#pragma unroll
        for (int k = 0; k < K; ++k) o.o[k] += step[k];
    }
};

/* fill_<dt>(T *buf, T value, size_t numel): never called by Candle. */
template <class T> CRK_DEV void fill(T *buf, T value, size_t numel) {
    zip_contiguous<16 / sizeof(T)>(numel, buf, [=]() { return value; });
}

/* A strided view's runs of N, a thread a run, grid-stride. */
template <int N, class Idx, class T>
CRK_DEV void const_set_runs(size_t numel, size_t nd, const size_t *info, T v, T *out) {
    Cursor<1, Idx> c(nd, info);
    const size_t nruns = (numel + N - 1) / N;
    for (size_t run = global_id(); run < nruns; run += global_stride()) {
        const Idx i0 = (Idx)(run * N), end = numel - i0 < (size_t)N ? (Idx)numel : i0 + N;
        c.seek(i0);
        for (Idx i = i0; i < end; ++i) {
            out[c.o.o[0]] = v;
            c.next(i);
        }
    }
}

/* const_set_<dt>(numel, num_dims, info, T inp, T *out): out is the view's
 * first element; strided views are written at their strided offsets. */
template <class T> CRK_DEV void const_set(size_t numel, size_t nd, const size_t *info, T v, T *out) {
    constexpr int N = 16 / sizeof(T);
    if (all_contiguous<1>(nd, info)) {
        if (global_stride() >= numel) /* Candle's grid: a store alone keeps a thread an element ("Launch shapes", elementwise.h) */
            one_per_thread(numel, [&](auto i) { out[i] = v; });
        else
            zip_contiguous<N>(numel, out, [=]() { return v; });
        return;
    }
    if (numel > 0xFFFFFFFFull) return const_set_runs<N, size_t>(numel, nd, info, v, out);
    if (global_stride() >= numel) { /* Candle's grid: a thread an element (spaced runs: 1.00 -> 0.96x) */
        const size_t i = global_id();
        if (i < numel) out[strided_offsets<1, uint32_t>((uint32_t)i, nd, info, info + nd).o[0]] = v;
        return;
    }
    const_set_runs<N, uint32_t>(numel, nd, info, v, out);
}

/* copy2d_<dt>(src, dst, d1, d2, src_s, dst_s): d1 rows of d2 elements,
 * row strides src_s / dst_s. Each thread copies a run of N elements of one
 * row, with wide accesses when both ends are aligned. */
template <class T>
CRK_DEV void copy2d(const T *src, T *dst, uint32_t d1, uint32_t d2, uint32_t src_s, uint32_t dst_s) {
    constexpr int N = 16 / sizeof(T);
    if (d1 == 0 || d2 == 0) return;
    const size_t n = (size_t)d1 * d2;
    const bool spaced = global_stride() >= n;
    auto whole = [&]() { return ((d2 | src_s | dst_s) & (N - 1)) == 0 && aligned_for<T, N>(src) && aligned_for<T, N>(dst); };
    if (spaced && (few_runs<N>(n) || !whole())) { /* "Launch shapes", elementwise.h (map_strided: whole runs) */
        one_per_thread(n, [&](auto idx) { /* 32-bit idx: Candle's division; offsets in 64 bits */
            const auto row = idx / d2, col = idx - row * d2;
            dst[(size_t)row * dst_s + col] = src[(size_t)row * src_s + col];
        });
        return;
    }
    Walk w;
    if (!walk_of<N>(spaced, w)) return;
    const size_t per_row = (d2 + N - 1) / N, nruns = (size_t)d1 * per_row;
    const bool narrow = nruns <= 0xFFFFFFFFull;
    for (size_t run = w.first; run < nruns; run += w.count) {
        const size_t row = narrow ? (uint32_t)run / (uint32_t)per_row : run / per_row;
        const size_t col = (run - row * per_row) * N;
        const T *s = src + row * src_s + col;
        T *d = dst + row * dst_s + col;
        if (col + N <= d2 && aligned_for<T, N>(s) && aligned_for<T, N>(d)) {
            store_pack<T, N>(d, load_pack<T, N>(s));
        } else {
            for (size_t j = 0; j < N && col + j < d2; ++j) d[j] = s[j];
        }
    }
}

} // namespace crk
#endif
