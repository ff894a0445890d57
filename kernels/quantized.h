/* quantized.h — module "quantized" (fact sheet §4.18): GGML weight blocks
 * dequantized (dequantize_block_*), gathered by rows (get_rows_*) and
 * multiplied with an f32 vector (DMMV, dequantize_mul_mat_vec_*), and the
 * q8_1 activation quantizer (quantize_q8_1).
 *
 * Every kernel works in chunks of W consecutive values of one block (W =
 * 1, 2, 4 or 8, picked from the grid so that Candle's launches keep every
 * thread busy): a chunk shares its block's scales (K-quant sub-blocks
 * hold 16 or 32 values), and its outputs go out as wide stores where the
 * destination is aligned. Blocks must be 2-byte aligned, as upstream's
 * structs of halves (libcrk checks).
 *
 * Arithmetic is upstream's, in f32: "d·q + m" forms are one fmaf, as nvcc
 * contracts them; products of three go left to right. q4_0 differs between
 * the two kernel groups, and both are kept: dequantize_block computes
 * fmaf(d, q, −8·d) (+0 at q = 8), get_rows (q − 8)·d (−0 there when d < 0).
 * tests/ref/ref_ggml.c is the reference, proven bit for bit against
 * Candle's own cubin (tests/device/ggml_parity.c).
 *
 * Grids (crk_geometry CRK_GEOM_GGML), correct under any block shape:
 *   dequantize_block_{q4_0,q4_1,q8_0}(vx, y, k): k = number of 32-value
 *     blocks; _{q5_0,q5_1}: k = number of values (upstream's two
 *     conventions, kept); grid-stride, so any grid covers them. 64-bit
 *     offsets: libcrk splits work past int k into several launches.
 *   dequantize_block_<K type>(vx, y): super-block blockIdx.x·blockDim.y +
 *     threadIdx.y (Candle: blockIdx.x); grid·blockDim.y = the super-blocks.
 *   get_rows_*(src0, src1, dst, ne00, nb01): output row blockIdx.x gets
 *     source row src1[blockIdx.x] (nb01 bytes apart); (blockIdx.y,
 *     threadIdx.x) loop over its chunks, so Candle's grid_y (or any) works.
 *     Upstream does not know the source's row count, and reads out of
 *     bounds for a bad id; crk_get_rows_* take it (nrows) and write zeros
 *     for such a row. ne00 counts values; of a block type, whole blocks.
 *   DMMV and quantize_q8_1: see their functions below. */
#ifndef CRK_QUANTIZED_H
#define CRK_QUANTIZED_H
#include "elementwise.h"

