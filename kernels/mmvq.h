/* mmvq.h — quantized matrix × q8_1 vectors (fact sheet §4.18 item 5,
 * §4.19): dst[j, row] = Σ_k W[row, k]·y_j[k] for b = 1..8 columns y_j,
 * W in GGML blocks, y quantized to q8_1 (quantize_q8_1), f32 sums.
 *
 *   mul_mat_vec_<t>_q8_1_cuda<b>(vx, vy, dst, ncols_x, nrows_x, nrows_y,
 *       nrows_dst): Candle's PTX kernels; column j of y starts nrows_y
 *       values (nrows_y/32 blocks) after column j-1, of dst nrows_dst.
 *   mmvq_gguf_<t>_<dt>_plain_cuda<b>(vx, vy, dst, ncols_x, nrows_x,
 *       stride_col_y, stride_col_dst): the static library's kernels
 *       (launch_mmvq_gguf_*); y's column stride in q8_1 blocks, dst in the
 *       input's dtype (f32 sums, one RNE conversion).
 *
 * Blocks are 2-byte aligned; the types whose upstream block holds a half2
 * (q4_1, q5_1, q2_K, q4_K, q5_K: sizes multiples of 4) 4-byte aligned, as
 * upstream's structs are (their quants are read 32 bits at a time).
 *
 * Launch (Candle's, both): rows (b = 1) or pairs of rows (b > 1) a block,
 * blockIdx.x; any block whose thread count is a multiple of 32 (Candle:
 * 32x4, or 32x2 for b > 4), up to 256 (the kernels' launch bound); other
 * blocks write nothing (libcrk refuses them). Every row is bounds-checked: upstream's PTX kernels write
 * the pair's second row past an odd nrows_x.
 *
 * Work: a weight block is cut into `units` (GGML's qi/vdr), each one
 * thread's integer dot products with the matching q8_1 values (dot4_i8:
 * v_dot4_i32_i8 / v_dot4_i32_iu8 / dp4a), scaled in f32 as GGML does:
 * the 32-value types fold their offset or min into the q8_1 block's sum
 * of the unquantized x (s8, an f16), the K types into d8·Σq8. Threads take
 * units in turn along the row; lanes meet in butterflies of width 32 (half
 * a wave64 on gfx9, explicit), groups of 32 in shared memory, added in
 * group order. The CPU reference is tests/ref/ref_ggml.c (ref_ggml_mmvq). */
#ifndef CRK_MMVQ_H
#define CRK_MMVQ_H
#include "quantized.h"

