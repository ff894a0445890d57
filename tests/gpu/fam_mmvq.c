/* fam_mmvq.c — MMVQ: mul_mat_vec_<t>_q8_1_cuda<b> (Candle's PTX kernels)
 * and mmvq_gguf_<t>_<dt>_plain_cuda<b> (the static library's), b = 1..8;
 * and indexed MoE, indexed_moe_forward_<t>_q8_1 (run_moe, below).
 *
 * MMVQ case i (MCASES, one per layout case index): nrows rows of ncols
 * values of random GGML blocks (ref_ggml_random_blocks: finite scales of
 * either sign), b columns of random x in [-1/16, 1/16) quantized on the
 * CPU (ref_quantize_q8_1, rows padded to a multiple of 512 as Candle pads
 * them: k not a multiple of 512 leaves zero blocks the kernels must not
 * read as weights). Odd row counts (the pairs' second row past the end is
 * upstream's PTX bug), a sliced weight matrix and an unaligned output.
 *
 * Shapes: Candle's (fact sheet §4.18 item 5, §4.19): grid nrows (b = 1) or
 *   ceil(nrows/2), block (32, 4) for b <= 4 else (32, 2); y's column stride
 *   pad(ncols, 512) values (PTX: nrows_y) or /32 blocks (static library),
 *   dst's nrows. libcrk's: crk_mul_mat_vec_q8_1 with a dst column stride
 *   of nrows + 5 (the gaps keep their poison) and y's of one block more
 *   than the padding; it must refuse a partial block. On case 2, a raw
 *   launch of 256 threads a block (the kernels' general copy). On case 4 the
 *   static library's kernels run through its launchers instead
 *   (launch_mmvq_gguf_*, libcrk's exports of Candle's names).
 *
 * Tolerance. The reference (ref_ggml_mmvq) is the exact value of the
 * kernels' integer formulation (each 32-value block's offset through the
 * q8_1 block's f16 Σx, as GGML's); the kernels add f32 terms: a unit's
 * dot (a few roundings of at most its terms' magnitudes), a thread's
 * units in turn (at most ncols/8 of them: q8_0's 4 units a block, one
 * thread), 5 butterfly adds and 8 group adds. An f32 sum of m terms errs
 * by at most m·2^-24 of the sum of the magnitudes, so |got − want| <=
 * (ncols/8 + 64)·2^-24·mag, mag = Σ|terms|; a 16-bit output adds its one
 * rounding, half an ulp: 2^-11 (f16) or 2^-8 (bf16) of |want| + tolerance.
 * A wrong nibble, scale or row is off by a large part of mag; NaN fails. */
#include "crk_libmoe.h"
#include "suite.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

typedef struct {
    const char *name;
    size_t nrows, row_blocks;   /* weight rows; 32-value blocks a row (K types: /8 super-blocks, at least 1) */
    size_t src_rows, dst_off;   /* sliced: weight rows skipped, output values skipped */
} mmvq_case;
static const mmvq_case MCASES[] = {
    {"empty", 0, 8, 0, 0},
    {"one row, one block", 1, 1, 0, 0},
    {"37 rows of 3 blocks (k padded 96 -> 512)", 37, 3, 0, 0},
    {"sliced, unaligned output; 11 rows of 16 blocks", 11, 16, 3, 1},
    {"300 rows of 4096", 300, 128, 0, 0},
    {"33 rows of 14336", 33, 448, 0, 0},
};
#define N_MCASES (sizeof MCASES / sizeof MCASES[0])

