/* reduce.c — the rows of module reduce (issue 9): softmax over attention
 * scores and vocab logits, rmsnorm/layernorm of hidden states, fast_sum /
 * fast_max over the last dim, fast_argmax of logits (sampling) and rope of
 * (b, h, t, d) at fixed model-like shapes (bench/README.md): their cases,
 * data, bytes, Candle's launch, libcrk's helper and the CPU check. Values
 * are a function of (row, column), so a check recomputes a row instead of
 * keeping the input on the host. */
#include "bench.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {label, rows, cols, cols, 1, 1}; rope: {label, b·h, t, d, 1, 0} with b = 1. */
/* softmax: prefill attention scores (4096x4096, 1024x32768), decode
 * attention over a 32k context (32 heads x 1 query; 1 head), vocab logits
 * (32x128256), a long prefill's scores (8192x32768: 1 GiB of f32, where a
 * launch's ramp weighs as little as in the 2^28 copy), the wide kernel's
 * two launch rules (1024x10240: f32 rows two blocks an SM hold, a block a
 * row; 1024x65536: 16-bit rows one block an SM holds, persistent, f32
 * rows longer than it holds), a prefill's vocab logits (1024x128256: rows
 * 4x what a block holds, the tail streamed); norms: prefill hidden states (8192x4096), a decode step
 * (1x4096, 32x4096), a wide model's hidden states (16x32768). */
static const idx_case SOFTMAX[] = {{"4096x4096", 4096, 4096, 4096, 1, 1, NULL},    {"1024x32768", 1024, 32768, 32768, 1, 1, NULL},
                                   {"32x32768", 32, 32768, 32768, 1, 1, NULL},      {"1x32768", 1, 32768, 32768, 1, 1, NULL},
                                   {"32x128256", 32, 128256, 128256, 1, 1, NULL},
                                   {"8192x32768", 8192, 32768, 32768, 1, 1, NULL},
                                   {"1024x10240", 1024, 10240, 10240, 1, 1, NULL},  {"1024x65536", 1024, 65536, 65536, 1, 1, NULL},
                                   {"1024x128256", 1024, 128256, 128256, 1, 1, NULL}};
static const idx_case HIDDEN[] = {{"8192x4096", 8192, 4096, 4096, 1, 1, NULL},
                                  {"32x4096", 32, 4096, 4096, 1, 1, NULL},
                                  {"1x4096", 1, 4096, 4096, 1, 1, NULL},
                                  {"16x32768", 16, 32768, 32768, 1, 1, NULL}};
static const idx_case FAST[] = {{"8192x4096", 8192, 4096, 4096, 1, 1, NULL}};
static const idx_case LOGITS[] = {{"32x128256", 32, 128256, 128256, 1, 1, NULL}};
static const idx_case ROPE[] = {{"1x32x4096x128", 32, 4096, 128, 1, 0, NULL}};
/* Tiny (emulator): the norms' two block sizes (32 below 1024 columns, else 1024). */
static const idx_case SOFTMAX_TINY[] = {{"16x1000", 16, 1000, 1000, 1, 1, NULL}, {"4x5000", 4, 5000, 5000, 1, 1, NULL}};
static const idx_case HIDDEN_TINY[] = {{"8x500", 8, 500, 500, 1, 1, NULL}, {"4x2048", 4, 2048, 2048, 1, 1, NULL}};
static const idx_case LOGITS_TINY[] = {{"4x5000", 4, 5000, 5000, 1, 1, NULL}};
static const idx_case ROPE_TINY[] = {{"1x4x16x32", 4, 16, 32, 1, 0, NULL}};

#define N_OF(a) (sizeof a / sizeof a[0])
#define ROWS(c) ((c)->left) /* rope: b·h */
#define COLS(c) ((c)->dim_size) /* rope: t */
#define HEAD_D(c) ((c)->n)
#define NORM_EPS 1e-5f
#define ROPE_BASE 10000.0

