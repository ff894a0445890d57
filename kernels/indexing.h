/* indexing.h — module "indexing" (fact sheet §4.9): index_select is_<I>_<T>,
 * gather_, index_add ia_, scatter s_ and scatter_add sa_, ids of type I.
 *
 * An id selects a row when it is in [0, dim) and is not the sentinel
 * max_value<I>. is/gather write T(0) for an id that selects nothing, and
 * ia/s/sa skip it. Beyond upstream:
 * - out-of-range ids, negative ones included, are treated as the sentinel:
 *   no access outside the buffers, whatever the ids say (upstream: a device
 *   assert, compiled out on most AMD builds). fp8 ia/sa test the sentinel
 *   too (upstream's do not).
 * - index_select reads non-contiguous ids through their strides (info =
 *   [ids dims, ids strides]); upstream applies the ids strides to the
 *   source index (§6 item 9). A NULL info means contiguous ids.
 * - grid-stride loops (any grid is correct) and 64-bit offsets.
 * index_add and scatter(_add) keep upstream's order: a thread per (pre,
 * post) walks j in order, so duplicates accumulate (or, for scatter, the
 * last j wins) the same way on every run; no atomics. */
#ifndef CRK_INDEXING_H
#define CRK_INDEXING_H
#include "binary.h" /* m::add: integer sums wrap */
#include "elementwise.h"

