/* fam_rows.c — softmax_<dt>, rmsnorm_<dt>, layernorm_<dt>: row case i
 * (ROWS, one per layout case index) gives contiguous rows x cols, the
 * source sliced by i % 3 elements. Row lengths 1, 31, 32, 33, 1023, 1024,
 * 1025, 4096, 12000, 32768, 40000, 2^20; many short rows; NaN and +-inf inside
 * rows; rows whose first third is -inf (one with a NaN in it) and an all -inf row; NULL
 * alpha/beta; no rows. Candle's shapes: softmax grid (rows), block
 * (1,32,1); norms block_size = 32 below 1024 columns, else 1024, as blockDim.x
 * and as the argument; crk_softmax's own block (row_threads); the helpers
 * on 16-byte chunks where the row allows (vec_threads).
 * libcrk's crk_*_vec_<dt> run alone on the rows their contract takes
 * (sliced by whole chunks), with libcrk's block and with 32 threads.
 * crk_softmax_wide_<dt> (up to 8 chunks a thread held) likewise, libcrk's
 * block being the power of two >= chunks / 8 threads (held at most 8
 * chunks a thread; 32 threads re-read longer rows), persistent: with
 * libcrk's block in (rows + 1) / 2 blocks (a block takes rows b and b + G,
 * the next row's chunks loaded while this one's are stored), with 32
 * threads in one block (every row); and under crk_softmax on 1x32768
 * (bf16, f16, f32), 3x40000 (bf16, f16) and 300x20000 (softmax_<dt>
 * only; f32: more rows than an H200 holds blocks of them, so
 * crk_softmax's persistent grid). crk_softmax's split rows:
 * crk_softmax_part_<dt> then _fin_<dt> in
 * libcrk's pieces and block, and in 3 pieces of 32 threads (pieces of more
 * than 64 chunks: the re-reading path); crk_softmax_fin_<dt> alone from
 * the reference's parts; crk_softmax on the rows it splits (1x32768 and
 * 3x40000 f64, 1x2^20). The reference folds in the same lane, chunk and piece
 * order, so the tolerances (values.c) do not grow with the row length. */
#include "suite.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    size_t rows, cols;
    int specials, no_affine;
} rows_case;
/* One per layout case (cases.c, 18): a row case past them never runs.
 * The specials' rows are long enough that crk_softmax_wide at 32 threads
 * (256 chunks held) streams a tail: -inf runs into it (row 2 with a NaN
 * inside its run), NaN/inf in it. */
static const rows_case ROWS[] = {
    {"1x1", 1, 1, 0, 0},          {"3x31", 3, 31, 0, 0},        {"2x32", 2, 32, 0, 0},
    {"2x33", 2, 33, 0, 0},        {"2x1023", 2, 1023, 0, 0},    {"2x1024", 2, 1024, 0, 0},
    {"2x1025", 2, 1025, 0, 0},    {"4x4096", 4, 4096, 0, 0},    {"1x32768", 1, 32768, 0, 0},
    {"1x2^20", 1, 1 << 20, 0, 0}, {"300x7", 300, 7, 0, 0},      {"5x4000 NaN/inf", 5, 4000, 1, 0},
    {"3x64 NULL alpha/beta", 3, 64, 0, 1}, {"0x16", 0, 16, 0, 0},
    {"3x12288 -inf runs", 3, 12288, 2, 0},  {"3x40000", 3, 40000, 0, 0},
    {"2x12000", 2, 12000, 0, 0}, /* f32: 3000 chunks, crk_softmax_wide's 512 threads hold 5 or 6 */
    {"300x20000", 300, 20000, 0, 0}, /* softmax_<dt> only: crk_softmax's persistent wide grid (132 blocks on an H200) */
};
#define N_ROWS (sizeof ROWS / sizeof ROWS[0])

/* Threads per row: Candle's shapes (softmax 32; norms 32 or 1024), which
 * libcrk's norm helpers launch too when the row cannot take 16-byte chunks;
 * crk_softmax's block (include/crk.h): the power of two >= cols / 8, at
 * least 32, at most 1024. */
/* libcrk's row blocks: the power of two >= n / per threads, 32..1024. */
static unsigned pow2_threads(size_t n, unsigned per) {
    unsigned t = 32;
    while (t < 1024 && (size_t)t * per < n) t *= 2;
    return t;
}
static unsigned row_threads(const crk_kernel_info *ki, size_t cols, int candle) {
    if (ki->family_id != CRK_FAMILY_SOFTMAX) return cols < 1024 ? 32 : 1024;
    return candle ? 32 : pow2_threads(cols, 8);
}

