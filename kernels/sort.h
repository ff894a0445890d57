/* sort.h — module sort (fact sheet §4.17): Candle's asort_{asc,desc}_<dt>,
 * and our crk_asort_keyed_* (Candle's result, faster) and
 * crk_asort_{chunk,merge}_{asc,desc}_<dt> for rows past shared memory
 * (libcrk's crk_argsort launches them).
 *
 * asort_*: Candle's kernel. Block blockIdx.x sorts row blockIdx.x: a
 * bitonic network over the index array dst_row[0..ncols_pad) in dynamic
 * shared memory (ncols_pad·4 bytes), compare-exchange on x[idx] with strict
 * > / <, padding indices (>= ncols) moved to the end in both orders. Each
 * stage's pairs are disjoint and a barrier separates stages, so the result
 * does not depend on the block size or the wave size (a thread walks col,
 * col + blockDim, ... when ncols_pad > blockDim). Not stable; NaN compares
 * false. Beyond upstream: 64-bit row offsets.
 *
 * crk_asort_keyed_*: Candle's network, keys cached in shared memory (below).
 * crk_asort_chunk/merge_*: a total order (value, then column; NaN after every number in
 * both orders), so the result is that of a stable sort whatever the network:
 *   chunk: 2048-column chunks of each row sorted in shared memory (keys and
 *          indices, bitonic), any grid (blocks loop over row x chunk);
 *   merge: runs of `width` sorted indices merged pairwise into 2·width,
 *          src -> dst; each element finds its place by a binary search in
 *          the partner run (grid-stride over rows x cols). */
#ifndef CRK_SORT_H
#define CRK_SORT_H
#include "numeric.h"

