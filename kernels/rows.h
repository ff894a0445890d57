/* rows.h — row-wise kernels of module reduce: softmax_<dt> (fact sheet
 * §4.11), rmsnorm_<dt> and layernorm_<dt> (§4.12).
 *
 * Candle's kernels reduce a row in groups of 32 lanes (butterflies with
 * masks 16..1) and, for norms with 1024-thread blocks, once more over the
 * 32 group results. We keep that order on every target: groups of 32 lanes
 * are half a wave64 on gfx9 (shuffles of width 32 stay inside the half) and
 * a whole wave32 on RDNA and NVIDIA. So under Candle's shapes (softmax
 * (1,32,1), norms 32 or 1024) the accumulations round as Candle's do.
 *
 * Beyond upstream: any block of 32·k threads (k <= 32) is correct (groups
 * past the block's count read as the identity, not as uninitialised shared
 * memory), and softmax reads its input three times instead of writing and
 * re-reading the output. */
#ifndef CRK_ROWS_H
#define CRK_ROWS_H
#include "math_fns.h"
#include "numeric.h"

namespace crk {

/* 16-bit values cross lanes as their bits. */
template <class S> CRK_DEV H<S> shfl_xor_w32(H<S> v, int mask) {
    return H<S>{(uint16_t)shfl_xor_w32((int)v.b, mask)};
}

/* Butterfly over a group of 32 lanes: every lane ends with f folded over
 * the group, combined as Candle's v = f(v, partner) for masks 16..1. */
template <class V, class F> CRK_DEV V group32_fold(V v, F f) {
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1) v = f(v, shfl_xor_w32(v, mask));
    return v;
}

/* The block's threads, counted as Candle's kernels see them: linear id
 * over (x, y, z) and the count. */
CRK_DEV unsigned block_tid() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
CRK_DEV unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }

/* Folds v over `threads` consecutive threads starting at a multiple of 32
 * (tid counts from that start): 32-lane butterflies, then, when there are
 * several groups, every thread folds the group results in the same
 * butterfly (group g's result at lane g, identity past the last group).
 * `slots` is 32 shared values owned by these threads. */
template <class V, class F>
CRK_DEV V block_fold(V v, unsigned tid, unsigned threads, V identity, V *slots, F f) {
    /* slots: this fold's 32 group results (a row's own, when a block holds several rows) */
    v = group32_fold(v, f);
    if (threads <= 32) return v;
    const unsigned lane = tid % 32, groups = (threads + 31) / 32;
    block_barrier(); /* slots may still be read by an earlier fold */
    if (lane == 0) slots[tid / 32] = v;
    block_barrier();
    v = lane < groups ? slots[lane] : identity;
    return group32_fold(v, f);
}

/* ------------------------------------------------------------- softmax */
/* Accumulator: float for 16-bit and f32, double for f64. */
template <class A> struct Acc { using T = float; };
template <> struct Acc<double> { using T = double; };

template <class A> CRK_DEV typename Acc<A>::T widen(A a) { return (typename Acc<A>::T)a; }
template <class S> CRK_DEV float widen(H<S> a) { return a.f(); }
/* inv applied in the row's type: 16-bit rounds inv first (Candle: T(inv)). */
CRK_DEV float narrow_inv(float inv, float) { return inv; }
CRK_DEV double narrow_inv(double inv, double) { return inv; }
template <class S> CRK_DEV H<S> narrow_inv(float inv, H<S>) { return H<S>::make(inv); }

/* softmax_<dt>(src, dst, n_cols): row blockIdx.x. Candle's passes: max in
 * T (maxg), exp(x - max) in T summed in the accumulator, dst = e * T(1/sum).
 * The exps of the last pass are recomputed, bit for bit the ones summed. */
