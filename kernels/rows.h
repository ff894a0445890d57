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
 * re-reading the output. libcrk's own crk_<op>_vec_<dt> run the same
 * arithmetic on 16-byte chunks of a row (RowChunks). */
#ifndef CRK_ROWS_H
#define CRK_ROWS_H
#include "elementwise.h"
#include "math_fns.h"
#include "numeric.h"

namespace crk {

/* 16-bit values cross lanes as their bits. */
template <class S> CRK_DEV H<S> shfl_xor_w32(H<S> v, int mask) { return shfl_xor_bits<32>(v, mask); }

/* Butterfly over a group of 32 lanes: every lane ends with f folded over
 * the group, combined as Candle's v = f(v, partner) for masks 16..1. */
template <class V, class F> CRK_DEV V group32_fold(V v, F f) {
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1) v = f(v, shfl_xor_w32(v, mask));
    return v;
}

/* How many of c = first, first + step, ... are below end: a loop over a
 * known count is unrolled (several loads in flight); one that tests
 * c < end cannot be, since c += step might wrap. */
CRK_DEV unsigned strided_count(unsigned first, unsigned end, unsigned step) {
    return first < end ? (end - first + step - 1) / step : 0;
}

/* A row pointer the NVIDIA compiler must keep as a base: it otherwise folds
 * base + row·cols + column into one 64-bit index added to the kernel
 * argument, four instructions a load where a base pointer needs one
 * (IMAD.WIDE; rmsnorm_f32's loop against Candle's, which indexes in 32
 * bits). No instruction; AMD's code is left as it was. Measured on the
 * H100 (docs/runs/2026-11-24e-h100-bench-opaque-base.txt): taken by the
 * norms and libcrk's 16-byte softmax kernels, not by Candle's softmax. */
template <class T> CRK_DEV T *opaque_base(T *p) {
#if CRK_NV
    asm("" : "+l"(p));
#endif
    return p;
}

/* A row in chunks of V consecutive columns: V = 1 in Candle's kernels; 16
 * bytes' worth in libcrk's crk_*_vec (their contract: n_cols a multiple of
 * V, pointers 16-byte aligned). Thread tid of `threads` takes chunks tid,
 * tid + threads, ... and a chunk's columns in order. 32-bit columns
 * (n_cols is an int) in counted loops. */
template <class T, int V> struct RowChunks {
    const T *x;
    T *y;
    unsigned cols, chunks, tid, threads;
    CRK_DEV RowChunks(const T *src, T *dst, size_t row, int n_cols, unsigned tid_, unsigned threads_) {
        cols = n_cols > 0 ? (unsigned)n_cols : 0;
        chunks = cols / V;
        x = src + row * cols, y = dst + row * cols;
        if (V > 1) x = opaque_base(x), y = opaque_base(y); /* Candle's softmax (V = 1) ran 1.31 -> 1.13x Candle's with it */
        tid = tid_, threads = threads_;
    }
    /* Whether a row of chunks fits Held a thread (held in registers;
     * block-uniform). */
    template <int Held> CRK_DEV bool holds() const { return Held && chunks <= (unsigned)Held * threads; }
    /* Piece j of `pieces` (crk_softmax's split rows): chunks [lo(j),
     * lo(j + 1)) with lo(j) = j·chunks / pieces, so pieces differ by at
     * most one chunk. */
    static CRK_DEV unsigned piece_lo(unsigned j, unsigned chunks, unsigned pieces) {
        return (unsigned)((unsigned long long)j * chunks / pieces);
    }
    CRK_DEV void narrow(unsigned j, unsigned pieces) {
        const unsigned lo = piece_lo(j, chunks, pieces), hi = piece_lo(j + 1, chunks, pieces);
        x += (size_t)lo * V, y += (size_t)lo * V, chunks = hi - lo;
    }
    CRK_DEV Pack<T, V> load(const T *p, unsigned q) const { return load_pack<T, V>(p + (size_t)q * V); }
    CRK_DEV void store(unsigned q, const Pack<T, V> &o) const { store_pack<T, V>(y + (size_t)q * V, o); }
    template <int Unroll, class F> CRK_DEV void each_chunk(F f) const {
#pragma unroll Unroll
        for (unsigned k = 0, nk = strided_count(tid, chunks, threads), q = tid; k < nk; ++k, q += threads) f(q);
    }
    /* Loads in flight a thread: 4 columns or 2 chunks; f64 one (more
     * spilled softmax_f64). Lean: one chunk (layernorm's x, alpha and beta
     * chunks of 16-bit values, two at a time, spilled on NVIDIA). */
    static constexpr int unroll = sizeof(T) > 4 ? 1 : V == 1 ? 4 : 2;
    static constexpr int lean = V == 1 ? unroll : 1;
    /* softmax's exp loops: clang declines to unroll 16-bit ones for AMD
     * (an error under -Werror), so they are left to it there. */
#if CRK_AMD
    static constexpr int exp_unroll = sizeof(T) == 2 ? 1 : unroll;
#else
    static constexpr int exp_unroll = unroll;
#endif
};

