/* elementwise.h — the loop shared by every element-wise family.
 *
 * Layout contract (Candle's SlicePtrOrNull): info is NULL for contiguous
 * inputs, else [dims(nd), strides(nd) per operand]. Indices are 64-bit, so
 * tensors past 2^32 elements work (upstream is 32-bit only).
 *
 * Contiguous path: each thread moves VEC elements with 16-byte loads and
 * stores when every pointer is aligned for it, grid-stride over vectors;
 * the tail and misaligned views fall back to one element per step.
 * Strided path: each thread takes a run of VEC consecutive outputs, decodes
 * the first index (one division per dim, 32-bit when the tensor fits, which
 * is several times cheaper than 64-bit), steps the last dim's strides for the
 * rest, and stores the run at once. */
#ifndef CRK_ELEMENTWISE_H
#define CRK_ELEMENTWISE_H
#include "numeric.h"

namespace crk {

CRK_DEV bool is_contiguous(size_t nd, const size_t *dims, const size_t *strides) {
    size_t acc = 1;
    for (size_t d = nd; d-- > 0;) {
        if (dims[d] > 1 && strides[d] != acc) return false;
        acc *= dims[d];
    }
    return true;
}

CRK_DEV size_t global_id() { return (size_t)blockIdx.x * blockDim.x + threadIdx.x; }
CRK_DEV size_t global_stride() { return (size_t)blockDim.x * gridDim.x; }

/* Elements per thread so that the narrower operand moves 16 bytes. */
template <class A, class B> struct VecWidth {
    static constexpr int narrow = sizeof(A) < sizeof(B) ? (int)sizeof(A) : (int)sizeof(B);
    static constexpr int value = 16 / narrow;
};

/* A register array moved with the widest aligned accesses. */
template <class T, int N> struct Pack {
    T v[N];
};
template <int Bytes> struct Word { using type = uint4; };
template <> struct Word<8> { using type = uint2; };
template <> struct Word<4> { using type = uint32_t; };
template <> struct Word<2> { using type = uint16_t; };
template <> struct Word<1> { using type = uint8_t; };

template <class T, int N> CRK_DEV Pack<T, N> load_pack(const T *p) {
    constexpr int bytes = (int)sizeof(T) * N, wb = bytes >= 16 ? 16 : bytes;
    using W = typename Word<wb>::type;
    union { W w[bytes / wb]; Pack<T, N> pk; } u;
    const W *src = reinterpret_cast<const W *>(p);
#pragma unroll
    for (int k = 0; k < bytes / wb; ++k) u.w[k] = src[k];
    return u.pk;
}
template <class T, int N> CRK_DEV void store_pack(T *p, const Pack<T, N> &pk) {
    constexpr int bytes = (int)sizeof(T) * N, wb = bytes >= 16 ? 16 : bytes;
    using W = typename Word<wb>::type;
    union { W w[bytes / wb]; Pack<T, N> pk; } u;
    u.pk = pk;
    W *dst = reinterpret_cast<W *>(p);
#pragma unroll
    for (int k = 0; k < bytes / wb; ++k) dst[k] = u.w[k];
}

template <class T, int N> CRK_DEV bool aligned_for(const T *p) {
    constexpr size_t bytes = sizeof(T) * N, a = bytes >= 16 ? 16 : bytes;
    return ((uintptr_t)p & (a - 1)) == 0;
}

/* Row-major logical index -> element offsets of K operands sharing dims. */
template <int K> struct Offsets { size_t o[K]; };

template <int K, class Idx>
CRK_DEV Offsets<K> strided_offsets(Idx idx, size_t nd, const size_t *dims, const size_t *strides) {
    Offsets<K> r;
#pragma unroll
    for (int k = 0; k < K; ++k) r.o[k] = 0;
    for (size_t d = nd; d-- > 0;) {
        const Idx dim = (Idx)dims[d];
        const Idx q = idx / dim, rem = idx - q * dim;
#pragma unroll
        for (int k = 0; k < K; ++k) r.o[k] += (size_t)rem * strides[k * nd + d];
        idx = q;
    }
    return r;
}

/* Walks runs of N consecutive logical indices of a strided view: one
 * decode (divisions) per run, then a step of the last dim's strides per
 * element, re-decoding only when the last dim wraps. */
template <int K> struct Cursor {
    size_t nd;
    const size_t *dims, *strides;
    size_t last, step[K], r;
    bool wide;
    Offsets<K> o;
    CRK_DEV Cursor(size_t numel, size_t nd_, const size_t *info) : nd(nd_), dims(info), strides(info + nd_) {
        last = dims[nd - 1];
        wide = numel > 0xFFFFFFFFull;
#pragma unroll
        for (int k = 0; k < K; ++k) step[k] = strides[k * nd + nd - 1];
    }
    CRK_DEV void seek(size_t i) {
        o = wide ? strided_offsets<K, size_t>(i, nd, dims, strides)
                 : strided_offsets<K, uint32_t>((uint32_t)i, nd, dims, strides);
        r = wide ? i % last : (uint32_t)i % (uint32_t)last;
    }
    CRK_DEV void next(size_t i) { /* i: the index just visited */
        if (++r == last) {
            seek(i + 1);
            return;
        }
#pragma unroll
        for (int k = 0; k < K; ++k) o.o[k] += step[k];
    }
};

/* out[i] = g(i, offsets) over a strided launch, N elements per thread run,
 * stored with one wide store when the run is whole and aligned. */
template <int N, int K, class D, class G>
CRK_DEV void map_strided(size_t numel, size_t nd, const size_t *info, D *out, G g) {
    Cursor<K> c(numel, nd, info);
    const size_t nruns = (numel + N - 1) / N;
    const bool aligned = aligned_for<D, N>(out);
    for (size_t run = global_id(); run < nruns; run += global_stride()) {
        const size_t i0 = run * N;
        c.seek(i0);
        if (aligned && i0 + N <= numel && c.r + N <= c.last) { /* no wrap: step only */
            Pack<D, N> res;
#pragma unroll
            for (int j = 0; j < N; ++j) {
                res.v[j] = g(i0 + j, c.o);
#pragma unroll
                for (int k = 0; k < K; ++k) c.o.o[k] += c.step[k];
            }
            store_pack<D, N>(out + i0, res);
        } else {
            for (size_t i = i0; i < i0 + N && i < numel; ++i) {
                out[i] = g(i, c.o);
                c.next(i);
            }
        }
    }
}

/* out[i] = f(in[i]) over a contiguous range, vectorized when aligned. */
template <int N, class S, class D, class F>
CRK_DEV void map_contiguous(size_t numel, const S *in, D *out, F f) {
    const size_t gid = global_id(), gs = global_stride();
    size_t head = 0;
    if (aligned_for<S, N>(in) && aligned_for<D, N>(out)) {
        const size_t nvec = numel / N;
        for (size_t v = gid; v < nvec; v += gs) {
            const Pack<S, N> a = load_pack<S, N>(in + v * N);
            Pack<D, N> r;
#pragma unroll
            for (int k = 0; k < N; ++k) r.v[k] = f(a.v[k]);
            store_pack<D, N>(out + v * N, r);
        }
        head = nvec * N;
    }
    for (size_t i = head + gid; i < numel; i += gs) out[i] = f(in[i]);
}

/* Unary-shaped kernels (unary, cast, affine): Candle's in-place convention
 * reads out[] when inp is NULL. MaxN caps elements per thread for ops whose
 * registers would not fit 1024-thread blocks at the full width. */
template <int MaxN = 16, class S, class D, class F>
CRK_DEV void run_map(size_t numel, size_t nd, const size_t *info, const S *inp, D *out, F f) {
    constexpr int N = VecWidth<S, D>::value < MaxN ? VecWidth<S, D>::value : MaxN;
    if (info == nullptr || is_contiguous(nd, info, info + nd)) {
        map_contiguous<N>(numel, inp ? inp : (const S *)out, out, f);
    } else if (inp) {
        map_strided<N, 1>(numel, nd, info, out, [&](size_t, Offsets<1> o) { return f(inp[o.o[0]]); });
    } else { /* in place, upstream reads out[i] (not strided) */
        map_strided<N, 1>(numel, nd, info, out,
                          [&](size_t i, Offsets<1>) { return f(reinterpret_cast<const S *>(out)[i]); });
    }
}

} // namespace crk
#endif
