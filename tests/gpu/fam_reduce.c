/* fam_reduce.c — fast_<op>_<dt> (sum min max argmin argmax). Each layout
 * case is reduced over its last dim, over its first dim (a leading-dim
 * reduction, strided reads) and over all dims; row case i (ROW_CASES) adds
 * a contiguous rows x cols tensor reduced over its rows and over its
 * columns: row lengths 1, 31, 32, 33, 1023, 1024, 1025, 4096, 32768, 2^20,
 * many short rows, few long ones, rows of ties (argmin/argmax: first index
 * up to 1024 elements, lowest thread beyond), all-NaN rows, NaN/inf inside
 * rows, u8/u32 sums that wrap, empty sums; layouts of rank > 2 also over
 * dim 1. libcrk's crk_fast_<op>_cols_<dt> run alone on the row cases
 * viewed as (B, E, C). Every output is compared exactly: the reference
 * simulates Candle's per-thread order and tree. */
#include "suite.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { FILL_RANDOM, FILL_TIES, FILL_ALLNAN };
typedef struct {
    const char *name;
    size_t rows, cols;
    int fill;
} row_case;
static const row_case ROW_CASES[] = {
    {"1x1", 1, 1, FILL_RANDOM},         {"5x31 ties", 5, 31, FILL_TIES},   {"7x32", 7, 32, FILL_RANDOM},
    {"3x33", 3, 33, FILL_RANDOM},       {"4x1023 ties", 4, 1023, FILL_TIES}, {"2x1024", 2, 1024, FILL_RANDOM},
    {"2x1025 ties", 2, 1025, FILL_TIES}, {"8x4096", 8, 4096, FILL_RANDOM}, {"1x32768 ties", 1, 32768, FILL_TIES},
    {"1x2^20", 1, 1 << 20, FILL_RANDOM}, {"3000x7", 3000, 7, FILL_RANDOM}, {"3x100 all-NaN", 3, 100, FILL_ALLNAN},
    {"4x0", 4, 0, FILL_RANDOM},         {"0x5", 0, 5, FILL_RANDOM},       {"1500x40", 1500, 40, FILL_RANDOM},
};
#define N_ROW_CASES (sizeof ROW_CASES / sizeof ROW_CASES[0])

/* Threads per block for el_to_sum_per_block e: Candle's rule, also libcrk's. */
static unsigned block_for(size_t e) {
    unsigned b = 1;
    while (b < e && b < 1024) b *= 2;
    return b;
}

/* Ties: few distinct values; all-NaN: every float NaN. */
static void shape_values(crk_dtype dt, int fill, unsigned char *buf, size_t n, rng_t *r) {
    const size_t sz = crk_dtype_size(dt);
    if (fill == FILL_RANDOM) return;
    for (size_t i = 0; i < n; i++) {
        const double v = fill == FILL_ALLNAN && ref_dtype_is_float(dt) ? NAN : (double)(rng_next(r) % 3);
        if (ref_dtype_is_float(dt)) ref_cast(CRK_F64, dt, &v, buf + i * sz);
        else ref_scalar_from_f64(dt, v, buf + i * sz);
    }
}

/* libcrk's crk_fast_<op>_cols_<dt>: the reduction over the middle dim of
 * a contiguous (B, E, C) view, info {B, E, C} (kernels/reduce.h). */
static int is_cols(const crk_kernel_info *ki) { return !strncmp(ki->op, "crk_", 4); }

/* Its launch, so that any block and grid is exercised: Candle's slot a
 * block a job of 8 columns, 16 threads a column; the other an odd block
 * (5 columns, 3 threads a column) on 2 blocks (grid-stride, a partial
 * window). crk_reduce's own choice (loader/launch_reduce.c) runs in the
 * row and layout cases of fast_<op>_<dt>. */
static crk_status launch_cols(suite_t *S, const crk_kernel_info *ki, const crk_layout *l, const void *src, size_t e) {
    crk_layout v;
    const size_t bec[3] = {l->dims[0], l->dims[1], l->dims[2]};
    crk_layout_contiguous(&v, 3, bec);
    const crk_layout *ls[1] = {&v};
    const void *in[1] = {src};
    const double sc[1] = {(double)e};
    unsigned w = 8, y = 16, grid = (unsigned)(bec[0] * ((bec[2] + 7) / 8));
    if (S->shape != SHAPE_CANDLE) w = 5, y = 3, grid = 2;
    const raw_launch rl = {ls, 1, 1, 0, in, S->dev[1], sc, NULL, grid ? grid : 1, {w, y, 1}, 0};
    return launch_raw(S, ki, &rl, w * y);
}