namespace crk {

/* Blocks are 2-byte aligned (every block size and field offset is even,
 * as upstream's structs of halves require; libcrk checks the pointer):
 * halves and q5's qh are read 16 bits at a time. */
CRK_DEV uint32_t ggml_u16(const uint8_t *p) { return *(const uint16_t *)p; }
CRK_DEV float ggml_half(const uint8_t *p) { return f16_to_f32((uint16_t)ggml_u16(p)); }

enum GgmlForm { FORM_DEQUANTIZE, FORM_GET_ROWS }; /* q4_0's two arithmetics */

/* A chunk's quants four at a time (W a multiple of 4): the bytes of 32-bit
 * words, each field masked out of all four at once, where a byte at a time
 * spent most of a dequantize's instructions (H200, Nsight Compute: q6_K ->
 * f16 about 24 an output, 67% of the issue slots busy). Same values, same
 * arithmetic as the byte loops. Four bytes from a 2-byte aligned address
 * (block layouts only promise that): */
CRK_DEV uint32_t ggml_u32(const uint8_t *p) { return ggml_u16(p) | ggml_u16(p + 2) << 16; }
/* Byte k of w minus bias as a float, exact (|byte - bias| < 2^24). NVIDIA:
 * the byte under 2^23's exponent and one subtraction, where I2F is a
 * quarter-rate unit; AMD: v_cvt_f32_ubyte<k>. */
template <int k> CRK_DEV float byte_f32(uint32_t w, float bias) {
#if CRK_NV
    return __uint_as_float(__byte_perm(w, 0x4B000000u, 0x7650u | k)) - (8388608.0f + bias);
#else
    return (float)((w >> (8 * k)) & 0xFFu) - bias;
#endif
}
/* The word path where it was measured faster: dequantize_block, every type
 * (H200, 4096x14336, libcrk's grid, against the byte loops: 1.04-1.27x,
 * q6_K -> f16 the most). get_rows and DMMV keep the byte loops:
 * crk_get_rows_q4_K (8 values a thread, 32 registers) took 0.82x with words
 * (docs/runs/2026-11-29f-h200-dequantize-words.txt). */
template <int W, int form> constexpr bool kWords = W % 4 == 0 && form == FORM_DEQUANTIZE;
/* f(k, q_k - bias) for the 4 bytes of w */
template <class F> CRK_DEV void each_byte(uint32_t w, float bias, F f) {
    f(0, byte_f32<0>(w, bias)), f(1, byte_f32<1>(w, bias)), f(2, byte_f32<2>(w, bias)), f(3, byte_f32<3>(w, bias));
}

/* Each block type: values and bytes per block; chunk() writes values
 * j..j+7 (j a multiple of 8) of block b. */
struct BlockQ4_0 {
    static constexpr int values = 32, bytes = 18;
    static constexpr bool k_counts_values = false;
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) {
        const float d = ggml_half(b);
        const uint8_t *qs = b + 2 + (j & 15);
        const int shift = j < 16 ? 0 : 4;
        if constexpr (kWords<W, form>) {
            for (int w = 0; w < W / 4; w++)
                each_byte((ggml_u32(qs + 4 * w) >> shift) & 0x0F0F0F0Fu, 0.0f,
                          [&](int k, float q) { v[4 * w + k] = fmaf(d, q, -8 * d); }); /* kWords: dequantize's form */
        } else {
            for (int i = 0; i < W; i++) {
                const float q = (float)((qs[i] >> shift) & 0xF);
                v[i] = form == FORM_DEQUANTIZE ? fmaf(d, q, -8 * d) : (q - 8.0f) * d;
            }
        }
    }
};
/* q4_1 and q5_1: y = d·q + m */
struct BlockQ4_1 {
    static constexpr int values = 32, bytes = 20;
    static constexpr bool k_counts_values = false;
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) {
        const float d = ggml_half(b), m = ggml_half(b + 2);
        const uint8_t *qs = b + 4 + (j & 15);
        const int shift = j < 16 ? 0 : 4;
        if constexpr (kWords<W, form>) {
            for (int w = 0; w < W / 4; w++)
                each_byte((ggml_u32(qs + 4 * w) >> shift) & 0x0F0F0F0Fu, 0.0f, [&](int k, float q) { v[4 * w + k] = fmaf(d, q, m); });
        } else {
            for (int i = 0; i < W; i++) v[i] = fmaf(d, (float)((qs[i] >> shift) & 0xF), m);
        }
    }
};
/* q5: bit j of the 32-bit qh is value j's fifth bit */
template <int W, int form, bool has_min, int off> CRK_DEV void q5_chunk(const uint8_t *b, int j, float *v) {
    const float d = ggml_half(b), m = has_min ? ggml_half(b + 2) : 0.0f;
    const uint32_t qh = ggml_u32(b + off);
    const uint8_t *qs = b + off + 4 + (j & 15);
    const int shift = j < 16 ? 0 : 4;
    if constexpr (kWords<W, form>) {
        for (int w = 0; w < W / 4; w++) { /* 4 bits of qh to bit 0 of 4 bytes: 1, 2^7, 2^14, 2^21 apart, no carry */
            const uint32_t hi = (((qh >> (j + 4 * w)) & 0xFu) * 0x00204081u & 0x01010101u) << 4;
            each_byte(((ggml_u32(qs + 4 * w) >> shift) & 0x0F0F0F0Fu) | hi, has_min ? 0.0f : 16.0f,
                      [&](int k, float q) { v[4 * w + k] = has_min ? fmaf(d, q, m) : d * q; });
        }
    } else {
        for (int i = 0; i < W; i++) {
            const int q = ((qs[i] >> shift) & 0xF) | ((qh >> (j + i)) & 1) << 4;
            v[i] = has_min ? fmaf(d, (float)q, m) : d * (float)(q - 16);
        }
    }
}
struct BlockQ5_0 {
    static constexpr int values = 32, bytes = 22;
    static constexpr bool k_counts_values = true;
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) { q5_chunk<W, form, false, 2>(b, j, v); }
};
struct BlockQ5_1 {
    static constexpr int values = 32, bytes = 24;
    static constexpr bool k_counts_values = true;
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) { q5_chunk<W, form, true, 4>(b, j, v); }
};
struct BlockQ8_0 {
    static constexpr int values = 32, bytes = 34;
    static constexpr bool k_counts_values = false;
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) {
        const float d = ggml_half(b);
        if constexpr (kWords<W, form>) { /* int8 q: q + 128 is the byte with its top bit flipped */
            for (int w = 0; w < W / 4; w++)
                each_byte(ggml_u32(b + 2 + j + 4 * w) ^ 0x80808080u, 128.0f, [&](int k, float q) { v[4 * w + k] = d * q; });
        } else {
            for (int i = 0; i < W; i++) v[i] = d * (float)(int8_t)b[2 + j + i];
        }
    }
};