namespace crk {

/* 1 if id names a row of a dim of `dim` rows. */
template <class I> CRK_DEV bool selects(I id, size_t dim) {
    return id != Lim<I>::highest() && !negative(id) && (uint64_t)id < dim;
}

/* a + b as upstream's `+=`: 16-bit floats round, fp8 adds in f32 and
 * encodes SATFINITE, integers wrap. */
template <class T> CRK_DEV T add_elem(T a, T b) {
    return Arith<T>::out(m::add(Arith<T>::in(a), Arith<T>::in(b)));
}

/* index_select over units of N outputs (N > 1 only when right % N == 0, so
 * a unit never straddles two rows); Idx: 32-bit divisions when every
 * index fits. */
template <class Idx, int N, class I, class T>
CRK_DEV void select_units(size_t numel, size_t nd, const size_t *info, bool strided_ids, const I *ids,
                          const T *inp, T *out, size_t src_dim, size_t ids_dim, size_t right) {
    const Idx r_ = (Idx)right, n_ = (Idx)ids_dim;
    const size_t units = numel / N;
    for (size_t u = global_id(); u < units; u += global_stride()) {
        const Idx i0 = (Idx)(u * N), row = i0 / r_, r = i0 - row * r_, l = row / n_, k = row - l * n_;
        const I id = ids[strided_ids ? strided_offsets<1, Idx>(k, nd, info, info + nd).o[0] : (size_t)k];
        Pack<T, N> v;
        if (selects(id, src_dim)) {
            v = load_pack<T, N>(inp + ((size_t)l * src_dim + (size_t)id) * right + r);
        } else {
#pragma unroll
            for (int j = 0; j < N; ++j) v.v[j] = T{};
        }
        store_pack<T, N>(out + i0, v);
    }
}

template <class I, class T>
CRK_DEV void index_select(size_t numel, size_t num_dims, const size_t *info, const I *ids, const T *inp, T *out,
                          size_t left_size, size_t src_dim_size, size_t ids_dim_size, size_t right_size) {
    if (right_size == 0 || ids_dim_size == 0) return;
    const bool strided = info != nullptr && !is_contiguous(num_dims, info, info + num_dims);
    const bool fits = numel <= 0xFFFFFFFFull && left_size * src_dim_size * right_size <= 0xFFFFFFFFull;
    constexpr int V = 16 / sizeof(T);
    /* libcrk's grids: 16 bytes a thread; Candle's: an element a thread */
    if (V > 1 && global_stride() < numel && right_size % V == 0 && aligned_for<T, V>(inp) &&
        aligned_for<T, V>(out)) {
        if (fits) select_units<uint32_t, V>(numel, num_dims, info, strided, ids, inp, out, src_dim_size, ids_dim_size, right_size);
        else select_units<size_t, V>(numel, num_dims, info, strided, ids, inp, out, src_dim_size, ids_dim_size, right_size);
        return;
    }
    if (fits) select_units<uint32_t, 1>(numel, num_dims, info, strided, ids, inp, out, src_dim_size, ids_dim_size, right_size);
    else select_units<size_t, 1>(numel, num_dims, info, strided, ids, inp, out, src_dim_size, ids_dim_size, right_size);
}

template <class Idx, class I, class T>
CRK_DEV void gather_elems(size_t numel, const I *ids, const T *inp, T *out, size_t src_dim, size_t ids_dim,
                          size_t right) {
    const Idx r_ = (Idx)right, n_ = (Idx)ids_dim;
    for (size_t i = global_id(); i < numel; i += global_stride()) {
        const Idx ii = (Idx)i, row = ii / r_, post = ii - row * r_, pre = row / n_;
        const I id = ids[i];
        out[i] = selects(id, src_dim) ? inp[((size_t)pre * src_dim + (size_t)id) * right + post] : T{};
    }
}

/* out[i] = inp[(pre·src_dim + ids[i])·right + post] over the ids' shape. */
template <class I, class T>
CRK_DEV void gather(size_t numel, const I *ids, const T *inp, T *out, size_t left_size, size_t src_dim_size,
                    size_t ids_dim_size, size_t right_size) {
    if (right_size == 0 || ids_dim_size == 0) return;
    if (numel <= 0xFFFFFFFFull && left_size * src_dim_size * right_size <= 0xFFFFFFFFull)
        gather_elems<uint32_t>(numel, ids, inp, out, src_dim_size, ids_dim_size, right_size);
    else
        gather_elems<size_t>(numel, ids, inp, out, src_dim_size, ids_dim_size, right_size);
}

/* out[(pre·dst_dim + ids[j])·right + post] += inp[(pre·ids_dim + j)·right + post],
 * j in order; src_dim_size is unused (as upstream). */
template <class I, class T>
CRK_DEV void index_add(const I *ids, size_t ids_dim_size, const T *inp, T *out, size_t left_size,
                       size_t src_dim_size, size_t dst_dim_size, size_t right_size) {
    (void)src_dim_size;
    const size_t n = left_size * right_size;
    for (size_t t = global_id(); t < n; t += global_stride()) {
        const size_t pre = t / right_size, post = t - pre * right_size;
        for (size_t j = 0; j < ids_dim_size; ++j) {
            const I id = ids[j];
            if (!selects(id, dst_dim_size)) continue;
            T &d = out[(pre * dst_dim_size + (size_t)id) * right_size + post];
            d = add_elem(d, inp[(pre * ids_dim_size + j) * right_size + post]);
        }
    }
}

/* out[(pre·dst_dim + ids[s])·right + post] = (or +=) inp[s], s = (pre·src_dim
 * + j)·right + post, j in order: for scatter the last j wins. */
template <bool Add, class I, class T>
CRK_DEV void scatter_rows(const I *ids, const T *inp, T *out, size_t left_size, size_t src_dim_size,
                          size_t dst_dim_size, size_t right_size) {
    const size_t n = left_size * right_size;
    for (size_t t = global_id(); t < n; t += global_stride()) {
        const size_t pre = t / right_size, post = t - pre * right_size;
        for (size_t j = 0; j < src_dim_size; ++j) {
            const size_t s = (pre * src_dim_size + j) * right_size + post;
            const I id = ids[s];
            if (!selects(id, dst_dim_size)) continue;
            T &d = out[(pre * dst_dim_size + (size_t)id) * right_size + post];
            d = Add ? add_elem(d, inp[s]) : inp[s];
        }
    }
}
template <class I, class T>
CRK_DEV void scatter(const I *ids, const T *inp, T *out, size_t left_size, size_t src_dim_size, size_t dst_dim_size,
                     size_t right_size) {
    scatter_rows<false>(ids, inp, out, left_size, src_dim_size, dst_dim_size, right_size);
}
template <class I, class T>
CRK_DEV void scatter_add(const I *ids, const T *inp, T *out, size_t left_size, size_t src_dim_size,
                         size_t dst_dim_size, size_t right_size) {
    scatter_rows<true>(ids, inp, out, left_size, src_dim_size, dst_dim_size, right_size);
}

} // namespace crk
#endif
