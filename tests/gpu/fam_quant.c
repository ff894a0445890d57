/* fam_quant.c — module quantized: dequantize_block_* and get_rows_*.
 * Quant case i (QCASES, one per layout case index) gives random GGML
 * blocks (tests/ref: random bytes, finite scales of either sign) and, for
 * get_rows, random ids; outputs are poisoned, with guard zones before
 * (sliced cases) and after. Values must equal the CPU reference bit for bit
 * (ref_ggml.c, itself bit-exact against Candle's cubin): dequantization is
 * exact in f32 but for the one rounding of q6_K's d·scale·q, done in the
 * same order; _f16 outputs round that value once (RNE) on both sides.
 *
 * dequantize_block_<t>_<dt>:
 *   Candle's launch (fact sheet §4.18 item 1): q4_0/q4_1/q8_0 block 32,
 *     grid ceil(el/256), k = el/32; q5_0/q5_1 block 256, grid
 *     ceil(el/512), k = el; q4_K/q8_K block 32, other K types 64, grid =
 *     super-blocks.
 *   libcrk's: crk_dequantize (which must refuse a partial block and an
 *     odd source); on cases 2 and 3, instead, grids that make each thread
 *     take 4 values (32-value types: n/3 threads), 1 (n threads) or 2 (K
 *     types: 128-thread blocks), the widths neither launch above picks.
 * get_rows_<t> (Candle's; item 2): grid (ids, y), block 256 (K types 64,
 *   q4_K 32), y = ceil(hidden/256) for f32/f16/bf16, ceil(hidden/512) for
 *   32-value types, hidden/256 for K types. Ids in range (upstream reads
 *   out of bounds otherwise).
 * quantize_q8_1 (and the static library's mmvq_gguf_quantize_q8_1_<dt>,
 *   bf16/f16 x made f32 first): Candle's launch (block 256, grid
 *   (ceil(kx_padded/256), rows)) and crk_quantize_q8_1 (which must refuse a kx_padded that is not
 *   a multiple of 32); rows of kx values padded to kx_padded (Candle: to
 *   512), x at an odd offset, blocks of every magnitude, an all-zero block;
 *   the q8_1 bytes equal ref_quantize_q8_1's, byte for byte.
 * dequantize_mul_mat_vec_*: Candle's launch (block 32, grid nrows) and
 *   crk_dequantize_mul_mat_vec (32 or 128 threads a row); rows = the
 *   case's ids, columns its row blocks; within f32 rounding of the
 *   reference (run_dmmv says how much).
 * crk_get_rows_<t> (ours, with nrows): crk_get_rows under libcrk's shape
 *   (Candle's names too run these), and a raw grid (ids, 2) of 64 threads
 *   under the other; ids past the source (R, R + 1000, 2^32 − 1) in every
 *   case of 9 or more ids must give rows of zeros. */
#include "suite.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct {
    const char *name;
    size_t blocks;                /* dequantize: blocks                          */
    size_t row_blocks, rows, ids; /* get_rows: blocks a row, source rows, ids    */
    size_t src_off, dst_off;      /* sliced: source blocks (rows) and output values skipped */
    size_t q_rows, q_kx, q_kp;    /* quantize_q8_1: rows of kx values, padded to kp */
} quant_case;
static const quant_case QCASES[] = {
    {"empty", 0, 2, 4, 0, 0, 0, 0, 32, 512},
    {"one block", 1, 1, 1, 1, 0, 0, 1, 32, 32},
    {"37 blocks; 50 ids, rows of 3 blocks; 3 rows of 1000 (1024)", 37, 3, 11, 50, 0, 0, 3, 1000, 1024},
    {"sliced, unaligned output; x +1, 2 rows of 4113 (4608)", 5, 2, 6, 9, 3, 1, 2, 4113, 4608},
    {"1000 blocks; 2000 ids; 70 rows of 4096", 1000, 2, 300, 2000, 0, 0, 70, 4096, 4096},
    {"4099 blocks; rows of 16 blocks; 9 rows of 14336", 4099, 16, 64, 64, 0, 0, 9, 14336, 14336},
};
#define N_QCASES (sizeof QCASES / sizeof QCASES[0])