static int is_argmax(const op_def *op) { return op->out_dt == CRK_U32; }
/* sum0, max0: fast_* over dim 0 (a leading-dim reduction: column sums) */
static int over_first(const op_def *op) { return op->family == F_FAST && op->op[strlen(op->op) - 1] == '0'; }
static crk_dtype in_dt(const op_def *op) { return strcmp(op->dtype, "bf16") ? CRK_F32 : CRK_BF16; }
static size_t elems(const op_def *op, const idx_case *c) {
    return ROWS(c) * COLS(c) * (op->family == F_ROPE ? HEAD_D(c) : 1);
}
/* Elements a row of the check spans: rope's rows are (b, h, t) of d. */
static size_t row_len(const op_def *op, const idx_case *c) { return op->family == F_ROPE ? HEAD_D(c) : COLS(c); }
static size_t out_elems(const op_def *op, const idx_case *c) {
    return op->family == F_FAST ? (over_first(op) ? COLS(c) : ROWS(c)) : elems(op, c);
}

const idx_case *reduce_cases(const op_def *op, int tiny, size_t *count) {
#define PICK(F, T) return *count = tiny ? N_OF(T) : N_OF(F), tiny ? T : F
    switch (op->family) {
    case F_SOFTMAX: PICK(SOFTMAX, SOFTMAX_TINY);
    case F_NORM: PICK(HIDDEN, HIDDEN_TINY);
    case F_FAST:
        if (is_argmax(op)) PICK(LOGITS, LOGITS_TINY);
        PICK(FAST, HIDDEN_TINY);
    default: PICK(ROPE, ROPE_TINY);
    }
#undef PICK
}

/* Read once + written once: x, alpha (and beta), cos and sin, the output. */
double reduce_bytes(const op_def *op, const idx_case *c) {
    const double ts = (double)crk_dtype_size(in_dt(op)), el = (double)elems(op, c);
    const double out = (double)out_elems(op, c) * (double)crk_dtype_size(op->out_dt);
    switch (op->family) {
    case F_NORM: return el * ts + out + (strstr(op->kernel, "layer") ? 2.0 : 1.0) * (double)COLS(c) * ts;
    case F_ROPE: return el * ts + out + (double)COLS(c) * (double)HEAD_D(c) * ts; /* cos, sin: t x d/2 each */
    default: return el * ts + out;
    }
}

void reduce_describe(const op_def *op, const idx_case *c, char *buf, size_t cap) {
    if (op->family == F_ROPE) {
        snprintf(buf, cap, "x (1, %zu, %zu, %zu) %s, cos/sin (%zu, %zu) -> (1, %zu, %zu, %zu), rotate-half", ROWS(c),
                 COLS(c), HEAD_D(c), op->dtype, COLS(c), HEAD_D(c) / 2, ROWS(c), COLS(c), HEAD_D(c));
        return;
    }
    const int fast = op->family == F_FAST;
    snprintf(buf, cap, "x (%zu, %zu) %s -> (%zu%s%.0zu) %s, over dim %d%s", ROWS(c), COLS(c), op->dtype,
             over_first(op) ? COLS(c) : ROWS(c), fast ? "" : ", ", fast ? (size_t)0 : COLS(c),
             is_argmax(op) ? "u32" : op->dtype, over_first(op) ? 0 : 1,
             op->family == F_NORM ? (strstr(op->kernel, "layer") ? ", alpha, beta (cols)" : ", alpha (cols)") : "");
}

/* ------------------------------------------------------------ data */
/* Element (r, k) of set s: a permutation of the columns scaled by a power
 * of two, so values are exact in f32 and distinct within a row (argmax has
 * one answer), plus a per-row shift so rows differ. */