static int is_ptx(const crk_kernel_info *ki) { return ki->family_id == CRK_FAMILY_MMVQ; }
/* "q4_0_q8_1_cuda3" (PTX) or "q4_k_f16_plain_cuda3": the type and b */
static ref_ggml_type mmvq_type(const crk_kernel_info *ki) {
    for (int i = 0; i < REF_GGML_COUNT; i++)
        if (!strncasecmp(ki->op, ref_ggml_name((ref_ggml_type)i), 4) && ki->op[4] == '_') return (ref_ggml_type)i;
    return REF_GGML_COUNT;
}
static int mmvq_b(const crk_kernel_info *ki) { return ki->op[strlen(ki->op) - 1] - '0'; }
static size_t mmvq_ncols(const crk_kernel_info *ki, const mmvq_case *m) {
    const size_t vals = ref_ggml_block_values(mmvq_type(ki));
    return vals == 32 ? m->row_blocks * 32 : (m->row_blocks + 7) / 8 * 256;
}

static uint32_t next_bits(void *r) { return (uint32_t)(rng_next((rng_t *)r) >> 32); }

typedef void (*mmvq_launcher)(const void *, const void *, void *, int, int, int, int, int, void *);
#define L(t) {#t, {launch_mmvq_gguf_##t##_bf16_plain, launch_mmvq_gguf_##t##_f16_plain, launch_mmvq_gguf_##t##_f32_plain}}
static const struct {
    const char *type;
    mmvq_launcher f[3]; /* bf16, f16, f32 */
} LAUNCHERS[] = {L(q4_0), L(q4_1), L(q5_0), L(q5_1), L(q8_0), L(q2_k), L(q3_k), L(q4_k), L(q5_k), L(q6_k)};
#undef L
static mmvq_launcher launcher_of(const crk_kernel_info *ki, crk_dtype dt) {
    for (size_t i = 0; i < sizeof LAUNCHERS / sizeof LAUNCHERS[0]; i++)
        if (!strncmp(ki->op, LAUNCHERS[i].type, 4)) return LAUNCHERS[i].f[dt == CRK_BF16 ? 0 : dt == CRK_F16 ? 1 : 2];
    return NULL;
}

static double got_value(crk_dtype dt, const unsigned char *p) { return ref_value_f64(dt, p); }