/* Reduces src (layout l over the buffer in host[0], already uploaded to
 * dev[0]) over sum_dims; returns failures. */
static int reduce_case(suite_t *S, const crk_kernel_info *ki, const char *cname, const crk_layout *l,
                       const size_t *sum_dims, size_t nsum) {
    const crk_dtype dt = (crk_dtype)ki->dtypes[0], odt = output_dtype(ki);
    const size_t sz = crk_dtype_size(dt), osz = crk_dtype_size(odt);
    char op[8]; /* the fold: crk_fast_<op>_cols folds as fast_<op> */
    snprintf(op, sizeof op, "%.*s", is_cols(ki) ? 3 : 7, is_cols(ki) ? ki->op + 9 : ki->op);
    /* Candle's FastReduce: kept dims in order, then the reduced dims */
    crk_layout r = *l;
    size_t k = 0, dst_el = 1, src_el = crk_layout_numel(l);
    for (size_t d = 0; d < l->rank; d++) {
        int summed = 0;
        for (size_t j = 0; j < nsum; j++) summed |= sum_dims[j] == d;
        if (!summed) r.dims[k] = l->dims[d], r.strides[k] = l->strides[d], dst_el *= l->dims[d], k++;
    }
    for (size_t j = 0; j < nsum; j++) r.dims[k] = l->dims[sum_dims[j]], r.strides[k] = l->strides[sum_dims[j]], k++;
    if (strcmp(op, "sum") && src_el == 0) { /* Candle: EmptyTensor, no launch; libcrk: an error */
        if (S->shape == SHAPE_CANDLE || is_cols(ki)) return 0;
        const crk_status st = crk_reduce(S->ctx, NULL, ki->name, l, S->dev[0], sum_dims, nsum, S->dev[1]);
        if (st == CRK_E_INVALID) return 0;
        printf("FAIL %s [%s] %s of an empty tensor: %s, want CRK_E_INVALID\n", ki->name, cname, op,
               crk_status_name(st));
        return 1;
    }
    const size_t e = dst_el ? src_el / dst_el : 0;
    const unsigned threads = block_for(e);
    const unsigned char *src = S->host[0];
    unsigned char *got = S->host[1], *want = S->host[2], *vals = S->host[3];
    for (size_t b = 0; b < dst_el; b++) {
        for (size_t i = 0; i < e; i++) memcpy(vals + i * sz, src + offset_of(&r, b * e + i) * sz, sz);
        ref_fast_reduce(op, dt, vals, e, b * e, r.rank ? r.dims[r.rank - 1] : 0, threads,
                        want + b * osz);
    }
    const unsigned char poison = poison_byte(S);
    memset(got, poison, (dst_el + GUARD) * osz);
    if (upload(S, S->dev[1], got, (dst_el + GUARD) * osz)) return gpu_ok(CRK_E_GPU, ki, cname), 1;
    crk_status st;
    if (is_cols(ki)) {
        st = launch_cols(S, ki, l, (const char *)S->dev[0] + l->start_offset * sz, e);
    } else if (S->shape == SHAPE_CANDLE) {
        const crk_layout *ls[1] = {&r};
        const void *in[1] = {(const char *)S->dev[0] + l->start_offset * sz};
        const double sc[1] = {(double)e};
        const raw_launch rl = {ls, 1, 1, 0, in, S->dev[1], sc, NULL, (unsigned)dst_el, {threads, 1, 1}, 0};
        st = launch_raw(S, ki, &rl, threads);
    } else {
        st = crk_reduce(S->ctx, NULL, ki->name, l, S->dev[0], sum_dims, nsum, S->dev[1]);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], (dst_el + GUARD) * osz)) return 1;
    return check_output(ki, cname, odt, got, want, NULL, dst_el, poison);
}

/* Uploads n elements of fill `fill` for the source buffer. */
static int source(suite_t *S, const crk_kernel_info *ki, int fill, size_t n, const char *cname) {
    const crk_dtype dt = (crk_dtype)ki->dtypes[0];
    fill_inputs(ki, dt, 0, S->host[0], n, &S->rng);
    shape_values(dt, fill, S->host[0], n, &S->rng);
    if (upload(S, S->dev[0], S->host[0], n * crk_dtype_size(dt))) return gpu_ok(CRK_E_GPU, ki, cname), 1;
    return 0;
}