static float x_value(size_t r, size_t k, size_t cols, int s) {
    size_t p = 1;
    while (p * 16 < cols) p *= 2;
    const size_t kp = (k * 1000003u + r * 7919u) % cols; /* 1000003: a prime above any cols */
    return (float)((double)kp / (double)p - 8.0 + (double)((r + (size_t)s) % 7) * 0.125);
}
static float stored(crk_dtype t, float v) { return t == CRK_BF16 ? bench_bf16_to_f32(bench_f32_to_bf16(v)) : v; }
/* alpha, beta of column k (exact in bf16); rope's angle of (position, pair). */
static float alpha_of(size_t k) { return 1.0f + (float)(k % 5) * 0.125f; }
static float beta_of(size_t k) { return (float)(k % 3) * 0.25f - 0.25f; }
static double angle(size_t pos, size_t i, size_t d) { return (double)pos * pow(ROPE_BASE, -2.0 * (double)i / (double)d); }

static int gpu_err(const char *what) { return printf("ERROR: %s: %s\n", what, crk_last_error()), -1; }

static int upload_x(const bench_state *S, const op_def *op, const idx_case *c, void *dev, int s) {
    const crk_dtype t = in_dt(op);
    const size_t len = row_len(op, c), rows = elems(op, c) / len, ts = crk_dtype_size(t);
    const size_t chunk = ((size_t)1 << 22) / len + 1; /* rows per upload */
    void *h = malloc(chunk * len * ts);
    if (!h) return printf("ERROR: out of host memory\n"), -1;
    for (size_t at = 0; at < rows; at += chunk) {
        const size_t m = rows - at < chunk ? rows - at : chunk;
        for (size_t r = 0; r < m; r++)
            for (size_t k = 0; k < len; k++) bench_put(t, h, r * len + k, x_value(at + r, k, len, s));
        if (crk_memcpy_htod(S->ctx, (char *)dev + at * len * ts, h, m * len * ts) != CRK_OK)
            return free(h), gpu_err("htod (x)");
    }
    free(h);
    return 0;
}

/* alpha then beta (norms), or cos then sin (rope), into S->rd_aux. */
static int upload_aux(bench_state *S, const op_def *op, const idx_case *c) {
    const crk_dtype t = in_dt(op);
    const int rope = op->family == F_ROPE;
    const size_t half = rope ? COLS(c) * HEAD_D(c) / 2 : COLS(c), ts = crk_dtype_size(t);
    void *h = malloc(2 * half * ts);
    if (!h) return printf("ERROR: out of host memory\n"), -1;
    for (size_t i = 0; i < half; i++) {
        const double a = rope ? angle(i / (HEAD_D(c) / 2), i % (HEAD_D(c) / 2), HEAD_D(c)) : 0;
        bench_put(t, h, i, rope ? (float)cos(a) : alpha_of(i));
        bench_put(t, h, half + i, rope ? (float)sin(a) : beta_of(i));
    }
    const int bad = crk_malloc(S->ctx, &S->rd_aux, 2 * half * ts) != CRK_OK ||
                    crk_memcpy_htod(S->ctx, S->rd_aux, h, 2 * half * ts) != CRK_OK;
    free(h);
    return bad ? gpu_err("aux (alpha/beta, cos/sin)") : 0;
}

void reduce_free(bench_state *S) {
    if (S->rd_aux) crk_free(S->ctx, S->rd_aux), S->rd_aux = NULL;
}