static int is_get_rows(const crk_kernel_info *ki) { return ki->family_id == CRK_FAMILY_GET_ROWS; }
/* The type part of the kernel's op: get_rows' "q4_0" for crk_get_rows_q4_0 too. */
static const char *op_type(const crk_kernel_info *ki) {
    return strncmp(ki->op, "crk_get_rows_", 13) ? ki->op : ki->op + 13;
}
/* The GGML type of the kernel's op, or -1 for get_rows of f32/f16/bf16. */
static int ggml_type(const crk_kernel_info *ki) {
    const char *t = op_type(ki);
    for (int i = 0; i < REF_GGML_COUNT; i++)
        if (!strcmp(t, ref_ggml_name((ref_ggml_type)i))) return i;
    return -1;
}
/* get_rows of a plain source: its dtype */
static crk_dtype plain_dtype(const crk_kernel_info *ki) { return (crk_dtype)crk_dtype_from_name(op_type(ki)); }
/* values a get_rows row holds: whole blocks; plain rows 32·blocks − 3
 * (not a multiple of 8: the row tail, unaligned rows) */
static size_t row_values(const crk_kernel_info *ki, const quant_case *q) {
    const int t = ggml_type(ki);
    if (t < 0) return q->row_blocks * 32 > 3 ? q->row_blocks * 32 - 3 : q->row_blocks * 32;
    return q->row_blocks * ref_ggml_block_values((ref_ggml_type)t);
}

static uint32_t next_bits(void *r) { return (uint32_t)(rng_next((rng_t *)r) >> 32); }

/* got (n values of dt at byte offset) vs want (f32, rounded for f16), then
 * the poisoned bytes before and after. */
static int check_values(const crk_kernel_info *ki, const char *cname, crk_dtype dt, const unsigned char *buf,
                        size_t before, const float *want, size_t n, unsigned char poison) {
    const size_t sz = crk_dtype_size(dt);
    if (guard_bad(ki, cname, buf, before * sz, poison)) return 1;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t g = 0, w;
        memcpy(&g, buf + (before + i) * sz, sz);
        if (dt == CRK_F16) w = ref_f32_to_f16(want[i]);
        else memcpy(&w, &want[i], 4);
        if (g != w && bad++ < 3)
            printf("FAIL %s [%s] value %zu: got 0x%0*x want 0x%0*x (%a)\n", ki->name, cname, i, (int)(2 * sz), g,
                   (int)(2 * sz), w, (double)want[i]);
    }
    if (bad) return printf("FAIL %s [%s]: %zu of %zu values differ\n", ki->name, cname, bad, n), 1;
    return guard_bad(ki, cname, buf + (before + n) * sz, GUARD * sz, poison);
}