static int run_one(suite_t *S, const crk_kernel_info *ki, const mmvq_case *m, const char *cname) {
    const ref_ggml_type t = mmvq_type(ki);
    const int b = mmvq_b(ki), rpb = b == 1 ? 1 : 2, candle = S->shape == SHAPE_CANDLE;
    const crk_dtype dt = output_dtype(ki);
    const size_t sz = crk_dtype_size(dt), vals = ref_ggml_block_values(t), bytes = ref_ggml_block_bytes(t);
    const size_t nrows = m->nrows, ncols = mmvq_ncols(ki, m), bpr = ncols / vals;
    const size_t kp = (ncols + 511) / 512 * 512, ystride = kp / 32 + (candle ? 0 : 1); /* q8_1 blocks */
    const size_t dstride = nrows + (candle ? 0 : 5), total = m->dst_off + (size_t)(b - 1) * dstride + nrows + GUARD;
    unsigned char *w = S->host[0], *got = S->host[1], *y = S->host[2];
    float *x = (float *)S->host[3];
    ref_ggml_random_blocks(t, w, (m->src_rows + nrows) * bpr, next_bits, &S->rng);
    memset(y, 0, (size_t)b * ystride * 36);
    for (int j = 0; j < b; j++) {
        for (size_t k = 0; k < ncols; k++) x[k] = (float)((rng_unit(&S->rng) * 2 - 1) / 16);
        ref_quantize_q8_1(x, ncols, kp, y + (size_t)j * ystride * 36);
    }
    const unsigned char poison = poison_byte(S);
    memset(got, poison, total * sz);
    if (upload(S, S->dev[0], w, (m->src_rows + nrows) * bpr * bytes) || upload(S, S->dev[2], y, (size_t)b * ystride * 36) ||
        upload(S, S->dev[1], got, total * sz))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    const void *vx = (const char *)S->dev[0] + m->src_rows * bpr * bytes;
    void *dst = (char *)S->dev[1] + m->dst_off * sz;
    crk_status st = CRK_OK;
    if (candle) {
        if (nrows) {
            const void *in[2] = {vx, S->dev[2]};
            const double sc[4] = {(double)ncols, (double)nrows, is_ptx(ki) ? (double)kp : (double)ystride,
                                  (double)dstride};
            raw_launch r = {NULL, 0, 0, 0, in, dst, sc, NULL, (unsigned)((nrows + rpb - 1) / rpb),
                            {32, b <= 4 ? 4u : 2u, 1}, 0};
            st = launch_raw_2d(S, ki, &r, 1);
        }
    } else if (m == &MCASES[2]) { /* a block of 256: the kernels' general copy (not Candle's 128 or 64) */
        const void *in[2] = {vx, S->dev[2]};
        const double sc[4] = {(double)ncols, (double)nrows, is_ptx(ki) ? (double)ystride * 32 : (double)ystride,
                              (double)dstride};
        raw_launch r = {NULL, 0, 0, 0, in, dst, sc, NULL, (unsigned)((nrows + rpb - 1) / rpb), {256, 1, 1}, 0};
        st = launch_raw_2d(S, ki, &r, 1);
    } else if (!is_ptx(ki) && m == &MCASES[4]) {
        mmvq_launcher f = launcher_of(ki, dt);
        f(vx, S->dev[2], dst, (int)ncols, (int)nrows, (int)ystride, (int)dstride, b, NULL);
        /* a void launcher refuses bad arguments by crk_last_error (and stderr), launching nothing */
        if (b == 1 && dt == CRK_F32) {
            f(vx, S->dev[2], dst, (int)ncols, (int)nrows, (int)ystride, (int)dstride, 9, NULL);
            const int b_refused = strstr(crk_last_error(), "b_size 9") != NULL;
            f(vx, S->dev[2], dst, (int)ncols, (int)nrows, 1, (int)dstride, 1, NULL);
            if (!b_refused || !strstr(crk_last_error(), "y_stride"))
                return printf("FAIL %s [%s]: its launcher took b_size 9 or a short y stride: %s\n", ki->name, cname,
                              crk_last_error()), 1;
        }
    } else {
        st = crk_mul_mat_vec_q8_1(S->ctx, NULL, ki->name, vx, S->dev[2], dst, ncols, nrows, ystride, dstride);
        /* refused, naming the problem: a partial block, y's stride too short */
        if (st == CRK_OK && nrows &&
            (crk_mul_mat_vec_q8_1(S->ctx, NULL, ki->name, vx, S->dev[2], dst, ncols - 1, nrows, ystride, dstride) !=
                 CRK_E_INVALID || !strstr(crk_last_error(), "whole number") ||
             crk_mul_mat_vec_q8_1(S->ctx, NULL, ki->name, vx, S->dev[2], dst, ncols, nrows, ncols / 32 - 1, dstride) !=
                 CRK_E_INVALID || !strstr(crk_last_error(), "y_stride")))
            return printf("FAIL %s [%s]: a partial block or a short y stride was not refused: %s\n", ki->name, cname,
                          crk_last_error()), 1;
    }
    if (finish(S, st, ki, cname, got, S->dev[1], total * sz)) return 1;
    if (guard_bad(ki, cname, got, m->dst_off * sz, poison)) return 1;
    const double half_ulp = dt == CRK_F16 ? ldexp(1, -11) : dt == CRK_BF16 ? ldexp(1, -8) : 0;
    for (int j = 0; j < b; j++) {
        const unsigned char *col = got + (m->dst_off + (size_t)j * dstride) * sz;
        for (size_t r = 0; r < nrows; r++) {
            double want, mag;
            ref_ggml_mmvq(t, w + (m->src_rows + r) * bpr * bytes, y + (size_t)j * ystride * 36, ncols, &want, &mag);
            double tol = ldexp((double)(ncols / 8 + 64), -24) * mag;
            tol += half_ulp * (fabs(want) + tol) + (dt == CRK_F16 ? ldexp(1, -25) : 0); /* f16 subnormals: 2^-24 apart */
            const double g = got_value(dt, col + r * sz);
            if (!(fabs(g - want) <= tol)) /* NaN fails */
                return printf("FAIL %s [%s] column %d row %zu of %zu (%zu columns): got %.9g want %.9g (tolerance "
                              "%.3g)\n", ki->name, cname, j, r, nrows, ncols, g, want, tol), 1;
        }
        /* between columns (libcrk's stride) and after the last: untouched */
        const size_t gap = j + 1 < b ? dstride - nrows : GUARD;
        if (guard_bad(ki, cname, col + nrows * sz, gap * sz, poison)) return 1;
    }
    return 0;
}