/* libcrk's vector kernels (crk_*_vec_<dt>, include/crk.h): chunks of 16
 * bytes, taken when n_cols is a multiple of the chunk and src, dst (alpha
 * and beta) are 16-byte aligned; about two chunks a thread (the power of
 * two >= chunks / 2, 32..1024). */
static int is_vec(const crk_kernel_info *ki) { return !strncmp(ki->op, "crk_", 4); }
static unsigned chunk_of(crk_dtype dt) { return 16 / (unsigned)crk_dtype_size(dt); }
static unsigned vec_threads(size_t chunks) { return pow2_threads(chunks, 2); }
static int aligned16(const void *p) { return p == NULL || ((uintptr_t)p & 15) == 0; }

/* crk_softmax's split rows (include/crk.h): 1 for crk_softmax_part_<dt>
 * (run with _fin_), 2 for crk_softmax_fin_<dt> (alone). */
static int split_kind(const crk_kernel_info *ki) {
    return !strcmp(ki->op, "crk_softmax_part") ? 1 : !strcmp(ki->op, "crk_softmax_fin") ? 2 : 0;
}
static size_t part_bytes(crk_dtype dt) { return dt == CRK_F64 ? 16 : 8; }
/* libcrk's pieces for rows of `chunks` (gated: crk_softmax splits only
 * fewer than 256 rows of at least 12288 chunks; 1 where a piece could not
 * hold the parts) and their block (about two chunks a thread). */
static size_t lib_pieces(size_t rows, size_t chunks, crk_dtype dt, int gated) {
    if (gated && (rows >= 256 || chunks < 12288)) return 0;
    size_t p = (chunks + 2047) / 2048;
    const size_t want = (256 + rows - 1) / (rows ? rows : 1), most = chunks / 256, m = want < most ? want : most;
    if (p < m) p = m;
    return p * part_bytes(dt) <= chunks / p * 16 ? p : gated ? 0 : 1;
}
static unsigned split_threads(size_t chunks, size_t pieces) { return vec_threads((chunks + pieces - 1) / pieces); }
/* crk_softmax_wide_<dt>: rows of more than 2048 chunks under crk_softmax,
 * up to 8 held a thread (the power of two >= chunks / 8 threads, 32..1024);
 * for f32 on NVIDIA the rest of a longer row streamed (ref_softmax_long), else
 * the row re-read in Candle's passes (ref_softmax). */