static int run_dequantize(suite_t *S, const crk_kernel_info *ki, const quant_case *q, const char *cname) {
    const ref_ggml_type t = (ref_ggml_type)ggml_type(ki);
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    const size_t vals = ref_ggml_block_values(t), bytes = ref_ggml_block_bytes(t), sz = crk_dtype_size(dt);
    const size_t n = q->blocks * vals, total = q->dst_off + n + GUARD;
    unsigned char *blocks = S->host[0], *got = S->host[1];
    float *want = (float *)S->host[2];
    ref_ggml_random_blocks(t, blocks, q->src_off + q->blocks, next_bits, &S->rng);
    ref_ggml_dequantize(t, blocks + q->src_off * bytes, q->blocks, want);
    const unsigned char poison = poison_byte(S);
    memset(got, poison, total * sz);
    if (upload(S, S->dev[0], blocks, (q->src_off + q->blocks) * bytes) || upload(S, S->dev[1], got, total * sz))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    const void *src = (const char *)S->dev[0] + q->src_off * bytes;
    void *dst = (char *)S->dev[1] + q->dst_off * sz;
    crk_status st = CRK_OK;
    if (S->shape == SHAPE_CANDLE) {
        if (n) {
            const int q5 = t == REF_Q5_0 || t == REF_Q5_1;
            const double k = (double)(q5 ? n : n / 32);
            raw_launch r = {NULL, 0, 0, 0, &src, dst, &k, NULL, (unsigned)((n + 255) / 256), {32, 1, 1}, 0};
            if (q5) r.grid_x = (unsigned)((n + 511) / 512), r.block3[0] = 256;
            else if (vals == 256 && t != REF_Q4_K && t != REF_Q8_K) r.block3[0] = 64;
            st = launch_raw_2d(S, ki, &r, 1);
        }
    } else if (q == &QCASES[2]) { /* kernels/quantized.h picks W = 4 (32-value types), 2 (K types) */
        const double k = (double)(t == REF_Q5_0 || t == REF_Q5_1 ? n : n / 32);
        raw_launch r = {NULL, 0, 0, 0, &src, dst, &k, NULL, (unsigned)q->blocks, {128, 1, 1}, 0};
        if (vals == 32) r.grid_x = (unsigned)((n / 3 + 63) / 64), r.block3[0] = 64;
        st = launch_raw_2d(S, ki, &r, 1);
    } else if (q == &QCASES[3]) { /* a thread for each value: W = 1 (32-value types; K types: 2) */
        const double k = (double)(t == REF_Q5_0 || t == REF_Q5_1 ? n : n / 32);
        raw_launch r = {NULL, 0, 0, 0, &src, dst, &k, NULL, (unsigned)q->blocks, {128, 1, 1}, 0};
        if (vals == 32) r.grid_x = (unsigned)((n + 63) / 64), r.block3[0] = 64;
        st = launch_raw_2d(S, ki, &r, 1);
    } else {
        st = crk_dequantize(S->ctx, NULL, ki->name, src, dst, n);
        /* refused, naming the problem: a partial block, an odd source */
        if (st == CRK_OK && n && (crk_dequantize(S->ctx, NULL, ki->name, src, dst, n - 1) != CRK_E_INVALID ||
                                  !strstr(crk_last_error(), "whole number") ||
                                  crk_dequantize(S->ctx, NULL, ki->name, (const char *)src + 1, dst, n) != CRK_E_INVALID ||
                                  !strstr(crk_last_error(), "aligned")))
            return printf("FAIL %s [%s]: a partial block or an odd source was not refused: %s\n", ki->name, cname,
                          crk_last_error()), 1;
    }
    if (finish(S, st, ki, cname, got, S->dev[1], total * sz)) return 1;
    return check_values(ki, cname, dt, got, q->dst_off, want, n, poison);
}