/* K-quants: 256 values; a chunk lies in one sub-block (16 or 32 values). */
/* q2_K: scales[16] qs[64] d dmin; value i: 2 bits of qs[32·(i/128) + i%32]
 * at 2·((i%128)/32); sub-block i/16: scale low nibble, min high nibble */
struct BlockQ2_K {
    static constexpr int values = 256, bytes = 84;
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) {
        const uint8_t sc = b[j / 16];
        const float dl = ggml_half(b + 80) * (float)(sc & 0xF), ml = ggml_half(b + 82) * (float)(sc >> 4);
        const uint8_t *qs = b + 16 + 32 * (j / 128) + j % 32;
        const int shift = 2 * ((j % 128) / 32);
        if constexpr (kWords<W, form>) {
            for (int w = 0; w < W / 4; w++)
                each_byte((ggml_u32(qs + 4 * w) >> shift) & 0x03030303u, 0.0f, [&](int k, float q) { v[4 * w + k] = fmaf(dl, q, -ml); });
        } else {
            for (int i = 0; i < W; i++) v[i] = fmaf(dl, (float)((qs[i] >> shift) & 3), -ml);
        }
    }
};
/* q3_K: hmask[32] qs[64] scales[12] d; the 16 6-bit scales (minus 32): low
 * nibbles in bytes 0-7 (scale s in byte s%8, nibble s/8), high 2 bits in
 * bytes 8-11 (byte 8 + s%4, bits 2·(s/4)); q = 2 low bits − (hmask bit ? 0 : 4) */
CRK_DEV int q3k_scale(const uint8_t *sc, int s) {
    return (int)(((sc[s % 8] >> (4 * (s / 8))) & 0xF) | ((sc[8 + s % 4] >> (2 * (s / 4))) & 3) << 4) - 32;
}
struct BlockQ3_K {
    static constexpr int values = 256, bytes = 110;
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) {
        const float dl = ggml_half(b + 108) * (float)q3k_scale(b + 96, j / 16);
        const int half = j / 128, shift = 2 * ((j % 128) / 32), l = j % 32;
        const uint8_t *qs = b + 32 + 32 * half + l, *hm = b + l;
        const int hbit = 4 * half + shift / 2;
        if constexpr (kWords<W, form>) { /* q + 4 = 2 low bits | hmask bit << 2 */
            for (int w = 0; w < W / 4; w++)
                each_byte(((ggml_u32(qs + 4 * w) >> shift) & 0x03030303u) | ((ggml_u32(hm + 4 * w) >> hbit) & 0x01010101u) << 2,
                          4.0f, [&](int k, float q) { v[4 * w + k] = dl * q; });
        } else {
            for (int i = 0; i < W; i++) {
                const int q = (int)((qs[i] >> shift) & 3) - ((hm[i] >> hbit) & 1 ? 0 : 4);
                v[i] = dl * (float)q;
            }
        }
    }
};
/* q4_K/q5_K: d dmin scales[12] (qh[32]) qs[128]; sub-block s = j/32: 6-bit
 * scale and min from scales[12] */