namespace crk {

/* ------------------------------------------------------- Candle's kernel */
/* Strictly out of order for the sort (Candle's comparisons; NaN: false). */
template <bool Asc, class A> CRK_DEV bool after(A a, A b) { return Asc ? a > b : a < b; }

template <bool Asc, class T> CRK_DEV void asort_candle(const T *x, uint32_t *dst, int ncols, int ncols_pad) {
    extern __shared__ int dst_row[];
    const size_t row = blockIdx.x;
    const T *x_row = x + row * (size_t)ncols;
    const int step = (int)blockDim.x;
    for (int col = (int)threadIdx.x; col < ncols_pad; col += step) dst_row[col] = col;
    block_barrier();
    for (int k = 2; k <= ncols_pad; k *= 2)
        for (int j = k / 2; j > 0; j /= 2) {
            for (int col = (int)threadIdx.x; col < ncols_pad; col += step) {
                const int ixj = col ^ j;
                if (ixj <= col) continue;
                const int a = dst_row[col], b = dst_row[ixj];
                /* up (col & k == 0): the larger (asc) goes to ixj; padding always to ixj */
                const bool swap = (col & k) == 0
                    ? a >= ncols || (b < ncols && after<Asc>(Arith<T>::in(x_row[a]), Arith<T>::in(x_row[b])))
                    : b >= ncols || (a < ncols && after<Asc>(Arith<T>::in(x_row[b]), Arith<T>::in(x_row[a])));
                if (swap) dst_row[col] = b, dst_row[ixj] = a;
            }
            block_barrier();
        }
    for (int col = (int)threadIdx.x; col < ncols; col += step) dst[row * (size_t)ncols + col] = (uint32_t)dst_row[col];
}

template <class T> CRK_DEV void asort_asc(const T *x, uint32_t *dst, int ncols, int ncols_pad) {
    asort_candle<true>(x, dst, ncols, ncols_pad);
}
template <class T> CRK_DEV void asort_desc(const T *x, uint32_t *dst, int ncols, int ncols_pad) {
    asort_candle<false>(x, dst, ncols, ncols_pad);
}

/* Candle's network with each row's keys beside its indices in dynamic
 * shared memory (pad·sizeof(T) bytes of keys rounded up to 8, then pad u16
 * indices: rows of at most 65536 columns), a thread per compare-exchange pair. The same
 * pairs, directions and comparisons in the same stage order as
 * asort_candle, so the same result (ties and NaN included), without a
 * global load per compare. libcrk's crk_argsort runs it when it fits. */
template <bool Asc, class T> CRK_DEV void asort_keyed(const T *x, uint32_t *dst, int ncols, int ncols_pad) {
    extern __shared__ double keyed_smem[]; /* 8-byte aligned for any T */
    T *key = reinterpret_cast<T *>(keyed_smem);
    /* the indices start 8-byte aligned: keys of 1-byte T may end at an odd byte */
    uint16_t *id = reinterpret_cast<uint16_t *>(keyed_smem + (ncols_pad * sizeof(T) + 7) / 8);
    const size_t row = blockIdx.x;
    const T *xr = x + row * (size_t)ncols;
    const int step = (int)blockDim.x, half = ncols_pad / 2;
    for (int c = (int)threadIdx.x; c < ncols_pad; c += step) {
        id[c] = (uint16_t)c;
        if (c < ncols) key[c] = xr[c];
    }
    block_barrier();
    for (int k = 2; k <= ncols_pad; k *= 2)
        for (int j = k / 2; j > 0; j /= 2) {
            for (int p = (int)threadIdx.x; p < half; p += step) {
                const int i = 2 * p - (p & (j - 1)), l = i + j; /* Candle's col and col ^ j */
                const int a = id[i], b = id[l];
                const bool swap = (i & k) == 0
                    ? a >= ncols || (b < ncols && after<Asc>(Arith<T>::in(key[i]), Arith<T>::in(key[l])))
                    : b >= ncols || (a < ncols && after<Asc>(Arith<T>::in(key[l]), Arith<T>::in(key[i])));
                if (swap) {
                    const T t = key[i];
                    key[i] = key[l], key[l] = t, id[i] = (uint16_t)b, id[l] = (uint16_t)a;
                }
            }
            block_barrier();
        }
    for (int c = (int)threadIdx.x; c < ncols; c += step) dst[row * (size_t)ncols + c] = id[c];
}
template <class T> CRK_DEV void asort_keyed_asc(const T *x, uint32_t *dst, int ncols, int ncols_pad) {
    asort_keyed<true>(x, dst, ncols, ncols_pad);
}
template <class T> CRK_DEV void asort_keyed_desc(const T *x, uint32_t *dst, int ncols, int ncols_pad) {
    asort_keyed<false>(x, dst, ncols, ncols_pad);
}

/* ------------------------------------------------------ our total order */
template <class A> CRK_DEV bool is_nan_key(A a) { return a != a; }
template <class S> CRK_DEV bool is_nan_key(H<S> a) { return a.f() != a.f(); }

/* 1 if (a, ia) sorts before (b, ib): by value, ties by column, NaN last
 * (NaNs by column). Columns are distinct, so this is a strict total order. */
template <bool Asc, class A> CRK_DEV bool before(A a, uint32_t ia, A b, uint32_t ib) {
    const bool na = is_nan_key(a), nb = is_nan_key(b);
    if (na || nb) return na && nb ? ia < ib : nb;
    if (Asc ? a < b : b < a) return true;
    if (Asc ? b < a : a < b) return false;
    return ia < ib; /* equal (-0 == +0 too) */
}

/* Columns per chunk: keys and indices of one chunk in shared memory (24 KiB
 * for f64), a compare-exchange per thread per stage with 1024 threads. */
constexpr unsigned SORT_CHUNK = 2048;

template <bool Asc, class T> CRK_DEV void asort_chunk(const T *x, uint32_t *dst, size_t ncols, size_t nrows) {
    using A = typename Arith<T>::A;
    __shared__ A key[SORT_CHUNK];
    __shared__ uint32_t id[SORT_CHUNK];
    const size_t nchunks = (ncols + SORT_CHUNK - 1) / SORT_CHUNK;
    for (size_t b = blockIdx.x; b < nrows * nchunks; b += gridDim.x) {
        const size_t row = b / nchunks, c0 = (b % nchunks) * SORT_CHUNK;
        const size_t left = ncols - c0;
        const unsigned len = left < SORT_CHUNK ? (unsigned)left : SORT_CHUNK;
        const T *xr = x + row * ncols + c0;
        for (unsigned i = threadIdx.x; i < SORT_CHUNK; i += blockDim.x) {
            id[i] = (uint32_t)(c0 + i);
            if (i < len) key[i] = Arith<T>::in(xr[i]);
        }
        const uint32_t end = (uint32_t)(c0 + len); /* indices >= end: padding, last */
        block_barrier();
        for (unsigned k = 2; k <= SORT_CHUNK; k *= 2)
            for (unsigned j = k / 2; j > 0; j /= 2) {
                for (unsigned p = threadIdx.x; p < SORT_CHUNK / 2; p += blockDim.x) {
                    const unsigned i = 2 * p - (p & (j - 1)), l = i + j; /* i has bit j clear */
                    const uint32_t ii = id[i], il = id[l];
                    const bool l_first = il >= end ? false : ii >= end || before<Asc>(key[l], il, key[i], ii);
                    const bool i_first = ii >= end ? false : il >= end || before<Asc>(key[i], ii, key[l], il);
                    if ((i & k) == 0 ? l_first : i_first) { /* up: the earlier one to i */
                        const A t = key[i];
                        key[i] = key[l], key[l] = t, id[i] = il, id[l] = ii;
                    }
                }
                block_barrier();
            }
        uint32_t *dr = dst + row * ncols + c0;
        for (unsigned i = threadIdx.x; i < len; i += blockDim.x) dr[i] = id[i];
        block_barrier(); /* the next chunk reuses key and id */
    }
}

template <class T> CRK_DEV void asort_chunk_asc(const T *x, uint32_t *dst, size_t ncols, size_t nrows) {
    asort_chunk<true>(x, dst, ncols, nrows);
}
template <class T> CRK_DEV void asort_chunk_desc(const T *x, uint32_t *dst, size_t ncols, size_t nrows) {
    asort_chunk<false>(x, dst, ncols, nrows);
}

/* Elements of run[0..n) that sort before (v, iv): a prefix, found by
 * binary search. */
template <bool Asc, class T, class A>
CRK_DEV size_t rank_in(const T *xr, const uint32_t *run, size_t n, A v, uint32_t iv) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const uint32_t im = run[mid];
        if (before<Asc>(Arith<T>::in(xr[im]), im, v, iv)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

template <bool Asc, class T>
CRK_DEV void asort_merge(const T *x, const uint32_t *src, uint32_t *dst, size_t ncols, size_t nrows, size_t width) {
    const size_t n = nrows * ncols, stride = (size_t)blockDim.x * gridDim.x;
    for (size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += stride) {
        const size_t row = g / ncols, p = g % ncols, base = row * ncols;
        const size_t lo = p / (2 * width) * (2 * width);
        const size_t mid = lo + width < ncols ? lo + width : ncols, hi = lo + 2 * width < ncols ? lo + 2 * width : ncols;
        const T *xr = x + base;
        const uint32_t *sr = src + base;
        const uint32_t me = sr[p];
        const auto v = Arith<T>::in(xr[me]);
        const size_t at = p < mid ? p + rank_in<Asc>(xr, sr + mid, hi - mid, v, me)
                                  : lo + (p - mid) + rank_in<Asc>(xr, sr + lo, mid - lo, v, me);
        dst[base + at] = me;
    }
}

template <class T>
CRK_DEV void asort_merge_asc(const T *x, const uint32_t *src, uint32_t *dst, size_t ncols, size_t nrows,
                             size_t width) {
    asort_merge<true>(x, src, dst, ncols, nrows, width);
}
template <class T>
CRK_DEV void asort_merge_desc(const T *x, const uint32_t *src, uint32_t *dst, size_t ncols, size_t nrows,
                              size_t width) {
    asort_merge<false>(x, src, dst, ncols, nrows, width);
}

} // namespace crk
#endif
