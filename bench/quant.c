/* quant.c — the rows of module quantized (issue 13): dequantize_block_*
 * of an LLM weight matrix (4096 x 14336, a Llama-3-8B FFN projection),
 * get_rows_* of an embedding table (128256 x 4096, Llama 3's vocabulary)
 * and MMVQ (mmvq_gguf_*: the decode step's matmuls, Llama-3-8B's n x k):
 * cases, data, bytes, Candle's launch (fact sheet §4.18 items 1, 2 and 5,
 * §4.19), libcrk's helper and a check of sampled outputs against tests/ref.
 * Blocks are random bytes with finite scales, block b from a seed of its
 * own (ref_ggml_random_blocks), so a check regenerates the blocks it needs. */
#include "bench.h"
#include "ref.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* dequantize: left = values; get_rows: dim_size = table rows, n = ids, right = hidden */
static const idx_case DEQ[] = {{"4096x14336", 4096 * 14336, 0, 0, 0, 0, NULL}};
static const idx_case DEQ_TINY[] = {{"8 super-blocks", 2048, 0, 0, 0, 0, NULL}};
static const idx_case ROWS[] = {{"ids 1", 0, 128256, 1, 4096, 0, NULL},
                                {"ids 64", 0, 128256, 64, 4096, 0, NULL},
                                {"ids 1024", 0, 128256, 1024, 4096, 0, NULL},
                                {"ids 8192", 0, 128256, 8192, 4096, 0, NULL}};
static const idx_case ROWS_TINY[] = {{"ids 16", 0, 64, 16, 512, 0, NULL}};
/* MMVQ: left = n (weight rows), right = k (columns); q, k, v, o, gate/up,
 * down projections and the LM head of Llama-3-8B */
static const idx_case MV[] = {{"4096x4096", 4096, 0, 0, 4096, 0, NULL},
                              {"14336x4096", 14336, 0, 0, 4096, 0, NULL},
                              {"4096x14336", 4096, 0, 0, 14336, 0, NULL},
                              {"128256x4096", 128256, 0, 0, 4096, 0, NULL}};
static const idx_case MV_TINY[] = {{"67x768", 67, 0, 0, 768, 0, NULL}};
#define N_OF(a) (sizeof a / sizeof a[0])

const idx_case *quant_cases(const op_def *op, int tiny, size_t *count) {
    if (op->family == F_DEQUANT) return *count = tiny ? N_OF(DEQ_TINY) : N_OF(DEQ), tiny ? DEQ_TINY : DEQ;
    if (op->family == F_MMVQ) return *count = tiny ? N_OF(MV_TINY) : N_OF(MV), tiny ? MV_TINY : MV;
    return *count = tiny ? N_OF(ROWS_TINY) : N_OF(ROWS), tiny ? ROWS_TINY : ROWS;
}

/* The op's GGML type (its kernel name's), or -1 for a plain f16/f32/bf16 table. */
static int type_of(const op_def *op) {
    for (int t = 0; t < REF_GGML_COUNT; t++) {
        char a[48], b[48], c[48];
        snprintf(a, sizeof a, "dequantize_block_%s_", ref_ggml_name((ref_ggml_type)t));
        snprintf(b, sizeof b, "get_rows_%s", ref_ggml_name((ref_ggml_type)t));
        snprintf(c, sizeof c, "mmvq_gguf_%s_", ref_ggml_name((ref_ggml_type)t)); /* "q4_k": any case */
        if (!strncmp(op->kernel, a, strlen(a)) || !strcmp(op->kernel, b) || !strncasecmp(op->kernel, c, strlen(c)))
            return t;
    }
    return -1;
}
/* MMVQ: the b of "..._cuda<b>", and rows a block (Candle's: 1 for b = 1, else 2) */
static size_t mmvq_b(const op_def *op) { return (size_t)(op->kernel[strlen(op->kernel) - 1] - '0'); }
static size_t padded(size_t k) { return (k + 511) / 512 * 512; } /* Candle pads y's rows to 512 */
static crk_dtype plain_dtype(const op_def *op) { return (crk_dtype)crk_dtype_from_name(op->kernel + 9); }