CRK_DEV void scale_min_k4(int s, const uint8_t *q, int &sc, int &mn) {
    if (s < 4) {
        sc = q[s] & 63, mn = q[s + 4] & 63;
    } else {
        sc = (q[s + 4] & 0xF) | (q[s - 4] >> 6) << 4;
        mn = (q[s + 4] >> 4) | (q[s] >> 6) << 4;
    }
}
template <int W, int form, bool five> CRK_DEV void q45k_chunk(const uint8_t *b, int j, float *v) {
    const int s = j / 32, l = j % 32;
    int sc, mn;
    scale_min_k4(s, b + 4, sc, mn);
    const float dl = ggml_half(b) * (float)sc, ml = ggml_half(b + 2) * (float)mn;
    const uint8_t *qs = b + (five ? 48 : 16) + 32 * (s / 2) + l, *qh = b + 16 + l;
    const int shift = 4 * (s % 2);
    if constexpr (kWords<W, form>) {
        for (int w = 0; w < W / 4; w++) {
            uint32_t q = (ggml_u32(qs + 4 * w) >> shift) & 0x0F0F0F0Fu;
            if (five) q |= ((ggml_u32(qh + 4 * w) >> s) & 0x01010101u) << 4;
            each_byte(q, 0.0f, [&](int k, float x) { v[4 * w + k] = fmaf(dl, x, -ml); });
        }
    } else {
        for (int i = 0; i < W; i++) {
            int q = (qs[i] >> shift) & 0xF;
            if (five) q |= ((qh[i] >> s) & 1) << 4;
            v[i] = fmaf(dl, (float)q, -ml);
        }
    }
}
struct BlockQ4_K {
    static constexpr int values = 256, bytes = 144;
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) { q45k_chunk<W, form, false>(b, j, v); }
};
struct BlockQ5_K {
    static constexpr int values = 256, bytes = 176;
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) { q45k_chunk<W, form, true>(b, j, v); }
};
/* q6_K: ql[128] qh[64] scales[16] (int8) d: q = 4 low bits | 2 high << 4, minus 32 */
struct BlockQ6_K {
    static constexpr int values = 256, bytes = 210;
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) {
        const int half = j / 128, quarter = (j % 128) / 32, l = j % 32;
        const uint8_t *ql = b + 64 * half + 32 * (quarter % 2) + l, *qh = b + 128 + 32 * half + l;
        const float ds = ggml_half(b + 208) * (float)(int8_t)b[192 + j / 16];
        if constexpr (kWords<W, form>) {
            for (int w = 0; w < W / 4; w++) {
                const uint32_t q = ((ggml_u32(ql + 4 * w) >> (4 * (quarter / 2))) & 0x0F0F0F0Fu) |
                                   ((ggml_u32(qh + 4 * w) >> (2 * quarter)) & 0x03030303u) << 4;
                each_byte(q, 32.0f, [&](int k, float x) { v[4 * w + k] = ds * x; });
            }
        } else {
            for (int i = 0; i < W; i++) {
                const int q = (int)(((ql[i] >> (4 * (quarter / 2))) & 0xF) | ((qh[i] >> (2 * quarter)) & 3) << 4) - 32;
                v[i] = ds * (float)q;
            }
        }
    }
};
/* q8_K: f32 d, int8 qs[256], int16 bsums[16] (not needed here) */
struct BlockQ8_K {
    static constexpr int values = 256, bytes = 292;
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) {
        const float d = bits_f32(ggml_u32(b));
        if constexpr (kWords<W, form>) {
            for (int w = 0; w < W / 4; w++)
                each_byte(ggml_u32(b + 4 + j + 4 * w) ^ 0x80808080u, 128.0f, [&](int k, float q) { v[4 * w + k] = d * q; });
        } else {
            for (int i = 0; i < W; i++) v[i] = d * (float)(int8_t)b[4 + j + i];
        }
    }
};