/* Candle's launch and the kernel's scalars (launch_reduce.c's, by role index). */
static int candle_launch(const bench_state *S, const op_def *op, const idx_case *c, bench_prep *P, double sc[4]) {
    const size_t rows = ROWS(c), cols = COLS(c);
    P->grid[0] = (unsigned)rows, P->grid[1] = P->grid[2] = 1, P->block[0] = P->block[1] = P->block[2] = 1;
    switch (op->family) {
    case F_SOFTMAX: P->block[1] = 32, sc[0] = (double)cols; return 1;
    case F_NORM:
        P->block[0] = cols < 1024 ? 32 : 1024;
        sc[0] = (double)cols, sc[1] = P->block[0], sc[2] = NORM_EPS;
        return 3;
    case F_FAST: { /* info = [dims, strides] reordered (kept, reduced), uploaded once as Candle does per call */
        const int first = over_first(op);
        const size_t e = first ? rows : cols;
        while (P->block[0] < e && P->block[0] < 1024) P->block[0] *= 2;
        const size_t info[4] = {first ? cols : rows, e, first ? 1 : cols, first ? cols : 1};
        P->grid[0] = (unsigned)(first ? cols : rows);
        if (crk_malloc(S->ctx, &P->info_dev, sizeof info) != CRK_OK ||
            crk_memcpy_htod(S->ctx, P->info_dev, info, sizeof info) != CRK_OK)
            return gpu_err("info buffer");
        sc[0] = (double)e;
        return 1;
    }
    default: /* rope: for_num_elems(el / 2), not batched (stride_b 0) */
        P->grid[0] = 0, P->work = elems(op, c) / 2;
        sc[0] = (double)rows, sc[1] = (double)(cols * HEAD_D(c)), sc[2] = (double)HEAD_D(c), sc[3] = 0;
        return 4;
    }
}

int reduce_prep(bench_state *S, const op_def *op, const idx_case *c, bench_prep *P) {
    memset(P, 0, sizeof *P);
    P->op = op, P->lay = LAY_CONTIG, P->ic = c;
    if (!(P->ki = crk_kernel_find(op->kernel))) return printf("ERROR: %s: %s\n", op->kernel, crk_last_error()), -1;
    const size_t el = elems(op, c), ts = crk_dtype_size(in_dt(op));
    const double bytes = reduce_bytes(op, c);
    S->sets = (int)((ROTATE_BYTES + bytes - 1) / bytes);
    if (S->sets < 1) S->sets = 1;
    if (S->sets > MAX_SETS) S->sets = MAX_SETS;
    S->n = el, S->out_bytes = out_elems(op, c) * crk_dtype_size(op->out_dt);
    const size_t dims[2] = {ROWS(c), COLS(c)};
    crk_layout_contiguous(&P->in_l[0], 2, dims); /* crk_reduce's src */
    if ((op->family == F_NORM || op->family == F_ROPE) && upload_aux(S, op, c)) return -1;
    double sc[4] = {0};
    const int nsc = candle_launch(S, op, c, P, sc);
    if (nsc < 0) return -1;
    const size_t half = op->family == F_ROPE ? COLS(c) * HEAD_D(c) / 2 : COLS(c); /* aux's second operand */
    for (int s = 0; s < S->sets; s++) {
        if (crk_malloc(S->ctx, &S->as_x[s], el * ts) != CRK_OK) return gpu_err("crk_malloc (x)");
        if (upload_x(S, op, c, S->as_x[s], s)) return -1;
        if (crk_malloc(S->ctx, &S->out[s], S->out_bytes) != CRK_OK) return gpu_err("crk_malloc (out)");
        raw_call *rc = &P->call[s];
        rc->numel = el, rc->num_dims = 2, rc->info = P->info_dev, rc->out = S->out[s];
        rc->in[0] = S->as_x[s];
        if (S->rd_aux) rc->in[1] = S->rd_aux, rc->in[2] = (char *)S->rd_aux + half * ts;
        if (prep_assemble(P->ki, rc, sc, nsc)) return -1;
    }
    return 0;
}

