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
 * index_add and scatter(_add) keep upstream's order: each destination
 * element has one thread, which walks j in order, so duplicates accumulate
 * (or, for scatter, the last j wins) the same way on every run, bit for bit
 * as upstream; no atomics. Upstream has a thread per (pre, post) column;
 * here a larger grid also splits a column's rows (parts, below). */
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

/* index_add and scatter(_add) split a column's destination rows among R
 * threads (R a power of two): the thread of part r owns the rows whose id
 * has r in its low bits, and walks j in order. Every destination element
 * still has one owner adding in upstream's order, so the result is bit for
 * bit upstream's, while R threads share the column's serial walk. R grows
 * with the grid: parts(units, rows, cap) is the largest power of two whose
 * R·units items fit one grid-stride pass (Candle's grid of a thread per
 * column gives R = 1 unless columns are few), at most the next power of
 * two >= rows (more parts would own no row) and cap. */
CRK_DEV uint32_t parts(size_t units, size_t rows, uint32_t cap) {
    const size_t fit = global_stride() / units;
    uint32_t r = 1;
    while ((size_t)r * 2 <= fit && r < rows && r < cap) r *= 2;
    return r;
}

/* 1 if id selects a row of dst and that row belongs to part `part` of R. */
template <class I> CRK_DEV bool owns(I id, size_t dim, uint32_t R, uint32_t part) {
    return selects(id, dim) && ((uint32_t)(uint64_t)id & (R - 1)) == part;
}

/* The walks over j load IDS_AHEAD (scatter: IDS_AHEAD_STRIDED) ids at once (independent loads in
 * flight, where one at a time would wait a memory latency per j) and keep
 * a bit per id the thread owns; the owned ones are then applied in order,
 * their ids read again from cache (an array indexed by a variable would
 * live in registers only through indexed register moves). */
constexpr int IDS_AHEAD = 16;
constexpr int IDS_AHEAD_STRIDED = 8; /* scatter: 16 spill SGPRs for fp8 on gfx908/gfx90a */
template <int Ahead, class I>
CRK_DEV uint32_t owned_ids(const I *__restrict__ ids, size_t j0, size_t step, size_t n, size_t dim, uint32_t R,
                           uint32_t part) {
    I id[Ahead];
#pragma unroll
    for (int q = 0; q < Ahead; ++q) id[q] = j0 + q < n ? ids[(j0 + q) * step] : Lim<I>::highest();
    uint32_t m = 0;
#pragma unroll
    for (int q = 0; q < Ahead; ++q) m |= (uint32_t)owns(id[q], dim, R, part) << q;
    return m;
}

/* index_add over units of N columns (N > 1 only when right % N == 0): the
 * parts of a unit sit in different waves, so the ids (one row for all
 * columns) are read uniformly and each wave's loads are contiguous. */
template <int N, class I, class T>
CRK_DEV void index_add_units(const I *__restrict__ ids, size_t n, const T *inp, T *out, size_t left, size_t dst_dim,
                             size_t right) {
    const size_t units = left * right / N, upr = right / N;
    const uint32_t R = parts(units, n < dst_dim ? n : dst_dim, 1024);
    for (size_t w = global_id(); w < units * R; w += global_stride()) {
        const size_t u = w % units, pre = u / upr, post = (u - pre * upr) * N;
        const uint32_t part = (uint32_t)(w / units);
        const T *src = inp + pre * n * right + post;
        T *dst = out + pre * dst_dim * right + post;
        for (size_t j0 = 0; j0 < n; j0 += IDS_AHEAD) {
            for (uint32_t m = owned_ids<IDS_AHEAD>(ids, j0, 1, n, dst_dim, R, part); m; m &= m - 1) {
                const int q = ctz32(m);
                T *d = dst + (size_t)ids[j0 + q] * right;
                Pack<T, N> a = load_pack<T, N>(d);
                const Pack<T, N> b = load_pack<T, N>(src + (j0 + q) * right);
#pragma unroll
                for (int k = 0; k < N; ++k) a.v[k] = add_elem(a.v[k], b.v[k]);
                store_pack<T, N>(d, a);
            }
        }
    }
}

/* out[(pre·dst_dim + ids[j])·right + post] += inp[(pre·ids_dim + j)·right + post],
 * j in order; src_dim_size is unused (as upstream). */
template <class I, class T>
CRK_DEV void index_add(const I *ids, size_t ids_dim_size, const T *inp, T *out, size_t left_size,
                       size_t src_dim_size, size_t dst_dim_size, size_t right_size) {
    (void)src_dim_size;
    if (left_size == 0 || right_size == 0) return;
    constexpr int V = 16 / sizeof(T);
    if (V > 1 && right_size % V == 0 && aligned_for<T, V>(inp) && aligned_for<T, V>(out))
        index_add_units<V>(ids, ids_dim_size, inp, out, left_size, dst_dim_size, right_size);
    else
        index_add_units<1>(ids, ids_dim_size, inp, out, left_size, dst_dim_size, right_size);
}

/* out[(pre·dst_dim + ids[s])·right + post] = (or +=) inp[s], s = (pre·src_dim
 * + j)·right + post, j in order: for scatter the last j wins. The parts of
 * a column are neighbouring lanes (ids differ per column: the parts of one
 * column read the same id); at most 16 parts, as every part reads all of
 * its column's ids. */
template <bool Add, class I, class T>
CRK_DEV void scatter_rows(const I *__restrict__ ids, const T *inp, T *out, size_t left_size, size_t src_dim_size,
                          size_t dst_dim_size, size_t right_size) {
    const size_t cols = left_size * right_size;
    if (cols == 0) return;
    const uint32_t R = parts(cols, src_dim_size < dst_dim_size ? src_dim_size : dst_dim_size, 16);
    for (size_t w = global_id(); w < cols * R; w += global_stride()) {
        const size_t t = w / R, pre = t / right_size, post = t - pre * right_size;
        const uint32_t part = (uint32_t)w & (R - 1);
        const size_t s0 = pre * src_dim_size * right_size + post;
        T *dst = out + pre * dst_dim_size * right_size + post;
        for (size_t j0 = 0; j0 < src_dim_size; j0 += IDS_AHEAD_STRIDED) {
            for (uint32_t m = owned_ids<IDS_AHEAD_STRIDED>(ids + s0, j0, right_size, src_dim_size, dst_dim_size, R, part);
                 m; m &= m - 1) {
                const size_t s = s0 + (j0 + ctz32(m)) * right_size;
                T &d = dst[(size_t)ids[s] * right_size];
                d = Add ? add_elem(d, inp[s]) : inp[s];
            }
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
