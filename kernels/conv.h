/* conv.h — module "conv" (fact sheet §4.14–§4.16): the direct convolutions
 * conv1d_, conv2d_, conv_transpose1d_, conv_transpose2d_; im2col1d_,
 * im2col_, col2im1d_; max_pool2d_, avg_pool2d_; upsample_nearest2d_,
 * upsample_bilinear2d_, for u8 u32 bf16 f16 f32 f64; and libcrk's own
 * crk_im2col1d_rows_ and crk_im2col_rows_ (crk_im2col's row walk),
 * crk_avg_pool2d_rows_ and crk_max_pool2d_rows_ (crk_pool2d's runs).
 *
 * Each output element is computed as upstream computes it, in its order:
 * - conv*: accumulate in A (f32 for 16-bit and f32, f64 for f64, u8/u32 in
 *   their own type, wrapping), each term as one fused multiply-add (what
 *   nvcc's contraction of `d += x * k` emits upstream), loops as upstream
 *   nests them (conv1d: offset outer, c_in inner; conv2d: w, h, c_in;
 *   conv_transpose2d: k_x, k_y, c_in), then one conversion to T.
 * - conv1d keeps upstream's quirk: the source position is
 *   (stride·l + offset)·dilation (dilation scales the stride term too; it
 *   equals PyTorch's only for dilation 1). Candle reaches it only with the
 *   cudnn feature and a non-contiguous weight.
 * - conv_transpose*: out_padding is not read (upstream's neither: it only
 *   sizes the output, which the caller did).
 * - im2col1d: Candle launches b·l_out·c_in threads and passes that count as
 *   dst_numel; each thread writes the l_k values of its (b, l, c).
 * - col2im1d: src (b, l_in, c_out, k) contiguous, dst (b, c_out, l_out),
 *   summed in T (16-bit floats round each add) as upstream's `dst +=`.
 * - pools and upsample_nearest2d call dims[2] "w" and dims[3] "h" (as
 *   upstream; Candle passes its arguments in that order); avg_pool2d
 *   divides by the whole window (scale = float(1/(w_k·h_k))) and sums u8 in
 *   u8; max_pool2d starts from the window's first element, then maxg
 *   (Candle's per-dtype NaN rules).
 * - upsample_bilinear2d: PyTorch's source index and lerp, in double.
 *
 * Beyond upstream: any grid (grid-stride), 64-bit indices and offsets
 * (upstream's conv_transpose works in `int`), and no access outside the
 * tensors for arguments upstream would run off with: the thread count is
 * the output's size from the info buffer's dims (im2col1d's dst_numel
 * clamped to b·l_out·c_in, im2col's to its dst size), a zero stride or
 * a window larger than the input writes nothing, an empty source is not
 * read. */
#ifndef CRK_CONV_H
#define CRK_CONV_H
#include "elementwise.h"
#include "math_fns.h"