/* W consecutive values of a block (W = 1, 2, 4 or 8, j a multiple of W):
 * a kernel picks W from its grid, so that every thread has work under
 * Candle's launches (upstream's kernels take 2 values a thread, some 8)
 * and a thread writes up to 32 bytes under libcrk's. */
template <int W> struct Store;
template <> struct Store<2> { using V = uint32_t; };
template <> struct Store<4> { using V = uint2; };
template <> struct Store<8> { using V = uint4; };

/* n (<= W) values to y, converted (f16: round to nearest even); all W as
 * wide stores where y is aligned. Values pass through opaque(): clang
 * would fuse a product into the f16 rounding as v_fma_mix(a, b, +0), a −0
 * product becoming +0 (crk_port.h). */
template <int W, class T> CRK_DEV void store_chunk(T *y, const float *v, int n) {
    constexpr int words = W * (int)sizeof(T) / 4; /* 32-bit words: 0 .. 8 */
    if constexpr (words > 0) {
        using V = typename Store<(words >= 4 ? 8 : words >= 2 ? 4 : 2)>::V;
        constexpr int nv = W * (int)sizeof(T) / (int)sizeof(V);
        if (n == W && ((uintptr_t)y & (sizeof(V) - 1)) == 0) {
            T t[W];
            for (int i = 0; i < W; i++) t[i] = convert<T>(opaque(v[i]));
            for (int w = 0; w < nv; w++) ((V *)y)[w] = ((const V *)t)[w];
            return;
        }
    }
#pragma unroll /* a fixed trip count: v[] stays in registers, never indexed */
    for (int i = 0; i < W; i++)
        if (i < n) y[i] = convert<T>(opaque(v[i]));
}

/* Chunk c (W values) of a run of blocks: block c / (values/W), at value
 * (c % (values/W))·W. */
template <int W, int form, class B> CRK_DEV void block_chunk(const uint8_t *x, size_t c, float *v) {
    B::template chunk<W, form>(x + c / (B::values / W) * B::bytes, (int)(c % (B::values / W)) * W, v);
}

/* The values [0, n) of the blocks at x, grid-stride, W a thread. */
template <int W, class B, class T> CRK_DEV void dequantize_span(const uint8_t *x, T *y, size_t n) {
    const size_t nchunks = (n + W - 1) / W;
    for (size_t c = global_id(); c < nchunks; c += global_stride()) {
        float v[W];
        block_chunk<W, FORM_DEQUANTIZE, B>(x, c, v);
        store_chunk<W>(y + c * W, v, n - c * W < W ? (int)(n - c * W) : W);
    }
}

/* dequantize_block_<32-value type>_<dt>(vx, y, k) */
template <class B, class T> CRK_DEV void dequantize_block(const void *vx, T *y, const int k) {
    if (k <= 0) return;
    const size_t n = B::k_counts_values ? (size_t)k : (size_t)k * B::values, threads = global_stride();
    const uint8_t *x = (const uint8_t *)vx;
    if (threads >= n) dequantize_span<1, B>(x, y, n);
    else if (threads * 2 >= n) dequantize_span<2, B>(x, y, n); /* upstream's q5 grid: 2 a thread */
    else if (threads * 4 >= n) dequantize_span<4, B>(x, y, n);
    else dequantize_span<8, B>(x, y, n);                       /* upstream's q4_0 grid, libcrk's */
}

/* One super-block's 256 values, the block's x threads W values each. */
template <int W, class B, class T> CRK_DEV void dequantize_super(const uint8_t *x, T *y) {
    for (int c = threadIdx.x; c < B::values / W; c += blockDim.x) {
        float v[W];
        B::template chunk<W, FORM_DEQUANTIZE>(x, c * W, v);
        store_chunk<W>(y + c * W, v, W);
    }
}

/* dequantize_block_<K type>_<dt>(vx, y): super-block blockIdx.x·blockDim.y
 * + threadIdx.y (Candle's blocks are 1-D: blockIdx.x; libcrk's hold
 * several super-blocks, y of them, and grid·y is exactly the count) */
