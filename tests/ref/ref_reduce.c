/* ref_reduce.c — references of module reduce, written from the fact sheet:
 * fast_* (§4.10), softmax (§4.11), rmsnorm/layernorm (§4.12), rope
 * (§4.13). Where Candle's result depends on an order of operations (16-bit
 * sums, argmin/argmax ties, f32 accumulations), the order the fact sheet
 * documents is simulated lane by lane, so results can be compared exactly
 * or within a few ULPs at any row length. */
#include "ref.h"
#include "ref_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- fast_* */

/* The init value of max (lowest) or min (highest) for dt, as bits. */
static void extreme(crk_dtype dt, int highest, void *out) {
    if (ref_dtype_is_float(dt)) {
        const double v = highest ? INFINITY : -INFINITY;
        refi_store_float(dt, v, out);
        return;
    }
    uint64_t v;
    switch (dt) {
    case CRK_U8: v = highest ? 0xFF : 0; break;
    case CRK_U32: v = highest ? 0xFFFFFFFFu : 0; break;
    case CRK_I16: v = highest ? 0x7FFF : (uint64_t)(int64_t)INT16_MIN; break;
    case CRK_I32: v = highest ? 0x7FFFFFFF : (uint64_t)(int64_t)INT32_MIN; break;
    default: v = highest ? (uint64_t)INT64_MAX : (uint64_t)INT64_MIN; break;
    }
    refi_store_int_bits(dt, v, out);
}

/* b < a (less) or b > a as values; false with a NaN; i64 compared exactly. */
static int strictly(crk_dtype dt, const void *b, const void *a, int less) {
    if (dt == CRK_I64) {
        int64_t x, y;
        memcpy(&x, b, 8), memcpy(&y, a, 8);
        return less ? x < y : x > y;
    }
    const double x = ref_value_f64(dt, b), y = ref_value_f64(dt, a);
    return less ? x < y : x > y;
}

typedef struct {
    int kind; /* 0 sum, 1 min, 2 max, 3 argmin, 4 argmax */
    crk_dtype dt;
    size_t sz;
} red_op;

static int red_kind(const char *op) {
    static const char *const names[] = {"sum", "min", "max", "argmin", "argmax"};
    for (int i = 0; i < 5; i++)
        if (!strcmp(op, names[i])) return i;
    abort();
}

/* Folds b into a (value ops), or lets b replace a when strictly better. */
static void fold(const red_op *r, unsigned char *a, uint32_t *ai, const unsigned char *b, uint32_t bi) {
    static const char *const bin[] = {"add", "minimum", "maximum"};
    if (r->kind < 3) {
        unsigned char t[8];
        ref_binary(bin[r->kind], r->dt, a, b, t);
        memcpy(a, t, r->sz);
    } else if (strictly(r->dt, b, a, r->kind == 3)) {
        memcpy(a, b, r->sz), *ai = bi;
    }
}

void ref_fast_reduce(const char *op, crk_dtype dt, const void *vals, size_t e, size_t idx0, size_t last,
                     unsigned threads, void *out) {
    const red_op r = {red_kind(op), dt, ref_dtype_size(dt)};
    unsigned char *acc = calloc(threads, 8);
    uint32_t *at = malloc(threads * sizeof *at);
    if (!acc || !at) abort();
    for (unsigned t = 0; t < threads; t++) {
        unsigned char *a = acc + (size_t)t * 8;
        if (r.kind == 0) memset(a, 0, r.sz);
        else extreme(dt, r.kind == 1 || r.kind == 3, a);
        at[t] = 0xFFFFFFFFu;
        for (size_t i = t; i < e; i += threads) {
            const unsigned char *x = (const unsigned char *)vals + i * r.sz;
            const uint32_t xi = (uint32_t)(last ? (idx0 + i) % last : 0);
            if (r.kind >= 3 && i == t) memcpy(a, x, r.sz), at[t] = xi; /* a thread's first element */
            else fold(&r, a, &at[t], x, xi);
        }
    }
    unsigned p = 1;
    while (p * 2 <= threads) p *= 2;
    for (unsigned t = 0; t + p < threads; t++) fold(&r, acc + (size_t)t * 8, &at[t], acc + (size_t)(t + p) * 8, at[t + p]);
    for (unsigned s = p / 2; s > 0; s >>= 1)
        for (unsigned t = 0; t < s; t++) fold(&r, acc + (size_t)t * 8, &at[t], acc + (size_t)(t + s) * 8, at[t + s]);
    if (r.kind >= 3) memcpy(out, &at[0], 4);
    else memcpy(out, acc, r.sz);
    free(acc), free(at);
}