template <class T> CRK_DEV void softmax(const T *src, T *dst, int n_cols) {
    using A = typename Arith<T>::A;
    using C = typename Acc<A>::T;
    __shared__ A slots_max[32];
    __shared__ C slots_sum[32];
    const unsigned tid = block_tid(), n = block_threads();
    const size_t cols = n_cols > 0 ? (size_t)n_cols : 0, base = (size_t)blockIdx.x * cols;
    const T *x = src + base;
    A mx = Lim<A>::lowest();
    for (size_t c = tid; c < cols; c += n) mx = m::maxg(mx, Arith<T>::in(x[c]));
    mx = block_fold(mx, tid, n, Lim<A>::lowest(), slots_max, [](A a, A b) { return m::maxg(a, b); });
    C sum = 0;
    for (size_t c = tid; c < cols; c += n) sum += widen(m::exp(Arith<T>::in(x[c]) - mx));
    sum = block_fold(sum, tid, n, (C)0, slots_sum, [](C a, C b) { return a + b; });
    const A inv = narrow_inv((C)1 / sum, mx);
    for (size_t c = tid; c < cols; c += n) dst[base + c] = Arith<T>::out(m::exp(Arith<T>::in(x[c]) - mx) * inv);
}

/* ---------------------------------------------------------------- norms */
/* Row blockIdx.x·blockDim.y + threadIdx.y, threadIdx.x over its columns
 * (blockDim.x = Candle's block_size, 32 or 1024; here any multiple of 32
 * with blockDim.x·blockDim.y <= 1024: 32-lane groups must be whole).
 * Accumulation in f32 for every T, f64 included, as upstream. */
struct F2 { float a, b; };
CRK_DEV F2 operator+(F2 x, F2 y) { return F2{x.a + y.a, x.b + y.b}; }
CRK_DEV F2 shfl_xor_w32(F2 v, int mask) { return F2{shfl_xor_w32(v.a, mask), shfl_xor_w32(v.b, mask)}; }

template <class T> CRK_DEV float as_f32(T v) { return (float)v; }
CRK_DEV float as_f32(f16 v) { return to_f32(v); }
CRK_DEV float as_f32(bf16 v) { return to_f32(v); }

struct NormRow {
    size_t base, cols;
    unsigned tid, threads, first_group; /* this row's 32-lane groups start here in the block */
    CRK_DEV NormRow(int n_cols) {
        cols = n_cols > 0 ? (size_t)n_cols : 0;
        base = ((size_t)blockIdx.x * blockDim.y + threadIdx.y) * cols;
        tid = threadIdx.x, threads = blockDim.x, first_group = threadIdx.y * blockDim.x / 32;
    }
};

template <class T>
CRK_DEV void rmsnorm(const T *src, T *dst, const T *alpha, int n_cols, int block_size, float eps) {
    (void)block_size; /* == blockDim.x under Candle's shape; the block is what is launched */
    __shared__ float slots[32];
    const NormRow r(n_cols);
    float ss = 0.f;
    for (size_t c = r.tid; c < r.cols; c += r.threads) {
        const float v = as_f32(src[r.base + c]);
        ss += v * v;
    }
    ss = block_fold(ss, r.tid, r.threads, 0.f, slots + r.first_group, [](float a, float b) { return a + b; });
    const float scale = rsqrtf(ss / (float)r.cols + eps);
    for (size_t c = r.tid; c < r.cols; c += r.threads) {
        const float v = scale * as_f32(src[r.base + c]);
        dst[r.base + c] = convert<T>(alpha ? v * as_f32(alpha[c]) : v);
    }
}

template <class T>
CRK_DEV void layernorm(const T *src, T *dst, const T *alpha, const T *beta, int n_cols, int block_size, float eps) {
    (void)block_size;
    __shared__ F2 slots[32];
    const NormRow r(n_cols);
    F2 s = {0.f, 0.f};
    for (size_t c = r.tid; c < r.cols; c += r.threads) {
        const float v = as_f32(src[r.base + c]);
        s = s + F2{v, v * v};
    }
    s = block_fold(s, r.tid, r.threads, F2{0.f, 0.f}, slots + r.first_group, [](F2 a, F2 b) { return a + b; });
    const float mean = s.a / (float)r.cols, var = s.b / (float)r.cols - mean * mean;
    const float inv_std = rsqrtf(var + eps);
    for (size_t c = r.tid; c < r.cols; c += r.threads) {
        float v = (as_f32(src[r.base + c]) - mean) * inv_std;
        if (alpha) v *= as_f32(alpha[c]);
        if (beta) v += as_f32(beta[c]);
        dst[r.base + c] = convert<T>(v);
    }
}

} // namespace crk
#endif
