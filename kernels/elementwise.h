/* elementwise.h — the loop shared by every element-wise family.
 *
 * Layout contract (Candle's SlicePtrOrNull): info is NULL for contiguous
 * inputs, else [dims(nd), strides(nd) per operand]. Indices are 64-bit, so
 * tensors past 2^32 elements work (upstream is 32-bit only).
 *
 * Contiguous path: each thread moves VEC elements (16 bytes of the widest
 * operand) with wide loads and stores when every pointer is aligned for it, grid-stride over vectors;
 * the tail and misaligned views fall back to one element per step.
 * Strided path (map_strided): each thread takes runs of VEC consecutive
 * outputs of one row of the last dim, decodes a run's row (32-bit
 * divisions below 2^32 elements, several times cheaper than 64-bit),
 * loads each operand's run whole where its last-dim stride is 0 or 1, and
 * stores the run at once; a transposed input is walked in column order
 * (map_columns), or through tiles in shared memory where f only moves
 * values (map_tiles); past 2^32 elements the row walk counts in 64 bits. */
#ifndef CRK_ELEMENTWISE_H
#define CRK_ELEMENTWISE_H
#include "numeric.h"

namespace crk {

/* Up to kFlatDims dims (most launches) the loads of dims and strides are
 * issued at once, then compared: one L2 round trip. The loop below loads a
 * stride behind its dim's compare (as Candle's early exit does) and waits
 * on two a dim, which every thread of Candle's launch pays (SASS of
 * ucopy_f32, sm_90: LDG dims -> ISETP -> @P LDG strides, a dim at a time).
 * H200, Candle's launch, against its kernels: badd broadcast 1.36 -> 1.52x,
 * ucopy_f32 transposed 4M elements 0.95 -> 1.01x. where keeps the loop
 * (Flat = false): flat, its three checks cost 0.97 -> 0.91x contiguous
 * (docs/runs/2026-11-29b-h200-prologue-experiments.txt). */
constexpr size_t kFlatDims = 4;
template <bool Flat = true> CRK_DEV bool is_contiguous(size_t nd, const size_t *dims, const size_t *strides) {
    size_t acc = 1;
    bool ok = true;
    if (Flat && nd <= kFlatDims) {
        size_t dv[kFlatDims], sv[kFlatDims];
#pragma unroll
        for (int d = 0; d < (int)kFlatDims; ++d)
            if (d < (int)nd) dv[d] = dims[d], sv[d] = strides[d];
#pragma unroll
        for (int d = (int)kFlatDims - 1; d >= 0; --d)
            if (d < (int)nd) ok &= (dv[d] <= 1) | (sv[d] == acc), acc *= dv[d];
        return ok;
    }
#pragma unroll 4
    for (size_t d = nd; d-- > 0;) {
        ok &= dims[d] <= 1 || strides[d] == acc;
        acc *= dims[d];
    }
    return ok;
}

/* info == NULL (SlicePtrOrNull::Null), or each of the K stride sets after
 * dims is contiguous. */
template <int K, bool Flat = true> CRK_DEV bool all_contiguous(size_t nd, const size_t *info) {
    if (info == nullptr) return true;
    for (int k = 1; k <= K; ++k)
        if (!is_contiguous<Flat>(nd, info, info + k * nd)) return false;
    return true;
}

CRK_DEV size_t global_id() { return (size_t)blockIdx.x * blockDim.x + threadIdx.x; }
CRK_DEV size_t global_stride() { return (size_t)blockDim.x * gridDim.x; }

/* f(i) for the thread's element i < n under a grid of a thread an element
 * (Candle's for_num_elems): i in 32 bits, as Candle's kernels count it,
 * when the grid's threads fit 32 bits (then i cannot wrap), else in 64.
 * f takes uint32_t and size_t (a generic lambda) or size_t. Under that
 * launch a thread lives a few dozen instructions, and a few more or other
 * ones show (H200: const_set_f32 0.99x Candle's kernel with its contiguous
 * path alone, 0.92x with a four-instruction test before it). Taken where it
 * measured faster: const_set 0.83 -> 0.86x, copy2d 0.87 -> 0.94x; in
 * zip_contiguous and map_strided it moved copy, casts and affine 0.97 ->
 * 0.94x contiguous, 0.93 -> 0.98x broadcast, and libcrk's badd broadcast
 * 1986 -> 1562 GB/s (docs/runs/2026-11-28d-h200-candle-shape-experiments.txt). */
template <class F> CRK_DEV void one_per_thread(size_t n, F f) {
    if (global_stride() <= 0xFFFFFFFFull) {
        const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) f(i);
        return;
    }
    const size_t i = global_id();
    if (i < n) f(i);
}