template <class B, class T> CRK_DEV void dequantize_block(const void *vx, T *y) {
    const size_t sb = (size_t)blockIdx.x * blockDim.y + threadIdx.y;
    const uint8_t *x = (const uint8_t *)vx + sb * B::bytes;
    y += sb * B::values;
    if (blockDim.x >= 128) dequantize_super<2, B>(x, y);
    else if (blockDim.x >= 64) dequantize_super<4, B>(x, y); /* Candle's 64 threads */
    else dequantize_super<8, B>(x, y);                       /* Candle's 32 (q4_K, q8_K), libcrk's */
}

/* A plain source row (get_rows_f32/_f16/_bf16) as blocks of 8 values. */
template <class S> struct PlainRow {
    static constexpr int values = 8, bytes = 8 * sizeof(S);
    template <int W, int form> static CRK_DEV void chunk(const uint8_t *b, int j, float *v) {
        for (int i = 0; i < W; i++) v[i] = convert<float>(((const S *)b)[j + i]);
    }
};
template <class B> struct RowOf { using type = B; };
template <> struct RowOf<float> { using type = PlainRow<float>; };
template <> struct RowOf<f16> { using type = PlainRow<f16>; };
template <> struct RowOf<bf16> { using type = PlainRow<bf16>; };
template <class S> CRK_DEV void plain_tail(const uint8_t *row, size_t from, size_t n, float *out) {
    for (size_t i = from; i < n; i++) out[i] = convert<float>(((const S *)row)[i]);
}

/* A row's chunks, (blockIdx.y, threadIdx.x) grid-stride, W a thread. */
template <int W, class B> CRK_DEV void row_span(const uint8_t *row, float *out, size_t n) {
    const size_t first = (size_t)blockIdx.y * blockDim.x + threadIdx.x, stride = (size_t)gridDim.y * blockDim.x;
    for (size_t c = first; c < n / W; c += stride) {
        float v[W];
        block_chunk<W, FORM_GET_ROWS, B>(row, c, v);
        store_chunk<W>(out + c * W, v, W);
    }
}

/* get_rows_<type>(src0, src1, dst, ne00, nb01) and crk_get_rows_<type>(...,
 * nrows): output row blockIdx.x. A plain source's row may end in a partial
 * chunk; a block type's rows are whole blocks (a partial block is left). */
template <class S, class Src>
CRK_DEV void get_rows(const Src *src0, const uint32_t *src1, float *dst, const int64_t ne00, const size_t nb01,
                      size_t nrows = ~(size_t)0) {
    using B = typename RowOf<S>::type;
    if (ne00 <= 0) return;
    const size_t n = (size_t)ne00 / B::values * B::values, r = blockIdx.x;
    const uint32_t id = src1[r];
    float *out = dst + r * (size_t)ne00;
    const size_t first = (size_t)blockIdx.y * blockDim.x + threadIdx.x, threads = (size_t)gridDim.y * blockDim.x;
    if (id >= nrows) { /* libcrk's kernels: a bad id gives a row of zeros */
        for (size_t i = first; i < (size_t)ne00; i += threads) out[i] = 0.0f;
        return;
    }
    const uint8_t *row = (const uint8_t *)src0 + id * nb01;
    if (threads >= n) row_span<1, B>(row, out, n);          /* upstream's f32/f16/bf16 grid: 1 a thread */
    else if (threads * 2 >= n) row_span<2, B>(row, out, n); /* upstream's 32-value types: 2 ... */
    else if (threads * 4 >= n) row_span<4, B>(row, out, n); /* ... K types 4 */
    else row_span<8, B>(row, out, n);                       /* libcrk's */
    if constexpr (B::values == 8) /* a plain row's last ne00 % 8 values */
        if (first == 0) plain_tail<S>(row, n, (size_t)ne00, out);
}

/* dequantize_mul_mat_vec_<type>(vx, y, dst, ncols[, nrows]): dst[row] =
 * Σ_k W[row, k]·y[k], a block a row (rows grid-stride; q5_k, which has no
 * nrows, a row a block: the grid is the row count). The block's threads
 * take chunks of 8 values (the ggml dequantize arithmetic of get_rows),
 * each summing its own in f32; the partial sums meet in shared memory and
 * thread 0 adds them in thread order. Any block of up to 1024 threads. */
