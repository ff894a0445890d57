/* fam_reduce.c — fast_<op>_<dt> (sum min max argmin argmax). Each layout
 * case is reduced over its last dim, over its first dim (a leading-dim
 * reduction, strided reads) and over all dims; row case i (ROW_CASES) adds
 * a contiguous rows x cols tensor reduced over its rows and over its
 * columns: row lengths 1, 31, 32, 33, 1023, 1024, 1025, 4096, 32768, 2^20,
 * many short rows, few long ones, rows of ties (argmin/argmax: first index
 * up to 1024 elements, lowest thread beyond), all-NaN rows, NaN/inf inside
 * rows, u8/u32 sums that wrap, empty sums. Every output is compared
 * exactly: the reference simulates Candle's per-thread order and tree. */
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
    {"4x0", 4, 0, FILL_RANDOM},         {"0x5", 0, 5, FILL_RANDOM},
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

/* Reduces src (layout l over the buffer in host[0], already uploaded to
 * dev[0]) over sum_dims; returns failures. */
static int reduce_case(suite_t *S, const crk_kernel_info *ki, const char *cname, const crk_layout *l,
                       const size_t *sum_dims, size_t nsum) {
    const crk_dtype dt = (crk_dtype)ki->dtypes[0], odt = output_dtype(ki);
    const size_t sz = crk_dtype_size(dt), osz = crk_dtype_size(odt);
    /* Candle's FastReduce: kept dims in order, then the reduced dims */
    crk_layout r = *l;
    size_t k = 0, dst_el = 1, src_el = crk_layout_numel(l);
    for (size_t d = 0; d < l->rank; d++) {
        int summed = 0;
        for (size_t j = 0; j < nsum; j++) summed |= sum_dims[j] == d;
        if (!summed) r.dims[k] = l->dims[d], r.strides[k] = l->strides[d], dst_el *= l->dims[d], k++;
    }
    for (size_t j = 0; j < nsum; j++) r.dims[k] = l->dims[sum_dims[j]], r.strides[k] = l->strides[sum_dims[j]], k++;
    if (strcmp(ki->op, "sum") && src_el == 0) { /* Candle: EmptyTensor, no launch; libcrk: an error */
        if (S->shape == SHAPE_CANDLE) return 0;
        const crk_status st = crk_reduce(S->ctx, NULL, ki->name, l, S->dev[0], sum_dims, nsum, S->dev[1]);
        if (st == CRK_E_INVALID) return 0;
        printf("FAIL %s [%s] %s of an empty tensor: %s, want CRK_E_INVALID\n", ki->name, cname, ki->op,
               crk_status_name(st));
        return 1;
    }
    const size_t e = dst_el ? src_el / dst_el : 0;
    const unsigned threads = block_for(e);
    const unsigned char *src = S->host[0];
    unsigned char *got = S->host[1], *want = S->host[2], *vals = S->host[3];
    for (size_t b = 0; b < dst_el; b++) {
        for (size_t i = 0; i < e; i++) memcpy(vals + i * sz, src + offset_of(&r, b * e + i) * sz, sz);
        ref_fast_reduce(ki->op, dt, vals, e, b * e, r.rank ? r.dims[r.rank - 1] : 0, threads,
                        want + b * osz);
    }
    const unsigned char poison = poison_byte(S);
    memset(got, poison, (dst_el + GUARD) * osz);
    if (upload(S, S->dev[1], got, (dst_el + GUARD) * osz)) return gpu_ok(CRK_E_GPU, ki, cname), 1;
    crk_status st;
    if (S->shape == SHAPE_CANDLE) {
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

int run_reduce(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    char cn[160], what[200];
    const char *cname = case_name(S, lc, cn, sizeof cn);
    crk_layout l;
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
    snprintf(what, sizeof what, "%s, over every dim", cname);
    bad += reduce_case(S, ki, what, &l, all, l.rank);
    const size_t c = (size_t)(lc - CASES);
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

/* Every layout case but the in-place ones (reductions write a new tensor). */
int reduce_applies(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    return !lc->inplace;
}