static int run_get_rows(suite_t *S, const crk_kernel_info *ki, const quant_case *q, const char *cname) {
    const int t = ggml_type(ki), ours = !strncmp(ki->op, "crk_", 4);
    const crk_dtype pdt = t < 0 ? plain_dtype(ki) : CRK_U8;
    const size_t hidden = row_values(ki, q);
    const size_t nb01 = t < 0 ? hidden * crk_dtype_size(pdt)
                              : hidden / ref_ggml_block_values((ref_ggml_type)t) * ref_ggml_block_bytes((ref_ggml_type)t);
    const size_t srows = q->src_off + q->rows, n = q->ids * hidden, total = q->dst_off + n + GUARD;
    unsigned char *src = S->host[0], *got = S->host[1];
    float *want = (float *)S->host[2], *plain = (float *)S->host[4];
    uint32_t *ids = (uint32_t *)S->host[3];
    if (t >= 0) {
        ref_ggml_random_blocks((ref_ggml_type)t, src, srows * hidden / ref_ggml_block_values((ref_ggml_type)t),
                               next_bits, &S->rng);
    } else { /* random finite values of the source dtype, either sign */
        for (size_t i = 0; i < srows * hidden; i++) {
            const double v = (rng_unit(&S->rng) * 2 - 1) * 1000;
            ref_cast(CRK_F64, pdt, &v, src + i * crk_dtype_size(pdt));
            plain[i] = (float)ref_value_f64(pdt, src + i * crk_dtype_size(pdt));
        }
    }
    for (size_t i = 0; i < q->ids; i++) ids[i] = (uint32_t)(rng_next(&S->rng) % q->rows);
    if (ours && q->ids >= 9) ids[1] = (uint32_t)q->rows, ids[q->ids / 2] = (uint32_t)q->rows + 1000, ids[q->ids - 1] = 0xFFFFFFFFu;
    for (size_t r = 0; r < q->ids; r++) {
        float *w = want + r * hidden;
        const unsigned char *row = src + (q->src_off + ids[r]) * nb01;
        if (ids[r] >= q->rows) memset(w, 0, hidden * sizeof *w);
        else if (t >= 0) ref_ggml_get_rows((ref_ggml_type)t, row, hidden / ref_ggml_block_values((ref_ggml_type)t), w);
        else memcpy(w, plain + (q->src_off + ids[r]) * hidden, hidden * sizeof *w);
    }
    const unsigned char poison = poison_byte(S);
    memset(got, poison, total * 4);
    if (upload(S, S->dev[0], src, srows * nb01) || upload(S, S->dev[2], ids, q->ids * 4) ||
        upload(S, S->dev[1], got, total * 4))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    const void *in[2] = {(const char *)S->dev[0] + q->src_off * nb01, S->dev[2]};
    float *dst = (float *)S->dev[1] + q->dst_off;
    crk_status st = CRK_OK;
    if (S->shape == SHAPE_CANDLE) {
        if (q->ids) {
            const double sc[3] = {(double)hidden, (double)nb01, (double)q->rows};
            raw_launch r = {NULL, 0, 0, 0, in, dst, sc, NULL, (unsigned)q->ids, {256, 1, 1}, 0};
            unsigned gy = (unsigned)((hidden + 255) / 256);
            if (ours) gy = 2, r.block3[0] = 64; /* any grid: blocks loop along the row */
            else if (t >= 0 && ref_ggml_block_values((ref_ggml_type)t) == 32) gy = (unsigned)((hidden + 511) / 512);
            else if (t >= 0) gy = (unsigned)(hidden / 256), r.block3[0] = t == REF_Q4_K ? 32 : 64;
            st = launch_raw_2d(S, ki, &r, gy);
        }
    } else {
        st = crk_get_rows(S->ctx, NULL, ki->name, in[0], q->rows, hidden, in[1], q->ids, dst);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], total * 4)) return 1;
    return check_values(ki, cname, CRK_F32, got, q->dst_off, want, n, poison);
}

/* quantize_q8_1: values of every magnitude (a block's scale from 2^-20 to
 * 2^20), an all-zero block; bytes compared with ref_quantize_q8_1. */