/* bytes of `values` values of the op's weights */
static size_t weight_bytes(const op_def *op, size_t values) {
    const int t = type_of(op);
    if (t < 0) return values * crk_dtype_size(plain_dtype(op));
    return values / ref_ggml_block_values((ref_ggml_type)t) * ref_ggml_block_bytes((ref_ggml_type)t);
}

/* dequantize: the weights read and the values written; get_rows: the ids,
 * the rows read and written */
double quant_bytes(const op_def *op, const idx_case *c) {
    if (op->family == F_MMVQ) /* the weights, b q8_1 columns, b output columns */
        return (double)weight_bytes(op, c->left * c->right) +
               (double)mmvq_b(op) * ((double)padded(c->right) / 32 * 36 + (double)c->left * crk_dtype_size(op->out_dt));
    if (op->family == F_DEQUANT)
        return (double)weight_bytes(op, c->left) + (double)c->left * (double)crk_dtype_size(op->out_dt);
    return (double)c->n * (4.0 + (double)weight_bytes(op, c->right) + 4.0 * (double)c->right);
}

void quant_describe(const op_def *op, const idx_case *c, char *buf, size_t cap) {
    const int t = type_of(op);
    const char *tn = t < 0 ? crk_dtype_name(plain_dtype(op)) : ref_ggml_name((ref_ggml_type)t);
    if (op->family == F_MMVQ)
        snprintf(buf, cap, "W (%zu, %zu) %s (%zu bytes) x %zu q8_1 columns -> (%zu, %zu) %s", c->left, c->right, tn,
                 weight_bytes(op, c->left * c->right), mmvq_b(op), mmvq_b(op), c->left, crk_dtype_name(op->out_dt));
    else if (op->family == F_DEQUANT)
        snprintf(buf, cap, "%zu %s values (%zu bytes) -> %s", c->left, tn, weight_bytes(op, c->left), op->dtype);
    else
        snprintf(buf, cap, "table (%zu, %zu) %s, %zu u32 ids -> (%zu, %zu) f32", c->dim_size, c->right, tn, c->n, c->n,
                 c->right);
}

/* ------------------------------------------------------------ data */
static uint32_t next_bits(void *s) { return (uint32_t)(bench_rand((uint64_t *)s) >> 32); }
/* Block b of type t, from a seed of its own. */
static void make_block(int t, size_t b, unsigned char *out) {
    uint64_t s = bench_mix(b + 0x9E3779B97F4A7C15ULL) | 1;
    ref_ggml_random_blocks((ref_ggml_type)t, out, 1, next_bits, &s);
}
static float plain_value(size_t e) { return (float)((int)(bench_mix(e) % 2001) - 1000) / 256.0f; }

static int gpu_err(const char *what) { return printf("ERROR: %s: %s\n", what, crk_last_error()), -1; }

/* `values` values of the op's weights into dev, in 4 MiB pieces. */
static int upload_weights(const bench_state *S, const op_def *op, void *dev, size_t values) {
    const int t = type_of(op);
    const size_t bv = t < 0 ? 1 : ref_ggml_block_values((ref_ggml_type)t);
    const size_t bb = t < 0 ? crk_dtype_size(plain_dtype(op)) : ref_ggml_block_bytes((ref_ggml_type)t);
    const size_t nb = values / bv, per = ((size_t)4 << 20) / bb;
    unsigned char *h = malloc(per * bb);
    if (!h) return printf("ERROR: out of host memory\n"), -1;
    for (size_t at = 0; at < nb; at += per) {
        const size_t m = nb - at < per ? nb - at : per;
        for (size_t k = 0; k < m; k++) {
            if (t >= 0) make_block(t, at + k, h + k * bb);
            else bench_put(plain_dtype(op), h, k, plain_value(at + k));
        }
        if (crk_memcpy_htod(S->ctx, (char *)dev + at * bb, h, m * bb) != CRK_OK) return free(h), gpu_err("htod");
    }
    free(h);
    return 0;
}

/* ------------------------------------------------------------ launching */
/* The q8_1 columns of MMVQ: b rows of k random x in [-1, 1), quantized on
 * the host as Candle's quantize_q8_1 does (kept to check results). */
