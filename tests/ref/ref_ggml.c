/* ref_ggml.c — GGML quantized blocks (fact sheet §4.18): dequantization of
 * every weight type and the q8_1 activation quantizer, written from the
 * block formats. Each block is read byte by byte (little-endian halves), so
 * the reference does not depend on struct packing.
 *
 * Arithmetic: the dequantize kernels' f32 expressions, with their one
 * contraction spelled out: a "scale·q − min" or "d·q + m" form is one fmaf
 * (nvcc contracts it; ours write fmaf), a product of three is left to right.
 * q4_0 as upstream's fmaf(d, q, −8·d): the value of d·(q − 8), but +0 where
 * q = 8 and d < 0 (x + −x is +0), which d·(q − 8) gives as −0 (Candle's
 * cubin, tests/device/ggml_parity.c); q5_0 is (q − 16)·d there. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ref.h"

static const struct {
    const char *name;
    unsigned values, bytes;
} TYPES[REF_GGML_COUNT] = {
    [REF_Q4_0] = {"q4_0", 32, 18},  [REF_Q4_1] = {"q4_1", 32, 20},  [REF_Q5_0] = {"q5_0", 32, 22},
    [REF_Q5_1] = {"q5_1", 32, 24},  [REF_Q8_0] = {"q8_0", 32, 34},  [REF_Q8_1] = {"q8_1", 32, 36},
    [REF_Q2_K] = {"q2_K", 256, 84}, [REF_Q3_K] = {"q3_K", 256, 110}, [REF_Q4_K] = {"q4_K", 256, 144},
    [REF_Q5_K] = {"q5_K", 256, 176}, [REF_Q6_K] = {"q6_K", 256, 210}, [REF_Q8_K] = {"q8_K", 256, 292},
};

const char *ref_ggml_name(ref_ggml_type t) { return (unsigned)t < REF_GGML_COUNT ? TYPES[t].name : "?"; }
size_t ref_ggml_block_values(ref_ggml_type t) { return (unsigned)t < REF_GGML_COUNT ? TYPES[t].values : 0; }
size_t ref_ggml_block_bytes(ref_ggml_type t) { return (unsigned)t < REF_GGML_COUNT ? TYPES[t].bytes : 0; }

static float half_at(const uint8_t *p) { return ref_f16_to_f32((uint16_t)(p[0] | p[1] << 8)); }

/* q4_K/q5_K: 6-bit scale and min of sub-block j (0..7) from scales[12] */
static void scale_min_k4(int j, const uint8_t *q, unsigned *sc, unsigned *mn) {
    if (j < 4) {
        *sc = q[j] & 63, *mn = q[j + 4] & 63;
    } else {
        *sc = (q[j + 4] & 0xF) | (q[j - 4] >> 6) << 4;
        *mn = (q[j + 4] >> 4) | (q[j] >> 6) << 4;
    }
}

/* q3_K: the 16 6-bit scales (minus 32) from scales[12]: low 4 bits in
 * bytes 0-7 (scale j's in byte j % 8, nibble j / 8), high 2 bits in bytes
 * 8-11 (scale j's in byte 8 + j % 4, bits 2·(j / 4)). */
static int scale_k3(int j, const uint8_t *s) {
    const unsigned lo = (s[j % 8] >> (4 * (j / 8))) & 0xF, hi = (s[8 + j % 4] >> (2 * (j / 4))) & 3;
    return (int)(lo | hi << 4) - 32;
}

static float q4_0_value(float d, int q, int get_rows) {
    return get_rows ? ((float)q - 8.0f) * d : fmaf(d, (float)q, -8 * d);
}

/* 32-value types: the block's 32 quants as stored (q4: 0..15, q5: 0..31,
 * q8: signed), d and m (0 where the type has none). Low nibbles are values
 * 0..15, high nibbles 16..31; bit j of q5's qh is value j's fifth bit. */