namespace crk {

/* 32 bits at p: one load where the block type is 4-byte aligned (A = 4:
 * upstream's blocks holding a half2, whose size is a multiple of 4), two
 * 16-bit loads where only 2 (q4_0, q5_0, q8_0, q3_K, q6_K). */
template <int A = 2> CRK_DEV int ggml_i32(const uint8_t *p) {
    if constexpr (A == 4) return *(const int *)p;
    return (int)ggml_u32(p);
}
/* Int i of a q8_1 block's 32 quants (4-byte aligned: 36-byte blocks). */
CRK_DEV int q8_int(const uint8_t *yb, int i) { return *(const int *)(yb + 4 + 4 * i); }
CRK_DEV float q8_d(const uint8_t *yb) { return ggml_half(yb); }
CRK_DEV float q8_s(const uint8_t *yb) { return ggml_half(yb + 2); }
/* Bytewise a − b of bytes in [0, 127] (no borrow across bytes): signed bytes. */
CRK_DEV int sub_bytes(int a, int b) { return (int)((((uint32_t)a | 0x80808080u) - (uint32_t)b) ^ 0x80808080u); }
/* Bits 0..3 of h to bit 4 of bytes 0..3 (q5's fifth bits). */
CRK_DEV int bit4_of_bytes(uint32_t h) {
    return (int)(((h & 1) << 4) | ((h & 2) << 11) | ((h & 4) << 18) | ((h & 8) << 25));
}

/* The dot of unit u (0 <= u < units) of weight block bx with the q8_1
 * blocks yb (B::values/32 of them, 36 bytes apart), per block type. */
template <class B> struct Q8Dot;

/* 32-value types: a unit is 16 values (4-bit: bytes 8u..8u+7 of qs, both
 * nibbles; q8_0: 8 bytes), ints (2u, 2u+1) of x against y's same values. */
template <int qs_off, int A> CRK_DEV int q4_sumi(const uint8_t *bx, const uint8_t *yb, int u, uint32_t qh, bool five) {
    int sumi = 0;
    for (int i = 0; i < 2; i++) {
        const int k = 2 * u + i, v = ggml_i32<A>(bx + qs_off + 4 * k);
        int lo = v & 0x0F0F0F0F, hi = (v >> 4) & 0x0F0F0F0F;
        if (five) lo |= bit4_of_bytes(qh >> (4 * k)), hi |= bit4_of_bytes(qh >> (16 + 4 * k));
        sumi = dot4_i8(lo, q8_int(yb, k), sumi);
        sumi = dot4_i8(hi, q8_int(yb, k + 4), sumi);
    }
    return sumi;
}
/* y = d·(q − 8): d·(d8·Σq·q8 − 8·s8/2) a half block */
template <> struct Q8Dot<BlockQ4_0> {
    static constexpr int units = 2;
    static CRK_DEV float dot(const uint8_t *bx, const uint8_t *yb, int u) {
        const int sumi = q4_sumi<2, 2>(bx, yb, u, 0, false);
        return ggml_half(bx) * ((float)sumi * q8_d(yb) - 4.0f * q8_s(yb));
    }
};
/* y = d·q + m: d·d8·Σq·q8 + m·s8/2 */
template <> struct Q8Dot<BlockQ4_1> {
    static constexpr int units = 2;
    static CRK_DEV float dot(const uint8_t *bx, const uint8_t *yb, int u) {
        const int sumi = q4_sumi<4, 4>(bx, yb, u, 0, false);
        return (float)sumi * (ggml_half(bx) * q8_d(yb)) + ggml_half(bx + 2) * q8_s(yb) / 2.0f;
    }
};
template <> struct Q8Dot<BlockQ5_0> { /* y = d·(q − 16) */
    static constexpr int units = 2;
    static CRK_DEV float dot(const uint8_t *bx, const uint8_t *yb, int u) {
        const int sumi = q4_sumi<6, 2>(bx, yb, u, (uint32_t)ggml_i32(bx + 2), true);
        return ggml_half(bx) * ((float)sumi * q8_d(yb) - 8.0f * q8_s(yb));
    }
};
template <> struct Q8Dot<BlockQ5_1> { /* y = d·q + m */
    static constexpr int units = 2;
    static CRK_DEV float dot(const uint8_t *bx, const uint8_t *yb, int u) {
        const int sumi = q4_sumi<8, 4>(bx, yb, u, (uint32_t)ggml_i32<4>(bx + 4), true);
        return (float)sumi * (ggml_half(bx) * q8_d(yb)) + ggml_half(bx + 2) * q8_s(yb) / 2.0f;
    }
};
template <> struct Q8Dot<BlockQ8_0> { /* a unit: 8 values */
    static constexpr int units = 4;
    static CRK_DEV float dot(const uint8_t *bx, const uint8_t *yb, int u) {
        int sumi = dot4_i8(ggml_i32(bx + 2 + 8 * u), q8_int(yb, 2 * u), 0);
        sumi = dot4_i8(ggml_i32(bx + 6 + 8 * u), q8_int(yb, 2 * u + 1), sumi);
        return ggml_half(bx) * q8_d(yb) * (float)sumi;
    }
};

/* q2_K/q3_K: a unit is int u of qs (bytes 4u..4u+3, 2 bits x 4 shifts):
 * half h = u/8 of the super-block, l = 4·(u%8); shift i holds values
 * 128h + 32i + l.., q8_1 block 4h + i (its int u%8), sub-block (16
 * values) 8h + 2i + (u%8)/4. */
template <> struct Q8Dot<BlockQ2_K> { /* d·sc·q − dmin·m */
    static constexpr int units = 16;
    static CRK_DEV float dot(const uint8_t *bx, const uint8_t *yb, int u) {
        const int h = u / 8, p = u % 8, v = ggml_i32<4>(bx + 16 + 4 * u);
        float sd = 0.0f, sm = 0.0f;
        for (int i = 0; i < 4; i++) {
            const uint8_t *y = yb + 36 * (4 * h + i);
            const int sc = bx[8 * h + 2 * i + p / 4], yi = q8_int(y, p);
            sd += q8_d(y) * (float)(dot4_i8((v >> (2 * i)) & 0x03030303, yi, 0) * (sc & 0xF));
            sm += q8_d(y) * (float)dot4_i8((sc >> 4) * 0x01010101, yi, 0);
        }
        return ggml_half(bx + 80) * sd - ggml_half(bx + 82) * sm;
    }
};
template <> struct Q8Dot<BlockQ3_K> { /* d·sc·(q − 4·!hbit) */
    static constexpr int units = 16;
    static CRK_DEV float dot(const uint8_t *bx, const uint8_t *yb, int u) {
        const int h = u / 8, p = u % 8, v = ggml_i32(bx + 32 + 4 * u);
        const int hm = ~ggml_i32(bx + 4 * p) >> (4 * h); /* a clear hmask bit subtracts 4 */
        float s = 0.0f;
        for (int i = 0; i < 4; i++) {
            const uint8_t *y = yb + 36 * (4 * h + i);
            const int q = sub_bytes((v >> (2 * i)) & 0x03030303, ((hm >> i) << 2) & 0x04040404);
            s += q8_d(y) * (float)(dot4_i8(q, q8_int(y, p), 0) * q3k_scale(bx + 96, 8 * h + 2 * i + p / 4));
        }
        return ggml_half(bx + 108) * s;
    }
};
/* q4_K/q5_K: a unit is 16 values: pair g = u/4 of 32-value sub-blocks
 * (2g: low nibbles, 2g+1: high) at bytes l = 4p.. and 16 + 4p.. (p = u%4)
 * of the pair's 32 qs bytes; q8_1 blocks 2g, 2g+1, their ints p, p+4. */
/* The 6-bit scales and mins of sub-blocks 2g and 2g+1 (scale_min_k4),
 * two at a time from 16-bit words: byte i of sc and mn is sub-block 2g+i's. */
CRK_DEV void scale_min_pair(const uint8_t *q, int g, uint32_t &sc, uint32_t &mn) {
    if (g < 2) {
        sc = ggml_u16(q + 2 * g) & 0x3F3F, mn = ggml_u16(q + 2 * g + 4) & 0x3F3F;
    } else {
        const uint32_t lo = ggml_u16(q + 2 * g + 4); /* bytes s + 4: low 4 bits of both */
        sc = (lo & 0x0F0F) | (ggml_u16(q + 2 * g - 4) & 0xC0C0) >> 2;
        mn = (lo >> 4 & 0x0F0F) | (ggml_u16(q + 2 * g) & 0xC0C0) >> 2;
    }
}
template <bool five> CRK_DEV float q45k_dot(const uint8_t *bx, const uint8_t *yb, int u) {
    const int g = u / 4, p = u % 4, qs = (five ? 48 : 16) + 32 * g + 4 * p;
    const int v0 = ggml_i32<4>(bx + qs), v1 = ggml_i32<4>(bx + qs + 16);
    const int h0 = five ? ggml_i32<4>(bx + 16 + 4 * p) >> (2 * g) : 0;
    const int h1 = five ? ggml_i32<4>(bx + 32 + 4 * p) >> (2 * g) : 0;
    uint32_t scs, mns;
    scale_min_pair(bx + 4, g, scs, mns);
    float sd = 0.0f, sm = 0.0f;
    for (int i = 0; i < 2; i++) {
        const uint8_t *y = yb + 36 * (2 * g + i);
        const int sc = (int)(scs >> (8 * i) & 0xFF), mn = (int)(mns >> (8 * i) & 0xFF);
        int q0 = (v0 >> (4 * i)) & 0x0F0F0F0F, q1 = (v1 >> (4 * i)) & 0x0F0F0F0F;
        if (five) q0 |= ((h0 >> i) << 4) & 0x10101010, q1 |= ((h1 >> i) << 4) & 0x10101010;
        const int y0 = q8_int(y, p), y1 = q8_int(y, p + 4);
        sd += q8_d(y) * (float)(dot4_i8(q1, y1, dot4_i8(q0, y0, 0)) * sc);
        sm += q8_d(y) * (float)(dot4_i8(0x01010101, y1, dot4_i8(0x01010101, y0, 0)) * mn);
    }
    return ggml_half(bx) * sd - ggml_half(bx + 2) * sm;
}
template <> struct Q8Dot<BlockQ4_K> {
    static constexpr int units = 16;
    static CRK_DEV float dot(const uint8_t *bx, const uint8_t *yb, int u) { return q45k_dot<false>(bx, yb, u); }
};
template <> struct Q8Dot<BlockQ5_K> {
    static constexpr int units = 16;
    static CRK_DEV float dot(const uint8_t *bx, const uint8_t *yb, int u) { return q45k_dot<true>(bx, yb, u); }
};
/* q6_K: a unit is int u of ql (half = u/16, r = u%16; nibble i is
 * quarter 2i + r/8 of the half, at l = 4·(u%8)), with qh int
 * 8·half + u%8 (2 bits at 2·quarter); q8_1 block 4·half + quarter. */
template <> struct Q8Dot<BlockQ6_K> {
    static constexpr int units = 32;
    static CRK_DEV float dot(const uint8_t *bx, const uint8_t *yb, int u) {
        const int half = u / 16, r = u % 16, p = u % 8;
        const int vl = ggml_i32(bx + 4 * u), vh = ggml_i32(bx + 128 + 4 * (8 * half + p)) >> (2 * (r / 8));
        float s = 0.0f;
        for (int i = 0; i < 2; i++) {
            const int quarter = 2 * i + r / 8;
            const uint8_t *y = yb + 36 * (4 * half + quarter);
            const int q = sub_bytes(((vl >> (4 * i)) & 0x0F0F0F0F) | (((vh >> (4 * i)) << 4) & 0x30303030), 0x20202020);
            const int sc = (int8_t)bx[192 + 8 * half + 2 * quarter + p / 4];
            s += q8_d(y) * (float)(dot4_i8(q, q8_int(y, p), 0) * sc);
        }
        return ggml_half(bx + 208) * s;
    }
};

/* Candle's block for b columns: 128 threads, 64 for b > 4. */
template <int NB> constexpr unsigned mmvq_threads = NB <= 4 ? 128 : 64;
/* Which b have a copy for exactly that block (mmvq_rows): b = 1 on AMD. */
#if CRK_NV
template <int NB> constexpr bool mmvq_fixed_copy = true;
#else
template <int NB> constexpr bool mmvq_fixed_copy = NB == 1;
#endif

/* Rows rpb·blockIdx.x .. +rpb-1 (rpb = 1 for b = 1, else 2) of W (ncols
 * values a row) times the b columns of y (ystride bytes apart), into dst
 * (column j at j·dstride).
 *
 * The work is split for Candle's block, NT = 128 threads (b <= 4) or 64,
 * as NT virtual threads; a real thread takes virtual threads t, t + nt, ...
 * (one when nt = NT, Candle's and libcrk's launch; none past NT when nt >
 * NT). With NT a constant, so is the block step: on the H100 that took q6_K
 * b = 1 from 0.82x Candle's fast_mmvq to 1.07-1.17x. b = 1 (the decode
 * step) also has a copy for nt = NT exactly, without the loop over virtual
 * threads (q4_0/q4_K 0.87-0.98x Candle's without it, 0.93-1.04x with);
 * on NVIDIA every b has it (q4_K b = 2 1.09-1.11x); on AMD b > 1 has one
 * copy: a second for every b doubled the module's compile time (about 110
 * s of one core per arch instead of 70), which CI pays for every arch. */
template <class B, int NB, bool FIXED, class D>
CRK_DEV void mmvq_body(const uint8_t *vx, const uint8_t *vy, D *dst, int ncols, int nrows, size_t ystride,
                       size_t dstride) {
    constexpr int RPB = NB == 1 ? 1 : 2, NV = NB * RPB, U = Q8Dot<B>::units;
    constexpr unsigned NT = mmvq_threads<NB>;
    const unsigned t = threadIdx.y * blockDim.x + threadIdx.x, nt = FIXED ? NT : blockDim.x * blockDim.y;
    const int row0 = RPB * blockIdx.x;
    if (row0 >= nrows || nt % 32 != 0 || nt > 256) return; /* the block leaves together */
    const int nr = nrows - row0 < RPB ? nrows - row0 : RPB;
    const unsigned bpr = ncols > 0 ? (unsigned)(ncols / B::values) : 0; /* no columns: sums of 0 */
    /* A virtual thread keeps one unit u of every block it takes (U divides
     * NT): what depends on u is computed once. Both rows in one pass over y;
     * where dot4_i8 is byte by byte (the gfx9/gfx10-1 generic targets), a
     * pass a row: y's unpacked bytes, kept for the second row, spilled to
     * scratch at b = 8. */
#ifdef CRK_DOT4_SOFT
    constexpr int RB = 1;
#else
    constexpr int RB = RPB;
#endif
    const uint8_t *rows[RPB];
#pragma unroll
    for (int r = 0; r < RPB; r++) rows[r] = vx + (size_t)(row0 + (r < nr ? r : 0)) * bpr * B::bytes;
    float acc[NV] = {};
    for (unsigned vt = t; vt < NT; vt += FIXED ? NT : nt) { /* FIXED (nt = NT): one pass */
        const int u = (int)(vt % U);
#pragma unroll
        for (int r0 = 0; r0 < RPB; r0 += RB) {
            if (r0 >= nr) break;
            for (unsigned kb = vt / U; kb < bpr; kb += NT / U) {
                const uint8_t *yb = vy + (size_t)kb * (B::values / 32 * 36);
#pragma unroll
                for (int r = r0; r < r0 + RB; r++) {
                    if (r >= nr) break;
                    const uint8_t *bx = rows[r] + (size_t)kb * B::bytes;
#pragma unroll
                    for (int j = 0; j < NB; j++) acc[j * RPB + r] += Q8Dot<B>::dot(bx, yb + j * ystride, u);
                }
            }
        }
    }
    __shared__ float part[8][NV];
#pragma unroll
    for (int v = 0; v < NV; v++) {
        float x = acc[v];
        for (int m = 16; m >= 1; m /= 2) x += shfl_xor_w<32>(x, m);
        if (t % 32 == 0) part[t / 32][v] = x;
    }
    block_barrier();
    if (t < (unsigned)NV && (int)(t % RPB) < nr) {
        float s = 0.0f;
        for (unsigned g = 0; g < nt / 32; g++) s += part[g][t];
        dst[(t / RPB) * dstride + row0 + t % RPB] = convert<D>(s);
    }
}

template <class B, int NB, class D>
CRK_DEV void mmvq_rows(const uint8_t *vx, const uint8_t *vy, D *dst, int ncols, int nrows, size_t ystride,
                       size_t dstride) {
    if constexpr (mmvq_fixed_copy<NB>)
        if (blockDim.x * blockDim.y == mmvq_threads<NB>)
            return mmvq_body<B, NB, true>(vx, vy, dst, ncols, nrows, ystride, dstride);
    mmvq_body<B, NB, false>(vx, vy, dst, ncols, nrows, ystride, dstride);
}

/* mul_mat_vec_<t>_q8_1_cuda<b>: y's columns nrows_y values apart */
template <class B, int NB>
CRK_DEV void mul_mat_vec_q8_1(const void *vx, const void *vy, float *dst, const int ncols_x, const int nrows_x,
                              const int nrows_y, const int nrows_dst) {
    mmvq_rows<B, NB>((const uint8_t *)vx, (const uint8_t *)vy, dst, ncols_x, nrows_x,
                     (size_t)(nrows_y > 0 ? nrows_y : 0) / 32 * 36, (size_t)(nrows_dst > 0 ? nrows_dst : 0));
}
/* mmvq_gguf_<t>_<dt>_plain_cuda<b>: y's columns stride_col_y blocks apart */
template <class B, int NB, class D>
CRK_DEV void mmvq_gguf_plain(const void *vx, const void *vy, D *dst, const int ncols_x, const int nrows_x,
                             const int stride_col_y, const int stride_col_dst) {
    mmvq_rows<B, NB>((const uint8_t *)vx, (const uint8_t *)vy, dst, ncols_x, nrows_x,
                     (size_t)(stride_col_y > 0 ? stride_col_y : 0) * 36,
                     (size_t)(stride_col_dst > 0 ? stride_col_dst : 0));
}

/* indexed_moe_forward_<t>_q8_1 (fact sheet §4.18 item 7): block (row,
 * b, t) of Candle's grid (n, batch, topk): out[(b·topk + t)·n + row] = row
 * `row` of expert indices[b·topk + t] times q8_1 row b (input_dim1 = 1) or
 * b·topk + t. Experts are n·(k/values) blocks apart, for q8_0 too
 * (upstream divides by 256 for every type: its q8_0 experts past 0 read
 * the wrong weights). An expert id past the weights is not caught: the
 * signature does not carry the expert count (nor does upstream's). */
template <class B>
CRK_DEV void indexed_moe_forward(const void *all_weights, const void *all_inputs, const unsigned int *indices,
                                 float *all_outputs, const int n, const int k, const int batch, const int topk,
                                 const int k_padded, const int input_dim1) {
    const unsigned b = blockIdx.y, t = blockIdx.z;
    if ((int)b >= batch || (int)t >= topk || k_padded < 0) return; /* the block leaves together */
    const size_t task = (size_t)b * (unsigned)topk + t, expert = indices[task];
    const size_t expert_bytes = (size_t)(n > 0 ? n : 0) * (size_t)(k > 0 ? k / B::values : 0) * B::bytes;
    const uint8_t *w = (const uint8_t *)all_weights + expert * expert_bytes;
    const uint8_t *x = (const uint8_t *)all_inputs + (input_dim1 == 1 ? b : task) * (size_t)(k_padded / 32) * 36;
    mmvq_rows<B, 1>(w, x, all_outputs + task * (size_t)(n > 0 ? n : 0), k, n, 0, 0);
}

} // namespace crk
#endif