static int mmvq_y(bench_state *S, size_t b, size_t k) {
    const size_t kp = padded(k), bytes = b * kp / 32 * 36;
    float *x = malloc(k * sizeof *x);
    if (!x || !(S->q_y_host = malloc(bytes))) return free(x), printf("ERROR: out of host memory\n"), -1;
    for (size_t j = 0; j < b; j++) {
        for (size_t i = 0; i < k; i++) x[i] = (float)((int)(bench_mix((j * k + i) ^ 0x51ULL << 48) % 2001) - 1000) / 1000.0f;
        ref_quantize_q8_1(x, k, kp, (unsigned char *)S->q_y_host + j * kp / 32 * 36);
    }
    free(x);
    if (crk_malloc(S->ctx, &S->q_y, bytes) != CRK_OK || crk_memcpy_htod(S->ctx, S->q_y, S->q_y_host, bytes) != CRK_OK)
        return gpu_err("q8_1 columns");
    return 0;
}

/* MMVQ: weights rotated over sets (the L2 is 50 MB), Candle's launch: grid
 * ceil(n / rows a block), block (32, b <= 4 ? 4 : 2). */
static int mmvq_prep(bench_state *S, const op_def *op, const idx_case *c, bench_prep *P) {
    const size_t n = c->left, k = c->right, b = mmvq_b(op), wb = weight_bytes(op, n * k);
    S->sets = (int)((ROTATE_BYTES + wb - 1) / wb);
    if (S->sets > MAX_SETS) S->sets = MAX_SETS;
    S->n = n * b, S->out_bytes = n * b * crk_dtype_size(op->out_dt);
    if (mmvq_y(S, b, k)) return -1;
    const double sc[4] = {(double)k, (double)n, (double)(padded(k) / 32), (double)n};
    for (int s = 0; s < S->sets; s++) {
        if (crk_malloc(S->ctx, &S->q_w[s], wb) != CRK_OK) return gpu_err("crk_malloc (weights)");
        if (upload_weights(S, op, S->q_w[s], n * k)) return -1;
        if (crk_malloc(S->ctx, &S->out[s], S->out_bytes) != CRK_OK) return gpu_err("crk_malloc (out)");
        raw_call *rc = &P->call[s];
        rc->out = S->out[s], rc->in[0] = S->q_w[s], rc->in[1] = S->q_y;
        if (prep_assemble(P->ki, rc, sc, 4)) return -1;
    }
    P->grid[0] = (unsigned)(b == 1 ? n : (n + 1) / 2), P->grid[1] = P->grid[2] = 1;
    P->block[0] = 32, P->block[1] = b <= 4 ? 4 : 2, P->block[2] = 1;
    return 0;
}

void quant_free(bench_state *S) {
    for (int s = 0; s < MAX_SETS; s++)
        if (S->q_w[s]) crk_free(S->ctx, S->q_w[s]), S->q_w[s] = NULL;
    if (S->q_y) crk_free(S->ctx, S->q_y), S->q_y = NULL;
    free(S->q_y_host), S->q_y_host = NULL;
}