static void legacy_parts(ref_ggml_type t, const uint8_t *b, int *q, float *d, float *m) {
    const int has_m = t == REF_Q4_1 || t == REF_Q5_1 || t == REF_Q8_1;
    *d = half_at(b), *m = has_m && t != REF_Q8_1 ? half_at(b + 2) : 0.0f;
    const uint8_t *qs = b + (has_m ? 4 : 2);
    if (t == REF_Q8_0 || t == REF_Q8_1) {
        for (int j = 0; j < 32; j++) q[j] = (int8_t)qs[j];
        return;
    }
    uint32_t qh = 0;
    if (t == REF_Q5_0 || t == REF_Q5_1) {
        qh = (uint32_t)qs[0] | (uint32_t)qs[1] << 8 | (uint32_t)qs[2] << 16 | (uint32_t)qs[3] << 24;
        qs += 4;
    }
    for (int j = 0; j < 16; j++) {
        q[j] = (qs[j] & 0xF) | (int)((qh >> j) & 1) << 4;
        q[j + 16] = (qs[j] >> 4) | (int)((qh >> (j + 16)) & 1) << 4;
    }
}

static void block_legacy(ref_ggml_type t, const uint8_t *b, float *y, int get_rows) {
    int q[32];
    float d, m;
    legacy_parts(t, b, q, &d, &m);
    for (int j = 0; j < 32; j++)
        switch (t) {
        case REF_Q4_0: y[j] = q4_0_value(d, q[j], get_rows); break;
        case REF_Q4_1: case REF_Q5_1: y[j] = fmaf(d, (float)q[j], m); break;
        case REF_Q5_0: y[j] = d * (float)(q[j] - 16); break;
        default: y[j] = d * (float)q[j]; break; /* q8_0, q8_1 */
        }
}

/* K types: value i = a[i]·q[i] − m[i], a and m exact f32 products (an f16
 * scale times a small integer); the kernels compute it as fmaf(a, q, −m)
 * where the type has mins (q2_K, q4_K, q5_K), else as the product a·q
 * rounded (q3_K, q6_K: d·scale·q left to right). Returns 1 if fused. */
static int k_parts(ref_ggml_type t, const uint8_t *b, float *a, int *q, float *m) {
    switch (t) {
    case REF_Q2_K: { /* scales[16] qs[64] d dmin: 16 sub-blocks of 16, 2-bit q */
        const uint8_t *sc = b, *qs = b + 16;
        const float d = half_at(b + 80), dmin = half_at(b + 82);
        for (int i = 0; i < 256; i++) {
            const int half = i / 128, shift = 2 * ((i % 128) / 32), l = i % 32, s = i / 16;
            q[i] = (qs[32 * half + l] >> shift) & 3;
            a[i] = d * (float)(sc[s] & 0xF), m[i] = dmin * (float)(sc[s] >> 4);
        }
        return 1;
    }
    case REF_Q3_K: { /* hmask[32] qs[64] scales[12] d: value = q2 − (hmask bit ? 0 : 4) */
        const uint8_t *hm = b, *qs = b + 32, *sc = b + 96;
        const float d = half_at(b + 108);
        for (int i = 0; i < 256; i++) {
            const int half = i / 128, shift = 2 * ((i % 128) / 32), l = i % 32;
            q[i] = (int)((qs[32 * half + l] >> shift) & 3) - ((hm[l] >> (4 * half + shift / 2)) & 1 ? 0 : 4);
            a[i] = d * (float)scale_k3(i / 16, sc), m[i] = 0.0f;
        }
        return 0;
    }
    case REF_Q4_K: case REF_Q5_K: { /* d dmin scales[12] (qh[32]) qs[128]: 8 sub-blocks of 32 */
        const int five = t == REF_Q5_K;
        const float d = half_at(b), dmin = half_at(b + 2);
        const uint8_t *sc = b + 4, *qh = b + 16, *qs = b + (five ? 48 : 16);
        for (int i = 0; i < 256; i++) {
            const int s = i / 32, l = i % 32; /* sub-block s: low nibbles of chunk s/2 when even */
            unsigned scale, mn;
            scale_min_k4(s, sc, &scale, &mn);
            q[i] = (qs[32 * (s / 2) + l] >> (4 * (s % 2))) & 0xF;
            if (five) q[i] |= ((qh[l] >> s) & 1) << 4;
            a[i] = d * (float)scale, m[i] = dmin * (float)mn;
        }
        return 1;
    }
    case REF_Q6_K: { /* ql[128] qh[64] scales[16] (int8) d: 6-bit q − 32 */
        const uint8_t *ql = b, *qh = b + 128;
        const int8_t *sc = (const int8_t *)(b + 192);
        const float d = half_at(b + 208);
        for (int i = 0; i < 256; i++) {
            const int half = i / 128, quarter = (i % 128) / 32, l = i % 32;
            const unsigned lo = (ql[64 * half + 32 * (quarter % 2) + l] >> (4 * (quarter / 2))) & 0xF;
            const unsigned hi = (qh[32 * half + l] >> (2 * quarter)) & 3;
            q[i] = (int)(lo | hi << 4) - 32;
            a[i] = d * (float)sc[i / 16], m[i] = 0.0f;
        }
        return 0;
    }
    default: { /* q8_K: f32 d, int8 qs[256], int16 bsums[16] (unused here) */
        float d;
        memcpy(&d, b, 4); /* little-endian host */
        for (int i = 0; i < 256; i++) q[i] = (int8_t)b[4 + i], a[i] = d, m[i] = 0.0f;
        return 0;
    }
    }
}