/* f(j) for every j < n under any grid: no loop when the grid holds a
 * thread for each (Candle's for_num_elems; the loop's 64-bit counter and
 * exit cost rope about 10% under it on the H100), else grid-stride. */
template <class F> CRK_DEV void for_each_grid(size_t n, F f) {
    if (global_stride() >= n) {
        if (global_id() < n) f(global_id());
        return;
    }
    for (size_t j = global_id(); j < n; j += global_stride()) f(j);
}

/* Candle's for_num_elems launch (a thread an element, blocks of B) can be
 * taken N elements a thread: block b's B elements by its first B/N threads,
 * groups j = b·B/N + t, the other threads return at once. A one-element
 * body is issue-bound there (H100: Candle's rope_bf16 at 49% of copy); N
 * apiece cuts the issue slots (index math, address arithmetic) about N
 * times and widens the accesses. Holds when the grid covers N·groups and N
 * divides B. */
template <int N> CRK_DEV bool grid_groups_fit(size_t groups) {
    return blockDim.x % N == 0 && global_stride() / N >= groups;
}
template <int N, class F> CRK_DEV void for_block_groups(size_t groups, F f) {
    const unsigned w = blockDim.x / N;
    if (threadIdx.x >= w) return;
    const size_t j = (size_t)blockIdx.x * w + threadIdx.x;
    if (j < groups) f(j);
}

/* Elements per thread so that the wider operand moves 16 bytes (the
 * narrower one moves less). Sized by the narrower one, a u8 -> f32 kernel
 * held 16 elements of every operand in registers: 44 and more registers a
 * thread, too many for two 1024-thread blocks per SM (crk_port.h). */
template <class A, class B> struct VecWidth {
    static constexpr int wide = sizeof(A) > sizeof(B) ? (int)sizeof(A) : (int)sizeof(B);
    static constexpr int value = 16 / wide;
};

/* Elements per run of the row walk (map_rows) for one input: 16 bytes of
 * the output when it is the narrower (a cast f32 -> bf16 stores 16 bytes
 * a run, not 8). Broadcast rows read little and write much: H200, [1,C] to
 * 16384^2 under libcrk's capped grid, f32 -> bf16 2201 -> 3348 GB/s, f32
 * -> u8 983 -> 1619, f64 -> f32 2783 -> 3750
 * (docs/runs/2026-11-28f-h200-transposed-tiles.txt, appendix). */
template <class S, class D, int MaxN> struct RowWidth {
    static constexpr int vec = VecWidth<S, D>::value < MaxN ? VecWidth<S, D>::value : MaxN;
    static constexpr int out = 16 / (int)sizeof(D);
    static constexpr int value = sizeof(D) < sizeof(S) && out <= MaxN ? out : vec;
};

/* Cap on elements per thread for code that converts fp8 in software (a
 * decode of ~6 and a SATFINITE encode of ~30 instructions an element): such
 * kernels are ALU-bound, so 4 apiece (4-byte fp8 accesses) lose no
 * bandwidth, and the op, inlined into every path of the kernel, appears a
 * quarter as often (unary's compile time was two thirds fp8 at 16). */