crk_status reduce_launch_crk(const bench_state *S, const bench_prep *P, int set) {
    const raw_call *c = &P->call[set];
    const idx_case *ic = P->ic;
    const char *k = P->op->kernel;
    static const size_t last[1] = {1}, first[1] = {0};
    switch (P->op->family) {
    case F_SOFTMAX: return crk_softmax(S->ctx, NULL, k, c->in[0], c->out, ROWS(ic), COLS(ic));
    case F_NORM:
        if (strstr(k, "layer"))
            return crk_layernorm(S->ctx, NULL, k, c->in[0], c->out, c->in[1], c->in[2], ROWS(ic), COLS(ic), NORM_EPS);
        return crk_rmsnorm(S->ctx, NULL, k, c->in[0], c->out, c->in[1], ROWS(ic), COLS(ic), NORM_EPS);
    case F_FAST: return crk_reduce(S->ctx, NULL, k, &P->in_l[0], c->in[0], over_first(P->op) ? first : last, 1, c->out);
    default: return crk_rope(S->ctx, NULL, k, c->in[0], c->in[1], c->in[2], c->out, 1, ROWS(ic), COLS(ic), HEAD_D(ic), 0);
    }
}

int reduce_reset(const bench_state *S, const bench_prep *P) {
    (void)P;
    return crk_memset(S->ctx, S->out[0], 0xFF, S->out_bytes) != CRK_OK ? gpu_err("memset") : 0;
}

/* ------------------------------------------------------------ checking */
static int wrong(const bench_prep *P, const char *who, size_t r, size_t k, double got, double want) {
    printf("%s %s (%s, %s) WRONG in row %zu at column %zu: got %.8g, expected %.8g\n", who, P->op->kernel,
           P->op->dtype, P->ic->label, r, k, got, want);
    return 1;
}
static int near(double got, double want, double rtol, double atol) { return fabs(got - want) <= rtol * fabs(want) + atol; }

/* Row r of softmax/rmsnorm/layernorm: x holds its inputs, y the output. */
static int check_row_map(const bench_prep *P, size_t r, const float *x, const void *y, const char *who) {
    const size_t n = COLS(P->ic);
    const crk_dtype t = in_dt(P->op);
    const int bf = t == CRK_BF16, fam = P->op->family, layer = strstr(P->op->kernel, "layer") != NULL;
    double a = -INFINITY, b = 0; /* softmax: max, Σexp; norms: Σx, Σx² */
    for (size_t k = 0; k < n; k++) {
        if (fam == F_SOFTMAX) a = x[k] > a ? x[k] : a;
        else a = k ? a + x[k] : x[k], b += (double)x[k] * x[k];
    }
    if (fam == F_SOFTMAX)
        for (size_t k = 0; k < n; k++) b += exp(x[k] - a);
    const double mean = layer ? a / (double)n : 0, var = b / (double)n - mean * mean;
    for (size_t k = 0; k < n; k++) {
        double want;
        if (fam == F_SOFTMAX) want = exp(x[k] - a) / b;
        else want = (x[k] - mean) / sqrt(var + NORM_EPS) * alpha_of(k) + (layer ? beta_of(k) : 0);
        /* f32 relative 1e-3; bf16 is computed in bf16 (softmax: x - max and
         * exp rounded to 8 bits, ~4%), or rounded once on output (norms) */
        const double rtol = bf ? (fam == F_SOFTMAX ? 0.0625 : 0.016) : 1e-3, atol = fam == F_SOFTMAX ? 1e-7 : 1e-4;
        if (!near(bench_value(t, y, k), want, rtol, atol)) return wrong(P, who, r, k, bench_value(t, y, k), want);
    }
    return 0;
}

/* Row r of fast_*: sum within a tolerance of Σ|x| (bf16 accumulates in
 * bf16, as Candle's), max exact, argmax: a position of the maximum (f32
 * values are distinct in a row, so the position is exact). */
static int check_row_fast(const bench_prep *P, size_t r, const float *x, size_t n, const void *y, const char *who) {
    double sum = 0, abs_sum = 0, max = -INFINITY;
    for (size_t k = 0; k < n; k++) sum += x[k], abs_sum += fabs(x[k]), max = x[k] > max ? x[k] : max;
    if (is_argmax(P->op)) {
        const uint32_t i = *(const uint32_t *)y;
        if (i >= n || x[i] != max) return wrong(P, who, r, i, i < n ? x[i] : NAN, max);
        return 0;
    }
    const double got = bench_value(in_dt(P->op), y, 0);
    if (strstr(P->op->kernel, "max")) return got != max ? wrong(P, who, r, 0, got, max) : 0;
    const double tol = (in_dt(P->op) == CRK_BF16 ? 1.0 / 32 : 1e-5) * abs_sum;
    return fabs(got - sum) > tol ? wrong(P, who, r, 0, got, sum) : 0;
}