/* ------------------------------------------- 32-lane butterflies (§4.11-12) */

typedef void (*lane_fold)(void *a, const void *b, const void *ctx);

/* Every lane of `threads` (a multiple of 32) holds an esz-byte value; the
 * kernels' order: butterflies (masks 16..1) inside each group of 32 lanes,
 * then, with several groups, lane g of every group takes group g's result
 * (identity past the last group) and the butterflies run again. */
static void block_fold(unsigned char *v, unsigned threads, size_t esz, const void *identity, lane_fold f,
                       const void *ctx) {
    unsigned char *t = malloc(threads * esz);
    if (!t) abort();
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned mask = 16; mask > 0; mask >>= 1) {
            memcpy(t, v, threads * esz);
            for (unsigned l = 0; l < threads; l++) f(v + l * esz, t + (l ^ mask) * esz, ctx);
        }
        if (threads <= 32 || pass == 1) break;
        const unsigned groups = threads / 32;
        memcpy(t, v, threads * esz);
        for (unsigned l = 0; l < threads; l++) {
            const unsigned lane = l % 32;
            memcpy(v + l * esz, lane < groups ? t + lane * 32 * esz : identity, esz);
        }
    }
    free(t);
}

static void fold_max(void *a, const void *b, const void *ctx) {
    unsigned char t[8];
    ref_binary("maximum", *(const crk_dtype *)ctx, a, b, t);
    memcpy(a, t, ref_dtype_size(*(const crk_dtype *)ctx));
}
static void fold_f32(void *a, const void *b, const void *ctx) { (void)ctx, *(float *)a += *(const float *)b; }
static void fold_f64(void *a, const void *b, const void *ctx) { (void)ctx, *(double *)a += *(const double *)b; }
static void fold_f32x2(void *a, const void *b, const void *ctx) {
    (void)ctx;
    float *x = a;
    const float *y = b;
    x[0] += y[0], x[1] += y[1];
}

/* ------------------------------------------------------------- softmax */

/* exp(x - max) in T: the subtraction rounds to T, exp rounds to T. */
static void exp_shifted(crk_dtype dt, const void *x, const void *mx, void *out) {
    unsigned char d[8];
    ref_binary("sub", dt, x, mx, d);
    ref_unary("exp", dt, d, out, 0);
}

/* Thread l's columns in the row kernels' order: chunks l, l + threads, ...
 * of `chunk` columns (1: Candle's kernels), a chunk's columns in order
 * (n_cols is a multiple of chunk). */
static size_t first_col(unsigned l, unsigned chunk) { return (size_t)l * chunk; }
static size_t next_col(size_t c, unsigned threads, unsigned chunk) {
    return (c + 1) % chunk ? c + 1 : c + 1 + (size_t)(threads - 1) * chunk;
}

/* A row's (or a piece's) max in T and sum of exp(x - max) in the
 * accumulator (float, double for f64), as every thread of the block ends
 * with them: Candle's passes in the kernels' lane and chunk order. */
