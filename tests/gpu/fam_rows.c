/* fam_rows.c — softmax_<dt>, rmsnorm_<dt>, layernorm_<dt>: row case i
 * (ROWS, one per layout case index) gives contiguous rows x cols, the
 * source sliced by i % 3 elements. Row lengths 1, 31, 32, 33, 1023, 1024,
 * 1025, 4096, 32768, 2^20; many short rows; NaN and +-inf inside rows; NULL
 * alpha/beta; no rows. Candle's shapes: softmax grid (rows), block
 * (1,32,1); norms block_size = 32 below 1024 columns, else 1024, as blockDim.x
 * and as the argument; crk_softmax's own block (row_threads); the helpers
 * on 16-byte chunks where the row allows (vec_threads).
 * libcrk's crk_*_vec_<dt> run alone on the rows their contract takes
 * (sliced by whole chunks), with libcrk's block and with 32 threads. The
 * reference folds in the same lane and chunk order, so the tolerances
 * (values.c) do not grow with the row length. */
#include "suite.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    size_t rows, cols;
    int specials, no_affine;
} rows_case;
static const rows_case ROWS[] = {
    {"1x1", 1, 1, 0, 0},          {"3x31", 3, 31, 0, 0},        {"2x32", 2, 32, 0, 0},
    {"2x33", 2, 33, 0, 0},        {"2x1023", 2, 1023, 0, 0},    {"2x1024", 2, 1024, 0, 0},
    {"2x1025", 2, 1025, 0, 0},    {"4x4096", 4, 4096, 0, 0},    {"1x32768", 1, 32768, 0, 0},
    {"1x2^20", 1, 1 << 20, 0, 0}, {"300x7", 300, 7, 0, 0},      {"5x100 NaN/inf", 5, 100, 1, 0},
    {"3x64 NULL alpha/beta", 3, 64, 0, 1}, {"0x16", 0, 16, 0, 0},
};
#define N_ROWS (sizeof ROWS / sizeof ROWS[0])

/* Threads per row: Candle's shapes (softmax 32; norms 32 or 1024), which
 * libcrk's norm helpers launch too when the row cannot take 16-byte chunks;
 * crk_softmax's block (include/crk.h): the power of two >= cols / 8, at
 * least 32, at most 1024. */
static unsigned row_threads(const crk_kernel_info *ki, size_t cols, int candle) {
    if (ki->family_id != CRK_FAMILY_SOFTMAX) return cols < 1024 ? 32 : 1024;
    unsigned t = 32;
    while (!candle && t < 1024 && (size_t)t * 8 < cols) t *= 2;
    return t;
}

/* libcrk's vector kernels (crk_*_vec_<dt>, include/crk.h): chunks of 16
 * bytes, taken when n_cols is a multiple of the chunk and src, dst (alpha
 * and beta) are 16-byte aligned; about two chunks a thread (the power of
 * two >= chunks / 2, 32..1024). */
static int is_vec(const crk_kernel_info *ki) { return !strncmp(ki->op, "crk_", 4); }
static unsigned chunk_of(crk_dtype dt) { return 16 / (unsigned)crk_dtype_size(dt); }
static unsigned vec_threads(size_t chunks) {
    unsigned t = 32;
    while (t < 1024 && (size_t)t * 2 < chunks) t *= 2;
    return t;
}
static int aligned16(const void *p) { return p == NULL || ((uintptr_t)p & 15) == 0; }

static void fill_uniform(crk_dtype dt, unsigned char *buf, size_t n, double lo, double hi, rng_t *r) {
    const size_t sz = crk_dtype_size(dt);
    for (size_t i = 0; i < n; i++) {
        const double v = lo + (hi - lo) * rng_unit(r);
        ref_cast(CRK_F64, dt, &v, buf + i * sz);
    }
}