/* Row r (b·h·t index) of rope: every pair (j, j + d/2), in T's arithmetic. */
static int check_row_rope(const bench_prep *P, size_t r, const float *x, const void *y, const char *who) {
    const size_t d = HEAD_D(P->ic), h = d / 2, pos = r % COLS(P->ic);
    const crk_dtype t = in_dt(P->op);
    const double rtol = t == CRK_BF16 ? 1.0 / 64 : 1e-5;
    for (size_t j = 0; j < h; j++) {
        const double c = stored(t, (float)cos(angle(pos, j, d))), s = stored(t, (float)sin(angle(pos, j, d)));
        const double w1 = x[j] * c - x[j + h] * s, w2 = x[j] * s + x[j + h] * c;
        const double tol = rtol * (fabs(x[j]) + fabs(x[j + h])) + 1e-6;
        if (fabs(bench_value(t, y, j) - w1) > tol) return wrong(P, who, r, j, bench_value(t, y, j), w1);
        if (fabs(bench_value(t, y, j + h) - w2) > tol) return wrong(P, who, r, j + h, bench_value(t, y, j + h), w2);
    }
    return 0;
}

/* sum0/max0: four columns of set 0 (first, last, middle, random), each
 * checked as check_row_fast checks a row. */
static int check_cols_fast(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who) {
    const size_t rows = ROWS(P->ic), cols = COLS(P->ic);
    const size_t pick[4] = {0, cols - 1, cols / 2, bench_rand(rng) % cols};
    float *x = malloc(rows * sizeof *x), y;
    int bad = 0;
    if (!x) return printf("ERROR: out of host memory\n"), -1;
    for (int i = 0; i < 4 && !bad; i++) {
        if (crk_memcpy_dtoh(S->ctx, &y, (const float *)S->out[0] + pick[i], sizeof y) != CRK_OK) {
            bad = gpu_err("dtoh");
            break;
        }
        for (size_t r = 0; r < rows; r++) x[r] = x_value(r, pick[i], cols, 0);
        bad = check_row_fast(P, pick[i], x, rows, &y, who);
    }
    free(x);
    return bad;
}

/* Four rows of set 0: first, last, middle, random. 0 right, 1 wrong, -1 GPU error. */
int reduce_check(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who) {
    const op_def *op = P->op;
    if (over_first(op)) return check_cols_fast(S, P, rng, who);
    const size_t len = row_len(op, P->ic), rows = elems(op, P->ic) / len;
    const size_t out_len = op->family == F_FAST ? 1 : len, os = crk_dtype_size(op->out_dt);
    const size_t pick[4] = {0, rows - 1, rows / 2, bench_rand(rng) % rows};
    float *x = malloc(len * sizeof *x);
    void *y = malloc(out_len * os);
    int bad = 0;
    if (!x || !y) bad = -1, printf("ERROR: out of host memory\n");
    for (int i = 0; i < 4 && !bad; i++) {
        const size_t r = pick[i];
        if (crk_memcpy_dtoh(S->ctx, y, (const char *)S->out[0] + r * out_len * os, out_len * os) != CRK_OK) {
            bad = gpu_err("dtoh");
            break;
        }
        for (size_t k = 0; k < len; k++) x[k] = stored(in_dt(op), x_value(r, k, len, 0));
        bad = op->family == F_FAST   ? check_row_fast(P, r, x, len, y, who)
              : op->family == F_ROPE ? check_row_rope(P, r, x, y, who)
                                     : check_row_map(P, r, x, y, who);
    }
    free(x), free(y);
    return bad;
}