int quant_prep(bench_state *S, const op_def *op, const idx_case *c, bench_prep *P) {
    memset(P, 0, sizeof *P);
    P->op = op, P->lay = LAY_CONTIG, P->ic = c;
    if (!(P->ki = crk_kernel_find(op->kernel))) return printf("ERROR: %s: %s\n", op->kernel, crk_last_error()), -1;
    if (op->family == F_MMVQ) return mmvq_prep(S, op, c, P);
    const int t = type_of(op), deq = op->family == F_DEQUANT;
    const size_t vals = deq ? c->left : c->n * c->right, bv = t < 0 ? 1 : ref_ggml_block_values((ref_ggml_type)t);
    S->sets = 1, S->n = vals, S->out_bytes = vals * crk_dtype_size(op->out_dt);
    /* the weights (dequantize) or the table (get_rows), one for all sets */
    const size_t src_vals = deq ? c->left : c->dim_size * c->right;
    if (crk_malloc(S->ctx, &S->rd_aux, weight_bytes(op, src_vals)) != CRK_OK) return gpu_err("crk_malloc (weights)");
    if (upload_weights(S, op, S->rd_aux, src_vals)) return -1;
    if (crk_malloc(S->ctx, &S->out[0], S->out_bytes) != CRK_OK) return gpu_err("crk_malloc (out)");
    raw_call *rc = &P->call[0];
    rc->out = S->out[0], rc->in[0] = S->rd_aux;
    double sc[2] = {0};
    int nsc = 0;
    if (deq) { /* Candle: q5 block 256 grid ceil(el/512) k = el; 32-value block 32 grid nb k = el/32; K 64 (q4_K, q8_K 32) */
        const int q5 = t == REF_Q5_0 || t == REF_Q5_1;
        P->grid[0] = (unsigned)(q5 ? (vals + 511) / 512 : (vals + 255) / 256), P->grid[1] = P->grid[2] = 1;
        P->block[0] = q5 ? 256 : bv == 32 || t == REF_Q4_K || t == REF_Q8_K ? 32 : 64, P->block[1] = P->block[2] = 1;
        if (bv == 32) sc[0] = (double)(q5 ? vals : vals / 32), nsc = 1;
    } else { /* ids: a hash of the position; grid (ids, y): block 256 (K 64, q4_K 32) */
        uint32_t *ids = malloc(c->n * 4);
        if (!ids) return printf("ERROR: out of host memory\n"), -1;
        for (size_t i = 0; i < c->n; i++) ids[i] = (uint32_t)(bench_mix(i ^ 0x1D5ULL << 32) % c->dim_size);
        const int ok = crk_malloc(S->ctx, &S->ix_ids[0], c->n * 4) == CRK_OK &&
                       crk_memcpy_htod(S->ctx, S->ix_ids[0], ids, c->n * 4) == CRK_OK;
        free(ids);
        if (!ok) return gpu_err("ids");
        rc->in[1] = S->ix_ids[0];
        const size_t h = c->right;
        P->grid[0] = (unsigned)c->n, P->grid[2] = 1, P->block[0] = 256, P->block[1] = P->block[2] = 1;
        P->grid[1] = (unsigned)(t < 0 ? (h + 255) / 256 : bv == 32 ? (h + 511) / 512 : h / 256);
        if (bv == 256) P->block[0] = t == REF_Q4_K ? 32 : 64;
        sc[0] = (double)h, sc[1] = (double)weight_bytes(op, h), nsc = 2;
    }
    return prep_assemble(P->ki, rc, sc, nsc);
}

crk_status quant_launch_crk(const bench_state *S, const bench_prep *P, int set) {
    const raw_call *rc = &P->call[set];
    const idx_case *c = P->ic;
    if (P->op->family == F_MMVQ)
        return crk_mul_mat_vec_q8_1(S->ctx, NULL, P->op->kernel, rc->in[0], rc->in[1], rc->out, c->right, c->left,
                                    padded(c->right) / 32, c->left);
    if (P->op->family == F_DEQUANT) return crk_dequantize(S->ctx, NULL, P->op->kernel, rc->in[0], rc->out, c->left);
    return crk_get_rows(S->ctx, NULL, P->op->kernel, rc->in[0], c->dim_size, c->right, rc->in[1], c->n, rc->out);
}

typedef void (*mmvq_launcher)(const void *, const void *, void *, int, int, int, int, int, void *);
int quant_launch_peer(const bench_state *S, const bench_prep *P, int set) {
    const raw_call *rc = &P->call[set];
    const idx_case *c = P->ic;
    (void)S;
    ((mmvq_launcher)P->peer_fn)(rc->in[0], rc->in[1], rc->out, (int)c->right, (int)c->left,
                                (int)(padded(c->right) / 32), (int)c->left, (int)mmvq_b(P->op), NULL);
    return 0;
}

int quant_reset(const bench_state *S, const bench_prep *P) {
    (void)P;
    return crk_memset(S->ctx, S->out[0], 0xFF, S->out_bytes) != CRK_OK ? gpu_err("memset") : 0;
}

/* ------------------------------------------------------------ checking */
/* Value v of the weights (dequantize) or of table row `row` (get_rows), as
 * the kernel computes it: bit for bit. */