static void block_k(ref_ggml_type t, const uint8_t *b, float *y) {
    float a[256], m[256];
    int q[256];
    const int fused = k_parts(t, b, a, q, m);
    for (int i = 0; i < 256; i++) y[i] = fused ? fmaf(a[i], (float)q[i], -m[i]) : a[i] * (float)q[i];
}

/* MMVQ: weight row × q8_1 row, as the kernels compute it in exact
 * arithmetic. The 32-value types take the q8_1 block's f16 sum s8 of the
 * unquantized x for their offset or min (GGML's vec_dot_*_q8_1): q4_0
 * d·(d8·Σq·q8 − 8·s8), q5_0 d·(d8·Σq·q8 − 16·s8), q4_1/q5_1 d·d8·Σq·q8 +
 * m·s8, q8_0 d·d8·Σq·q8; the K types the dequantized value times d8·q8. */
int ref_ggml_mmvq(ref_ggml_type t, const void *row, const void *y, size_t ncols, double *dot, double *mag) {
    const size_t vals = ref_ggml_block_values(t);
    if (!vals || t == REF_Q8_1 || t == REF_Q8_K || ncols % vals) return -1;
    const uint8_t *w = row, *yb = y;
    double s = 0, g = 0;
    for (size_t k = 0; k < ncols / vals; k++, w += TYPES[t].bytes) {
        if (vals == 32) {
            int q[32];
            float d, m;
            legacy_parts(t, w, q, &d, &m);
            const double d8 = half_at(yb), s8 = half_at(yb + 2);
            long sumi = 0, abs_sumi = 0;
            for (int j = 0; j < 32; j++) {
                const long p = (long)q[j] * (int8_t)yb[4 + j];
                sumi += p, abs_sumi += labs(p);
            }
            const double off = t == REF_Q4_0 ? -8.0 * d * s8 : t == REF_Q5_0 ? -16.0 * d * s8 : (double)m * s8;
            s += (double)d * d8 * (double)sumi + off;
            g += fabs((double)d * d8) * (double)abs_sumi + fabs(off);
            yb += 36;
            continue;
        }
        float a[256], m[256];
        int q[256];
        k_parts(t, w, a, q, m);
        for (int i = 0; i < 256; i++) {
            const uint8_t *b8 = yb + 36 * (i / 32);
            const double yi = (double)half_at(b8) * (int8_t)b8[4 + i % 32];
            s += ((double)a[i] * q[i] - m[i]) * yi;
            g += (fabs((double)a[i] * q[i]) + fabs((double)m[i])) * fabs(yi);
        }
        yb += 36 * 8;
    }
    *dot = s, *mag = g;
    return 0;
}