template <class T> struct SoftVec { static constexpr int value = 16; };
template <> struct SoftVec<f8> { static constexpr int value = 4; };
template <class A, class B> struct SoftVec2 {
    static constexpr int value = SoftVec<A>::value < SoftVec<B>::value ? SoftVec<A>::value : SoftVec<B>::value;
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

/* Whether f also takes two elements at once, f.pair(x0, x1, y0, y1)
 * (unary.h: 16-bit ops on NVIDIA's paired instructions). */
template <class F> struct PairApply { static constexpr bool value = false; };

/* One vector step of zip_contiguous: out[k] = f(in0[k], in1[k], ...). */
template <int N, class D, class F, class... S>
CRK_DEV void zip_packs(D *out, F f, const Pack<S, N> &...p) {
    Pack<D, N> r;
    if constexpr (PairApply<F>::value && N % 2 == 0) {
        const auto &x = (p, ...); /* one input */
#pragma unroll
        for (int k = 0; k < N; k += 2) f.pair(x.v[k], x.v[k + 1], r.v[k], r.v[k + 1]);
    } else {
#pragma unroll
        for (int k = 0; k < N; ++k) r.v[k] = f(p.v[k]...);
    }
    store_pack<D, N>(out, r);
}

/* Row-major logical index -> element offsets of K operands sharing dims. */
template <int K> struct Offsets { size_t o[K]; };

/* Rolled: the dims loop kept rolled (the reductions: unrolled, its
 * registers spilled fast_<op> at 32 registers a thread, nvcc). The body is
 * a macro: as a lambda or an inline function it spilled 740 bytes there. */
template <int K, class Idx, bool Rolled = false>
CRK_DEV Offsets<K> strided_offsets(Idx idx, size_t nd, const size_t *dims, const size_t *strides, size_t pitch) {
    Offsets<K> r;
#pragma unroll
    for (int k = 0; k < K; ++k) r.o[k] = 0;
#define CRK_DECODE_DIM                                                                                                 \
    {                                                                                                                  \
        const Idx n = (Idx)dims[d], q = idx / n, rem = idx - q * n;                                                    \
        for (int k = 0; k < K; ++k) r.o[k] += (size_t)rem * strides[k * pitch + d];                                    \
        idx = q;                                                                                                       \
    }
    if (Rolled) {
#pragma unroll 1
        for (size_t d = nd; d-- > 0;) CRK_DECODE_DIM
    } else if (nd > 0) { /* dim 0 takes what is left (idx < numel): a division less */
        for (size_t d = nd; --d > 0;) CRK_DECODE_DIM
        for (int k = 0; k < K; ++k) r.o[k] += (size_t)idx * strides[k * pitch];
    }
#undef CRK_DECODE_DIM
    return r;
}
/* The K stride sets of nd dims each, after dims. */
template <int K, class Idx, bool Rolled = false>
CRK_DEV Offsets<K> strided_offsets(Idx idx, size_t nd, const size_t *dims, const size_t *strides) {
    return strided_offsets<K, Idx, Rolled>(idx, nd, dims, strides, nd);
}

/* Offsets of element i, with 32-bit divisions when the tensor fits. */
template <int K> CRK_DEV Offsets<K> offsets_of(size_t numel, size_t i, size_t nd, const size_t *info) {
    return numel > 0xFFFFFFFFull ? strided_offsets<K, size_t>(i, nd, info, info + nd)
                                 : strided_offsets<K, uint32_t>((uint32_t)i, nd, info, info + nd);
}

/* Launch shapes. libcrk's grids hold one thread per N-element run (at
 * most 16 blocks an SM for strided launches whose operands all have a
 * last-dim stride of 0 or 1: loader/launch.c, strided_blocks), and each
 * thread moves its runs with wide accesses. Candle's for_num_elems
 * launches a thread per element, in as many blocks. The runs, when they
 * are many, go to every R-th block, R the elements of a run, a thread a
 * run; the other blocks exit at once (spaced: walk_of). The blocks' launch
 * cost is paid whatever they do; spaced, the empty blocks launch while the
 * working ones wait on memory. H200, 2^28 elements, against Candle's own
 * kernels in its launch: copy f32 0.93 -> 1.26x, bf16 0.94 -> 1.36x, cast
 * f32 -> bf16 0.92 -> 1.24x, affine 0.93 -> 1.38x, badd 1.70 -> 2.24x.
 * Packed into the grid's first blocks instead (conv.h, for_spread_groups)
 * the empty ones launched after the work, not during it: copy f32 1.08x,
 * badd 1.66x (docs/runs/2026-11-29-h200-candle-grid-spaced-runs.txt).
 * A store alone (const_set) lost either way (0.86 -> 0.59x): it keeps a
 * thread an element. So do launches of fewer than kSpacedRuns runs of 16
 * bytes (32 MiB of the widest operand, about the L2 of an H100/H200): the
 * few working blocks' latency showed at the end of a short kernel (4M f32
 * elements, data in L2: copy 0.96 -> 0.83x spaced; 8M: 0.93 -> 1.21x). */
constexpr size_t kSpacedRuns = (size_t)1 << 21;
template <int N> CRK_DEV bool few_runs(size_t n) { return N == 1 || n / N < kSpacedRuns; }

/* A thread's place in a walk over runs: thread `first` of `count` (its
 * step), in block `block` of `blocks`. libcrk's grids: every thread.
 * Candle's grid of a thread an element (spaced): block b when b % R == 0,
 * as block b / R of ceil(gridDim / R), so R·(that many) threads cover the
 * grid's elements, a run of R each; false for the blocks that take no
 * part. */
struct Walk {
    size_t first, count;
    uint32_t block, blocks;
};
template <int R> CRK_DEV bool walk_of(bool spaced, Walk &w) {
    if (!spaced) {
        w = {global_id(), global_stride(), blockIdx.x, gridDim.x};
        return true;
    }
    const uint32_t b = blockIdx.x / R, nb = (gridDim.x + R - 1) / R;
    if (blockIdx.x % R != 0) return false;
    w = {(size_t)b * blockDim.x + threadIdx.x, (size_t)nb * blockDim.x, b, nb};
    return true;
}

/* Operand index lists: MakeSeq<K>::type is Seq<0, ..., K-1>. */
template <int... I> struct Seq {};
template <int K, int... I> struct MakeSeq { using type = typename MakeSeq<K - 1, K - 1, I...>::type; };
template <int... I> struct MakeSeq<0, I...> { using type = Seq<I...>; };

/* Whether f loads its operands itself from their addresses, f.at(p0, p1,
 * ...), where one element at a time needs only some of them (where: the
 * chosen one). */
template <class F> struct LoadsAt { static constexpr bool value = false; };

/* f of the operands' elements at offsets o. */
template <class F, int... I, class... S>
CRK_DEV auto apply_at(const F &f, const Offsets<sizeof...(S)> &o, Seq<I...>, const S *...in) {
    if constexpr (LoadsAt<F>::value)
        return f.at((in + o.o[I])...);
    else
        return f(in[o.o[I]]...);
}

/* N elements of an operand from p, stride apart: one load when the run
 * is a broadcast (stride 0), one wide load when it is contiguous and
 * aligned, else a load an element. */
template <int N, class S> CRK_DEV Pack<S, N> load_run(const S *p, size_t stride) {
    Pack<S, N> r;
    if (stride == 0) {
        const S v = *p;
#pragma unroll
        for (int j = 0; j < N; ++j) r.v[j] = v;
    } else if (stride == 1 && aligned_for<S, N>(p)) {
        r = load_pack<S, N>(p);
    } else {
#pragma unroll
        for (int j = 0; j < N; ++j) r.v[j] = p[j * stride];
    }
    return r;
}

/* out[0 .. N) = f over N elements of each operand from offsets o, each
 * operand stepping its last-dim stride; one wide store (out aligned). */
template <int N, class D, class F, int... I, class... S>
CRK_DEV void zip_run(D *out, const F &f, const Offsets<sizeof...(S)> &o, const size_t *step, Seq<I...>,
                     const S *...in) {
    zip_packs<N>(out, f, load_run<N>(in + o.o[I], step[I])...);
}

/* out[i] = f(...) for i in [i0, end), one element at a time from offsets o. */
template <class D, class F, int... I, class... S>
CRK_DEV void zip_elems(D *out, size_t i0, size_t end, const F &f, Offsets<sizeof...(S)> o, const size_t *step,
                       Seq<I...> is, const S *...in) {
    for (size_t i = i0; i < end; ++i) {
        out[i] = apply_at(f, o, is, in...);
#pragma unroll
        for (int k = 0; k < (int)sizeof...(S); ++k) o.o[k] += step[k];
    }
}

/* Run (row, col) of a strided launch viewed as rows of its last dim
 * (last elements each): N outputs from col on, or fewer at the row's end.
 * Offsets: the row's, decoded over the leading dims (a division a dim,
 * none for a matrix), plus col steps of each operand's last-dim stride;
 * the operands' runs are loaded whole where that stride is 0 or 1
 * (load_run). A run never crosses a row: no wrap to test an element. */
template <class Idx, int N, class D, class F, class... S>
CRK_DEV void row_run(Idx row, Idx col, Idx last, size_t nd, const size_t *info, const size_t *step, D *out,
                     const F &f, const S *...in) {
    constexpr int K = sizeof...(S);
    using Is = typename MakeSeq<K>::type;
    Offsets<K> o = strided_offsets<K, Idx>(row, nd - 1, info, info + nd, nd);
#pragma unroll
    for (int k = 0; k < K; ++k) o.o[k] += (size_t)col * step[k];
    const Idx i0 = row * last + col;
    if constexpr (!LoadsAt<F>::value) { /* where loads an element at a time (a run of three wide loads spilled gfx9 SGPRs) */
        bool whole = col + N <= last && aligned_for<D, N>(out + i0);
        if (whole) {
            zip_run<N>(out + i0, f, o, step, Is{}, in...);
            return;
        }
    }
    zip_elems(out, i0, row * last + (col + N < last ? col + N : last), f, o, step, Is{}, in...);
}

/* The walk over rows: a thread takes runs of N elements of one row, its
 * run index split into (row, col) with one division. Idx: uint32_t below
 * 2^32 elements (32-bit divisions, several times cheaper), else size_t.
 * H200, f32 [1,C] broadcast to 16384^2 (libcrk's capped grid): copy 1650
 * -> 4075 GB/s, badd 2008 -> 3438, against a 64-bit cursor carried through
 * the wraps of the last dim, whose state spilled at 32 registers
 * (docs/runs/2026-11-28e-h200-rows-path.txt). */
template <class Idx, int N, class D, class F, class... S>
CRK_DEV void map_rows(const Walk &w, Idx numel, size_t nd, const size_t *info, const size_t *step, D *out,
                      const F &f, const S *...in) {
    const Idx last = (Idx)info[nd - 1], per_row = (last + N - 1) / N;
    const size_t nruns = (size_t)(numel / last) * per_row;
    for (size_t run = w.first; run < nruns; run += w.count) {
        const Idx row = (Idx)run / per_row, col = ((Idx)run - row * per_row) * N;
        row_run<Idx, N>(row, col, last, nd, info, step, out, f, in...);
    }
}

/* A transposed input (last-dim stride above 1, stride 1 one dim up: the
 * copy of .t().contiguous()) read in runs along its rows costs a 32-byte
 * sector a value. Column order: lanes take the same N columns of kColRows
 * consecutive rows, so each of a run's loads is one coalesced row of the
 * input; the stores become N values a row, which L2 joins. H100, 16384^2
 * f32 transposed copy: 851 -> 1622 GB/s (28% -> 54% of copy). One input
 * only (binary and where with it spilled gfx9 SGPRs); 32-bit only (no
 * division subroutines). */
constexpr uint32_t kColRows = 32;
template <int N, class D, class F, class S>
CRK_DEV void map_columns(const Walk &w, uint32_t numel, size_t nd, const size_t *info, const size_t *step, D *out,
                         const F &f, const S *in) {
    const uint32_t last = (uint32_t)info[nd - 1], per_row = (last + N - 1) / N, rows = numel / last;
    const size_t nslots = (size_t)((rows + kColRows - 1) / kColRows) * per_row * kColRows;
    for (size_t s = w.first; s < nslots; s += w.count) {
        const uint32_t u = (uint32_t)(s / kColRows), blk = u / per_row, row = blk * kColRows + s % kColRows;
        if (row < rows) row_run<uint32_t, N>(row, (u - blk * per_row) * N, last, nd, info, step, out, f, in);
    }
}

/* Whether f moves values or takes one cheap op an element (copy, cast,
 * affine, binary and cmp; no fp8, which converts in software), for which
 * a transposed operand goes through shared-memory tiles (map_tiles). */
template <class F> struct Moves { static constexpr bool value = false; };

/* The same through tiles of 32 rows x 32·N columns in LDS/shared memory,
 * for blocks of 1024 threads that walk many tiles (libcrk launches these
 * so: loader/launch.c, tiled_transpose): lane l of 32-thread group g loads
 * row l of the tile from the transposed operand T at columns g + 32j,
 * j < N (each load a coalesced piece of it), the block syncs, and group g
 * writes row g, N columns a lane in one wide store, the other operand (if
 * any: last-dim stride 0 or 1) read along the row as map_rows does; the
 * loads of the block's next tile are in flight while it writes. H200,
 * 16384^2, 8 blocks an SM: copy f32 2062 -> 3023 GB/s, f64 1911 -> 3536,
 * casts f32->bf16 1557 -> 2255, bf16->f32 1549 -> 2397, f32->u8 1240 ->
 * 1922; badd f32 with a transposed lhs or rhs 1532 -> 3747, lt f32 1192 ->
 * 3215. A tile a block (no prefetch) ran 0.51-0.93x map_columns; ops that
 * compute and 16 or 8 values a lane were slower through tiles (gelu 1727
 * against 2025; copy u8 1240 against 1734, bf16 2007 against 2083);
 * 256-thread blocks won some rows and lost others
 * (docs/runs/2026-11-28f-h200-transposed-tiles.txt). */
constexpr uint32_t kTileRows = 32, kTileThreads = 1024;
template <int K> CRK_DEV bool transposed_operand(size_t nd, const size_t *info) {
    return nd >= 2 && info[(K + 2) * nd - 1] > 1 && info[(K + 2) * nd - 2] == 1;
}
CRK_DEV bool transposed_input(size_t nd, const size_t *info) { return transposed_operand<0>(nd, info); }

/* Operand I's N values of a run: the tile row's (I == T) or its own row's. */
template <int I, int T, int N, class ST, class S> CRK_DEV Pack<S, N> tile_run(const ST *tr, const S *p, size_t step) {
    if constexpr (I == T) {
        Pack<S, N> r;
#pragma unroll
        for (int j = 0; j < N; ++j) r.v[j] = tr[j];
        return r;
    } else {
        return load_run<N>(p, step);
    }
}
template <int I, int T, class ST, class S> CRK_DEV S tile_elem(const ST *tr, const S *p) {
    if constexpr (I == T) return *tr;
    else return *p;
}
template <int T, class... S> struct NthType;
template <class S0, class... S> struct NthType<0, S0, S...> { using type = S0; };
template <int T, class S0, class... S> struct NthType<T, S0, S...> { using type = typename NthType<T - 1, S...>::type; };

/* A tile's bytes: rows of an odd word count, so the loads' lanes hit
 * distinct banks. */
template <class S, int N> struct TileBytes {
    static constexpr uint32_t pad = sizeof(S) >= 4 ? 1 : 4 / sizeof(S), pitch = kTileThreads / 32 * N + pad;
    static constexpr uint32_t value = kTileRows * pitch * sizeof(S);
};
template <int N, class... S> struct MaxTileBytes {
    static constexpr uint32_t value = 0;
};
template <int N, class S0, class... S> struct MaxTileBytes<N, S0, S...> {
    static constexpr uint32_t a = TileBytes<S0, N>::value, b = MaxTileBytes<N, S...>::value;
    static constexpr uint32_t value = a > b ? a : b;
};

template <int N, int T, class D, class F, int... I, class... S>
CRK_DEV void map_tiles(const Walk &w, void *lds, uint32_t numel, size_t nd, const size_t *info, D *out, const F &f, Seq<I...>,
                       const S *...in) {
    constexpr int K = sizeof...(S);
    static_assert(K <= 2 && T < K, "one tiled operand, at most one other");
    using ST = typename NthType<T, S...>::type;
    const ST *tin = nullptr;
    ((I == T ? (void)(tin = (const ST *)(const void *)in) : (void)0), ...);
    constexpr uint32_t groups = kTileThreads / 32, tc = groups * N, pitch = TileBytes<ST, N>::pitch;
    ST *tile = (ST *)lds;
    const size_t step[K] = {info[(I + 2) * nd - 1]...};
    const uint32_t last = (uint32_t)info[nd - 1], rows = numel / last, col_tiles = (last + tc - 1) / tc;
    const uint32_t lane = threadIdx.x % 32, g = threadIdx.x / 32, ntiles = (rows + kTileRows - 1) / kTileRows * col_tiles;
    ST next[N] = {};
    auto load = [&](uint32_t t) { /* the lane's row of tile t, columns g + groups·j */
        const uint32_t r0 = t / col_tiles * kTileRows, c0 = (t % col_tiles) * tc;
        if (r0 + lane >= rows) return;
        const ST *src =
            tin + strided_offsets<1, uint32_t>(r0 + lane, nd - 1, info, info + (T + 1) * nd, nd).o[0] + c0 * step[T];
#pragma unroll
        for (int j = 0; j < N; ++j)
            if (c0 + g + groups * j < last) next[j] = src[(g + groups * j) * step[T]];
    };
    if (w.block < ntiles) load(w.block);
    for (uint32_t t = w.block; t < ntiles; t += w.blocks) {
#pragma unroll
        for (int j = 0; j < N; ++j) tile[lane * pitch + g + groups * j] = next[j]; /* slots not loaded are not read */
        block_barrier();
        if (t + w.blocks < ntiles) load(t + w.blocks);
        const uint32_t row = g, c = lane * N;
        const uint32_t r0 = t / col_tiles * kTileRows, c0 = (t % col_tiles) * tc, ncols = last - c0 < tc ? last - c0 : tc;
        if (r0 + row < rows) {
            const ST *tr = tile + row * pitch + c;
            size_t oo = 0; /* the other operand's offset (K == 2; decoding T's too cost badd 15%) */
            if constexpr (K == 2)
                oo = strided_offsets<1, uint32_t>(r0 + row, nd - 1, info, info + (2 - T) * nd, nd).o[0] +
                     (size_t)(c0 + c) * step[1 - T];
            D *dst = out + (size_t)(r0 + row) * last + c0 + c;
            if (c + N <= ncols && aligned_for<D, N>(dst)) {
                zip_packs<N>(dst, f, tile_run<I, T, N>(tr, in + oo, step[I])...);
            } else if (aligned_for<D, N>(dst - c)) { /* the row's last columns */
                for (uint32_t j = 0; c + j < ncols && j < (uint32_t)N; ++j)
                    dst[j] = f(tile_elem<I, T>(tr + j, in + oo + j * step[I])...);
            } else { /* a misaligned row (odd length): lanes on consecutive columns, each store one coalesced piece */
                tr -= c, dst -= c;
                if constexpr (K == 2) oo -= c * step[1 - T];
#pragma unroll 1
                for (uint32_t j = lane; j < ncols; j += 32) dst[j] = f(tile_elem<I, T>(tr + j, in + oo + j * step[I])...);
            }
        }
        block_barrier(); /* the next tile's stores into LDS overwrite this one */
    }
}

/* out[i] = f of the operands' elements at i's offsets, for the thread's i
 * under a grid of a thread an element (Candle's). */
template <class D, class F, class... S>
CRK_DEV void strided_element(size_t numel, size_t nd, const size_t *info, D *out, const F &f, const S *...in) {
    const size_t i = global_id();
    if (i < numel) out[i] = apply_at(f, offsets_of<sizeof...(S)>(numel, i, nd, info), typename MakeSeq<sizeof...(S)>::type{}, in...);
}

/* Whether a launch of N elements a thread can go through tiles: f only
 * moves values or takes one cheap op an element, with at most one other
 * operand (the rule of loader/launch.c, tiled_transpose); runs of 2 to 4,
 * or of 8 for two 2-byte operands (binary and cmp of bf16/f16/i16, which
 * have no column walk: their row walk read a transposed operand at 20% of
 * copy). */
#if defined(__gfx9_generic__)
constexpr bool kTiles8 = false; /* cmp i16 and bdiv_f16 through tiles of 8 used 8-16 bytes of scratch (crk verify) */
#else
constexpr bool kTiles8 = true;
#endif
template <class F, int N, int K> struct TileRule {
    static constexpr bool value = Moves<F>::value && K <= 2 && ((N > 1 && N <= 4) || (kTiles8 && K == 2 && N == 8));
};

/* out[i] = f(in0[o0], in1[o1], ...) over a strided launch (o: the
 * operands' offsets of element i), N elements per thread run, stored with
 * one wide store when the run is whole and aligned. */
template <int N, int NR = N, class D, class F, class... S>
CRK_DEV void map_strided(size_t numel, size_t nd, const size_t *info, D *out, F f, const S *...in) {
    constexpr int K = sizeof...(S);
    constexpr bool tile_rule = TileRule<F, N, K>::value;
    using Is = typename MakeSeq<K>::type;
    /* Candle's grid takes runs spaced only where rows hold whole runs and out
     * is aligned for them: a misaligned run stores an element at a time,
     * each store a sector a lane (H200, a transposed 16383x16385 u8 copy:
     * 0.52x Candle's kernel so). Tested on the arguments first (an odd
     * numel has odd rows), as any work before the element's own costs it
     * (the same copy, an element a thread after the loads and tests of
     * info: 0.90x of one at once). Tiles store misaligned rows coalesced. */
    const bool spaced = global_stride() >= numel;
    if (spaced && (few_runs<N>(numel) || numel % NR != 0 || !aligned_for<D, NR>(out)))
        return strided_element(numel, nd, info, out, f, in...);
    if constexpr (N == 1) { /* long libm calls (f64 erf): a decode an element, the least state (the walk spilled gfx9 SGPRs) */
        for (size_t i = global_id(); i < numel; i += global_stride())
            out[i] = apply_at(f, offsets_of<K>(numel, i, nd, info), Is{}, in...);
    } else {
        size_t step[K];
#pragma unroll
        for (int k = 0; k < K; ++k) step[k] = info[(k + 2) * nd - 1];
        /* The operand that goes through tiles, or -1 */
        int tiled = -1;
        if constexpr (tile_rule) {
            if (blockDim.x == kTileThreads && numel <= 0xFFFFFFFFull) { /* the same for the whole block */
                if (transposed_operand<0>(nd, info) && (K == 1 || step[K - 1] <= 1)) tiled = 0;
                else if (K == 2 && transposed_operand<K - 1>(nd, info) && step[0] <= 1) tiled = 1;
            }
        }
        if (spaced && tiled < 0 && info[nd - 1] % NR != 0) return strided_element(numel, nd, info, out, f, in...);
        Walk w;
        if (numel > 0xFFFFFFFFull) {
            if (walk_of<NR>(spaced, w)) map_rows<size_t, NR>(w, numel, nd, info, step, out, f, in...);
            return;
        }
        if constexpr (tile_rule) {
            if (tiled >= 0) {
                __shared__ uint4 lds[(MaxTileBytes<N, S...>::value + 15) / 16]; /* one for either operand's tiles */
                if (!walk_of<N>(spaced, w)) return;
                if (tiled == 0) return map_tiles<N, 0>(w, lds, (uint32_t)numel, nd, info, out, f, Is{}, in...);
                if constexpr (K == 2) return map_tiles<N, 1>(w, lds, (uint32_t)numel, nd, info, out, f, Is{}, in...);
            }
        }
        if constexpr (K == 1)
            if (transposed_input(nd, info)) {
                if (walk_of<N>(spaced, w)) map_columns<N>(w, (uint32_t)numel, nd, info, step, out, f, in...);
                return;
            }
        if (walk_of<NR>(spaced, w)) map_rows<uint32_t, NR>(w, (uint32_t)numel, nd, info, step, out, f, in...);
    }
}

/* Runs of N elements from run w.first on, w.count apart, then the tail's
 * elements by the first threads; Idx: uint32_t below 2^32 elements (1-3%
 * faster than size_t under Candle's grid). */
template <int N, class Idx, class D, class F, class... S>
CRK_DEV void zip_walk(const Walk &w, Idx numel, D *out, F f, const S *...in) {
    const Idx nvec = numel / N;
    for (Idx v = (Idx)w.first; v < nvec; v += (Idx)w.count)
        zip_packs<N>(out + (size_t)v * N, f, load_pack<S, N>(in + (size_t)v * N)...);
    if (w.first < numel - nvec * N) {
        const Idx i = nvec * N + (Idx)w.first;
        out[i] = f(in[i]...);
    }
}

/* Elements a run under Candle's grid: 32 bytes of the widest operand where
 * N elements fill 16 bytes of a 4- or 8-byte one, else N (H200, spaced:
 * cast f32 -> bf16 1.13 -> 1.24x Candle's kernel, affine 1.25 -> 1.38x
 * with 32; copy bf16 1.37 -> 1.34x, gelu bf16 1.29 -> 1.28x). Ops capped
 * below 16 bytes (MaxVec: libm calls) keep their cap. */
template <int N, int Widest> struct SpacedRun {
    static constexpr int value = Widest >= 4 && N * Widest == 16 ? 2 * N : N;
};
template <class... T> struct WidestOf { static constexpr int value = 0; };
template <class T0, class... T> struct WidestOf<T0, T...> {
    static constexpr int value = (int)sizeof(T0) > WidestOf<T...>::value ? (int)sizeof(T0) : WidestOf<T...>::value;
};

/* out[i] = f(in0[i], in1[i], ...) over contiguous operands, N elements per
 * step with wide accesses when every pointer is aligned for them. */
template <int N, class D, class F, class... S>
CRK_DEV void zip_contiguous(size_t numel, D *out, F f, const S *...in) {
    const size_t gid = global_id(), gs = global_stride();
    auto aligned = [&]() { return aligned_for<D, N>(out) && (aligned_for<S, N>(in) && ...); };
    if (gs >= numel) { /* "Launch shapes" above */
        constexpr int R = SpacedRun<N, WidestOf<D, S...>::value>::value;
        Walk w;
        if (few_runs<N>(numel) || !aligned()) {
            if (gid < numel) out[gid] = f(in[gid]...);
        } else if (walk_of<R>(true, w)) {
            if (numel <= 0xFFFFFFFFull) zip_walk<R>(w, (uint32_t)numel, out, f, in...);
            else zip_walk<R>(w, numel, out, f, in...);
        }
        return;
    }
    size_t head = 0;
    if (aligned()) {
        const size_t nvec = numel / N;
        for (size_t v = gid; v < nvec; v += gs) zip_packs<N>(out + v * N, f, load_pack<S, N>(in + v * N)...);
        head = nvec * N;
    }
    for (size_t i = head + gid; i < numel; i += gs) out[i] = f(in[i]...);
}

/* Unary-shaped kernels (unary, cast, affine): Candle's in-place convention
 * reads out[i] when inp is NULL, whatever the strides say, so in place is
 * the contiguous map (one instance of the op's code fewer: the op is
 * inlined into every path, and compile time grows with the copies). MaxN
 * caps elements per thread for ops whose registers would not fit
 * 1024-thread blocks at the full width. */
template <int MaxN = 16, class S, class D, class F>
CRK_DEV void run_map(size_t numel, size_t nd, const size_t *info, const S *inp, D *out, F f) {
    constexpr int N = VecWidth<S, D>::value < MaxN ? VecWidth<S, D>::value : MaxN;
    if (!inp || all_contiguous<1>(nd, info))
        zip_contiguous<N>(numel, out, f, inp ? inp : (const S *)out);
    else
        map_strided<N, RowWidth<S, D, MaxN>::value>(numel, nd, info, out, f, inp);
}

} // namespace crk
#endif