static void softmax_stats(crk_dtype dt, const unsigned char *row, size_t n_cols, unsigned threads, unsigned chunk,
                          unsigned char mx[8], double *sum_out) {
    const size_t sz = ref_dtype_size(dt);
    const int wide = dt == CRK_F64;
    unsigned char *m = malloc(threads * 8), *sum = calloc(threads, 8), id[8] = {0}, e[8];
    if (!m || !sum) abort();
    extreme(dt, 0, id);
    for (unsigned l = 0; l < threads; l++) {
        memcpy(m + l * 8, id, sz);
        for (size_t c = first_col(l, chunk); c < n_cols; c = next_col(c, threads, chunk))
            fold_max(m + l * 8, row + c * sz, &dt);
    }
    block_fold(m, threads, 8, id, fold_max, &dt);
    for (unsigned l = 0; l < threads; l++)
        for (size_t c = first_col(l, chunk); c < n_cols; c = next_col(c, threads, chunk)) {
            exp_shifted(dt, row + c * sz, m, e);
            if (wide) *(double *)(sum + l * 8) += ref_value_f64(dt, e);
            else *(float *)(sum + l * 8) += (float)ref_value_f64(dt, e);
        }
    const unsigned char zero[8] = {0};
    block_fold(sum, threads, 8, zero, wide ? fold_f64 : fold_f32, NULL);
    memcpy(mx, m, 8);
    *sum_out = wide ? *(double *)sum : (double)*(float *)sum;
    free(m), free(sum);
}

/* dst = exp(x - mx) * T(1/sum) (16-bit rounds 1/sum to T first). */
static void softmax_out(crk_dtype dt, const unsigned char *row, size_t n_cols, const unsigned char mx[8], double sum,
                        void *out) {
    const size_t sz = ref_dtype_size(dt);
    unsigned char inv[8], e[8];
    if (dt == CRK_F64) {
        const double v = 1.0 / sum;
        memcpy(inv, &v, 8);
    } else {
        refi_store_float(dt, (double)(1.0f / (float)sum), inv);
    }
    for (size_t c = 0; c < n_cols; c++) {
        exp_shifted(dt, row + c * sz, mx, e);
        ref_binary("mul", dt, e, inv, (unsigned char *)out + c * sz);
    }
}

void ref_softmax(crk_dtype dt, const void *row, size_t n_cols, unsigned threads, unsigned chunk, void *out) {
    unsigned char mx[8];
    double sum;
    softmax_stats(dt, row, n_cols, threads, chunk, mx, &sum);
    softmax_out(dt, row, n_cols, mx, sum, out);
}

size_t ref_softmax_piece_lo(size_t j, size_t chunks, size_t pieces) { return j * chunks / pieces; }

void ref_softmax_parts(crk_dtype dt, const void *row, size_t n_cols, size_t pieces, unsigned threads, unsigned chunk,
                       double *m, double *s) {
    const size_t sz = ref_dtype_size(dt), chunks = n_cols / chunk;
    for (size_t j = 0; j < pieces; j++) {
        const size_t lo = ref_softmax_piece_lo(j, chunks, pieces), hi = ref_softmax_piece_lo(j + 1, chunks, pieces);
        unsigned char mx[8];
        softmax_stats(dt, (const unsigned char *)row + lo * chunk * sz, (hi - lo) * chunk, threads, chunk, mx, &s[j]);
        m[j] = ref_value_f64(dt, mx);
    }
}

/* crk_softmax_fin's combine: thread l folds parts l, l + threads, ...
 * (max in T, then s·exp(m - M) fused into the accumulator, a -inf piece
 * adding nothing), then the block folds. */