static int dequantize(ref_ggml_type t, const void *src, size_t nblocks, float *y, int get_rows) {
    if ((unsigned)t >= REF_GGML_COUNT) return -1;
    const uint8_t *b = src;
    for (size_t k = 0; k < nblocks; k++, b += TYPES[t].bytes, y += TYPES[t].values)
        TYPES[t].values == 32 ? block_legacy(t, b, y, get_rows) : block_k(t, b, y);
    return 0;
}
int ref_ggml_dequantize(ref_ggml_type t, const void *src, size_t nblocks, float *y) {
    return dequantize(t, src, nblocks, y, 0);
}
int ref_ggml_get_rows(ref_ggml_type t, const void *src, size_t nblocks, float *y) {
    return dequantize(t, src, nblocks, y, 1);
}

void ref_ggml_random_blocks(ref_ggml_type t, void *blocks, size_t nblocks, uint32_t (*next)(void *), void *state) {
    const size_t bytes = ref_ggml_block_bytes(t);
    uint8_t *b = blocks;
    for (size_t k = 0; k < nblocks * bytes; k++) b[k] = (uint8_t)next(state);
    for (size_t k = 0; k < nblocks; k++, b += bytes) {
        int at[2] = {-1, -1}; /* byte offsets of the f16 scales */
        switch (t) {
        case REF_Q4_0: case REF_Q5_0: case REF_Q8_0: at[0] = 0; break;
        case REF_Q4_1: case REF_Q5_1: case REF_Q8_1: case REF_Q4_K: case REF_Q5_K: at[0] = 0, at[1] = 2; break;
        case REF_Q2_K: at[0] = 80, at[1] = 82; break;
        case REF_Q3_K: at[0] = 108; break;
        case REF_Q6_K: at[0] = 208; break;
        case REF_Q8_K: { const float d = (float)(next(state) % 1000 + 1) / 4096.0f; memcpy(b, &d, 4); break; }
        default: break;
        }
        for (int i = 0; i < 2; i++)
            if (at[i] >= 0) {
                const uint32_t r = next(state);
                const uint16_t h = (uint16_t)((r & 0x8000) | (1 + (r >> 16) % 16) << 10 | (r & 0x3FF));
                b[at[i]] = (uint8_t)h, b[at[i] + 1] = (uint8_t)(h >> 8);
            }
    }
}

/* quantize_q8_1: one 32-lane group a block; Σx and max|x| by xor
 * butterflies (every lane ends with the same value: a+b = b+a). */
void ref_quantize_q8_1(const float *x, size_t kx, size_t kx_padded, void *vy) {
    uint8_t *out = vy;
    for (size_t ib = 0; ib < kx_padded / 32; ib++, out += 36) {
        float v[32], s[32], a[32];
        for (int l = 0; l < 32; l++) {
            const size_t ix = ib * 32 + (size_t)l;
            v[l] = ix < kx ? x[ix] : 0.0f;
            s[l] = v[l], a[l] = fabsf(v[l]);
        }
        for (int m = 16; m >= 1; m /= 2) {
            float s2[32], a2[32];
            for (int l = 0; l < 32; l++) s2[l] = s[l] + s[l ^ m], a2[l] = fmaxf(a[l], a[l ^ m]);
            memcpy(s, s2, sizeof s), memcpy(a, a2, sizeof a);
        }
        const float amax = a[0], d = amax / 127;
        for (int l = 0; l < 32; l++) out[4 + l] = (uint8_t)(int8_t)(amax == 0.0f ? 0 : (int)roundf(v[l] / d));
        const uint16_t hd = ref_f32_to_f16(d), hs = ref_f32_to_f16(s[0]);
        out[0] = (uint8_t)hd, out[1] = (uint8_t)(hd >> 8), out[2] = (uint8_t)hs, out[3] = (uint8_t)(hs >> 8);
    }
}