static int is_wide(const crk_kernel_info *ki) { return !strcmp(ki->op, "crk_softmax_wide"); }
enum { WIDE_HELD = 8 };
static unsigned wide_threads(size_t chunks) { return pow2_threads(chunks, WIDE_HELD); }

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
    const int vec = is_vec(ki), candle = S->shape == SHAPE_CANDLE, split = split_kind(ki);
    const unsigned chunk = chunk_of(dt);
    /* sliced by 0-2 elements; the vector kernels by whole chunks (their contract) */
    const size_t sz = crk_dtype_size(dt), n = rc->rows * rc->cols, off = (size_t)(lc - CASES) % 3 * (vec ? chunk : 1);
    const size_t bofs = ((rc->cols + 1) * sz + 15) / 16 * 16; /* beta's offset after alpha: 16-byte aligned */
    const void *dsrc = (const char *)S->dev[0] + off * sz;
    const void *da = rc->no_affine ? NULL : S->dev[2];
    const void *db = rc->no_affine ? NULL : (const char *)S->dev[2] + bofs;
    /* the order the launched kernel folds in: threads a row, columns a chunk */
    unsigned threads = row_threads(ki, rc->cols, candle), used_chunk = 1;
    size_t pieces = 0; /* split rows: pieces a row */
    int wide_run = is_wide(ki); /* crk_softmax_wide folds the row (ref_softmax_long) */
    /* where it streams a long row's tail (kernels/rows.h WideHeld::stream_tail:
     * f32 on NVIDIA's sm_ targets, 8 chunks held a thread there) */
    const int streams = dt == CRK_F32 && !strncmp(crk_device_target(S->ctx), "sm_", 3);
    if (split) /* Candle's shape slot: libcrk's pieces and block; the other: 3 pieces of 32 threads */
        used_chunk = chunk, pieces = candle ? lib_pieces(rc->rows, rc->cols / chunk, dt, 0) : 3,
        threads = candle ? split_threads(rc->cols / chunk, pieces) : 32;
    else if (vec) /* Candle's shape slot: libcrk's block; the other: 32 threads, many chunks each */
        used_chunk = chunk,
        threads = !candle ? 32 : is_wide(ki) ? wide_threads(rc->cols / chunk) : vec_threads(rc->cols / chunk);
    else if (!candle && rc->cols % chunk == 0 && aligned16(dsrc) && aligned16(S->dev[1]) &&
             (softmax || (aligned16(da) && aligned16(db)))) { /* the helper takes the vector kernel */
        used_chunk = chunk, threads = vec_threads(rc->cols / chunk);
        const size_t chunks = rc->cols / chunk;
        if (softmax && (pieces = lib_pieces(rc->rows, chunks, dt, 1)) != 0) /* and splits the rows */
            threads = split_threads(chunks, pieces);
        else if (softmax && chunks > 2048) /* or holds them 8 chunks a thread (longer: see streams) */
            threads = wide_threads(chunks), wide_run = 1;
    }
    const float eps = 1e-5f;
    char cname[160], how[64] = "";
    if (split) snprintf(how, sizeof how, ", %zu pieces of %u threads%s", pieces, threads, split == 2 ? ", fin alone" : "");
    else if (pieces) snprintf(how, sizeof how, ", split in %zu pieces", pieces);
    else if (is_wide(ki)) snprintf(how, sizeof how, ", %s", candle ? "(rows + 1) / 2 blocks" : "one block");
    snprintf(cname, sizeof cname, "rows %s%s%s", rc->name,
             candle && !split ? (vec ? ", libcrk's block" : ", Candle's launch shape") : (vec && !split ? ", 32 threads a row" : ""),
             how);
    unsigned char *src = S->host[0], *got = S->host[1], *want = S->host[2], *alpha = S->host[3];
    unsigned char *beta = alpha + bofs;
    double *xs = (double *)S->host[4];
    /* softmax over [-10, 10]; norms over [-2, 3] (mean and spread both
     * non-zero, so layernorm's E[x^2] - mean^2 keeps its precision) */
    fill_uniform(dt, src, off + n, softmax ? -10 : -2, softmax ? 10 : 3, &S->rng);
    fill_uniform(dt, alpha, 2 * (rc->cols + 1), -2, 2, &S->rng);
    if (rc->specials == 2) { /* rows 0 and 2: their first third -inf (row 2 with a NaN at cols/4); row 1: all -inf */
        const double ninf = -INFINITY, nan = NAN;
        for (size_t r = 0; r < rc->rows; r++)
            for (size_t c = 0; c < (r == 1 ? rc->cols : rc->cols / 3); c++) ref_cast(CRK_F64, dt, &ninf, src + (off + r * rc->cols + c) * sz);
        if (rc->rows > 2) ref_cast(CRK_F64, dt, &nan, src + (off + 2 * rc->cols + rc->cols / 4) * sz);
    } else if (rc->specials) {
        const double sp[3] = {NAN, INFINITY, -INFINITY};
        for (size_t r = 0; r < rc->rows; r++) /* row r gets specials r % 4 (row 0: none) */
            for (unsigned k = 0; k < r % 4; k++)
                ref_cast(CRK_F64, dt, &sp[(r + k) % 3], src + (off + r * rc->cols + rng_next(&S->rng) % rc->cols) * sz);
    }
    const void *a = rc->no_affine ? NULL : alpha, *b = rc->no_affine ? NULL : beta;
    double *pm = pieces && rc->rows ? malloc(2 * rc->rows * pieces * sizeof(double)) : NULL;
    double *ps = pm ? pm + rc->rows * pieces : NULL;
    if (pieces && rc->rows && !pm) abort();
    for (size_t r = 0; r < rc->rows; r++) {
        const unsigned char *row = src + (off + r * rc->cols) * sz;
        unsigned char *o = want + r * rc->cols * sz;
        if (pieces) {
            ref_softmax_parts(dt, row, rc->cols, pieces, threads, used_chunk, pm + r * pieces, ps + r * pieces);
            ref_softmax_split(dt, row, rc->cols, pieces, threads, pm + r * pieces, ps + r * pieces, o);
        } else if (softmax && wide_run && streams) ref_softmax_long(dt, row, rc->cols, threads, used_chunk, WIDE_HELD, o);
        else if (softmax) ref_softmax(dt, row, rc->cols, threads, used_chunk, o);
        else if (layer) ref_layernorm(dt, row, a, b, rc->cols, threads, used_chunk, eps, o, xs + r * rc->cols);
        else ref_rmsnorm(dt, row, a, rc->cols, threads, used_chunk, eps, o);
    }
    /* x of the tolerance (values.c): the expected value; layernorm's, the
     * size of its tail's terms: inv_std is rsqrtf's (within 2 ULP) in the
     * kernels, so the product d·inv_std·alpha carries that relative error
     * and keeps it as an absolute one where beta cancels it (1x2^20 f32,
     * H100, seed 20261601: -0.0125180781 for -0.0125185717, off by 4.9e-7
     * (4.1 f32 eps) where a result of that size is allowed 4.8e-7) */
    if (!layer)
        for (size_t i = 0; i < n; i++) xs[i] = ref_value_f64(dt, want + i * sz);
    const unsigned char poison = poison_byte(S);
    memset(got, poison, (n + GUARD) * sz);
    if (split == 2) /* fin alone: the reference's parts in every piece's span */
        for (size_t r = 0; r < rc->rows; r++)
            for (size_t i = 0; i < pieces; i++) {
                unsigned char *span = got + (r * rc->cols + ref_softmax_piece_lo(i, rc->cols / chunk, pieces) * chunk) * sz;
                for (size_t j = 0; j < pieces; j++) {
                    const double mj = pm[r * pieces + j], sj = ps[r * pieces + j];
                    if (dt == CRK_F64) memcpy(span + j * 16, &mj, 8), memcpy(span + j * 16 + 8, &sj, 8);
                    else {
                        const float part[2] = {(float)mj, (float)sj};
                        memcpy(span + j * 8, part, 8);
                    }
                }
            }
    free(pm);
    if (upload(S, S->dev[0], src, (off + n) * sz) || upload(S, S->dev[2], alpha, bofs + (rc->cols + 1) * sz) ||
        upload(S, S->dev[1], got, (n + GUARD) * sz))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    crk_status st = CRK_OK;
    if (split) {
        if (rc->rows) {
            const void *in[1] = {dsrc};
            const double sc[2] = {(double)rc->cols, (double)pieces};
            const raw_launch rl = {NULL, 0, 0, 1, in, S->dev[1], sc, NULL, (unsigned)pieces, {threads, 1, 1}, 0};
            char fin[64];
            snprintf(fin, sizeof fin, "crk_softmax_fin_%s", crk_dtype_name(dt));
            const crk_kernel_info *fk = crk_kernel_find(fin);
            st = fk ? CRK_OK : CRK_E_NOT_FOUND;
            if (st == CRK_OK && split == 1) st = launch_raw_2d(S, ki, &rl, (unsigned)rc->rows);
            if (st == CRK_OK) st = launch_raw_2d(S, fk, &rl, (unsigned)rc->rows);
        }
    } else if (candle || vec) {
        if (rc->rows) { /* Candle launches nothing for no rows */
            const void *in[3] = {dsrc, da, db};
            const int wide = is_wide(ki); /* (n_cols, n_rows), a persistent grid */
            const double sc[3] = {(double)rc->cols, wide ? (double)rc->rows : (double)threads, (double)eps};
            const unsigned grid = !wide ? (unsigned)rc->rows : candle ? (unsigned)(rc->rows + 1) / 2 : 1;
            raw_launch rl = {NULL, 0, 0, 1, in, S->dev[1], sc, NULL, grid, {threads, 1, 1}, 0};
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

size_t rows_elements(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    const size_t i = (size_t)(lc - CASES);
    return i < N_ROWS ? ROWS[i].rows * ROWS[i].cols : 0;
}

/* Row case i runs with layout case i (one each). */
int rows_applies(const layout_case *lc, const crk_kernel_info *ki) {
    const size_t i = (size_t)(lc - CASES);
    if (i >= N_ROWS) return 0;
    const unsigned chunk = chunk_of((crk_dtype)ki->dtypes[0]);
    if (split_kind(ki)) /* the contract, and 3 pieces that hold 3 parts (f64: 48 bytes) */
        return ROWS[i].cols % chunk == 0 && ROWS[i].cols / chunk >= 9;
    if (ROWS[i].rows == 300) /* crk_softmax's persistent grid: 6M elements, not for every kernel */
        return ki->family_id == CRK_FAMILY_SOFTMAX && !is_vec(ki);
    return !is_vec(ki) || ROWS[i].cols % chunk == 0; /* the vector kernels' contract */
}