void ref_softmax_split(crk_dtype dt, const void *row, size_t n_cols, size_t pieces, unsigned threads,
                       const double *m, const double *s, void *out) {
    const int wide = dt == CRK_F64;
    unsigned char *mt = malloc(threads * 8), *st = calloc(threads, 8), id[8] = {0}, v[8];
    if (!mt || !st) abort();
    extreme(dt, 0, id);
    for (unsigned l = 0; l < threads; l++) {
        memcpy(mt + l * 8, id, 8);
        for (size_t i = l; i < pieces; i += threads) {
            refi_store_float(dt, m[i], v); /* exact: m[i] is a T value */
            fold_max(mt + l * 8, v, &dt);
        }
    }
    block_fold(mt, threads, 8, id, fold_max, &dt);
    const double M = ref_value_f64(dt, mt);
    for (unsigned l = 0; l < threads; l++)
        for (size_t i = l; i < pieces; i += threads) {
            if (wide) {
                const double w = exp(m[i] - M);
                if (w != 0) *(double *)(st + l * 8) = fma(s[i], w, *(double *)(st + l * 8));
            } else {
                const float w = expf((float)m[i] - (float)M);
                if (w != 0) *(float *)(st + l * 8) = fmaf((float)s[i], w, *(float *)(st + l * 8));
            }
        }
    const unsigned char zero[8] = {0};
    block_fold(st, threads, 8, zero, wide ? fold_f64 : fold_f32, NULL);
    softmax_out(dt, row, n_cols, mt, wide ? *(double *)st : (double)*(float *)st, out);
    free(mt), free(st);
}

/* crk_softmax_wide on rows of more than `held` chunks a thread
 * (kernels/rows.h stats_long): thread l holds chunks l + k·threads (k <
 * held) and streams the rest (its tail) with a running max mt: a chunk's
 * max in T; where mt moves, the tail's sum st (the accumulator) is scaled
 * by exp(at(old) - at(new)) unless it is 0, then the chunk's exp(x -
 * at(mt)) in T are added, at(-inf) = 0. The block's max M folds the held
 * maxes and mt; a thread's held exps sum in order, then st·exp(at(mt) - M)
 * fused (st != 0). Rows held whole: ref_softmax. */
static double at_shift(double v) { return v == -INFINITY ? 0 : v; }
/* s + x in the accumulator: double for f64 (wide), else float */
static double acc_add(int wide, double s, double x) { return wide ? s + x : (double)((float)s + (float)x); }
void ref_softmax_long(crk_dtype dt, const void *row_, size_t n_cols, unsigned threads, unsigned chunk, unsigned held,
                      void *out) {
    const unsigned char *row = row_;
    const size_t sz = ref_dtype_size(dt), chunks = n_cols / chunk, head = (size_t)held * threads;
    if (chunks <= head) {
        ref_softmax(dt, row, n_cols, threads, chunk, out);
        return;
    }
    const int wide = dt == CRK_F64;
    unsigned char *m = malloc(threads * 8), *mt = malloc(threads * 8), id[8] = {0}, zero[8] = {0}, e[8], cm[8], nm[8];
    double *st = calloc(threads, sizeof(double));
    if (!m || !mt || !st) abort();
    extreme(dt, 0, id);
    refi_store_float(dt, 0.0, zero);
    for (unsigned l = 0; l < threads; l++) {
        unsigned char *ml = m + l * 8, *tl = mt + l * 8;
        memcpy(ml, id, 8), memcpy(tl, id, 8);
        for (size_t k = 0; k < held; k++)
            for (size_t j = 0, q = l + k * threads; j < chunk; j++) fold_max(ml, row + (q * chunk + j) * sz, &dt);
        for (size_t q = head + l; q < chunks; q += threads) {
            memcpy(cm, id, 8);
            for (size_t j = 0; j < chunk; j++) fold_max(cm, row + (q * chunk + j) * sz, &dt);
            memcpy(nm, tl, 8);
            fold_max(nm, cm, &dt);
            const double a = ref_value_f64(dt, nm), b = ref_value_f64(dt, tl);
            if (!(a == b)) {
                if (st[l] != 0)
                    st[l] = wide ? st[l] * exp(at_shift(b) - at_shift(a))
                                 : (double)((float)st[l] * expf((float)at_shift(b) - (float)at_shift(a)));
                memcpy(tl, nm, 8);
            }
            const unsigned char *sh = ref_value_f64(dt, tl) == -INFINITY ? zero : tl;
            for (size_t j = 0; j < chunk; j++) {
                exp_shifted(dt, row + (q * chunk + j) * sz, sh, e);
                st[l] = acc_add(wide, st[l], ref_value_f64(dt, e));
            }
        }
        fold_max(ml, tl, &dt);
    }
    block_fold(m, threads, 8, id, fold_max, &dt);
    const double M = ref_value_f64(dt, m);
    unsigned char *acc = calloc(threads, 8);
    if (!acc) abort();
    for (unsigned l = 0; l < threads; l++) {
        double s = 0;
        for (size_t k = 0; k < held; k++)
            for (size_t j = 0, q = l + k * threads; j < chunk; j++) {
                exp_shifted(dt, row + (q * chunk + j) * sz, m, e);
                s = acc_add(wide, s, ref_value_f64(dt, e));
            }
        const double tm = at_shift(ref_value_f64(dt, mt + l * 8));
        if (st[l] != 0)
            s = wide ? fma(st[l], exp(tm - M), s) : (double)fmaf((float)st[l], expf((float)tm - (float)M), (float)s);
        if (wide) memcpy(acc + l * 8, &s, 8);
        else {
            const float f = (float)s;
            memcpy(acc + l * 8, &f, 4);
        }
    }
    const unsigned char z8[8] = {0};
    block_fold(acc, threads, 8, z8, wide ? fold_f64 : fold_f32, NULL);
    softmax_out(dt, row, n_cols, m, wide ? *(double *)acc : (double)*(float *)acc, out);
    free(m), free(mt), free(st), free(acc);
}