/* The block's threads, counted as Candle's kernels see them: linear id
 * over (x, y, z) and the count. */
CRK_DEV unsigned block_tid() { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
CRK_DEV unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }

/* Folds v over `threads` consecutive threads starting at a multiple of 32
 * (tid counts from that start): 32-lane butterflies, then, when there are
 * several groups, every thread folds the group results in the same
 * butterfly (group g's result at lane g, identity past the last group).
 * `slots` is 32 shared values owned by these threads and by this fold
 * alone (a second fold in the same kernel takes other slots: one barrier
 * a fold, as Candle's). */
template <class V, class F>
CRK_DEV V block_fold(V v, unsigned tid, unsigned threads, V identity, V *slots, F f) {
    /* slots: this fold's 32 group results (a row's own, when a block holds several rows) */
    v = group32_fold(v, f);
    if (threads <= 32) return v;
    const unsigned lane = tid % 32, groups = (threads + 31) / 32;
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
/* An accumulator value in the row's arithmetic type: 16-bit rounds it
 * (Candle: T(1/sum)); exact for a value that came from A (a piece's max). */
CRK_DEV float narrow_as(float v, float) { return v; }
CRK_DEV double narrow_as(double v, double) { return v; }
template <class S> CRK_DEV H<S> narrow_as(float v, H<S>) { return H<S>::make(v); }

/* Candle's passes over a row (or a piece of one: RowChunks::narrow): max in
 * T (maxg), then exp(x - max) in T summed in the accumulator. Rows of at
 * most Held chunks a thread keep their chunks in registers, each exp in
 * place of its input (A has T's bits: no register more; one read, one exp
 * an element); longer ones read the row again and recompute the exps, bit
 * for bit the ones summed. A thread visits its chunks in the same order on
 * every path, so all round alike. */
template <class T, int V, int Held> struct SoftmaxRow {
    using A = typename Arith<T>::A;
    using C = typename Acc<A>::T;
    using R = RowChunks<T, V>;
    const R &r;
    A *slots_max;
    C *slots_sum;
    bool held;
    Pack<T, V> p[Held ? Held : 1]; /* inputs, then their exps */
    A mx = Lim<A>::lowest();
    C sum = 0;

    CRK_DEV SoftmaxRow(const R &r_, A *smax, C *ssum)
        : r(r_), slots_max(smax), slots_sum(ssum), held(r_.template holds<Held>()) {}
    static CRK_DEV A fold_max(A a, A b) { return m::maxg(a, b); }
    static CRK_DEV C fold_sum(C a, C b) { return a + b; }

    /* A chunk's steps, two 16-bit columns an instruction where the target
     * pairs them (m::Paired; the same values lane for lane). Paired, mx1
     * holds the odd columns' max until stats() folds it into mx. */
    static constexpr bool paired = m::Paired<A>::value && V % 2 == 0;
    static CRK_DEV void max_chunk(const Pack<T, V> &c, A &mx, A &mx1) {
        if constexpr (paired) {
#pragma unroll
            for (int j = 0; j < V; j += 2) m::maxg2(mx, mx1, Arith<T>::in(c.v[j]), Arith<T>::in(c.v[j + 1]));
        } else {
#pragma unroll
            for (int j = 0; j < V; ++j) mx = m::maxg(mx, Arith<T>::in(c.v[j]));
        }
    }
    /* o's columns j, j + 1 = g(a, b) on c's, pair by pair (paired only) */
    template <class G> static CRK_DEV void each_pair(const Pack<T, V> &c, Pack<T, V> &o, G g) {
#pragma unroll
        for (int j = 0; j < V; j += 2) {
            A a = Arith<T>::in(c.v[j]), b = Arith<T>::in(c.v[j + 1]);
            g(a, b);
            o.v[j] = Arith<T>::out(a), o.v[j + 1] = Arith<T>::out(b);
        }
    }
    /* c = exp(c - mx), each added to s in column order */
    CRK_DEV void exp_chunk(Pack<T, V> &c, C &s) const { exp_chunk_at(c, s, mx); }
    /* c = exp(c - at), each added to s in column order */
    static CRK_DEV void exp_chunk_at(Pack<T, V> &c, C &s, A at) {
        if constexpr (paired) {
            each_pair(c, c, [&](A &a, A &b) {
                m::exp_diff2(a, b, at);
                s += widen(a), s += widen(b);
            });
        } else {
#pragma unroll
            for (int j = 0; j < V; ++j) {
                const A x = m::exp(Arith<T>::in(c.v[j]) - at);
                c.v[j] = Arith<T>::out(x);
                s += widen(x);
            }
        }
    }
    /* c · inv */
    static CRK_DEV Pack<T, V> scale_chunk(const Pack<T, V> &c, A inv) {
        Pack<T, V> o;
        if constexpr (paired) {
            each_pair(c, o, [&](A &a, A &b) { m::scale2(a, b, inv); });
        } else {
#pragma unroll
            for (int j = 0; j < V; ++j) o.v[j] = Arith<T>::out(Arith<T>::in(c.v[j]) * inv);
        }
        return o;
    }

    /* The max of a thread's held chunks into mx; load: they are read here
     * (else they are in p already: crk_softmax_wide's next row). */
    CRK_DEV void max_held_thread(bool load) {
        A mx1 = Lim<A>::lowest();
#pragma unroll
        for (int k = 0; k < Held; ++k) {
            const unsigned q = r.tid + k * r.threads;
            if (q < r.chunks) {
                if (load) p[k] = r.load(r.x, q);
                max_chunk(p[k], mx, mx1);
            }
        }
        if constexpr (paired) mx = m::maxg(mx, mx1);
    }
    CRK_DEV void fold_max_block() { mx = block_fold(mx, r.tid, r.threads, Lim<A>::lowest(), slots_max, fold_max); }
    /* A held row's max, folded over the block */
    CRK_DEV void max_held(bool load) { max_held_thread(load), fold_max_block(); }
    /* A held row's exps, in place, summed (not folded) */
    CRK_DEV void exp_held() {
#pragma unroll
        for (int k = 0; k < Held; ++k)
            if (r.tid + k * r.threads < r.chunks) exp_chunk(p[k], sum);
    }

    /* mx and sum of the row, folded over the block (every thread has them). */
    CRK_DEV void stats() {
        if (held) { /* block-uniform */
            max_held(true);
            exp_held();
        } else {
            A mx1 = Lim<A>::lowest();
            r.template each_chunk<R::unroll>([&](unsigned q) { max_chunk(r.load(r.x, q), mx, mx1); });
            if constexpr (paired) mx = m::maxg(mx, mx1);
            fold_max_block();
            r.template each_chunk<R::exp_unroll>([&](unsigned q) {
                Pack<T, V> v = r.load(r.x, q);
                exp_chunk(v, sum);
            });
        }
        fold_sums();
    }
    CRK_DEV void fold_sums() { sum = block_fold(sum, r.tid, r.threads, (C)0, slots_sum, fold_sum); }

    /* Rows of more than Held chunks a thread (crk_softmax_wide): a thread
     * holds its first Held chunks and streams the rest (its tail) once for
     * the stats, with a running max mt: a chunk's max in T, and where mt
     * moves the tail's sum st is scaled by exp(at(old) - at(new)) before
     * the chunk's exp(x - at(mt)) in T are added (at(-inf) = 0: a tail of
     * -inf so far adds exp(-inf) = 0, not NaN, and a NaN stays NaN). The
     * block's max folds the held maxes and mt; a thread's held exps sum in
     * order, then st·exp(at(mt) - max) fused. Only the tail's sum rounds
     * unlike Candle's (as the split rows' pieces); write_long reads the
     * tail a second time: 2.5 passes where a block that re-reads the row
     * makes 4. WideHeld's stream_tail says where. */
    static CRK_DEV A at_of(A v) { return widen(v) == widen(Lim<A>::lowest()) ? narrow_as((C)0, v) : v; }
    CRK_DEV unsigned tail_first() const { return r.tid + (unsigned)Held * r.threads; }
    CRK_DEV void stats_long() {
        A mt = Lim<A>::lowest();
        C st = 0;
        max_held_thread(true); /* every held chunk is in the row: chunks > Held·threads */
        const unsigned first = tail_first();
        /* exps in the loop: unrolled as write()'s (16-bit on gfx942 at 2 a
         * time took 140 bytes of scratch) */
#pragma unroll R::exp_unroll
        for (unsigned k = 0, nk = strided_count(first, r.chunks, r.threads), q = first; k < nk; ++k, q += r.threads) {
            Pack<T, V> v = r.load(r.x, q);
            A cm = Lim<A>::lowest(), cm1 = Lim<A>::lowest();
            max_chunk(v, cm, cm1);
            if constexpr (paired) cm = m::maxg(cm, cm1);
            const A nm = m::maxg(mt, cm);
            if (!(widen(nm) == widen(mt))) { /* moved, or NaN */
                if (st != (C)0) st *= m::exp(widen(at_of(mt)) - widen(at_of(nm)));
                mt = nm;
            }
            exp_chunk_at(v, st, at_of(mt));
        }
        mx = m::maxg(mx, mt);
        fold_max_block();
        exp_held();
        if (st != (C)0) sum = fma(st, m::exp(widen(at_of(mt)) - widen(mx)), sum);
        fold_sums();
    }
    /* chunk q of dst = exp(x - mx) · inv, x read again */
    CRK_DEV void write_chunk(unsigned q, A inv) const {
        Pack<T, V> v = r.load(r.x, q);
        C unused = 0;
        exp_chunk(v, unused);
        r.store(q, scale_chunk(v, inv));
    }
    /* dst of a long row: the tail newest chunk first (the likeliest still
     * in L2), then the held chunks. */
    CRK_DEV void write_long() const {
        const A inv = narrow_as((C)1 / sum, mx);
        const unsigned first = tail_first(), nk = strided_count(first, r.chunks, r.threads);
#pragma unroll R::exp_unroll
        for (unsigned k = nk; k > 0; --k) write_chunk(first + (k - 1) * r.threads, inv);
#pragma unroll
        for (int k = 0; k < Held; ++k) r.store(r.tid + k * r.threads, scale_chunk(p[k], inv));
    }

    /* A held row's dst; then, given the next row's base nx, its chunks
     * from `from` on are loaded in place of the stored ones, so a
     * persistent block's stores and next loads are in flight together. */
    CRK_DEV void write_held(const T *nx, int from) {
        const A inv = narrow_as((C)1 / sum, mx);
#pragma unroll
        for (int k = 0; k < Held; ++k) {
            const unsigned q = r.tid + k * r.threads;
            if (q < r.chunks) {
                r.store(q, scale_chunk(p[k], inv));
                if (nx && k >= from) p[k] = r.load(nx, q);
            }
        }
    }
    /* dst = exp(x - mx) * T(1/sum), from the held exps or recomputed. */
    CRK_DEV void write() {
        if (held) return write_held(nullptr, Held);
        const A inv = narrow_as((C)1 / sum, mx);
        r.template each_chunk<R::exp_unroll>([&](unsigned q) { write_chunk(q, inv); });
    }
};

/* libcrk's blocks hold about two chunks a thread; Candle's kernel none.
 * (4 for f32 and bf16, with rows of 4096 chunks in crk_softmax_vec rather
 * than crk_softmax_wide, ran as fast: bf16 1024x32768 2508-2515 GB/s
 * against 2524, docs/runs/2026-11-28b-h100-reduce-conv-ab2.txt.) */
template <int V> struct SoftmaxHeld { static constexpr int n = V == 1 ? 0 : 2; };

/* softmax over row blockIdx.x, the block's threads over its chunks. */
template <class S, class T> CRK_DEV void softmax_block(const T *src, T *dst, int n_cols) {
    __shared__ typename S::A slots_max[32];
    __shared__ typename S::C slots_sum[32];
    const typename S::R r(src, dst, blockIdx.x, n_cols, block_tid(), block_threads());
    S row(r, slots_max, slots_sum);
    row.stats();
    row.write();
}

/* Candle's softmax_<dt>(src, dst, n_cols): a column at a time. */
template <class T> CRK_DEV void softmax(const T *src, T *dst, int n_cols) {
    softmax_block<SoftmaxRow<T, 1, 0>>(src, dst, n_cols);
}
/* libcrk's crk_softmax_vec_<dt>: 16 bytes a load (RowChunks' contract). */
template <class T> CRK_DEV void softmax_vec(const T *src, T *dst, int n_cols) {
    constexpr int V = 16 / (int)sizeof(T);
    softmax_block<SoftmaxRow<T, V, SoftmaxHeld<V>::n>>(src, dst, n_cols);
}
/* libcrk's crk_softmax_wide_<dt>(src, dst, n_cols, n_rows): the same for
 * rows of up to 8 chunks a thread (8192 with 1024 threads: 32768 f32),
 * held in the 64 registers of one 1024-thread block an SM (the op table's
 * residency). A block a row re-reading 128 KiB rows missed L2 (1024x32768
 * f32 on the H100: 36% hits, 57% of copy bandwidth).
 *
 * Persistent: block b takes rows b, b + G, ... (G = gridDim.x; crk_softmax
 * launches the blocks the device holds at once where one block fills an
 * SM/CU, else a block a row). A block a row had no load in flight from its row's last load to
 * the next block's first: through the folds, the exps, the stores and the
 * block's relaunch (H200 1024x32768 f32: 26% of issue slots and 64% of
 * DRAM busy). Here a held row's first Pre chunks of the next row are
 * loaded before this row's exps, the rest in place of each stored chunk
 * (f32 1024x32768 3151 -> 3325 GB/s; bf16, two blocks an SM, lost: 1024x32768
 * 3014 -> 2875, with Pre 0 2678). Each row is computed as by a block of its
 * own: any grid is correct. Folding each thread's own (max, sum) once in
 * place of the two folds lost (f32 1024x32768 3320 -> 3144; bf16 8192x32768
 * 3784 -> 3340: docs/runs/2026-12-02b-h200-norm-conversions.txt).
 *
 * Staggered: the blocks start together, so with few rows each they stay in
 * step, and while every block folds and takes its exps (no load in flight
 * but the next row's first chunks) the memory idles. So each odd block,
 * once, before its first row's stores, waits a quarter of the time that
 * row took it (its own clock: no constant of the device), which puts half
 * the blocks' memory phases into the others' folds. H200 f32, a harness
 * of this body, same run: 1024x32768 3098-3194 -> 3239-3265 GB/s,
 * 512x32768 2853-2861 -> 2962-3013, 1024x20480 2774-2790 -> 3036-3059,
 * 8192x32768 1.01x; a fixed 4000-cycle start delay did as well on the
 * H200, but no constant fits every device
 * (docs/runs/2026-12-04-h200-softmax-stagger.txt). A block with no next
 * row does not wait. */
template <class T> struct WideHeld {
#if CRK_AMD && (defined(__gfx9_generic__) || defined(__gfx908__))
    /* gfx900-class chips have 64 VGPRs a thread at 1024 threads and no AGPRs
     * to spill into: 8 16-bit chunks took 76 bytes of scratch (crk verify);
     * gfx908 (64 VGPRs, 64 AGPRs) spilled 12 VGPRs once the exps are kept
     * in place of the inputs; 4 held, longer rows read twice (f64 too:
     * 8 spilled 5 VGPRs on gfx9-generic in the row loop); no chunk of the
     * next row before the stores */
    static constexpr int n = sizeof(T) == 4 ? 8 : 4, pre = 0;
    /* longer rows re-read (stats, write), see below */
    static constexpr bool stream_tail = false;
    /* the next row loaded whole after the stores: loaded in place of them,
     * gfx9-generic spilled 1-3 VGPRs */
    static constexpr bool interleave = false;
#else
    /* next-row chunks before the exps: 64 registers hold two of 16-bit
     * values, one of f32 (two spilled 4 bytes on sm_90), none of f64 (whose
     * exp already spills there) */
    static constexpr int n = 8, pre = sizeof(T) == 2 ? 2 : sizeof(T) == 4 ? 1 : 0;
    static constexpr bool interleave = true;
    /* Longer rows: the first n chunks a thread held, the tail streamed
     * (SoftmaxRow::stats_long) on NVIDIA; AMD re-reads them (stats, write):
     * with the held chunks live through the tail, gfx942's bf16 needed more
     * than the 128 VGPRs of 1024 threads (22 spilled), not yet reworked.
     * f32 only: at 64 registers (1024 threads) sm_90 spilled 80 bytes for
     * bf16 and 212 for f64 (72 re-reading), none for f32 and f16. H200,
     * against crk_softmax_vec's re-reads: f32 1024x65536 2019-2026 ->
     * 2898-2902 GB/s, 1024x128256 2048-2053 -> 2617
     * (docs/runs/2026-12-07-h200-softmax-stream.txt). */
    static constexpr bool stream_tail = sizeof(T) == 4;
#endif
};
template <class T> CRK_DEV void softmax_wide(const T *src, T *dst, int n_cols, int n_rows) {
    constexpr int V = 16 / (int)sizeof(T), Pre = WideHeld<T>::pre;
    constexpr bool interleave = WideHeld<T>::interleave;
    using S = SoftmaxRow<T, V, WideHeld<T>::n>;
    __shared__ typename S::A slots_max[32];
    __shared__ typename S::C slots_sum[32];
    /* rows <= 2^31 - 1 and G < 2^32 - rows: row + G does not wrap */
    const unsigned t0 = clock_ticks();
    const unsigned rows = n_rows > 0 ? (unsigned)n_rows : 0, step = gridDim.x;
    unsigned row = blockIdx.x;
    if (row >= rows) return;
    typename S::R r(src, dst, row, n_cols, block_tid(), block_threads());
    S s(r, slots_max, slots_sum);
    const size_t jump = (size_t)step * r.cols; /* elements to this block's next row */
    if (!s.held) { /* block-uniform: longer rows, a row at a time, the tail (or the row) read again */
        for (;;) {
            if constexpr (WideHeld<T>::stream_tail) s.stats_long(), s.write_long();
            else s.stats(), s.write();
            if ((row += step) >= rows) return;
            r.x += jump, r.y += jump, s.mx = Lim<typename S::A>::lowest(), s.sum = 0;
        }
    }
    bool stagger = blockIdx.x % 2 == 1;
    s.max_held(true);
    for (;;) {
        const bool more = row + step < rows;
        const T *nx = r.x + jump;
        Pack<T, V> e[Pre ? Pre : 1];
#pragma unroll
        for (int j = 0; j < Pre; ++j)
            if (more && r.tid + j * r.threads < r.chunks) e[j] = r.load(nx, r.tid + j * r.threads);
        s.exp_held();
        s.fold_sums();
        if (stagger && more) pause_ticks((clock_ticks() - t0) / 4);
        stagger = false;
        s.write_held(more && interleave ? nx : nullptr, Pre);
        if (!more) return;
#pragma unroll
        for (int j = 0; j < Pre; ++j) s.p[j] = e[j];
        row += step, r.x = nx, r.y += jump, s.mx = Lim<typename S::A>::lowest(), s.sum = 0;
#if CRK_AMD
        /* clang hoists each chunk's offset (tid, threads) out of the row loop:
         * 16 more VGPRs (gfx942 f32 49 -> 87, gfx9-generic spilled 20) */
        asm volatile("" : "+v"(r.tid), "+s"(r.threads));
#endif
        s.max_held(!interleave);
    }
}

/* Few long rows (crk_softmax, include/crk.h): each row in `pieces` pieces
 * (RowChunks::narrow), a block each (grid (pieces, rows)), in two launches.
 * crk_softmax_part_<dt>: a piece's max m and its sum s of exp(x - m), as
 * above, stored in slot blockIdx.x of every piece's own span of dst (so
 * dst must not overlap src, and a piece must span pieces·sizeof(Part)
 * bytes: crk_softmax checks both). crk_softmax_fin_<dt>: a piece reads the
 * row's parts from its own span, then overwrites the span with
 * dst = exp(x - M) * T(1/S), M = max m, S = sum of s·exp(m - M) (fused)
 * in the accumulator, a thread's parts in order, then the block's fold. Only S rounds unlike Candle's (the sums of the pieces'
 * exps, rescaled), within the family's tolerance. Any block size is
 * correct; piece chunks <= 2·threads are held in registers. */
template <class C> struct SoftmaxPart { C m, s; };

template <class T> struct SoftmaxSplit {
    static constexpr int V = 16 / (int)sizeof(T);
    using S = SoftmaxRow<T, V, SoftmaxHeld<V>::n>;
    using P = SoftmaxPart<typename S::C>;
    /* Piece j's span of row `row` in dst, as the row's slots. */
    static CRK_DEV P *span(T *dst, const typename S::R &row, unsigned j, unsigned pieces) {
        return (P *)(dst + (size_t)blockIdx.y * row.cols + (size_t)RowChunks<T, V>::piece_lo(j, row.chunks, pieces) * V);
    }
};

template <class T> CRK_DEV void softmax_part(const T *src, T *dst, int n_cols, int pieces) {
    using Sp = SoftmaxSplit<T>;
    using S = typename Sp::S;
    __shared__ typename S::A slots_max[32];
    __shared__ typename S::C slots_sum[32];
    const typename S::R row(src, dst, blockIdx.y, n_cols, block_tid(), block_threads());
    typename S::R r = row;
    r.narrow(blockIdx.x, (unsigned)pieces);
    S piece(r, slots_max, slots_sum);
    piece.stats();
    const typename Sp::P part = {widen(piece.mx), piece.sum};
    for (unsigned i = r.tid; i < (unsigned)pieces; i += r.threads) Sp::span(dst, row, i, (unsigned)pieces)[blockIdx.x] = part;
}

template <class T> CRK_DEV void softmax_fin(const T *src, T *dst, int n_cols, int pieces) {
    using Sp = SoftmaxSplit<T>;
    using S = typename Sp::S;
    using A = typename S::A;
    using C = typename S::C;
    __shared__ A slots_max[32];
    __shared__ C slots_sum[32];
    const typename S::R row(src, dst, blockIdx.y, n_cols, block_tid(), block_threads());
    typename S::R r = row;
    r.narrow(blockIdx.x, (unsigned)pieces);
    const typename Sp::P *parts = Sp::span(dst, row, blockIdx.x, (unsigned)pieces);
    S piece(r, slots_max, slots_sum);
    for (unsigned i = r.tid; i < (unsigned)pieces; i += r.threads) piece.mx = m::maxg(piece.mx, narrow_as(parts[i].m, A{}));
    piece.mx = block_fold(piece.mx, r.tid, r.threads, Lim<A>::lowest(), slots_max, S::fold_max);
    const C mc = widen(piece.mx);
    for (unsigned i = r.tid; i < (unsigned)pieces; i += r.threads) {
        /* a piece of -inf (m = -inf, s = NaN) adds nothing below a finite M */
        const C w = m::exp(parts[i].m - mc);
        if (w != (C)0) piece.sum = fma(parts[i].s, w, piece.sum);
    }
    /* No barrier before the span is overwritten: every thread read its
     * parts before the sum's fold (whose barrier, or one wave's shuffles,
     * every output waits for). */
    piece.fold_sums();
    piece.held = false;
    piece.write();
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

/* A chunk's columns as f32, and f32 columns rounded to T: the norms'
 * conversions, bit for bit as_f32 and convert<T>, in fewer instructions.
 * The norms of 16-bit rows were bound by instructions, not bytes
 * (layernorm_bf16 8192x4096 on the H200: 78% of issue slots busy, the
 * integer pipe the busiest, 58% of DRAM busy; Nsight Compute). bf16
 * columns come from their 32-bit words (the odd column is the word's high
 * half as it is, the even one the low half shifted up); on NVIDIA a pair
 * of 16-bit results is one cvt.rn.{bf16,f16}x2.f32, whose NaN is the
 * canonical 0x7FFF that f32_to_bf16/f32_to_f16 give. rmsnorm bf16 3478 ->
 * 3670 GB/s, layernorm bf16 3126 -> 3350
 * (docs/runs/2026-12-02b-h200-norm-conversions.txt). */
template <class T, int V> CRK_DEV void unpack_f32(const Pack<T, V> &c, float (&f)[V]) {
    if constexpr (V % 2 == 0 && __is_same(T, bf16)) {
        uint32_t w[V / 2];
        __builtin_memcpy(w, &c, sizeof c);
#pragma unroll
        for (int j = 0; j < V; j += 2) f[j] = bits_f32(w[j / 2] << 16), f[j + 1] = bits_f32(w[j / 2] & 0xFFFF0000u);
    } else {
#pragma unroll
        for (int j = 0; j < V; ++j) f[j] = as_f32(c.v[j]);
    }
}
template <class T, int V> CRK_DEV Pack<T, V> pack_f32(const float (&f)[V]) {
    Pack<T, V> o;
#if CRK_NV
    if constexpr (m::Paired<typename Arith<T>::A>::value && V % 2 == 0) {
        m::H2<T> w[V / 2];
#pragma unroll
        for (int j = 0; j < V; j += 2) w[j / 2] = m::pack2_of<T>(f[j], f[j + 1]);
        __builtin_memcpy(&o, w, sizeof o);
    } else
#endif
    {
#pragma unroll
        for (int j = 0; j < V; ++j) o.v[j] = convert<T>(f[j]);
    }
    return o;
}

/* A chunk's columns as f32 for layernorm's second pass: converted whole
 * (Lazy false) or each where it is used (Lazy: the pack kept). Converted
 * whole, f16's x, alpha and beta (24 values) spilled on sm_90 (28 bytes;
 * H100 8192x4096: 2203 -> 2576-2583 GB/s lazy); bf16 lazy ran 1024x32768
 * 2427-2439 -> 2346-2348 (docs/runs/2026-12-06-h100-norms-softmax-rule.txt). */
template <class T, int V, bool Lazy> struct ColsF32 {
    float f[V];
    ColsF32() = default;
    CRK_DEV explicit ColsF32(const Pack<T, V> &c) { unpack_f32(c, f); }
    CRK_DEV float operator[](int j) const { return f[j]; }
};
template <class T, int V> struct ColsF32<T, V, true> {
    Pack<T, V> c;
    ColsF32() = default;
    CRK_DEV explicit ColsF32(const Pack<T, V> &c_) : c(c_) {}
    CRK_DEV float operator[](int j) const { return as_f32(c.v[j]); }
};

/* A norm's row blockIdx.x·blockDim.y + threadIdx.y over threadIdx.x, and
 * its 32-lane groups' first slot in the block. */
template <class T, int V> struct NormRow : RowChunks<T, V> {
    unsigned first_group;
    CRK_DEV NormRow(const T *src, T *dst, int n_cols)
        : RowChunks<T, V>(src, dst, (size_t)blockIdx.x * blockDim.y + threadIdx.y, n_cols, threadIdx.x, blockDim.x),
          first_group(threadIdx.y * blockDim.x / 32) {
        this->x = opaque_base(this->x), this->y = opaque_base(this->y); /* rmsnorm_f32 0.94 -> 0.97x Candle's */
    }
    /* f(q, chunk) for this thread's chunks q: when held, chunk k in p[k]
     * (put there first when fill), else loaded, Unroll at a time. */
    template <int Unroll, int Held, class F>
    CRK_DEV void pass(bool held, Pack<T, V> (&p)[Held ? Held : 1], bool fill, F f) const {
        if (!held) return this->template each_chunk<Unroll>([&](unsigned q) { f(q, this->load(this->x, q)); });
#pragma unroll
        for (int k = 0; k < Held; ++k) {
            const unsigned q = this->tid + k * this->threads;
            if (q >= this->chunks) continue;
            if (fill) p[k] = this->load(this->x, q);
            f(q, p[k]);
        }
    }
};

/* A norm's chunks held in registers between its two passes when the row
 * has at most Held a thread (Candle's block of 1024 over 4096 columns: 4),
 * so the second pass reads no memory; longer rows are read twice. The
 * same chunks in the same order either way: the sums round alike. */
template <class T, int V> struct NormHeld {
    static constexpr int rmsnorm = sizeof(T) > 4 ? 0 : V == 1 ? 8 : 2;
    /* loads in flight in the first pass of a row read twice (V == 1:
     * Candle's block of 1024 over more than 8192 columns): 8, not 4, ran
     * Candle's shape of rmsnorm_f32 16x32768 356-366 -> 405 GB/s on the
     * H100 (bf16 216 -> 221; docs/runs/2026-12-07b-h100-rmsnorm-unroll.txt).
     * 16 held as well ran the held rows 0.65-0.91x on the H200 (bf16
     * 8192x4096 1581 -> 1036, f32 2829 -> 2572; same 32 registers). */
    static constexpr int rmsnorm_unroll = V == 1 && sizeof(T) <= 4 ? 8 : RowChunks<T, V>::unroll;
    /* layernorm's vec kernel holds none: its second pass loads alpha and
     * beta chunks too, and 2 held 16-bit chunks spilled on NVIDIA (92
     * bytes); 1 held with libcrk's block of one chunk a thread ran 0.91x
     * the unheld two a thread (H100, bf16 8192x4096: 2456 against 2694
     * GB/s, docs/runs/2026-11-28b-h100-reduce-conv-ab1.txt and -final.txt);
     * 2 held at 64 registers (no spill, half the warps) ran 0.81x (H200:
     * 3122 against 2517 GB/s, docs/runs/2026-12-02b-h200-norm-conversions.txt) */
    static constexpr int layernorm = V == 1 ? rmsnorm : 0;
};

template <int V, class T> CRK_DEV void rmsnorm_rows(const T *src, T *dst, const T *alpha, int n_cols, float eps) {
    __shared__ float slots[32];
    using R = NormRow<T, V>;
    constexpr int Held = NormHeld<T, V>::rmsnorm;
    const R r(src, dst, n_cols);
    const bool held = r.template holds<Held>();
    Pack<T, V> p[Held ? Held : 1];
    float ss = 0.f;
    r.template pass<NormHeld<T, V>::rmsnorm_unroll, Held>(held, p, true, [&](unsigned, const Pack<T, V> &x) {
        float v[V];
        unpack_f32(x, v);
#pragma unroll
        for (int j = 0; j < V; ++j) ss = fmaf(v[j], v[j], ss); /* fused always: unrolled copies differed */
    });
    ss = block_fold(ss, r.tid, r.threads, 0.f, slots + r.first_group, [](float a, float b) { return a + b; });
    const float scale = rsqrtf(ss / (float)r.cols + eps);
    r.template pass<R::unroll, Held>(held, p, false, [&](unsigned q, const Pack<T, V> &x) {
        float v[V], a[V];
        unpack_f32(x, v);
        if (alpha) {
            unpack_f32(r.load(alpha, q), a);
#pragma unroll
            for (int j = 0; j < V; ++j) v[j] = scale * v[j] * a[j];
        } else {
#pragma unroll
            for (int j = 0; j < V; ++j) v[j] = scale * v[j];
        }
        r.store(q, pack_f32<T, V>(v));
    });
}

template <int V, class T>
CRK_DEV void layernorm_rows(const T *src, T *dst, const T *alpha, const T *beta, int n_cols, float eps) {
    __shared__ F2 slots[32];
    using R = NormRow<T, V>;
    constexpr int Held = NormHeld<T, V>::layernorm;
    const R r(src, dst, n_cols);
    const bool held = r.template holds<Held>();
    Pack<T, V> p[Held ? Held : 1];
    F2 s = {0.f, 0.f};
    r.template pass<R::unroll, Held>(held, p, true, [&](unsigned, const Pack<T, V> &x) {
        float v[V];
        unpack_f32(x, v);
#pragma unroll
        for (int j = 0; j < V; ++j) s = F2{s.a + v[j], fmaf(v[j], v[j], s.b)}; /* fused always, as in rmsnorm */
    });
    s = block_fold(s, r.tid, r.threads, F2{0.f, 0.f}, slots + r.first_group, [](F2 a, F2 b) { return a + b; });
    /* Σx²/n − mean² and the affine tail fused where nvcc fuses Candle's
     * expressions, written out so that every compiler rounds alike (CI: emulated
     * gfx1100's layernorm_f32 300x7 was 56 ulps off the unfused reference
     * after the cancellation in var). */
    const float mean = s.a / (float)r.cols, var = fmaf(-mean, mean, s.b / (float)r.cols);
    const float inv_std = rsqrtf(var + eps);
    using C = ColsF32<T, V, __is_same(T, f16)>;
    r.template pass<R::lean, Held>(held, p, false, [&](unsigned q, const Pack<T, V> &x) {
        const C cx(x);
        C ca, cb;
        if (alpha) ca = C(r.load(alpha, q));
        if (beta) cb = C(r.load(beta, q));
        float v[V];
#pragma unroll
        for (int j = 0; j < V; ++j) {
            const float d = cx[j] - mean;
            if (beta) v[j] = alpha ? fmaf(d * inv_std, ca[j], cb[j]) : fmaf(d, inv_std, cb[j]);
            else v[j] = alpha ? d * inv_std * ca[j] : d * inv_std;
        }
        r.store(q, pack_f32<T, V>(v));
    });
}

/* Candle's rmsnorm_<dt> / layernorm_<dt>: a column at a time. block_size
 * == blockDim.x under Candle's shape; the block is what is launched. */
template <class T>
CRK_DEV void rmsnorm(const T *src, T *dst, const T *alpha, int n_cols, int block_size, float eps) {
    (void)block_size;
    rmsnorm_rows<1>(src, dst, alpha, n_cols, eps);
}
template <class T>
CRK_DEV void layernorm(const T *src, T *dst, const T *alpha, const T *beta, int n_cols, int block_size, float eps) {
    (void)block_size;
    layernorm_rows<1>(src, dst, alpha, beta, n_cols, eps);
}

/* libcrk's crk_rmsnorm_vec_<dt> / crk_layernorm_vec_<dt>: Candle's
 * parameters and arithmetic, 16 bytes a load. Contract (crk_rmsnorm and
 * crk_layernorm check it, else they launch Candle's kernel): n_cols a
 * multiple of 16 / sizeof(T); src, dst, alpha, beta 16-byte aligned. */
template <class T>
CRK_DEV void rmsnorm_vec(const T *src, T *dst, const T *alpha, int n_cols, int block_size, float eps) {
    (void)block_size;
    rmsnorm_rows<16 / (int)sizeof(T)>(src, dst, alpha, n_cols, eps);
}
template <class T>
CRK_DEV void layernorm_vec(const T *src, T *dst, const T *alpha, const T *beta, int n_cols, int block_size,
                           float eps) {
    (void)block_size;
    layernorm_rows<16 / (int)sizeof(T)>(src, dst, alpha, beta, n_cols, eps);
}

} // namespace crk
#endif