/* indexed_moe_forward_<t>_q8_1: experts of n x k weights, ids of (batch,
 * topk) tasks, q8_1 inputs a batch row (input_dim1 1) or a task. Every case
 * of more than one expert routes some task to an expert past 0 (upstream's
 * q8_0 stride reads wrong weights there). Shapes: Candle's (grid (n,
 * batch, topk), block (32, 4): crk_indexed_moe_forward launches the same)
 * and a raw (n, batch, topk) x (64, 1) launch. Tolerance as MMVQ's. */
typedef struct {
    const char *name;
    size_t n, row_blocks, batch, topk, experts, input_dim1;
} moe_case;
static const moe_case ECASES[] = {
    {"empty", 0, 8, 1, 1, 1, 1},
    {"1 row, 1 block, expert 1 of 2", 1, 1, 1, 1, 2, 1},
    {"37 rows of 3 blocks, batch 3, topk 2, 4 experts, shared inputs", 37, 3, 3, 2, 4, 1},
    {"11 rows of 16 blocks, batch 2, topk 8, 8 experts, an input a task", 11, 16, 2, 8, 8, 8},
    {"64 rows of 4096, batch 4, topk 2, 8 experts", 64, 128, 4, 2, 8, 1},
};
#define N_ECASES (sizeof ECASES / sizeof ECASES[0])

