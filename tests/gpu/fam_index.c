/* fam_index.c — is_, gather_, ia_, s_, sa_<ids>_<T> (module indexing). Layout
 * case c runs index case c: a tensor of (left, dim, right) indexed along
 * dim by n ids. Ids are random rows with about one in eight the sentinel,
 * out of range (dim .. dim+3) or negative (-1 .. -4, signed ids): those
 * select nothing (is/gather write 0, ia/s/sa skip them). Every output sits
 * between poisoned guard zones of 4·right + GUARD elements, where the rows
 * just before and after it would be, so a write through an out-of-range id
 * is caught. Small dims make duplicate ids (index_add/scatter_add sum them
 * in order, scatter keeps the last). index_select also runs transposed and
 * broadcast (stride 0) ids, which upstream misreads (§6 item 9): the test
 * checks that upstream's reading would fail those cases. Exact compares:
 * data moves bit for bit and the reference adds in the kernels' order. */
#include "suite.h"
#include <stdio.h>
#include <string.h>

enum { IDS_CONTIG, IDS_TRANSPOSED, IDS_BCAST };
typedef struct {
    const char *name;
    size_t left, dim, n, right;
    int ids; /* index_select's ids layout; the other ops need contiguous ids */
    size_t a; /* transposed/broadcast ids: dims (a, n / a) */
} idx_case;
static const idx_case IDX_CASES[] = {
    {"1x1x1, one id", 1, 1, 1, 1, IDS_CONTIG, 0},
    {"no ids", 2, 5, 0, 3, IDS_CONTIG, 0},
    {"1000 rows of 64, 37 ids", 1, 1000, 37, 64, IDS_CONTIG, 0},
    {"3x17x7, 5 ids", 3, 17, 5, 7, IDS_CONTIG, 0},
    {"50x40x1, 63 ids", 50, 40, 63, 1, IDS_CONTIG, 0},
    {"2x300x3 (u8: 255 is the sentinel)", 2, 300, 50, 3, IDS_CONTIG, 0},
    {"ids 6x7 transposed", 2, 9, 42, 5, IDS_TRANSPOSED, 6},
    {"ids 3x8 broadcast", 1, 20, 24, 8, IDS_BCAST, 3},
    {"4x10x4, 200 ids (duplicates)", 4, 10, 200, 4, IDS_CONTIG, 0},
    {"4x33x16, 129 ids (16-element rows)", 4, 33, 129, 16, IDS_CONTIG, 0},
    {"4096 rows of 256, 1024 ids", 1, 4096, 1024, 256, IDS_CONTIG, 0},
    {"7x1x9, one row", 7, 1, 3, 9, IDS_CONTIG, 0},
};
#define N_IDX_CASES (sizeof IDX_CASES / sizeof IDX_CASES[0])

static int is_signed(crk_dtype it) { return it == CRK_I16 || it == CRK_I32 || it == CRK_I64; }

/* One id: a row in [0, min(dim, sentinel)), or one that selects nothing. */
static void make_id(suite_t *S, crk_dtype it, size_t dim, void *p) {
    const size_t sz = crk_dtype_size(it);
    const uint64_t sentinel = is_signed(it) ? (1ull << (8 * sz - 1)) - 1 : (1ull << (8 * sz)) - 1;
    const uint64_t r = rng_next(&S->rng), pick = r % 24;
    int64_t v;
    if (pick == 0 || dim == 0) v = (int64_t)sentinel;
    else if (pick == 1) v = (int64_t)(dim + (r >> 8) % 4); /* past the end (may wrap to a valid u8 row) */
    else if (pick == 2 && is_signed(it)) v = -1 - (int64_t)((r >> 8) % 4);
    else v = (int64_t)((r >> 8) % (dim < sentinel ? dim : sentinel));
    if ((uint64_t)v > sentinel && !is_signed(it)) v = (int64_t)sentinel;
    memcpy(p, &v, sz); /* little-endian: the low bytes, two's complement */
}

/* Upstream's index_select with non-contiguous ids: ids read linearly, the
 * source index passed through the ids' dims and strides. 1 if it would
 * give `want` (the case cannot tell upstream's bug apart). */
static int upstream_agrees(crk_dtype it, crk_dtype dt, const crk_layout *ids_l, const unsigned char *ids_buf,
                           size_t ids_span, const unsigned char *src, size_t src_el, const unsigned char *want,
                           const idx_case *c) {
    const size_t is = crk_dtype_size(it), s = crk_dtype_size(dt), numel = c->left * c->n * c->right;
    for (size_t i = 0; i < numel; i++) {
        const size_t r = i % c->right, k = i / c->right % c->n, l = i / c->right / c->n;
        if (k >= ids_span) return 0; /* upstream reads past the ids */
        size_t row;
        unsigned char v[8] = {0};
        if (ref_index_row(it, ids_buf + k * is, c->dim, &row)) {
            size_t idx = (l * c->dim + row) * c->right + r, off = 0;
            for (size_t d = ids_l->rank; d-- > 0;) off += idx % ids_l->dims[d] * ids_l->strides[d], idx /= ids_l->dims[d];
            if (off >= src_el) return 0;
            memcpy(v, src + off * s, s);
        }
        if (memcmp(v, want + i * s, s)) return 0;
    }
    return 1;
}