/* --------------------------------------------------------------- norms */

/* The kernels' per-row statistics: sums over the f32 values of the row,
 * thread l taking chunks l, l+threads, ... of `chunk` consecutive columns
 * (1: Candle's kernels; 16 bytes' worth: crk_*_vec), a chunk's columns in
 * order; squares fused (fmaf) as the compilers contract ss += v*v. */
static void row_sums(crk_dtype dt, const void *row, size_t n_cols, unsigned threads, unsigned chunk, float *s,
                     float *ss) {
    const size_t sz = ref_dtype_size(dt);
    float *v = calloc(threads, 2 * sizeof(float));
    if (!v) abort();
    for (unsigned l = 0; l < threads; l++)
        for (size_t c = first_col(l, chunk); c < n_cols; c = next_col(c, threads, chunk)) {
            const float x = (float)ref_value_f64(dt, (const unsigned char *)row + c * sz);
            v[2 * l] += x;
            v[2 * l + 1] = fmaf(x, x, v[2 * l + 1]);
        }
    const float zero[2] = {0, 0};
    block_fold((unsigned char *)v, threads, 2 * sizeof(float), zero, fold_f32x2, NULL);
    *s = v[0], *ss = v[1];
    free(v);
}

static float elem(crk_dtype dt, const void *base, size_t i) {
    return (float)ref_value_f64(dt, (const unsigned char *)base + i * ref_dtype_size(dt));
}

void ref_rmsnorm(crk_dtype dt, const void *row, const void *alpha, size_t n_cols, unsigned threads, unsigned chunk,
                 float eps, void *out) {
    float s, ss;
    row_sums(dt, row, n_cols, threads, chunk, &s, &ss);
    const float scale = 1.0f / sqrtf(ss / (float)n_cols + eps);
    for (size_t c = 0; c < n_cols; c++) {
        float v = scale * elem(dt, row, c);
        if (alpha) v *= elem(dt, alpha, c);
        refi_store_float(dt, (double)v, (unsigned char *)out + c * ref_dtype_size(dt));
    }
}