static ref_ggml_type moe_type(const crk_kernel_info *ki) {
    static const struct { const char *op; ref_ggml_type t; } T[] = {
        {"q2k", REF_Q2_K}, {"q3k", REF_Q3_K}, {"q4k", REF_Q4_K}, {"q5k", REF_Q5_K}, {"q6k", REF_Q6_K}, {"q8_0", REF_Q8_0}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (!strncmp(ki->op, T[i].op, strlen(T[i].op))) return T[i].t;
    return REF_GGML_COUNT;
}
static size_t moe_k(const crk_kernel_info *ki, const moe_case *e) {
    return ref_ggml_block_values(moe_type(ki)) == 32 ? e->row_blocks * 32 : (e->row_blocks + 7) / 8 * 256;
}

static int run_moe(suite_t *S, const crk_kernel_info *ki, const moe_case *e, const char *cname) {
    const ref_ggml_type t = moe_type(ki);
    const size_t k = moe_k(ki, e), n = e->n, bpr = k / ref_ggml_block_values(t), bytes = ref_ggml_block_bytes(t);
    const size_t kp = (k + 511) / 512 * 512, tasks = e->batch * e->topk;
    const size_t in_rows = e->input_dim1 == 1 ? e->batch : tasks, total = tasks * n + GUARD;
    unsigned char *w = S->host[0], *y = S->host[2];
    float *got = (float *)S->host[1], *x = (float *)S->host[3];
    uint32_t *ids = (uint32_t *)S->host[4];
    ref_ggml_random_blocks(t, w, e->experts * n * bpr, next_bits, &S->rng);
    for (size_t i = 0; i < tasks; i++) ids[i] = (uint32_t)(rng_next(&S->rng) % e->experts);
    if (e->experts > 1) ids[tasks - 1] = (uint32_t)(e->experts - 1); /* past expert 0 */
    for (size_t r = 0; r < in_rows; r++) {
        for (size_t i = 0; i < k; i++) x[i] = (float)((rng_unit(&S->rng) * 2 - 1) / 16);
        ref_quantize_q8_1(x, k, kp, y + r * kp / 32 * 36);
    }
    const unsigned char poison = poison_byte(S);
    memset(got, poison, total * 4);
    if (upload(S, S->dev[0], w, e->experts * n * bpr * bytes) || upload(S, S->dev[2], y, in_rows * kp / 32 * 36) ||
        upload(S, S->dev[3], ids, tasks * 4) || upload(S, S->dev[1], got, total * 4))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    crk_status st = CRK_OK;
    if (S->shape == SHAPE_CANDLE) {
        st = crk_indexed_moe_forward(S->ctx, NULL, ki->name, S->dev[0], S->dev[2], S->dev[3], S->dev[1], n, k, e->batch,
                                     e->topk, kp, e->input_dim1);
    } else if (n) {
        const int ni = (int)n, ki_ = (int)k, bi = (int)e->batch, ti = (int)e->topk, kpi = (int)kp, d1 = (int)e->input_dim1;
        void *args[10] = {&S->dev[0], &S->dev[2], &S->dev[3], &S->dev[1], (void *)&ni, (void *)&ki_, (void *)&bi,
                          (void *)&ti, (void *)&kpi, (void *)&d1};
        const size_t sizes[10] = {8, 8, 8, 8, 4, 4, 4, 4, 4, 4};
        const unsigned grid[3] = {(unsigned)n, (unsigned)e->batch, (unsigned)e->topk}, block[3] = {64, 1, 1};
        st = crk_launch(S->ctx, NULL, ki->name, grid, block, 0, args, sizes, 10);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], total * 4)) return 1;
    for (size_t task = 0; task < tasks; task++) {
        const unsigned char *xr = y + (e->input_dim1 == 1 ? task / e->topk : task) * kp / 32 * 36;
        for (size_t r = 0; r < n; r++) {
            double want, mag;
            ref_ggml_mmvq(t, w + (ids[task] * n + r) * bpr * bytes, xr, k, &want, &mag);
            const double tol = ldexp((double)(k / 8 + 64), -24) * mag, g = got[task * n + r];
            if (!(fabs(g - want) <= tol))
                return printf("FAIL %s [%s] task %zu (expert %u) row %zu of %zu: got %.9g want %.9g (tolerance %.3g)\n",
                              ki->name, cname, task, ids[task], r, n, g, want, tol), 1;
        }
    }
    return guard_bad(ki, cname, (const unsigned char *)(got + tasks * n), GUARD * 4, poison);
}

int run_mmvq(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    if (ki->family_id == CRK_FAMILY_MOE) {
        char cn[128];
        const moe_case *e = &ECASES[lc - CASES];
        snprintf(cn, sizeof cn, "%s%s", e->name, S->shape == SHAPE_CANDLE ? ", Candle's launch shape" : "");
        return run_moe(S, ki, e, cn);
    }
    char cn[128];
    const mmvq_case *m = &MCASES[lc - CASES];
    snprintf(cn, sizeof cn, "%s%s", m->name, S->shape == SHAPE_CANDLE ? ", Candle's launch shape" : "");
    return run_one(S, ki, m, cn);
}
int mmvq_applies(const layout_case *lc, const crk_kernel_info *ki) {
    return (size_t)(lc - CASES) < (ki->family_id == CRK_FAMILY_MOE ? N_ECASES : N_MCASES);
}
size_t mmvq_elements(const layout_case *lc, const crk_kernel_info *ki) {
    const size_t i = (size_t)(lc - CASES);
    if (ki->family_id == CRK_FAMILY_MOE) return i < N_ECASES ? ECASES[i].experts * ECASES[i].n * moe_k(ki, &ECASES[i]) : 0;
    return i < N_MCASES ? MCASES[i].nrows * mmvq_ncols(ki, &MCASES[i]) : 0;
}