static float want_value(const op_def *op, size_t v) {
    const int t = type_of(op);
    if (t < 0) {
        unsigned char b[4];
        bench_put(plain_dtype(op), b, 0, plain_value(v));
        return (float)bench_value(plain_dtype(op), b, 0);
    }
    const size_t bv = ref_ggml_block_values((ref_ggml_type)t);
    unsigned char blk[292];
    float y[256];
    make_block(t, v / bv, blk);
    if (op->family == F_DEQUANT) ref_ggml_dequantize((ref_ggml_type)t, blk, 1, y);
    else ref_ggml_get_rows((ref_ggml_type)t, blk, 1, y);
    return y[v % bv];
}

/* MMVQ: 64 outputs (column j, row r) against ref_ggml_mmvq within the f32
 * bound of tests/gpu/fam_mmvq.c ((k/8 + 64)·2^-24 of the terms' magnitudes,
 * plus the half ulp of a 16-bit output). */
static int mmvq_check(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who) {
    const op_def *op = P->op;
    const int t = type_of(op);
    const size_t n = P->ic->left, k = P->ic->right, osz = crk_dtype_size(op->out_dt);
    const size_t bv = ref_ggml_block_values((ref_ggml_type)t), bb = ref_ggml_block_bytes((ref_ggml_type)t);
    unsigned char *row = malloc(k / bv * bb);
    if (!row) return printf("ERROR: out of host memory\n"), -1;
    int bad = 0;
    for (int q = 0; q < 64 && bad < 4; q++) {
        const size_t o = q == 0 ? 0 : q == 1 ? S->n - 1 : bench_rand(rng) % S->n, j = o / n, r = o % n;
        for (size_t kb = 0; kb < k / bv; kb++) make_block(t, r * (k / bv) + kb, row + kb * bb);
        double want, mag;
        ref_ggml_mmvq((ref_ggml_type)t, row, (const unsigned char *)S->q_y_host + j * padded(k) / 32 * 36, k, &want, &mag);
        const double tol = ldexp((double)(k / 8 + 64), -24) * mag + (osz == 2 ? ldexp(1, -8) * (fabs(want) + 1e-30) : 0);
        unsigned char got[4];
        if (crk_memcpy_dtoh(S->ctx, got, (const char *)S->out[0] + o * osz, osz) != CRK_OK) return free(row), gpu_err("dtoh");
        const double g = bench_value(op->out_dt, got, 0);
        if (!(fabs(g - want) <= tol)) {
            printf("%s %s (%s) WRONG at column %zu row %zu: got %.9g, expected %.9g (tolerance %.3g)\n", who,
                   op->kernel, P->ic->label, j, r, g, want, tol);
            bad++;
        }
    }
    free(row);
    return bad ? 1 : 0;
}

/* 64 outputs of set 0 (first, last, middle, random), bit for bit. 0 right, 1 wrong, -1 GPU error. */
int quant_check(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who) {
    if (P->op->family == F_MMVQ) return mmvq_check(S, P, rng, who);
    const size_t n = S->n, osz = crk_dtype_size(P->op->out_dt);
    size_t idx[64] = {0, n - 1, n / 2};
    for (size_t k = 3; k < 64; k++) idx[k] = bench_rand(rng) % n;
    int bad = 0;
    for (size_t k = 0; k < 64 && bad < 4; k++) {
        size_t v = idx[k];
        if (P->op->family == F_GET_ROWS) { /* output (r, col) = table (ids[r], col) */
            const size_t r = v / P->ic->right;
            v = (size_t)(bench_mix(r ^ 0x1D5ULL << 32) % P->ic->dim_size) * P->ic->right + v % P->ic->right;
        }
        const float w = want_value(P->op, v);
        unsigned char got[4], exp[4];
        if (crk_memcpy_dtoh(S->ctx, got, (const char *)S->out[0] + idx[k] * osz, osz) != CRK_OK) return gpu_err("dtoh");
        if (P->op->out_dt == CRK_F16) { const uint16_t h = ref_f32_to_f16(w); memcpy(exp, &h, 2); }
        else memcpy(exp, &w, 4);
        if (memcmp(got, exp, osz)) {
            printf("%s %s (%s) WRONG at element %zu: got %.9g, expected %.9g\n", who, P->op->kernel, P->ic->label,
                   idx[k], bench_value(P->op->out_dt, got, 0), (double)w);
            bad++;
        }
    }
    return bad ? 1 : 0;
}