namespace crk {

/* The same for any grid that holds a thread for each group: block b takes
 * groups [b·G, b·G + G) with its first G threads, so consecutive lanes take
 * consecutive groups. Many groups (kSpreadBlocks blocks' worth and more):
 * G is the block, so the groups fill the grid's first blocks and the
 * threads past them exit on one compare. Candle's grid of a thread an
 * element holds 4-16 threads a 16-byte run; the threads left idle in
 * every resident block cost the loads they did not issue, and any work
 * before an idle thread's exit (a division) is paid by all of them (H200,
 * f16 upsample_nearest2d: a run every 8th thread 448 GB/s, whole blocks
 * 650-710 in two runs). Fewer groups: spread over about kSpreadBlocks
 * blocks (every multiprocessor busy: im2col1d's small grids, 1.08x), or
 * over the whole grid when it has fewer blocks. Holds when groups <= the
 * grid's threads. */
constexpr size_t kSpreadBlocks = 512;
CRK_DEV bool grid_spreads(size_t groups) { return global_stride() >= groups; }
template <class F> CRK_DEV void for_spread_groups(size_t groups, F f) {
    if (groups >= kSpreadBlocks * blockDim.x) {
        const size_t j = global_id();
        if (j < groups) f(j);
        return;
    }
    const size_t least = (groups + gridDim.x - 1) / gridDim.x, aim = (groups + kSpreadBlocks - 1) / kSpreadBlocks;
    const size_t g = aim < least ? least : aim;
    if (threadIdx.x >= g) return;
    const size_t j = (size_t)blockIdx.x * g + threadIdx.x;
    if (j < groups) f(j);
}

/* f(I{}) with I the index type for n items: uint32_t when n fits in 32
 * bits (a 32-bit division is a few instructions, a 64-bit one a subroutine
 * of dozens, and index decodes are most of what the conv module's data
 * movers execute), else size_t. f takes `auto`. */
template <class F> CRK_DEV void with_index(size_t n, F f) {
    if (n <= 0xFFFFFFFFull) f(uint32_t{0});
    else f(size_t{0});
}

/* f(i) for every i < n under any grid (for_each_grid), i of with_index's type. */
template <class F> CRK_DEV void for_each_grid_idx(size_t n, F f) {
    with_index(n, [&](auto z) { for_each_grid(n, [&](size_t i) { f((decltype(z))i); }); });
}

/* An element's value as a double (exact for every dtype here). */
CRK_DEV double f64_of(float x) { return x; }
CRK_DEV double f64_of(double x) { return x; }
CRK_DEV double f64_of(uint8_t x) { return x; }
CRK_DEV double f64_of(uint32_t x) { return x; }
CRK_DEV double f64_of(f16 x) { return to_f32(x); }
CRK_DEV double f64_of(bf16 x) { return to_f32(x); }

/* The accumulator of T: A, T -> A, A -> T, and d + x·k in A. */
template <class T> struct Acc;
template <class T> struct AccF {
    using A = float;
    static CRK_DEV A in(T x) { return to_f32(x); }
    static CRK_DEV T out(A a) { return Conv<T>::from_f(a); }
    static CRK_DEV A mac(A d, A x, A k) { return fmaf(x, k, d); }
};
template <> struct Acc<f16> : AccF<f16> {};
template <> struct Acc<bf16> : AccF<bf16> {};
template <> struct Acc<float> {
    using A = float;
    static CRK_DEV A in(float x) { return x; }
    static CRK_DEV float out(A a) { return a; }
    static CRK_DEV A mac(A d, A x, A k) { return fmaf(x, k, d); }
};
template <> struct Acc<double> {
    using A = double;
    static CRK_DEV A in(double x) { return x; }
    static CRK_DEV double out(A a) { return a; }
    static CRK_DEV A mac(A d, A x, A k) { return ::fma(x, k, d); }
};
/* Integers wrap: u8 and u32 products and sums in 32-bit unsigned. */
template <class I> struct AccI {
    using A = I;
    static CRK_DEV A in(I x) { return x; }
    static CRK_DEV I out(A a) { return a; }
    static CRK_DEV A mac(A d, A x, A k) { return (A)((uint32_t)d + (uint32_t)x * (uint32_t)k); }
};
template <> struct Acc<uint8_t> : AccI<uint8_t> {};
template <> struct Acc<uint32_t> : AccI<uint32_t> {};

/* ------------------------------------------------------------ conv */
/* src (b, c_in, l_in), k (c_out, c_in, k_size), dst (b, c_out, l_out);
 * info = [src dims(3), src strides(3), k dims(3), k strides(3)]. */
template <class T>
CRK_DEV void conv1d(size_t src_numel, size_t l_out, size_t stride, size_t padding, size_t dilation,
                    const size_t *info, const T *src, const T *kernel, T *dst) {
    (void)src_numel;
    const size_t *sd = info, *ss = info + 3, *kd = info + 6, *ks = info + 9;
    const size_t c_out = kd[0], c_in = sd[1], l_in = sd[2], k_size = kd[2];
    using R = Acc<T>;
    for_each_grid(sd[0] * c_out * l_out, [&](size_t i) {
        const size_t l = i % l_out, c = i / l_out % c_out, b = i / l_out / c_out;
        typename R::A d = 0;
        for (size_t off = 0; off < k_size; ++off) {
            size_t sl = (stride * l + off) * dilation; /* upstream's quirk, above */
            if (sl < padding || sl >= padding + l_in) continue;
            sl -= padding;
            for (size_t ci = 0; ci < c_in; ++ci)
                d = R::mac(d, R::in(src[b * ss[0] + ci * ss[1] + sl * ss[2]]),
                           R::in(kernel[c * ks[0] + ci * ks[1] + off * ks[2]]));
        }
        dst[i] = R::out(d);
    });
}

/* src (b, c_in, h_in, w_in), k (c_out, c_in, h_k, w_k), dst NCHW. */
template <class T>
CRK_DEV void conv2d(size_t src_numel, size_t w_out, size_t h_out, size_t stride, size_t padding, size_t dilation,
                    const size_t *info, const T *src, const T *kernel, T *dst) {
    (void)src_numel;
    const size_t *sd = info, *ss = info + 4, *kd = info + 8, *ks = info + 12;
    const size_t c_out = kd[0], c_in = sd[1], h_in = sd[2], w_in = sd[3], h_k = kd[2], w_k = kd[3];
    using R = Acc<T>;
    for_each_grid(sd[0] * c_out * h_out * w_out, [&](size_t i) {
        const size_t w = i % w_out, h = i / w_out % h_out, c = i / w_out / h_out % c_out,
                     b = i / w_out / h_out / c_out;
        typename R::A d = 0;
        for (size_t wo = 0; wo < w_k; ++wo) {
            size_t sw = stride * w + wo * dilation;
            if (sw < padding || sw >= w_in + padding) continue;
            sw -= padding;
            for (size_t ho = 0; ho < h_k; ++ho) {
                size_t sh = stride * h + ho * dilation;
                if (sh < padding || sh >= h_in + padding) continue;
                sh -= padding;
                for (size_t ci = 0; ci < c_in; ++ci)
                    d = R::mac(d, R::in(src[b * ss[0] + ci * ss[1] + sh * ss[2] + sw * ss[3]]),
                               R::in(kernel[c * ks[0] + ci * ks[1] + ho * ks[2] + wo * ks[3]]));
            }
        }
        dst[i] = R::out(d);
    });
}

/* The input position a transposed convolution reads for output position o
 * and kernel tap k: (o + padding − k·dilation) / stride when that is a
 * whole non-negative number below n, else -1. */
CRK_DEV int64_t convt_src(size_t o, size_t k, size_t stride, size_t padding, size_t dilation, size_t n) {
    const int64_t s = (int64_t)(o + padding) - (int64_t)(k * dilation);
    if (s < 0 || (uint64_t)s % stride) return -1;
    const uint64_t x = (uint64_t)s / stride;
    return x < n ? (int64_t)x : -1;
}

/* src (b, c_in, l_in), k (c_in, c_out, l_k), dst (b, c_out, l_out). */
template <class T>
CRK_DEV void conv_transpose1d(size_t src_numel, size_t l_out, size_t stride, size_t padding, size_t out_padding,
                              size_t dilation, const size_t *info, const T *src, const T *kernel, T *dst) {
    (void)src_numel, (void)out_padding;
    const size_t *sd = info, *ss = info + 3, *kd = info + 6, *ks = info + 9;
    const size_t c_out = kd[1], c_in = sd[1], l_in = sd[2], l_k = kd[2];
    if (stride == 0) return;
    using R = Acc<T>;
    for_each_grid(sd[0] * c_out * l_out, [&](size_t i) {
        const size_t x = i % l_out, c = i / l_out % c_out, b = i / l_out / c_out;
        typename R::A d = 0;
        for (size_t kx = 0; kx < l_k; ++kx) {
            const int64_t ix = convt_src(x, kx, stride, padding, dilation, l_in);
            if (ix < 0) continue;
            for (size_t ci = 0; ci < c_in; ++ci)
                d = R::mac(d, R::in(src[b * ss[0] + ci * ss[1] + (size_t)ix * ss[2]]),
                           R::in(kernel[ci * ks[0] + c * ks[1] + kx * ks[2]]));
        }
        dst[i] = R::out(d);
    });
}

/* src (b, c_in, h_in, w_in), k (c_in, c_out, h_k, w_k), dst NCHW. */
template <class T>
CRK_DEV void conv_transpose2d(size_t src_numel, size_t w_out, size_t h_out, size_t stride, size_t padding,
                              size_t out_padding, size_t dilation, const size_t *info, const T *src, const T *kernel,
                              T *dst) {
    (void)src_numel, (void)out_padding;
    const size_t *sd = info, *ss = info + 4, *kd = info + 8, *ks = info + 12;
    const size_t c_out = kd[1], c_in = sd[1], h_in = sd[2], w_in = sd[3], h_k = kd[2], w_k = kd[3];
    if (stride == 0) return;
    using R = Acc<T>;
    for_each_grid(sd[0] * c_out * h_out * w_out, [&](size_t i) {
        const size_t x = i % w_out, y = i / w_out % h_out, c = i / w_out / h_out % c_out,
                     b = i / w_out / h_out / c_out;
        typename R::A d = 0;
        for (size_t kx = 0; kx < w_k; ++kx) {
            const int64_t ix = convt_src(x, kx, stride, padding, dilation, w_in);
            if (ix < 0) continue;
            for (size_t ky = 0; ky < h_k; ++ky) {
                const int64_t iy = convt_src(y, ky, stride, padding, dilation, h_in);
                if (iy < 0) continue;
                for (size_t ci = 0; ci < c_in; ++ci)
                    d = R::mac(d, R::in(src[b * ss[0] + ci * ss[1] + (size_t)iy * ss[2] + (size_t)ix * ss[3]]),
                               R::in(kernel[ci * ks[0] + c * ks[1] + ky * ks[2] + kx * ks[3]]));
            }
        }
        dst[i] = R::out(d);
    });
}

/* ---------------------------------------------------- im2col, col2im */
/* The unfold of im2col and im2col1d: dst (b, h_out, w_out, c_in, h_k, w_k)
 * contiguous (1-D: h_out = h_k = 1), each element the source at (y·stride
 * + ky·dilation − padding, x·stride + kx·dilation − padding), or 0 outside
 * it (1-D: no padding on the unit h). A cursor over dst's coordinates: one
 * decode (I-bit divisions) a run, then a carry step an element. */
template <class T, class I> struct Unfold {
    I h_out, w_out, c_in, h_k, w_k;
    size_t stride, dilation, pad_h, pad_w, h_in, w_in, s_b, s_c, s_h, s_w;
    const T *src;
    I b, y, x, c, ky, kx;
    CRK_DEV void seek(I e) {
        kx = e % w_k, e /= w_k, ky = e % h_k, e /= h_k, c = e % c_in, e /= c_in;
        x = e % w_out, e /= w_out, y = e % h_out, b = e / h_out;
    }
    /* Whether row (b, y, x)'s whole window lies inside the source (no
     * padding read), and the source offset of its window's corner there
     * (modular: outside the source it wraps). */
    CRK_DEV bool inside() const {
        const size_t py = (size_t)y * stride, px = (size_t)x * stride;
        return py >= pad_h && py + (size_t)(h_k - 1) * dilation < h_in + pad_h && px >= pad_w &&
               px + (size_t)(w_k - 1) * dilation < w_in + pad_w;
    }
    CRK_DEV size_t row_base() const {
        return (size_t)b * s_b + ((size_t)y * stride - pad_h) * s_h + ((size_t)x * stride - pad_w) * s_w;
    }
    /* Row l (an output position: b, y, x), element p of its c_in·h_k·w_k. */
    CRK_DEV void seek_row(I l, I p) {
        kx = p % w_k, p /= w_k, ky = p % h_k, c = p / h_k;
        x = l % w_out, l /= w_out, y = l % h_out, b = l / h_out;
    }
    CRK_DEV T value() const {
        const size_t py = (size_t)y * stride + (size_t)ky * dilation, px = (size_t)x * stride + (size_t)kx * dilation;
        if (py < pad_h || py >= h_in + pad_h || px < pad_w || px >= w_in + pad_w) return T{};
        return src[(size_t)b * s_b + (size_t)c * s_c + (py - pad_h) * s_h + (px - pad_w) * s_w];
    }
    CRK_DEV void next() {
        if (++kx < w_k) return;
        kx = 0;
        if (++ky < h_k) return;
        ky = 0;
        if (++c < c_in) return;
        c = 0;
        if (++x < w_out) return;
        x = 0;
        if (++y < h_out) return;
        y = 0, ++b;
    }
};

/* dst[e0 .. e0+N) of the n elements: one wide store when whole and aligned. */
template <int N, class T, class I> CRK_DEV void unfold_run(Unfold<T, I> &u, T *dst, size_t e0, size_t n) {
    u.seek((I)e0);
    if (e0 + N <= n && aligned_for<T, N>(dst + e0)) {
        Pack<T, N> p;
#pragma unroll
        for (int j = 0; j < N; ++j) p.v[j] = u.value(), u.next();
        store_pack<T, N>(dst + e0, p);
        return;
    }
    for (size_t e = e0; e < e0 + N && e < n; ++e) dst[e] = u.value(), u.next();
}

/* f(s) for s < slots: a slot a thread spread over the grid's blocks
 * (for_spread_groups) when the grid holds a thread a slot (Candle's
 * launches: im2col's a thread an element, im2col1d's a thread l_k
 * elements; libcrk's a thread a slot), else grid-stride. */
template <class F> CRK_DEV void for_slots(size_t slots, F f) {
    if (grid_spreads(slots)) return for_spread_groups(slots, f);
    for (size_t s = global_id(); s < slots; s += global_stride()) f(s);
}

/* The first n elements of dst in runs of 16 bytes, a run a thread in dst's
 * order: Candle's kernels (its grid holds a thread a run and more). H200
 * (f16, 2x320x64x64 k3): 200 GB/s an element a thread with 64-bit decodes,
 * 288 so. A run's loads cross channels and rows (a sector a value: L1 95%
 * busy in Nsight Compute), and a thread's decode (divisions, the bounds of
 * each element) is most of what it executes. Under Candle's grid the row
 * walk below lost (0.5-0.7x: the grid's threads are many, its runs few). */
template <class T, class I> CRK_DEV void unfold(Unfold<T, I> u, T *dst, size_t n) {
    constexpr int N = 16 / (int)sizeof(T);
    for_slots((n + N - 1) / N, [&](size_t r) { unfold_run<N>(u, dst, r * N, n); });
}

/* The row walk of libcrk's crk_im2col*_rows kernels. A row is an output
 * position (b, y, x), its c_in·h_k·w_k elements contiguous in dst. A warp
 * takes kRowsR runs of 32 / kRowsR consecutive rows: a load's lanes read 4
 * spans of 8 source positions (coalesced) where the flat order read 32
 * channels' sectors; a store writes 8 spans of 64 bytes. Each thread then
 * walks up to kRowsM blocks of its row's runs, kRowsR runs apart (fewer
 * where the grid has the threads: a small unfold spreads over the grid
 * libcrk sizes for it): the decode is paid once and the window digits
 * (c, ky, kx) step by kRowsR·N elements with two carries. Where the row's
 * window lies inside the source (all but the padded edge), its values come
 * from a cursor over the source's 32-bit offsets, an add a value; the edge
 * rows test each element's bounds as Candle's kernel. 64 registers a
 * thread (resident 1 in gen/optable.c). H200, 2x320x64x64 k3 under
 * libcrk's grid: f16 352 -> 781 GB/s, f32 608 -> 1388 (the flat order in
 * the same run); at 32 registers the walk spilled (591 and 943);
 * docs/runs/2026-11-29c-h200-im2col-rows.txt. */
constexpr uint32_t kRowsR = 4, kRowsM = 8;
/* A run's elements: 16 bytes, but 8 u8 (16 took 16 bytes of scratch on
 * gfx9-generic, whose 1024-thread blocks leave 64 VGPRs a lane). */
template <class T> constexpr int kRowsRun = sizeof(T) == 1 ? 8 : 16 / (int)sizeof(T);
/* Runs in pairs (below), but one at a time for u8 (a pair spilled SGPRs on
 * gfx908) and, on gfx9-generic, 16-bit values (a pair took 24 bytes of
 * scratch): crk verify. */
#if defined(__gfx9_generic__)
template <class T> constexpr bool kRowsPairs = sizeof(T) > 2;
#else
template <class T> constexpr bool kRowsPairs = sizeof(T) > 1;
#endif

/* The N values from window digits (u.c, u.ky, u.kx) of a row whose window
 * lies inside the source at offset `base`: steps sw along kx, dh at kx's
 * wrap, dc at ky's (modular: a step back is a wrap in uint32_t). */
template <int N, class T>
CRK_DEV void unfold_gather(const Unfold<T, uint32_t> &u, Pack<T, N> &p, uint32_t base, uint32_t sc, uint32_t sh,
                           uint32_t sw, uint32_t dh, uint32_t dc) {
    uint32_t off = base + u.c * sc + u.ky * sh + u.kx * sw, kx = u.kx, ky = u.ky;
#pragma unroll
    for (int j = 0; j < N; ++j) {
        p.v[j] = u.src[off];
        const bool wx = ++kx == u.w_k;
        kx = wx ? 0 : kx;
        const bool wy = wx && ++ky == u.h_k;
        ky = wy ? 0 : ky;
        off += wy ? dc : wx ? dh : sw;
    }
}

/* The row walk for n < 2^32 elements and source offsets below 2^32. */
template <class T> CRK_DEV void unfold_rows(Unfold<T, uint32_t> u, T *dst, uint32_t n) {
    using I = uint32_t;
    constexpr int N = kRowsRun<T>;
    constexpr I R = kRowsR, LB = 32 / R, S = (I)N * R;
    const I row = u.c_in * u.h_k * u.w_k, runs = (row + N - 1) / N, blocks = (runs + R - 1) / R;
    const I rows = n / row + (n % row != 0), lg = (rows + LB - 1) / LB;
    /* M blocks of R runs a thread: the fewest the grid's warps allow, at
     * most kRowsM (loader/launch_conv.c unfold_row_slots sizes the grid) */
    const size_t warps = global_stride() / 32;
    const I per = (I)(warps < 0xFFFFFFFFull ? warps : 0xFFFFFFFFull) / lg;
    const I want = per ? (blocks + per - 1) / per : kRowsM, M = want < 1 ? 1 : want > kRowsM ? kRowsM : want;
    const I chunks = (blocks + M - 1) / M;
    const I sc = (I)u.s_c, sh = (I)(u.dilation * u.s_h), sw = (I)(u.dilation * u.s_w);
    const I dh = sh - (u.w_k - 1) * sw, dc = sc - (u.h_k - 1) * sh - (u.w_k - 1) * sw;
    const I skx = S % u.w_k, sky = S / u.w_k % u.h_k, sci = S / (u.w_k * u.h_k); /* S as window digits */
    for_slots((size_t)lg * chunks * 32, [&](size_t s) {
        const I g = (I)(s / 32), lane = (I)(s % 32), l = g / chunks * LB + lane / R;
        I r = g % chunks * M * R + lane % R;
        if (l >= rows || r >= runs) return;
        u.seek_row(l, r * N);
        const bool in_src = u.inside();
        const I base = (I)u.row_base();
        T *const out = dst + (size_t)l * row;
        const bool wide = aligned_for<T, N>(out);
        const auto step = [&](Unfold<T, I> &w) {
            w.kx += skx;
            const I cx = w.kx >= w.w_k;
            w.kx -= cx ? w.w_k : 0;
            w.ky += sky + cx;
            const I cy = w.ky >= w.h_k;
            w.ky -= cy ? w.h_k : 0;
            w.c += sci + cy;
        };
        for (I k = 0; k < M && r < runs;) {
            const I p0 = r * N, e0 = l * row + p0;
            if (e0 >= n) return;
            const I p1 = p0 + R * N;
            if (kRowsPairs<T> && in_src && wide && k + 1 < M && r + R < runs && p1 + N <= row &&
                R * N + N <= n - e0) {
                /* two runs' loads before either store: a thread's runs were
                 * latency-bound (Nsight Compute: 2 eligible warps a
                 * scheduler at 64 registers), pairs 1.04-1.21x */
                Unfold<T, I> v = u;
                step(v);
                Pack<T, N> a, b;
                unfold_gather<N>(u, a, base, sc, sh, sw, dh, dc);
                unfold_gather<N>(v, b, base, sc, sh, sw, dh, dc);
                store_pack<T, N>(out + p0, a);
                store_pack<T, N>(out + p1, b);
                u = v;
                step(u);
                k += 2, r += 2 * R;
                continue;
            }
            if (p0 + N <= row && N <= n - e0 && wide) {
                Pack<T, N> p;
                if (in_src) {
                    unfold_gather<N>(u, p, base, sc, sh, sw, dh, dc);
                } else {
                    Unfold<T, I> v = u;
#pragma unroll
                    for (int j = 0; j < N; ++j) p.v[j] = v.value(), v.next();
                }
                store_pack<T, N>(out + p0, p);
            } else {
                Unfold<T, I> v = u;
                for (I e = e0; e - e0 < (I)N && e - l * row < row && e < n; ++e) dst[e] = v.value(), v.next();
            }
            step(u);
            ++k, r += R;
        }
    });
}

/* Unfold's fields. Candle's kernels (Rows false): the flat order, I with
 * with_index's type for dst's n elements. libcrk's (Rows): the row walk
 * below 2^32 elements and source offsets, else the flat order in 64 bits. */
template <bool Rows, class T>
CRK_DEV void unfold_any(size_t n, size_t h_out, size_t w_out, size_t c_in, size_t h_k, size_t w_k, size_t stride,
                        size_t dilation, size_t pad_h, size_t pad_w, size_t h_in, size_t w_in, const size_t *ss,
                        size_t s_h, size_t s_w, const T *src, T *dst, size_t batch) {
    if (Rows) {
        /* the source's last offset */
        const size_t span = (batch - 1) * ss[0] + (c_in - 1) * ss[1] + (h_in - 1) * s_h + (w_in - 1) * s_w;
        if (n <= 0xFFFFFFFFull && span <= 0xFFFFFFFFull) {
            using I = uint32_t;
            return unfold_rows(Unfold<T, I>{(I)h_out, (I)w_out, (I)c_in, (I)h_k, (I)w_k, stride, dilation, pad_h,
                                            pad_w, h_in, w_in, ss[0], ss[1], s_h, s_w, src},
                               dst, (I)n);
        }
        return unfold(Unfold<T, size_t>{h_out, w_out, c_in, h_k, w_k, stride, dilation, pad_h, pad_w, h_in, w_in,
                                        ss[0], ss[1], s_h, s_w, src},
                      dst, n);
    }
    with_index(n, [&](auto z) {
        using I = decltype(z);
        const Unfold<T, I> u{(I)h_out, (I)w_out, (I)c_in, (I)h_k, (I)w_k, stride, dilation, pad_h, pad_w,
                             h_in, w_in, ss[0], ss[1], s_h, s_w, src};
        unfold(u, dst, n);
    });
}

/* src (b, c_in, l_in); dst (b, l_out, c_in, l_k) contiguous: Candle's
 * thread i of b·l_out·c_in (dst_numel) writes dst[i·l_k .. i·l_k + l_k);
 * here the same elements in runs. */
template <class T, bool Rows = false>
CRK_DEV void im2col1d(size_t dst_numel, size_t l_out, size_t l_k, size_t stride, size_t padding, size_t dilation,
                      const size_t *info, const T *src, T *dst) {
    const size_t *sd = info, *ss = info + 3;
    const size_t c_in = sd[1], l_in = sd[2], rows = sd[0] * l_out * c_in;
    const size_t n = (dst_numel < rows ? dst_numel : rows) * l_k;
    unfold_any<Rows>(n, 1, l_out, c_in, 1, l_k, stride, dilation, 0, padding, 1, l_in, ss, 0, ss[2], src, dst, sd[0]);
}

/* src (b, c_in, h_in, w_in); dst (b, h_out, w_out, c_in, h_k, w_k); the
 * same stride, padding and dilation on h and w. */
template <class T, bool Rows = false>
CRK_DEV void im2col(size_t dst_numel, size_t h_out, size_t w_out, size_t h_k, size_t w_k, size_t stride,
                    size_t padding, size_t dilation, const size_t *info, const T *src, T *dst) {
    const size_t *sd = info, *ss = info + 4;
    const size_t c_in = sd[1], h_in = sd[2], w_in = sd[3], all = sd[0] * h_out * w_out * c_in * h_k * w_k;
    unfold_any<Rows>(dst_numel < all ? dst_numel : all, h_out, w_out, c_in, h_k, w_k, stride, dilation, padding,
                     padding, h_in, w_in, ss, ss[2], ss[3], src, dst, sd[0]);
}

/* libcrk's crk_im2col1d_rows_<dt> and crk_im2col_rows_<dt>: the same
 * parameters and elements, in the row walk (crk_im2col launches them). */
template <class T>
CRK_DEV void im2col1d_rows(size_t dst_numel, size_t l_out, size_t l_k, size_t stride, size_t padding,
                           size_t dilation, const size_t *info, const T *src, T *dst) {
    im2col1d<T, true>(dst_numel, l_out, l_k, stride, padding, dilation, info, src, dst);
}
template <class T>
CRK_DEV void im2col_rows(size_t dst_numel, size_t h_out, size_t w_out, size_t h_k, size_t w_k, size_t stride,
                         size_t padding, size_t dilation, const size_t *info, const T *src, T *dst) {
    im2col<T, true>(dst_numel, h_out, w_out, h_k, w_k, stride, padding, dilation, info, src, dst);
}

/* src (b, l_in, c_out, k_size) contiguous, dst (b, c_out, l_out): the sum,
 * in T, of the columns that land on each output position, from input
 * position l_out_idx/stride down (kernel tap k0 up). */
template <class T>
CRK_DEV void col2im1d(size_t dst_el, size_t l_out, size_t l_in, size_t c_out, size_t k_size, size_t stride,
                      const T *src, T *dst) {
    if (stride == 0) return;
    using R = Arith<T>;
    for_each_grid(dst_el, [&](size_t i) {
        const size_t l = i % l_out, c = i / l_out % c_out, b = i / l_out / c_out;
        typename R::A d = R::in(T{});
        for (size_t li = l / stride + 1, k0 = l - (li - 1) * stride; li-- > 0 && k0 < k_size; k0 += stride)
            if (li < l_in) d = d + R::in(src[((b * l_in + li) * c_out + c) * k_size + k0]);
        dst[i] = R::out(d);
    });
}

/* --------------------------------------------------------- pooling */
/* A window extent known at compile time (2 or 3: the pools of ResNet,
 * YOLO and the like), so its loops unroll and the window's loads issue
 * together; other extents stay run-time loops. */
template <int K> struct Fixed {
    static constexpr int value = K;
    CRK_DEV constexpr operator size_t() const { return K; }
};
template <class F> CRK_DEV void with_window(size_t w_k, size_t h_k, F f) {
    if (w_k == 2 && h_k == 2) f(Fixed<2>{}, Fixed<2>{});
    else if (w_k == 3 && h_k == 3) f(Fixed<3>{}, Fixed<3>{});
    else f(w_k, h_k);
}

/* A window of a pool: its first element and the strides of its two dims,
 * offsets of type I. */
template <class T, class I, class WK, class HK> struct PoolWindow {
    const T *p;
    I s2, s3;
    WK wk;
    HK hk;
    CRK_DEV T at(size_t wo, size_t ho) const { return p[(I)wo * s2 + (I)ho * s3]; }
};

/* Outputs a thread of pool_each under a grid of fewer threads than
 * outputs (libcrk's): H200, k2 s2 1.24-1.43x, k3 s2 0.99-1.14x; 4 lost
 * (docs/runs/2026-11-28c-h200-pool-runs*.txt). */
constexpr int kPoolRun = 2;

/* src (b, c, d2, d3) ("w" = dims[2], "h" = dims[3]), dst (b, c, w_out,
 * h_out), w_out = (d2 − w_k)/w_stride + 1, windows without padding:
 * f(i, window) for each output i: a thread an output when the grid holds
 * one for each (Candle's), else kPoolRun consecutive outputs along h.
 * Nothing for a zero stride or a window larger than the input. Decodes
 * and source offsets in 32 bits when dst and the source's reach fit them
 * (every offset a window takes is at most that reach; a stride truncated
 * to 32 bits still gives each product modulo 2^32, the true one below
 * it). */
template <class T, class F>
CRK_DEV void pool_each(size_t w_k, size_t h_k, size_t w_stride, size_t h_stride, const size_t *info, const T *src,
                       F f) {
    const size_t *sd = info, *ss = info + 4, c = sd[1], w_in = sd[2], h_in = sd[3];
    if (w_stride == 0 || h_stride == 0 || w_k > w_in || h_k > h_in) return;
    const size_t w_out = (w_in - w_k) / w_stride + 1, h_out = (h_in - h_k) / h_stride + 1;
    const size_t n = sd[0] * c * w_out * h_out;
    if (n == 0) return;
    const size_t reach = (sd[0] - 1) * ss[0] + (c - 1) * ss[1] + (w_in - 1) * ss[2] + (h_in - 1) * ss[3];
    const bool narrow = n <= 0xFFFFFFFFull && reach <= 0xFFFFFFFFull;
    with_window(w_k, h_k, [&](auto wk, auto hk) {
        const auto run = [&](auto z) {
            using I = decltype(z);
            const I s0 = (I)ss[0], s1 = (I)ss[1], s2 = (I)ss[2], s3 = (I)ss[3], ws = (I)w_stride, hs = (I)h_stride;
            using W = PoolWindow<T, I, decltype(wk), decltype(hk)>;
            if (global_stride() >= n) { /* a thread an output (Candle's grid) */
                const size_t j = global_id();
                if (j >= n) return;
                const I i = (I)j;
                const I dh = i % (I)h_out, r = i / (I)h_out, dw = r % (I)w_out, r2 = r / (I)w_out, ci = r2 % (I)c,
                        b = r2 / (I)c;
                return f(j, W{src + (b * s0 + ci * s1 + ws * dw * s2 + hs * dh * s3), s2, s3, wk, hk});
            }
            /* fewer threads (libcrk's grid of a thread a run): kPoolRun
             * consecutive outputs along h a thread, one decode and their
             * windows' loads together */
            constexpr int R = kPoolRun;
            const size_t per_row = (h_out + R - 1) / R;
            for_slots(n / h_out * per_row, [&](size_t q) {
                const I jr = (I)q % (I)per_row, r = (I)q / (I)per_row, dw = r % (I)w_out, r2 = r / (I)w_out,
                        ci = r2 % (I)c, b = r2 / (I)c, dh0 = jr * (I)R;
                const T *base = src + (b * s0 + ci * s1 + ws * dw * s2);
                const size_t i0 = (size_t)r * h_out + dh0;
                if (dh0 + (I)R <= (I)h_out) {
#pragma unroll
                    for (int k = 0; k < R; ++k) f(i0 + k, W{base + hs * (dh0 + (I)k) * s3, s2, s3, wk, hk});
                } else {
                    for (I k = 0; dh0 + k < (I)h_out; ++k) f(i0 + k, W{base + hs * (dh0 + k) * s3, s2, s3, wk, hk});
                }
            });
        };
        if (narrow) run(uint32_t{0});
        else run(size_t{0});
    });
}

/* d·scale, converted as upstream's static_cast<T>(d * scale): u8/u32 and
 * float sums times a float, a double sum times the float widened. The
 * product is rounded on its own before the conversion (clang would fuse
 * an f32 product and its f16 conversion into one v_fma_mix rounding). */
CRK_DEV float avg_scale(float d, float s) { return mul_rn(d, s); }
CRK_DEV double avg_scale(double d, float s) { return d * (double)s; }
CRK_DEV float avg_scale(uint8_t d, float s) { return mul_rn((float)d, s); }
CRK_DEV float avg_scale(uint32_t d, float s) { return mul_rn((float)d, s); }

/* A pool as a fold in upstream's order (w outer, h inner): d = init(),
 * then d = step(d, x, first) for each window value (first: the window's
 * (0, 0)), then out(d); op(win) folds a whole window (win.at(wo, ho),
 * win.wk x win.hk). pool_rows folds a run's windows a source row at a
 * time with the same steps. */
template <class Op> struct PoolFold {
    template <class W> CRK_DEV auto operator()(const W &win) const {
        const Op &op = static_cast<const Op &>(*this);
        auto d = op.init();
        for (size_t wo = 0; wo < win.wk; ++wo) /* unrolled when Fixed */
            for (size_t ho = 0; ho < win.hk; ++ho) d = op.step(d, win.at(wo, ho), (wo | ho) == 0);
        return op.out(d);
    }
};
template <class T> struct AvgPool : PoolFold<AvgPool<T>> {
    using R = Acc<T>;
    float scale; /* float(1/(w_k·h_k)): the whole window, as upstream */
    CRK_DEV typename R::A init() const { return 0; }
    CRK_DEV typename R::A step(typename R::A d, T x, bool) const { return d + R::in(x); }
    CRK_DEV T out(typename R::A d) const { return Conv<T>::from_f(avg_scale(d, scale)); }
    static constexpr bool kAnyOrder = false; /* a sum's bits depend on its order */
};
template <class T> CRK_DEV AvgPool<T> avg_pool(size_t w_k, size_t h_k) {
    AvgPool<T> op;
    op.scale = (float)(1.0 / (double)(w_k * h_k));
    return op;
}
/* the window's first value, then maxg (Candle's NaN rules) */
template <class T> struct MaxPool : PoolFold<MaxPool<T>> {
    using R = Arith<T>;
    CRK_DEV typename R::A init() const { return typename R::A{}; }
    CRK_DEV typename R::A step(typename R::A d, T x, bool first) const {
        return first ? R::in(x) : m::maxg(d, R::in(x));
    }
    CRK_DEV T out(typename R::A d) const { return R::out(d); }
    /* The same max in any order (NaN canonical either way; of +0 and -0
     * either, as nvcc's own operand order gives): pool_rows folds the
     * window rows first, two values an instruction where the target has
     * the paired form. */
    static constexpr bool kAnyOrder = true;
    CRK_DEV typename R::A join(typename R::A a, typename R::A b) const { return m::maxg(a, b); }
    /* two values a word as they lie in memory (16-bit types) */
    CRK_DEV uint32_t join_word(uint32_t a, uint32_t b) const { return m::maxg_word<typename R::A>(a, b); }
};

template <class T>
CRK_DEV void avg_pool2d(size_t src_numel, size_t w_k, size_t h_k, size_t w_stride, size_t h_stride,
                        const size_t *info, const T *src, T *dst) {
    (void)src_numel;
    const AvgPool<T> op = avg_pool<T>(w_k, h_k);
    pool_each(w_k, h_k, w_stride, h_stride, info, src, [&](size_t i, const auto &win) { dst[i] = op(win); });
}

template <class T>
CRK_DEV void max_pool2d(size_t src_numel, size_t w_k, size_t h_k, size_t w_stride, size_t h_stride,
                        const size_t *info, const T *src, T *dst) {
    (void)src_numel;
    pool_each(w_k, h_k, w_stride, h_stride, info, src, [&](size_t i, const auto &win) { dst[i] = MaxPool<T>{}(win); });
}

/* libcrk's crk_{avg,max}_pool2d_rows kernels (crk_pool2d launches them).
 * For the pools of vision models (2x2 stride 2, 3x3 stride 2 or 3) over a
 * source contiguous along h, a thread takes a run of kRowsRun<T> outputs
 * along h (16 bytes; 8 u8): it reads each window row's span of the run,
 * (R - 1)·S + K values, in 16-byte loads when the span is aligned and
 * whole inside the source row (else one value at a time, clamped to the
 * row), and folds it into each output of the run (the same steps in the
 * same order as a window a thread), then stores the run in one piece when
 * aligned. Consecutive lanes take consecutive runs of a row. Other pools,
 * strided h and sources past 32-bit offsets: pool_each. The pair path
 * of pool_each issued a load a window value and decoded every pair
 * (H200, bf16 at half f32's GB/s: instruction-bound). 64 registers
 * (resident 1 in gen/optable.c). H200, 8x64x112x112 under libcrk's
 * grid: max f32 k2 s2 2008 -> 2242 GB/s, k3 s2 1383 -> 1815, bf16 k2 s2
 * 1107 -> 1764, k3 s2 807 -> 1112; the rows rolled (a row's span live at
 * a time) 0.92-0.99x, and at 32 registers 0.52-0.92x
 * (docs/runs/2026-11-29d-h200-pool-rows.txt). */
template <int K, int S> struct PoolShape {
    static constexpr int k = K, s = S;
};
/* f(PoolShape) for the square pools the runs take; false for others. */
template <class F> CRK_DEV bool with_pool_shape(size_t w_k, size_t h_k, size_t h_stride, F f) {
    if (w_k != h_k) return false;
    if (w_k == 2 && h_stride == 2) return f(PoolShape<2, 2>{}), true;
    if (w_k == 3 && h_stride == 2) return f(PoolShape<3, 2>{}), true;
    if (w_k == 3 && h_stride == 3) return f(PoolShape<3, 3>{}), true;
    return false;
}

/* The runs on AMD for 32- and 64-bit types only: clang keeps each 16-bit
 * and u8 value of a span in a VGPR of its own, and the 16-bit and u8 runs
 * took 96-132 bytes of scratch on gfx9-generic (64 VGPRs a lane at 1024
 * threads, the rows rolled); those take pool_each's pairs there. */
#if CRK_AMD
template <class T> constexpr bool kPoolRows = sizeof(T) >= 4;
#else
template <class T> constexpr bool kPoolRows = true;
#endif

/* Max pools' rows folded first (Op::kAnyOrder) on NVIDIA; AMD keeps the
 * windows, measured there (its f32/f64 runs roll the rows; no AMD GPU
 * here to measure a change against). */
#if CRK_AMD
constexpr bool kPoolRowsFirst = false;
#else
constexpr bool kPoolRowsFirst = true;
#endif

template <class T, class Op>
CRK_DEV void pool_rows(size_t w_k, size_t h_k, size_t w_stride, size_t h_stride, const size_t *info, const T *src,
                       T *dst, Op op) {
    const size_t *sd = info, *ss = info + 4, c = sd[1], w_in = sd[2], h_in = sd[3];
    const auto each = [&] {
        pool_each(w_k, h_k, w_stride, h_stride, info, src, [&](size_t i, const auto &win) { dst[i] = op(win); });
    };
    if (w_stride == 0 || h_stride == 0 || w_k > w_in || h_k > h_in) return;
    const size_t w_out = (w_in - w_k) / w_stride + 1, h_out = (h_in - h_k) / h_stride + 1;
    const size_t n = sd[0] * c * w_out * h_out;
    if (n == 0) return;
    const size_t reach = (sd[0] - 1) * ss[0] + (c - 1) * ss[1] + (w_in - 1) * ss[2] + (h_in - 1) * ss[3];
    if (ss[3] != 1 || n > 0xFFFFFFFFull || reach > 0xFFFFFFFFull) return each();
    if constexpr (!kPoolRows<T>) return each(); /* the runs' code not compiled */
    else if (!with_pool_shape(w_k, h_k, h_stride, [&](auto shape) {
            constexpr int K = decltype(shape)::k, S = decltype(shape)::s, R = kRowsRun<T>, V = 16 / (int)sizeof(T);
            constexpr int L = ((R - 1) * S + K + V - 1) / V * V; /* a row's span in whole 16-byte loads */
            const uint32_t s0 = (uint32_t)ss[0], s1 = (uint32_t)ss[1], s2 = (uint32_t)ss[2], ws = (uint32_t)w_stride,
                           hi = (uint32_t)h_in, ho = (uint32_t)h_out, wo_n = (uint32_t)w_out, cn = (uint32_t)c;
            const uint32_t per_row = (ho + R - 1) / R;
            /* every row's span on a 16-byte boundary when its first is */
            const bool rows_aligned = (s2 * sizeof(T)) % 16 == 0;
            for_slots((size_t)(n / h_out) * per_row, [&](size_t q) {
                const uint32_t jr = (uint32_t)q % per_row, r = (uint32_t)q / per_row, dw = r % wo_n, r2 = r / wo_n,
                               ci = r2 % cn, b = r2 / cn, dh0 = jr * R, h0 = dh0 * S;
                const T *base = src + (b * s0 + ci * s1 + ws * dw * s2 + h0);
                const bool vec = rows_aligned && h0 + L <= hi && aligned_for<T, V>(base);
                const uint32_t last = hi - 1 - h0; /* the row's last value in the span */
                using A = decltype(op.init());
                const auto row = [&](int wo, bool vec) { /* window row wo's span (vec: in 16-byte loads) */
                    Pack<T, L> p;
                    if constexpr (K == S + 1 && R * S % V == 0) {
                        /* 3x3 stride 2: the span is R·S + 1 values, the last
                         * one loaded alone (a third 16-byte load for it:
                         * H200 bf16 955 -> 1068 GB/s, f32 the same) */
                        if (vec) {
                            const Pack<T, R * S> q = load_pack<T, R * S>(base + wo * s2);
#pragma unroll
                            for (int j = 0; j < R * S; ++j) p.v[j] = q.v[j];
                            p.v[R * S] = base[wo * s2 + R * S];
                        }
                    } else if (vec)
                        p = load_pack<T, L>(base + wo * s2);
                    if (!vec) /* the row's end or a misaligned span: one value at a time, clamped to the row */
#pragma unroll
                        for (int j = 0; j < L; ++j) p.v[j] = base[wo * s2 + ((uint32_t)j < last ? (uint32_t)j : last)];
                    return p;
                };
                A d[R];
                const auto windows = [&] { /* upstream's order, a window at a time */
#if CRK_AMD /* a row's span live at a time (unrolled, clang hoisted all K rows' loads and spilled) */
#pragma unroll 1
#else
#pragma unroll
#endif
                    for (int wo = 0; wo < K; ++wo) {
                        const Pack<T, L> p = row(wo, vec);
#pragma unroll
                        for (int k = 0; k < R; ++k)
#pragma unroll
                            for (int ho = 0; ho < K; ++ho)
                                d[k] = op.step(wo | ho ? d[k] : op.init(), p.v[k * S + ho], (wo | ho) == 0);
                    }
                };
                /* the value-at-a-time loads of the edges keep the windows
                 * (all rows' loads live at once spilled on sm_90) */
                if constexpr (!Op::kAnyOrder || !kPoolRowsFirst) windows();
                else if (!vec) windows();
                else {
                    /* the K rows' spans folded value by value, then each
                     * output's K values of that: for 3x3 stride 2, 50 steps
                     * of a 16-bit run, 32 of them two to a word (34
                     * instructions where the target has the paired form),
                     * where the windows take 64 */
                    constexpr int SP = (R - 1) * S + K; /* the values a run's windows cover along h */
                    constexpr int NW = sizeof(T) == 2 ? SP / 2 : 0, C1 = SP - 2 * NW; /* words, single values */
                    uint32_t cw[NW > 0 ? NW : 1];
                    A c1[C1 > 0 ? C1 : 1];
#pragma unroll
                    for (int wo = 0; wo < K; ++wo) {
                        const Pack<T, L> p = row(wo, true);
                        if constexpr (NW > 0) {
                            uint32_t pw[NW];
                            __builtin_memcpy(pw, p.v, sizeof pw);
#pragma unroll
                            for (int i = 0; i < NW; ++i) cw[i] = wo ? op.join_word(cw[i], pw[i]) : pw[i];
                        }
#pragma unroll
                        for (int j = 0; j < C1; ++j) c1[j] = op.step(wo ? c1[j] : op.init(), p.v[2 * NW + j], wo == 0);
                    }
                    const auto c = [&](int j) -> A { /* value j of the folded span */
                        if constexpr (NW == 0) return c1[j];
                        else if (j >= 2 * NW) return c1[j - 2 * NW];
                        else return A{(uint16_t)(cw[j / 2] >> (j % 2 * 16))};
                    };
#pragma unroll
                    for (int k = 0; k < R; ++k) {
                        d[k] = c(k * S);
#pragma unroll
                        for (int ho = 1; ho < K; ++ho) d[k] = op.join(d[k], c(k * S + ho));
                    }
                }
                Pack<T, R> out;
#pragma unroll
                for (int k = 0; k < R; ++k) out.v[k] = op.out(d[k]);
                T *o = dst + ((size_t)r * ho + dh0);
                if (dh0 + R <= ho && aligned_for<T, R>(o)) return store_pack<T, R>(o, out);
#pragma unroll
                for (int k = 0; k < R; ++k)
                    if (dh0 + k < ho) o[k] = out.v[k];
            });
        }))
        each();
}

template <class T>
CRK_DEV void avg_pool2d_rows(size_t src_numel, size_t w_k, size_t h_k, size_t w_stride, size_t h_stride,
                             const size_t *info, const T *src, T *dst) {
    (void)src_numel;
    pool_rows(w_k, h_k, w_stride, h_stride, info, src, dst, avg_pool<T>(w_k, h_k));
}

template <class T>
CRK_DEV void max_pool2d_rows(size_t src_numel, size_t w_k, size_t h_k, size_t w_stride, size_t h_stride,
                             const size_t *info, const T *src, T *dst) {
    (void)src_numel;
    pool_rows(w_k, h_k, w_stride, h_stride, info, src, dst, MaxPool<T>{});
}

/* ------------------------------------------------------ upsampling */
/* f(row, j0, k) for runs of k <= N consecutive outputs j0.. of each of
 * `rows` rows of `inner` (the innermost dim): one decode a run (32-bit when
 * the runs fit), the runs spread over Candle's grid, else grid-stride. */
template <int N, class F> CRK_DEV void for_row_runs(size_t rows, size_t inner, F f) {
    const size_t per_row = (inner + N - 1) / N, runs = rows * per_row;
    with_index(runs, [&](auto z) {
        using I = decltype(z);
        for_slots(runs, [&](size_t s) {
            const I r = (I)s, row = r / (I)per_row, j0 = r % (I)per_row * (I)N;
            f(row, (size_t)j0, inner - j0 < (size_t)N ? inner - j0 : (size_t)N);
        });
    });
}

/* h_scale = 0.5 exactly, an upsampling by 2 along h (Candle's scale is in
 * / out; UNet, VAE decoders, YOLO's necks): floor(j·0.5) = j >> 1, exact
 * in double, so a run of N outputs takes N / 2 consecutive sources.
 * f(Fixed<1>), else f(Fixed<-1>). Other powers of two would take the
 * same path, but each costs AMD's compile about a second an arch. */
template <class F> CRK_DEV void with_pow2_scale(double h_scale, F f) {
    if (h_scale == 0.5) f(Fixed<1>{});
    else f(Fixed<-1>{});
}

/* The upsamplings' runs (loader/launch_conv.c, crk_upsample2d, counts
 * them so): 32 bytes, but 16 for u8 (32 unrolled u8 values took scratch on
 * gfx9-generic/gfx1102/gfx11-generic) and for bilinear's 16-bit types (16
 * bytes of scratch on gfx9-generic). Bilinear on the H200 (2x1280x32x32 ->
 * 64x64): f32 16-byte runs 852 GB/s, 32-byte 988; f16 515 and 555. */
template <class T> struct UpsampleRun {
    static constexpr int value = sizeof(T) == 1 ? 16 : 32 / (int)sizeof(T);
};
template <class T> struct BilinearRun {
    static constexpr int value = sizeof(T) <= 2 ? 16 / (int)sizeof(T) : 32 / (int)sizeof(T);
};

/* dst (b, c, w_out, h_out) ("w" = dims[2]); the source index of each is
 * min(floor(dst·scale), in − 1). 32-byte runs along h_out (u8: 16), a decode a
 * run (H100, f16 2x1280x32x32 -> 64x64: 391 GB/s an element a thread;
 * H200, libcrk's grid of a thread a run: 16-byte runs 1830 GB/s, 32-byte
 * 2002, f32 2184 -> 2736; docs/runs/2026-11-28c-h200-conv-slots.txt).
 * An upsampling by 2 along a contiguous h reads a run's N / 2 sources in
 * one load (with_pow2_scale) instead of a load and a double-precision
 * index a value: 1.04-1.06x. (Sizes and strides cast to 32 bits once, as
 * pool_each does, ran 0.72-0.77x: docs/runs/2026-11-28b-h100-reduce-conv-ab2.txt.) */
template <class T>
CRK_DEV void upsample_nearest2d(size_t w_out, size_t h_out, double w_scale, double h_scale, const size_t *info,
                                const T *src, T *dst) {
    const size_t *sd = info, *ss = info + 4;
    const size_t c = sd[1], w_in = sd[2], h_in = sd[3];
    if (w_in == 0 || h_in == 0) return;
    constexpr int N = UpsampleRun<T>::value;
    with_pow2_scale(ss[3] == 1 ? h_scale : -1.0, [&](auto shift) {
        constexpr int Sh = decltype(shift)::value, K = Sh < 0 ? 0 : Sh, M = N >> K;
        for_row_runs<N>(sd[0] * c * w_out, h_out, [&](auto row, size_t j0, size_t k) {
            using I = decltype(row);
            const I dw = row % (I)w_out, r2 = row / (I)w_out, ci = r2 % (I)c, b = r2 / (I)c;
            size_t sw = (size_t)((double)dw * w_scale);
            sw = sw < w_in ? sw : w_in - 1;
            const T *s = src + (size_t)b * ss[0] + (size_t)ci * ss[1] + sw * ss[2];
            T *o = dst + (size_t)row * h_out + j0;
            const bool whole = k == (size_t)N && aligned_for<T, N>(o);
            if constexpr (Sh >= 0) {
                if (whole && (j0 + N - 1) >> K < h_in && aligned_for<T, M>(s + (j0 >> K))) {
                    const Pack<T, M> q = load_pack<T, M>(s + (j0 >> K));
                    Pack<T, N> p;
#pragma unroll
                    for (int j = 0; j < N; ++j) p.v[j] = q.v[j >> K];
                    return store_pack<T, N>(o, p);
                }
            }
            auto at = [&](size_t j) {
                const size_t sh = (size_t)((double)(j0 + j) * h_scale);
                return s[(sh < h_in ? sh : h_in - 1) * ss[3]];
            };
            if (whole) {
                Pack<T, N> p;
#pragma unroll
                for (int j = 0; j < N; ++j) p.v[j] = at((size_t)j);
                return store_pack<T, N>(o, p);
            }
            for (size_t j = 0; j < k; ++j) o[j] = at(j); /* no register array indexed at run time (scratch) */
        });
    });
}

/* PyTorch's area_pixel_compute_scale and source index (bilinear, not
 * cubic): the scale, the source position clamped at 0, its lower index,
 * the upper one (clamped at in − 1) and the weight of the upper one. */
struct Lerp1 {
    size_t i0, i1;
    double l1;
};
CRK_DEV double bilinear_scale(size_t in, size_t out, bool align_corners, bool has_scale, double factor) {
    if (align_corners) return out > 1 ? (double)(in - 1) / (double)(out - 1) : 0.0;
    return has_scale ? 1.0 / factor : (double)in / (double)out;
}
/* The source of the output at d = (double)dst (exact: dst < 2^53). On
 * NVIDIA, floor(s) of 0 <= s < 2^52 is one add rounded toward zero,
 * s + 2^52 = 2^52 + floor(s) (the index in its low bits, floor(s) = t − 2^52
 * exactly), where (size_t)s and back are two 64-bit conversions (16 a
 * clock an SM on sm_80/90, FP64 adds 64 on sm_90); the same values, so the
 * same l1. s >= 2^52, NaN or past the last source takes the conversions. */
CRK_DEV Lerp1 bilinear_src_at(double d, size_t in, double scale, bool align_corners) {
    double s = align_corners ? scale * d : fma(scale, d + 0.5, -0.5);
    s = s < 0 ? 0 : s;
    Lerp1 r;
#if CRK_NV
    if (s < 0x1p52) {
        const double t = __dadd_rz(s, 0x1p52);
        r.i0 = (size_t)(f64_bits(t) & ((1ull << 52) - 1));
        if (r.i0 < in) { /* s − floor(s) is exact and in [0, 1) (Sterbenz): PyTorch's clamps change nothing */
            r.i1 = r.i0 + 1 < in ? r.i0 + 1 : in - 1;
            r.l1 = s - (t - 0x1p52);
            return r;
        }
    }
#endif
    /* The conversion sees at most 2^63. Past the last source (a scale factor
     * that does not fit the sizes; upstream reads beyond the row there) or
     * NaN (fmin: 2^63), the last one with l1 = 1: its value. */
    r.i0 = (size_t)fmin(s, 0x1p63);
    const double l = s - (double)r.i0;
    r.l1 = l < 0 ? 0 : l > 1 ? 1 : l;
    if (r.i0 >= in) r.i0 = in - 1, r.l1 = 1;
    r.i1 = r.i0 + 1 < in ? r.i0 + 1 : in - 1;
    return r;
}
CRK_DEV Lerp1 bilinear_src(size_t dst, size_t in, double scale, bool align_corners) {
    return bilinear_src_at((double)dst, in, scale, align_corners);
}

/* The k <= N outputs j0.. of one output row whose two source rows are s0
 * and s1 (weight yl1 on s1), sx apart along w (Fixed<1>: contiguous, no
 * multiplies, two registers fewer), into o: per output the column's Lerp1, four
 * loads and the lerp in double as PyTorch (the expressions of an element a
 * thread, so the same bits). A whole aligned run is one
 * wide store, its values gathered by rolled loops into 32-bit words (G
 * values a word, shifted in; the words shifted along W registers): no
 * register array indexed at run time (scratch on AMD, local memory on
 * NVIDIA), and one body's registers (N unrolled bodies of double
 * arithmetic spilled at the 32 registers of two 1024-thread blocks an SM:
 * ptxas, f16 1.6 KB). */
template <class T, int N, class X>
CRK_DEV void bilinear_run(const T *s0, const T *s1, X sx, size_t w_in, double sw, bool align_corners, double yl1,
                          size_t j0, size_t k, T *o) {
    double d = (double)j0; /* (double)(j0 + j), exact: j0 + j < 2^53 */
    auto next = [&]() {
        const Lerp1 x = bilinear_src_at(d, w_in, sw, align_corners);
        d += 1.0;
        const size_t a0 = x.i0 * (size_t)sx, a1 = x.i1 * (size_t)sx;
        const double v00 = f64_of(s0[a0]), v01 = f64_of(s0[a1]), v10 = f64_of(s1[a0]), v11 = f64_of(s1[a1]);
        const double top = fma(v00, 1.0 - x.l1, v01 * x.l1), bot = fma(v10, 1.0 - x.l1, v11 * x.l1);
        return Conv<T>::from_f(fma(top, 1.0 - yl1, bot * yl1));
    };
    constexpr int S = (int)sizeof(T), G = S < 4 ? 4 / S : 1, V = S < 4 ? 1 : S / 4, W = N * S / 4;
    static_assert(N % G == 0 && W % V == 0, "whole words");
    if (k == (size_t)N && aligned_for<T, N>(o)) {
        uint32_t w[W] = {};
#pragma unroll 1
        for (int g = 0; g < N / G; ++g) {
            uint32_t u[V] = {};
            if constexpr (S < 4) {
#pragma unroll 1
                for (int e = 0; e < G; ++e) {
                    uint32_t b = 0;
                    const T v = next();
                    __builtin_memcpy(&b, &v, S);
                    u[0] = u[0] >> 8 * S | b << (32 - 8 * S);
                }
            } else {
                const T v = next();
                __builtin_memcpy(u, &v, S);
            }
#pragma unroll
            for (int q = 0; q < W - V; ++q) w[q] = w[q + V];
#pragma unroll
            for (int q = 0; q < V; ++q) w[W - V + q] = u[q];
        }
        Pack<T, N> p;
        __builtin_memcpy(&p, w, sizeof p);
        return store_pack<T, N>(o, p);
    }
#pragma unroll 1
    for (size_t j = 0; j < k; ++j) o[j] = next();
}

/* dst (b, c, h_out, w_out), the real H and W (dims[2], dims[3]). A thread
 * a run of N outputs along w_out of one row (b, ci, dh) (for_row_runs, any
 * grid): one decode, the row's Lerp1 and its two source rows once a run,
 * then bilinear_run. A thread an element (upstream's shape, and this
 * kernel before: two divisions, a decode and two Lerp1 an element) ran
 * 177 GB/s f16, 419 f32 on the H200 (2x1280x32x32 -> 64x64); in runs
 * (BilinearRun) 551 and 1062 under libcrk's grid of a thread a run, 279
 * and 530 under Candle's (docs/runs/2026-11-28f-h200-bench-upsample-final.txt). */
template <class T, int N>
CRK_DEV void bilinear_runs(size_t w_out, size_t h_out, bool align_corners, bool has_scale_h, double scale_h_factor,
                           bool has_scale_w, double scale_w_factor, const size_t *info, const T *src, T *dst) {
    const size_t *sd = info, *ss = info + 4;
    const size_t c = sd[1], h_in = sd[2], w_in = sd[3];
    if (h_in == 0 || w_in == 0) return;
    const double sh = bilinear_scale(h_in, h_out, align_corners, has_scale_h, scale_h_factor),
                 sw = bilinear_scale(w_in, w_out, align_corners, has_scale_w, scale_w_factor);
    for_row_runs<N>(sd[0] * c * h_out, w_out, [&](auto row, size_t j0, size_t k) {
        using I = decltype(row);
        const I dh = row % (I)h_out, r2 = row / (I)h_out, ci = r2 % (I)c, b = r2 / (I)c;
        const Lerp1 y = bilinear_src(dh, h_in, sh, align_corners);
        const T *s = src + (size_t)b * ss[0] + (size_t)ci * ss[1];
        const T *s0 = s + y.i0 * ss[2], *s1 = s + y.i1 * ss[2];
        T *o = dst + (size_t)row * w_out + j0;
        if (ss[3] == 1) bilinear_run<T, N>(s0, s1, Fixed<1>{}, w_in, sw, align_corners, y.l1, j0, k, o);
        else bilinear_run<T, N>(s0, s1, ss[3], w_in, sw, align_corners, y.l1, j0, k, o);
    });
}
template <class T>
CRK_DEV void upsample_bilinear2d(size_t w_out, size_t h_out, bool align_corners, bool has_scale_h,
                                 double scale_h_factor, bool has_scale_w, double scale_w_factor, const size_t *info,
                                 const T *src, T *dst) {
    bilinear_runs<T, BilinearRun<T>::value>(w_out, h_out, align_corners, has_scale_h, scale_h_factor, has_scale_w,
                                            scale_w_factor, info, src, dst);
}

/* libcrk's bilinear (crk_upsample_bilinear2d_strips_<dt>, 64 registers;
 * loader/launch_conv.c, crk_upsample2d, launches a thread a strip): a thread
 * takes a strip of C output columns down R rows of one (b, c) plane, the
 * same values as upsample_bilinear2d. A thread a run of one row issued
 * about 117 instructions an output (Nsight Compute, H200, f32 2x1280x32x32
 * -> 64x64: 77% of issue slots, 15% of DRAM): a column's Lerp1, four loads
 * and conversions and the lerps in double, for every output. Here the C
 * columns' Lerp1 are the thread's once; each source row's lerp along w
 * (PyTorch's "top" and "bottom", the same expressions) is computed when the
 * rows' lower source moves (every other row of an upsampling by 2; a move
 * by one takes the previous bottom), and an output is the lerp of the two
 * along h: 45 instructions an output; f32 1.07 -> 1.92-2.29 TB/s, f16
 * 0.55-0.58 -> 0.96-1.13 (docs/runs/2026-11-29e-h200-bilinear-strips.txt).
 * Strips of 2 columns ran 0.72-0.79x of 4 (a row's Lerp1 over fewer
 * outputs); a thread a run loading a column pair only when it moves ran
 * 0.96-1.05x of before at 64 registers, 0.46-0.69x at 32 (spills). */
template <class T> struct StripCols {
    static constexpr int value = sizeof(T) == 8 ? 2 : 4;
};
constexpr int kStripRows = 8;
/* Not on gfx9-generic (64 VGPRs a lane at 1024 threads, no AGPRs): strips of
 * 4 columns took 68-204 bytes of scratch there, of 2 36-72; its objects take
 * upsample_bilinear2d's runs (libcrk launches as many threads: a thread a
 * run). gfx908 keeps 63 VGPRs, the others 70-109, no scratch. */
#if defined(__gfx9_generic__)
constexpr bool kBilinearStrips = false;
#else
constexpr bool kBilinearStrips = true;
#endif

template <class T, int C, class J, class X>
CRK_DEV void bilinear_strip(const T *sp, X sx, size_t sy, J w_in, J h_in, size_t w_out, size_t h_out, double sw,
                            double sh, bool align_corners, size_t j0, size_t dh0, T *o) {
    const int k = w_out - j0 < (size_t)C ? (int)(w_out - j0) : C,
              rows = h_out - dh0 < (size_t)kStripRows ? (int)(h_out - dh0) : kStripRows;
    J x0[C]; /* the lower source columns (the upper: the next, or the last) */
    double lx[C];
#pragma unroll
    for (int q = 0; q < C; ++q) { /* columns past w_out take j0's (never stored) */
        const Lerp1 x = bilinear_src(j0 + (q < k ? q : 0), w_in, sw, align_corners);
        x0[q] = (J)x.i0, lx[q] = x.l1;
    }
    double top[C], bot[C];
    auto along_w = [&](const T *row, double *h) {
#pragma unroll
        for (int q = 0; q < C; ++q) {
            const J x1 = x0[q] + 1 < w_in ? x0[q] + 1 : x0[q];
            h[q] = fma(f64_of(row[(size_t)x0[q] * (size_t)sx]), 1.0 - lx[q], f64_of(row[(size_t)x1 * (size_t)sx]) * lx[q]);
        }
    };
    J p0 = ~(J)0, p1 = ~(J)0; /* the source rows of top and bot (no source row is ~0) */
#pragma unroll 1
    for (int r = 0; r < rows; ++r, o += w_out) {
        const Lerp1 l = bilinear_src(dh0 + (size_t)r, h_in, sh, align_corners);
        const struct { J i0, i1; double l1; } y = {(J)l.i0, (J)l.i1, l.l1};
        if (y.i0 != p0) { /* i1 follows i0 */
            if (y.i0 == p1) {
#pragma unroll
                for (int q = 0; q < C; ++q) top[q] = bot[q];
            } else {
                along_w(sp + (size_t)y.i0 * sy, top);
            }
            if (y.i1 == y.i0) {
#pragma unroll
                for (int q = 0; q < C; ++q) bot[q] = top[q];
            } else {
                along_w(sp + (size_t)y.i1 * sy, bot);
            }
            p0 = y.i0, p1 = y.i1;
        }
        Pack<T, C> v;
#pragma unroll
        for (int q = 0; q < C; ++q) v.v[q] = Conv<T>::from_f(fma(top[q], 1.0 - y.l1, bot[q] * y.l1));
        if (k == C && aligned_for<T, C>(o)) {
            store_pack<T, C>(o, v);
        } else {
#pragma unroll
            for (int q = 0; q < C; ++q)
                if (q < k) o[q] = v.v[q];
        }
    }
}

template <class T>
CRK_DEV void upsample_bilinear2d_strips(size_t w_out, size_t h_out, bool align_corners, bool has_scale_h,
                                        double scale_h_factor, bool has_scale_w, double scale_w_factor,
                                        const size_t *info, const T *src, T *dst) {
    if constexpr (!kBilinearStrips)
        return upsample_bilinear2d<T>(w_out, h_out, align_corners, has_scale_h, scale_h_factor, has_scale_w,
                                      scale_w_factor, info, src, dst);
    constexpr int C = StripCols<T>::value;
    const size_t *sd = info, *ss = info + 4;
    const size_t c = sd[1], h_in = sd[2], w_in = sd[3];
    if (h_in == 0 || w_in == 0) return;
    const double sh = bilinear_scale(h_in, h_out, align_corners, has_scale_h, scale_h_factor),
                 sw = bilinear_scale(w_in, w_out, align_corners, has_scale_w, scale_w_factor);
    const size_t groups = (w_out + C - 1) / C, blocks = (h_out + kStripRows - 1) / kStripRows;
    const size_t strips = sd[0] * c * blocks * groups;
    with_index(strips, [&](auto z) {
        using I = decltype(z);
        for_slots(strips, [&](size_t s) {
            const I t = (I)s, g = t % (I)groups, t2 = t / (I)groups, rb = t2 % (I)blocks, pl = t2 / (I)blocks;
            const I ci = pl % (I)c, b = pl / (I)c;
            const size_t j0 = (size_t)g * C, dh0 = (size_t)rb * kStripRows;
            const T *sp = src + (size_t)b * ss[0] + (size_t)ci * ss[1];
            T *o = dst + ((size_t)pl * h_out + dh0) * w_out + j0;
            if (w_in < 0xFFFFFFFFull && h_in < 0xFFFFFFFFull && ss[3] == 1)
                bilinear_strip<T, C>(sp, Fixed<1>{}, ss[2], (uint32_t)w_in, (uint32_t)h_in, w_out, h_out, sw, sh,
                                     align_corners, j0, dh0, o);
            else
                bilinear_strip<T, C>(sp, ss[3], ss[2], w_in, h_in, w_out, h_out, sw, sh, align_corners, j0, dh0, o);
        });
    });
}

} // namespace crk
#endif