/* libcrk's helper for the kernel's op: src_l (is/gather: the indexed
 * tensor, else (left, n, right)) at offset off of dev[0], ids at dev[2],
 * dst (left, dim, right) at offset pg of dev[1], out at out_d. */
static crk_status helper(suite_t *S, const crk_kernel_info *ki, const crk_layout *src, const crk_layout *dst,
                         const crk_layout *ids_l, size_t off, size_t pg, void *out_d) {
    crk_layout src_l = *src, dst_l = *dst;
    src_l.start_offset = off, dst_l.start_offset = pg;
    if (!strcmp(ki->op, "is"))
        return crk_index_select(S->ctx, NULL, ki->name, &src_l, S->dev[0], ids_l, S->dev[2], 1, out_d);
    if (!strcmp(ki->op, "gather"))
        return crk_gather(S->ctx, NULL, ki->name, &src_l, S->dev[0], ids_l, S->dev[2], 1, out_d);
    if (!strcmp(ki->op, "ia"))
        return crk_index_add(S->ctx, NULL, ki->name, &dst_l, S->dev[1], ids_l, S->dev[2], &src_l, S->dev[0], 1);
    return crk_scatter(S->ctx, NULL, ki->name, &dst_l, S->dev[1], ids_l, S->dev[2], &src_l, S->dev[0], 1);
}