static int run_quantize(suite_t *S, const crk_kernel_info *ki, const quant_case *q, const char *cname) {
    const size_t xoff = q->src_off ? 1 : 0, nx = xoff + q->q_rows * q->q_kx, nq = q->q_rows * q->q_kp / 32 * 36;
    /* x: f32, or the 16-bit input of mmvq_gguf_quantize_q8_1_{f16,bf16}, made f32 first */
    const crk_dtype xdt = (crk_dtype)ki->params[0].dtype;
    const size_t xsz = crk_dtype_size(xdt);
    float *x = (float *)S->host[0];
    unsigned char *got = S->host[1], *want = S->host[2], *xin = S->host[3];
    for (size_t i = 0; i < nx; i++) {
        /* 16-bit inputs: a block's scale from 2^-12 (f16 keeps it normal) to 2^12 */
        const int e = xsz == 4 ? (int)((i / 32) * 7919 % 41) - 20 : (int)((i / 32) * 7919 % 25) - 12;
        const float v = (float)((rng_unit(&S->rng) * 2 - 1) * ldexp(1.0, e));
        ref_cast(CRK_F32, xdt, &v, xin + i * xsz);
        x[i] = (float)ref_value_f64(xdt, xin + i * xsz);
    }
    if (q->q_rows && q->q_kx >= 96)
        for (size_t i = 64; i < 96; i++) x[xoff + i] = 0.0f, memset(xin + (xoff + i) * xsz, 0, xsz); /* block 2 of row 0: d = 0, q = 0 */
    for (size_t r = 0; r < q->q_rows; r++)
        ref_quantize_q8_1(x + xoff + r * q->q_kx, q->q_kx, q->q_kp, want + r * q->q_kp / 32 * 36);
    const unsigned char poison = poison_byte(S);
    memset(got, poison, nq + GUARD);
    memset(want + nq, poison, GUARD);
    if (upload(S, S->dev[0], xin, nx * xsz) || upload(S, S->dev[1], got, nq + GUARD))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    const void *in[1] = {(const char *)S->dev[0] + xoff * xsz};
    crk_status st = CRK_OK;
    if (S->shape == SHAPE_CANDLE) { /* block 256, grid (ceil(kx_padded/256), rows) */
        if (q->q_rows) {
            const double sc[2] = {(double)q->q_kx, (double)q->q_kp};
            raw_launch r = {NULL, 0, 0, 0, in, S->dev[1], sc, NULL, (unsigned)((q->q_kp + 255) / 256), {256, 1, 1}, 0};
            st = launch_raw_2d(S, ki, &r, (unsigned)q->q_rows);
        }
    } else {
        st = crk_quantize_q8_1(S->ctx, NULL, ki->name, in[0], S->dev[1], q->q_kx, q->q_kp, q->q_rows);
        if (st == CRK_OK && (crk_quantize_q8_1(S->ctx, NULL, ki->name, in[0], S->dev[1], 40, 33, 1) != CRK_E_INVALID ||
                             !strstr(crk_last_error(), "multiple of 32")))
            return printf("FAIL %s [%s]: kx_padded 33 was not refused: %s\n", ki->name, cname, crk_last_error()), 1;
    }
    if (finish(S, st, ki, cname, got, S->dev[1], nq + GUARD)) return 1;
    for (size_t i = 0; i < nq + GUARD; i++)
        if (got[i] != want[i]) {
            printf("FAIL %s [%s] %s byte %zu (block %zu, byte %zu): got 0x%02x want 0x%02x\n", ki->name, cname,
                   i < nq ? "output" : "guard zone", i, i / 36, i % 36, got[i], want[i]);
            return 1;
        }
    return 0;
}

/* The GGML type of a DMMV kernel ("q4_0_cuda", "q4_k"). */
static ref_ggml_type dmmv_type(const crk_kernel_info *ki) {
    for (int i = 0; i < REF_GGML_COUNT; i++)
        if (!strncasecmp(ki->op, ref_ggml_name((ref_ggml_type)i), 4)) return (ref_ggml_type)i;
    return REF_GGML_COUNT;
}

/* dequantize_mul_mat_vec_*: q->ids rows of q->row_blocks blocks, y in
 * [-1, 1). The reference sums the reference's weights times y in double;
 * each thread of the kernel sums its share (at most ncols/32·... terms) in
 * f32 and the shares are added in f32, so the error is below
 * (ncols/32 + 64)·2^-24 times Σ|w·y| (a sequential f32 sum of m terms is
 * off by at most m·u of the sum of magnitudes; 32 or more threads a row
 * leave at most ncols/32 terms a thread, plus the adds across threads).
 * A wrong nibble, scale or row is off by far more. */