template <class B>
CRK_DEV void dmmv_rows(const uint8_t *vx, const float *y, float *dst, size_t ncols, size_t first, size_t nrows) {
    __shared__ float part[1024];
    const size_t nchunks = ncols / B::values * (B::values / 8), row_bytes = ncols / B::values * B::bytes;
    const unsigned t = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;
    for (size_t row = first; row < nrows; row += gridDim.x) {
        const uint8_t *w = vx + row * row_bytes;
        float acc = 0.0f;
        for (size_t c = t; c < nchunks; c += nt) {
            float v[8];
            block_chunk<8, FORM_GET_ROWS, B>(w, c, v);
            for (int i = 0; i < 8; i++) acc = fmaf(v[i], y[c * 8 + i], acc);
        }
        part[t] = acc;
        block_barrier();
        if (t == 0) {
            float sum = 0.0f;
            for (unsigned i = 0; i < nt; i++) sum += part[i];
            dst[row] = sum;
        }
        block_barrier();
    }
}
template <class B> CRK_DEV void dmmv(const void *vx, const float *y, float *dst, const int ncols, const int nrows) {
    if (ncols > 0 && nrows > 0) dmmv_rows<B>((const uint8_t *)vx, y, dst, (size_t)ncols, blockIdx.x, (size_t)nrows);
}
template <class B> CRK_DEV void dmmv(const void *vx, const float *y, float *dst, const int ncols) {
    if (ncols <= 0) return; /* q5_k: row blockIdx.x of gridDim.x rows */
    dmmv_rows<B>((const uint8_t *)vx, y, dst, (size_t)ncols, blockIdx.x, (size_t)blockIdx.x + 1);
}

/* quantize_q8_1(x, vy, kx, kx_padded): row blockIdx.y·blockDim.y +
 * threadIdx.y of x (kx values) into kx_padded/32 q8_1 blocks (half d,
 * half Σx, int8 q[32]); a value a thread, grid-stride along the row. Each
 * 32 consecutive lanes hold one block and reduce max|x| and Σx with xor
 * butterflies of width 32 (half a wave64 on gfx9), as upstream's warp:
 * blockDim.x and kx_padded must be multiples of 32 (Candle: 256, kx
 * padded to 512). The static library's mmvq_gguf_quantize_q8_1_<dt> are
 * the same with x converted to f32 first. */
template <class T> /* x: f32 (quantize_q8_1), or f32/f16/bf16 (mmvq_gguf_quantize_q8_1_<dt>) */
CRK_DEV void quantize_q8_1(const T *x, void *vy, const int kx, const int kx_padded) {
    if (kx_padded <= 0) return;
    const size_t iy = (size_t)blockDim.y * blockIdx.y + threadIdx.y, kp = (size_t)kx_padded;
    const size_t k = kx > 0 ? (size_t)kx : 0;
    uint8_t *row = (uint8_t *)vy + iy * (kp / 32) * 36;
    for (size_t ix = (size_t)blockIdx.x * blockDim.x + threadIdx.x; ix < kp; ix += (size_t)gridDim.x * blockDim.x) {
        const float xi = ix < k ? convert<float>(x[iy * k + ix]) : 0.0f;
        float amax = fabsf(xi), sum = xi;
        for (int m = 16; m >= 1; m /= 2) { /* own + partner: every lane ends with the same values */
            amax = fmaxf(amax, shfl_xor_w<32>(amax, m));
            sum += shfl_xor_w<32>(sum, m);
        }
        const float d = amax / 127;
        uint8_t *b = row + ix / 32 * 36;
        b[4 + ix % 32] = (uint8_t)(int8_t)(amax == 0.0f ? 0 : (int)roundf(xi / d));
        if (ix % 32 == 0) {
            ((uint16_t *)b)[0] = f32_to_f16(d);
            ((uint16_t *)b)[1] = f32_to_f16(sum);
        }
    }
}

} // namespace crk
#endif