int run_index(suite_t *S, const crk_kernel_info *ki, const layout_case *lc) {
    const idx_case *c = &IDX_CASES[lc - CASES];
    const crk_dtype it = (crk_dtype)ki->dtypes[0], dt = (crk_dtype)ki->dtypes[1];
    const size_t is = crk_dtype_size(it), s = crk_dtype_size(dt), off = (size_t)(lc - CASES) % 3;
    const int op_is = !strcmp(ki->op, "is"), op_gather = !strcmp(ki->op, "gather"), op_ia = !strcmp(ki->op, "ia");
    const int in_place = !op_is && !op_gather, add = op_ia || !strcmp(ki->op, "sa");
    char cname[200];
    snprintf(cname, sizeof cname, "%s%s", c->name, S->shape == SHAPE_CANDLE ? ", Candle's launch shape" : "");
    const size_t left = c->left, right = c->right, n = c->n, dim = c->dim;
    /* shapes: src_l is what is indexed (is/gather: src; ia/s/sa: dst) */
    const size_t tdims[3] = {left, dim, right}, ndims[3] = {left, n, right}, one[1] = {n};
    crk_layout tl, nl, ids_l;
    crk_layout_contiguous(&tl, 3, tdims);
    crk_layout_contiguous(&nl, 3, ndims);
    const size_t t_el = left * dim * right, n_el = left * n * right;
    /* ids: index_select's n ids (any layout), else n_el (ia: n) contiguous */
    const int ids_kind = op_is ? c->ids : IDS_CONTIG;
    size_t ids_el = op_is || op_ia ? n : n_el, ids_span = ids_el;
    crk_layout_contiguous(&ids_l, op_is || op_ia ? 1 : 3, op_is || op_ia ? one : ndims);
    if (ids_kind != IDS_CONTIG) {
        const size_t d2[2] = {c->a, n / c->a};
        crk_layout_contiguous(&ids_l, 2, d2);
        if (ids_kind == IDS_TRANSPOSED) ids_l.strides[0] = 1, ids_l.strides[1] = c->a;
        else ids_l.strides[0] = 0, ids_span = n / c->a;
    }
    ids_l.start_offset = off;
    unsigned char *src = S->host[0], *got = S->host[1], *want = S->host[2], *ids = S->host[3], *lids = S->host[4];
    for (size_t k = 0; k < ids_span; k++) make_id(S, it, dim, ids + (off + k) * is);
    for (size_t k = 0; k < ids_el; k++) /* logical order */
        memcpy(lids + k * is, ids + offset_of(&ids_l, k) * is, is);
    /* the data read: is/gather read (left, dim, right), ia/s/sa (left, n, right) */
    const size_t src_el = in_place ? n_el : t_el, out_el = in_place ? t_el : n_el;
    fill_inputs(ki, dt, 0, src + off * s, src_el, &S->rng);
    const size_t pg = GUARD + 4 * right; /* guard elements before and after the output */
    const unsigned char poison = poison_byte(S);
    memset(got, poison, (2 * pg + out_el) * s);
    if (in_place) fill_inputs(ki, dt, 0, got + pg * s, out_el, &S->rng); /* dst's values */
    memcpy(want, got + pg * s, out_el * s);
    if (op_is) ref_index_select(it, dt, lids, src + off * s, want, left, dim, n, right);
    else if (op_gather) ref_gather(it, dt, lids, src + off * s, want, left, dim, n, right);
    else if (op_ia) ref_index_add(it, dt, lids, n, src + off * s, want, left, dim, right);
    else ref_scatter(add, it, dt, lids, src + off * s, want, left, n, dim, right);
    if (upload(S, S->dev[0], src, (off + src_el) * s) || upload(S, S->dev[2], ids, (off + ids_span) * is) ||
        upload(S, S->dev[1], got, (2 * pg + out_el) * s))
        return gpu_ok(CRK_E_GPU, ki, cname), 1;
    const void *src_d = (const char *)S->dev[0] + off * s, *ids_d = (const char *)S->dev[2] + off * is;
    void *out_d = (char *)S->dev[1] + pg * s;
    crk_status st;
    if (S->shape == SHAPE_CANDLE) { /* for_num_elems(work), info only for index_select (always uploaded) */
        const crk_layout *ls[1] = {&ids_l};
        const void *in[2] = {ids_d, src_d};
        const double sc_is[4] = {(double)left, (double)dim, (double)n, (double)right},
                     sc_ia[5] = {(double)n, (double)left, (double)n, (double)dim, (double)right},
                     sc_s[4] = {(double)left, (double)n, (double)dim, (double)right};
        const size_t work = op_is || op_gather ? n_el : left * right;
        raw_launch rl = {op_is ? ls : NULL, op_is, 1, work, in, out_d, op_is || op_gather ? sc_is : op_ia ? sc_ia : sc_s,
                         NULL, 0, {0}, n_el};
        st = launch_raw(S, ki, &rl, 1024);
    } else {
        st = helper(S, ki, in_place ? &nl : &tl, &tl, &ids_l, off, pg, out_d);
    }
    if (finish(S, st, ki, cname, got, S->dev[1], (2 * pg + out_el) * s)) return 1;
    int bad = 0;
    if (S->shape == SHAPE_CRK && (size_t)(lc - CASES) % 4 == 3) { /* index checks: refused, or run again */
        int wild = 0;
        size_t row;
        for (size_t k = 0; k < ids_el; k++) {
            uint64_t v = 0;
            memcpy(&v, lids + k * is, is);
            const uint64_t sentinel = is_signed(it) ? (1ull << (8 * is - 1)) - 1 : (1ull << (8 * is)) - 1;
            wild |= !ref_index_row(it, lids + k * is, dim, &row) && v != sentinel;
        }
        crk_set_index_checks(S->ctx, 1);
        const crk_status cst = helper(S, ki, in_place ? &nl : &tl, &tl, &ids_l, off, pg, out_d);
        crk_set_index_checks(S->ctx, 0);
        if (wild && (cst != CRK_E_INVALID || !strstr(crk_last_error(), "out of range"))) {
            printf("FAIL %s [%s] index checks: %s for out-of-range ids, want CRK_E_INVALID\n", ki->name, cname,
                   crk_status_name(cst));
            return 1;
        }
        if (!wild && cst != CRK_OK) return gpu_ok(cst, ki, cname), 1;
        if (!wild) { /* ran again: is/gather give the same; in place, the op applies twice */
            if (in_place) return 0; /* the first run was checked; the second is not modelled */
            if (finish(S, cst, ki, cname, got, S->dev[1], (2 * pg + out_el) * s)) return 1;
        }
    }
    bad = check_output(ki, cname, dt, got + pg * s, want, NULL, out_el, poison);
    if (!bad && guard_bad(ki, cname, got, pg * s, poison)) bad = 1; /* before the output */
    if (!bad && guard_bad(ki, cname, got + (pg + out_el) * s, pg * s, poison)) bad = 1;
    if (!bad && op_is && ids_kind != IDS_CONTIG && n_el &&
        upstream_agrees(it, dt, &ids_l, ids + off * is, ids_span, src + off * s, t_el, want, c)) {
        printf("FAIL %s [%s] the case cannot tell upstream's strided-ids bug from the fix\n", ki->name, cname);
        bad = 1;
    }
    return bad;
}

/* The larger of the source and the output (dim or n rows of `right`). */
size_t index_elements(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    const size_t i = (size_t)(lc - CASES);
    if (i >= N_IDX_CASES) return 0;
    const idx_case *c = &IDX_CASES[i];
    return c->left * (c->dim > c->n ? c->dim : c->n) * c->right;
}

/* Index case c for layout case c, while there are index cases. */
int index_applies(const layout_case *lc, const crk_kernel_info *ki) {
    (void)ki;
    return (size_t)(lc - CASES) < N_IDX_CASES;
}