static int run_dmmv(suite_t *S, const crk_kernel_info *ki, const quant_case *q, const char *cname) {
    const ref_ggml_type t = dmmv_type(ki);
    const size_t vals = ref_ggml_block_values(t), bytes = ref_ggml_block_bytes(t);
    const size_t nrows = q->ids, ncols = q->row_blocks * vals, nb = nrows * q->row_blocks;
    unsigned char *w = S->host[0];
    float *y = (float *)S->host[3], *got = (float *)S->host[1], *row = (float *)S->host[4];
    ref_ggml_random_blocks(t, w, nb, next_bits, &S->rng);
    for (size_t k = 0; k < ncols; k++) y[k] = (float)(rng_unit(&S->rng) * 2 - 1);
    const unsigned char poison = poison_byte(S);
    memset(got, poison, (nrows + GUARD) * 4);
    if (upload(S, S->dev[0], w, nb * bytes) || upload(S, S->dev[2], y, ncols * 4) ||
        upload(S, S->dev[1], got, (nrows + GUARD) * 4))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    crk_status st = CRK_OK;
    if (S->shape == SHAPE_CANDLE) { /* block 32, grid nrows */
        if (nrows) {
            const void *in[2] = {S->dev[0], S->dev[2]};
            const double sc[2] = {(double)ncols, (double)nrows};
            raw_launch r = {NULL, 0, 0, 0, in, S->dev[1], sc, NULL, (unsigned)nrows, {32, 1, 1}, 0};
            st = launch_raw_2d(S, ki, &r, 1);
        }
    } else {
        st = crk_dequantize_mul_mat_vec(S->ctx, NULL, ki->name, S->dev[0], S->dev[2], S->dev[1], ncols, nrows);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], (nrows + GUARD) * 4)) return 1;
    for (size_t r = 0; r < nrows; r++) {
        ref_ggml_get_rows(t, w + r * q->row_blocks * bytes, q->row_blocks, row);
        double want = 0, mag = 0;
        for (size_t k = 0; k < ncols; k++) want += (double)row[k] * y[k], mag += fabs((double)row[k] * y[k]);
        const double tol = ldexp((double)(ncols / 32 + 64), -24) * mag;
        if (!(fabs((double)got[r] - want) <= tol)) /* NaN fails */
            return printf("FAIL %s [%s] row %zu of %zu (%zu columns): got %.9g want %.9g (tolerance %.3g)\n", ki->name,
                          cname, r, nrows, ncols, (double)got[r], want, tol), 1;
    }
    return guard_bad(ki, cname, (const unsigned char *)(got + nrows), GUARD * 4, poison);
}

int run_quant(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const quant_case *q = &QCASES[lc - CASES];
    char cn[128];
    snprintf(cn, sizeof cn, "%s%s", q->name, S->shape == SHAPE_CANDLE ? ", Candle's launch shape" : "");
    if (ki->family_id == CRK_FAMILY_QUANTIZE) return run_quantize(S, ki, q, cn);
    if (ki->family_id == CRK_FAMILY_DMMV) return run_dmmv(S, ki, q, cn);
    return is_get_rows(ki) ? run_get_rows(S, ki, q, cn) : run_dequantize(S, ki, q, cn);
}

/* Quant case i runs with layout case i. */
int quant_applies(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    return (size_t)(lc - CASES) < N_QCASES;
}

size_t quant_elements(const layout_case *lc, const crk_kernel_info *ki) {
    const size_t i = (size_t)(lc - CASES);
    if (i >= N_QCASES) return 0;
    const quant_case *q = &QCASES[i];
    if (ki->family_id == CRK_FAMILY_QUANTIZE) return q->q_rows * q->q_kp;
    if (ki->family_id == CRK_FAMILY_DMMV) return q->ids * q->row_blocks * ref_ggml_block_values(dmmv_type(ki));
    if (is_get_rows(ki)) return q->ids * row_values(ki, q);
    return q->blocks * ref_ggml_block_values((ref_ggml_type)ggml_type(ki));
}