int run_rows(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const rows_case *rc = &ROWS[lc - CASES];
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    const int softmax = ki->family_id == CRK_FAMILY_SOFTMAX, layer = strstr(ki->op, "layernorm") != NULL;
    const int vec = is_vec(ki), candle = S->shape == SHAPE_CANDLE;
    const unsigned chunk = chunk_of(dt);
    /* sliced by 0-2 elements; the vector kernels by whole chunks (their contract) */
    const size_t sz = crk_dtype_size(dt), n = rc->rows * rc->cols, off = (size_t)(lc - CASES) % 3 * (vec ? chunk : 1);
    const size_t bofs = ((rc->cols + 1) * sz + 15) / 16 * 16; /* beta's offset after alpha: 16-byte aligned */
    const void *dsrc = (const char *)S->dev[0] + off * sz;
    const void *da = rc->no_affine ? NULL : S->dev[2];
    const void *db = rc->no_affine ? NULL : (const char *)S->dev[2] + bofs;
    /* the order the launched kernel folds in: threads a row, columns a chunk */
    unsigned threads = row_threads(ki, rc->cols, candle), used_chunk = 1;
    if (vec) /* Candle's shape slot: libcrk's block; the other: 32 threads, many chunks each */
        used_chunk = chunk, threads = candle ? vec_threads(rc->cols / chunk) : 32;
    else if (!candle && rc->cols % chunk == 0 && aligned16(dsrc) && aligned16(S->dev[1]) &&
             (softmax || (aligned16(da) && aligned16(db)))) /* the helper takes the vector kernel */
        used_chunk = chunk, threads = vec_threads(rc->cols / chunk);
    const float eps = 1e-5f;
    char cname[160];
    snprintf(cname, sizeof cname, "rows %s%s", rc->name, candle ? (vec ? ", libcrk's block" : ", Candle's launch shape")
                                                           : (vec ? ", 32 threads a row" : ""));
    unsigned char *src = S->host[0], *got = S->host[1], *want = S->host[2], *alpha = S->host[3];
    unsigned char *beta = alpha + bofs;
    double *xs = (double *)S->host[4];
    /* softmax over [-10, 10]; norms over [-2, 3] (mean and spread both
     * non-zero, so layernorm's E[x^2] - mean^2 keeps its precision) */
    fill_uniform(dt, src, off + n, softmax ? -10 : -2, softmax ? 10 : 3, &S->rng);
    fill_uniform(dt, alpha, 2 * (rc->cols + 1), -2, 2, &S->rng);
    if (rc->specials) {
        const double sp[3] = {NAN, INFINITY, -INFINITY};
        for (size_t r = 0; r < rc->rows; r++) /* row r gets specials r % 4 (row 0: none) */
            for (unsigned k = 0; k < r % 4; k++)
                ref_cast(CRK_F64, dt, &sp[(r + k) % 3], src + (off + r * rc->cols + rng_next(&S->rng) % rc->cols) * sz);
    }
    const void *a = rc->no_affine ? NULL : alpha, *b = rc->no_affine ? NULL : beta;
    for (size_t r = 0; r < rc->rows; r++) {
        const unsigned char *row = src + (off + r * rc->cols) * sz;
        unsigned char *o = want + r * rc->cols * sz;
        if (softmax) ref_softmax(dt, row, rc->cols, threads, used_chunk, o);
        else if (layer) ref_layernorm(dt, row, a, b, rc->cols, threads, used_chunk, eps, o);
        else ref_rmsnorm(dt, row, a, rc->cols, threads, used_chunk, eps, o);
    }
    for (size_t i = 0; i < n; i++) xs[i] = ref_value_f64(dt, want + i * sz);
    const unsigned char poison = poison_byte(S);
    memset(got, poison, (n + GUARD) * sz);
    if (upload(S, S->dev[0], src, (off + n) * sz) || upload(S, S->dev[2], alpha, bofs + (rc->cols + 1) * sz) ||
        upload(S, S->dev[1], got, (n + GUARD) * sz))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    crk_status st = CRK_OK;
    if (candle || vec) {
        if (rc->rows) { /* Candle launches nothing for no rows */
            const void *in[3] = {dsrc, da, db};
            const double sc[3] = {(double)rc->cols, (double)threads, (double)eps};
            raw_launch rl = {NULL, 0, 0, 1, in, S->dev[1], sc, NULL, (unsigned)rc->rows, {threads, 1, 1}, 0};
            if (softmax && !vec) rl.block3[0] = 1, rl.block3[1] = 32;
            st = launch_raw(S, ki, &rl, threads);
        }
    } else if (softmax) {
        st = crk_softmax(S->ctx, NULL, ki->name, dsrc, S->dev[1], rc->rows, rc->cols);
    } else if (layer) {
        st = crk_layernorm(S->ctx, NULL, ki->name, dsrc, S->dev[1], da, db, rc->rows, rc->cols, eps);
    } else {
        st = crk_rmsnorm(S->ctx, NULL, ki->name, dsrc, S->dev[1], da, rc->rows, rc->cols, eps);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], (n + GUARD) * sz)) return 1;
    return check_output(ki, cname, dt, got, want, xs, n, poison);
}

/* Row case i runs with layout case i (one each). */
int rows_applies(const layout_case *lc, const crk_kernel_info *ki) {
    const size_t i = (size_t)(lc - CASES);
    if (i >= N_ROWS) return 0;
    return !is_vec(ki) || ROWS[i].cols % chunk_of((crk_dtype)ki->dtypes[0]) == 0; /* the vector kernels' contract */
}