/* The column kernel on row case rc: (1, rows, cols) and, rows even,
 * (2, rows / 2, cols), each over its middle dim. */
static int run_cols(suite_t *S, const crk_kernel_info *ki, const row_case *rc, size_t c, const char *cname) {
    int bad = 0;
    char what[200];
    for (size_t b = 1; b <= 2; b++) {
        if (rc->rows % b || (b == 2 && rc->rows < 2)) continue;
        const size_t dims[3] = {b, rc->rows / b, rc->cols}, mid = 1;
        crk_layout l;
        crk_layout_contiguous(&l, 3, dims);
        l.start_offset = c % 3; /* sliced */
        if (source(S, ki, rc->fill, l.start_offset + rc->rows * rc->cols, cname)) return 1;
        snprintf(what, sizeof what, "rows %s as (%zu, %zu, %zu)%s, over the middle dim", rc->name, dims[0], dims[1],
                 dims[2], S->shape ? ", libcrk's block" : ", 5x3 threads on 2 blocks");
        bad += reduce_case(S, ki, what, &l, &mid, 1);
    }
    return bad;
}

int run_reduce(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    char cn[160], what[200];
    const char *cname = case_name(S, lc, cn, sizeof cn);
    crk_layout l;
    const size_t c = (size_t)(lc - CASES);
    if (is_cols(ki)) return run_cols(S, ki, &ROW_CASES[c], c, cname);
    const size_t span = case_layout(lc, lc->kind, &l);
    int bad = 0;
    if (source(S, ki, FILL_RANDOM, l.start_offset + span, cname)) return 1;
    const size_t last = l.rank - 1, first = 0, all[6] = {0, 1, 2, 3, 4, 5};
    snprintf(what, sizeof what, "%s, over the last dim", cname);
    bad += reduce_case(S, ki, what, &l, &last, 1);
    if (l.rank > 1) {
        snprintf(what, sizeof what, "%s, over the first dim", cname);
        bad += reduce_case(S, ki, what, &l, &first, 1);
    }
    if (l.rank > 2) { /* libcrk: the column kernel when contiguous, with B > 1 */
        const size_t mid = 1;
        snprintf(what, sizeof what, "%s, over dim 1", cname);
        bad += reduce_case(S, ki, what, &l, &mid, 1);
    }
    snprintf(what, sizeof what, "%s, over every dim", cname);
    bad += reduce_case(S, ki, what, &l, all, l.rank);
    if (c < N_ROW_CASES) {
        const row_case *rc = &ROW_CASES[c];
        const size_t dims[2] = {rc->rows, rc->cols}, cols = 1, rows = 0;
        crk_layout_contiguous(&l, 2, dims);
        l.start_offset = c % 3; /* sliced: a misaligned start */
        if (source(S, ki, rc->fill, l.start_offset + rc->rows * rc->cols, cname)) return 1;
        snprintf(what, sizeof what, "rows %s%s, over the columns", rc->name, S->shape ? ", Candle's shape" : "");
        bad += reduce_case(S, ki, what, &l, &cols, 1);
        if (rc->rows > 1) { /* one row: a block per element, which says nothing new */
            snprintf(what, sizeof what, "rows %s%s, over the rows", rc->name, S->shape ? ", Candle's shape" : "");
            bad += reduce_case(S, ki, what, &l, &rows, 1);
        }
    }
    return bad;
}

size_t reduce_elements(const layout_case *lc, const crk_kernel_info *ki) {
    const size_t c = (size_t)(lc - CASES), n = case_numel(lc);
    if (c >= N_ROW_CASES) return n;
    const size_t rc = ROW_CASES[c].rows * ROW_CASES[c].cols;
    return is_cols(ki) || rc > n ? rc : n;
}

/* Every layout case but the in-place ones (reductions write a new tensor). */
int reduce_applies(const layout_case *lc, const crk_kernel_info *ki) {
    if (is_cols(ki)) return (size_t)(lc - CASES) < N_ROW_CASES; /* contiguous (B, E, C) views of the row cases */
    return !lc->inplace;
}