void ref_layernorm(crk_dtype dt, const void *row, const void *alpha, const void *beta, size_t n_cols,
                   unsigned threads, unsigned chunk, float eps, void *out, double *mag) {
    float s, ss;
    row_sums(dt, row, n_cols, threads, chunk, &s, &ss);
    /* Fused where nvcc fuses Candle's expressions (the kernel writes the
     * same fmaf calls): var = fma(−mean, mean, Σx²/n); the tail
     * fma(d·inv_std, alpha, beta), fma(d, inv_std, beta) without alpha. */
    const float mean = s / (float)n_cols, var = fmaf(-mean, mean, ss / (float)n_cols);
    const float inv_std = 1.0f / sqrtf(var + eps);
    for (size_t c = 0; c < n_cols; c++) {
        const float d = elem(dt, row, c) - mean;
        float v;
        if (beta) v = alpha ? fmaf(d * inv_std, elem(dt, alpha, c), elem(dt, beta, c)) : fmaf(d, inv_std, elem(dt, beta, c));
        else v = alpha ? d * inv_std * elem(dt, alpha, c) : d * inv_std;
        refi_store_float(dt, (double)v, (unsigned char *)out + c * ref_dtype_size(dt));
        if (mag) mag[c] = fabs((double)v) + fabs((double)d * inv_std * (alpha ? elem(dt, alpha, c) : 1.0f));
    }
}

/* ---------------------------------------------------------------- rope */

/* x + y (x exact: a product of 16-bit values) rounded to odd in double. */
static double fma_round_odd(double x, double y) {
    const double s = x + y, v = s - y, t = (x - v) + (y - (s - v)); /* TwoSum: v is x's share of s */
    if (t == 0 || !isfinite(s)) return s;
    uint64_t u;
    memcpy(&u, &s, 8);
    if (!(u & 1)) u += (t > 0) == (s > 0) ? 1 : (uint64_t)-1;
    double r;
    memcpy(&r, &u, 8);
    return r;
}

/* One pair: d0 = x0·c − x1·s, d1 = x0·s + x1·c in T as nvcc compiles
 * upstream for sm_90 (Candle's reduce.cubin): the second product rounded
 * in T, the first fused with it, each result rounded once. */
void ref_rope_pair(crk_dtype dt, const void *x0, const void *x1, const void *c, const void *s, void *d0, void *d1) {
    if (dt == CRK_F32 || dt == CRK_F64) {
        const double a = ref_value_f64(dt, x0), b = ref_value_f64(dt, x1), cc = ref_value_f64(dt, c),
                     ss = ref_value_f64(dt, s);
        if (dt == CRK_F32) {
            const float r0 = fmaf((float)a, (float)cc, -((float)b * (float)ss));
            const float r1 = fmaf((float)a, (float)ss, (float)b * (float)cc);
            memcpy(d0, &r0, 4), memcpy(d1, &r1, 4);
        } else {
            const double r0 = fma(a, cc, -(b * ss)), r1 = fma(a, ss, b * cc);
            memcpy(d0, &r0, 8), memcpy(d1, &r1, 8);
        }
        return;
    }
    /* 16-bit: the product rounded in T, then a·b + p rounded once: the
     * exact sum as s + t in double (a·b exact), s rounded to odd, then one
     * rounding to T (double has far more than the 2 extra bits needed) */
    unsigned char p[8], q[8];
    ref_binary("mul", dt, x1, s, q);
    const double nq = -ref_value_f64(dt, q);
    ref_binary("mul", dt, x1, c, p);
    const double pc = ref_value_f64(dt, p);
    const double a = ref_value_f64(dt, x0), cc = ref_value_f64(dt, c), ss = ref_value_f64(dt, s);
    const double r0 = fma_round_odd(a * cc, nq), r1 = fma_round_odd(a * ss, pc);
    ref_cast(CRK_F64, dt, &r0, d0), ref_cast(CRK_F64, dt, &r1, d1);
}
