/* index.c — the indexing rows: an embedding lookup (index_select of table
 * rows), a gather along the last dim, and a MoE combine (token rows added
 * back by scatter_add and index_add along dim 0), at fixed model-like
 * shapes (bench/README.md): their cases, data, ids, bytes and CPU check.
 * Source values are a hash of the element's index, so a check recomputes
 * them instead of keeping gigabytes on the host. */
#include "bench.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* {label, left, dim_size, n, right, dim}: 2-D tensors, so left = 1 for dim 0
 * and right = 1 for dim 1. Tiny: the same kinds of case for the emulator. */
static const idx_case EMBED[] = {{"ids 1", 1, 131072, 1, 4096, 0, NULL},
                                 {"ids 64", 1, 131072, 64, 4096, 0, NULL},
                                 {"ids 1024", 1, 131072, 1024, 4096, 0, NULL},
                                 {"ids 8192", 1, 131072, 8192, 4096, 0, NULL}};
static const idx_case EMBED_TINY[] = {{"ids 1", 1, 4096, 1, 64, 0, NULL},
                                      {"ids 16", 1, 4096, 16, 64, 0, NULL},
                                      {"ids 512", 1, 4096, 512, 64, 0, NULL}};
static const idx_case GATHER[] = {{"4096x2048", 4096, 4096, 2048, 1, 1, NULL}};
static const idx_case GATHER_TINY[] = {{"64x32", 64, 64, 32, 1, 1, NULL}};
/* MoE combine: 1024 tokens x top-8 = 8192 expert-output rows of hidden 4096 */
static const idx_case COMBINE[] = {{"8192->1024", 1, 1024, 8192, 4096, 0, NULL}};
static const idx_case COMBINE_TINY[] = {{"256->32", 1, 32, 256, 64, 0, NULL}};

#define N_OF(a) (sizeof a / sizeof a[0])

const idx_case *index_cases(const op_def *op, int tiny, size_t *count) {
    switch (op->family) {
    case F_INDEX_SELECT: return *count = tiny ? N_OF(EMBED_TINY) : N_OF(EMBED), tiny ? EMBED_TINY : EMBED;
    case F_GATHER: return *count = tiny ? N_OF(GATHER_TINY) : N_OF(GATHER), tiny ? GATHER_TINY : GATHER;
    case F_INDEX_ADD:
    case F_SCATTER_ADD: return *count = tiny ? N_OF(COMBINE_TINY) : N_OF(COMBINE), tiny ? COMBINE_TINY : COMBINE;
    case F_ARGSORT: return argsort_cases(tiny, count);
    default:
        if (IS_CONV_FAMILY(op->family)) return conv_cases(op, tiny, count);
        if (IS_QUANT_FAMILY(op->family)) return quant_cases(op, tiny, count);
        return IS_REDUCE_FAMILY(op->family) ? reduce_cases(op, tiny, count) : (*count = 0, NULL);
    }
}

/* Element counts of a case: the source read (is/gather: the indexed
 * tensor; ia/sa: src), the ids, the output (ia/sa: dst, in place). */
typedef struct {
    size_t src, ids, out, work; /* work: Candle's for_num_elems count */
    crk_dtype it, t;
} idx_sizes;

static int sizes_of(const op_def *op, const idx_case *c, idx_sizes *z) {
    const crk_kernel_info *ki = crk_kernel_find(op->kernel);
    if (!ki) return printf("ERROR: %s: %s\n", op->kernel, crk_last_error()), -1;
    z->it = (crk_dtype)ki->dtypes[0], z->t = (crk_dtype)ki->dtypes[1];
    const size_t at_dim = c->left * c->dim_size * c->right, at_n = c->left * c->n * c->right;
    const int ids_1d = op->family == F_INDEX_SELECT || op->family == F_INDEX_ADD;
    z->ids = ids_1d ? c->n : at_n;
    if (op->family == F_INDEX_SELECT || op->family == F_GATHER) z->src = at_dim, z->out = at_n, z->work = at_n;
    else z->src = at_n, z->out = at_dim, z->work = c->left * c->right;
    return 0;
}

double index_bytes(const op_def *op, const idx_case *c) {
    if (op->family == F_ARGSORT) return argsort_bytes(c);
    if (IS_REDUCE_FAMILY(op->family)) return reduce_bytes(op, c);
    if (IS_CONV_FAMILY(op->family)) return conv_bytes(op, c);
    if (IS_QUANT_FAMILY(op->family)) return quant_bytes(op, c);
    idx_sizes z;
    if (sizes_of(op, c, &z)) return 0;
    const double is = (double)crk_dtype_size(z.it), ts = (double)crk_dtype_size(z.t);
    if (op->family == F_INDEX_SELECT || op->family == F_GATHER) /* ids, one element read and one written per output */
        return (double)z.ids * is + 2.0 * (double)z.out * ts;
    /* ids, src once, dst read once and written once (its rows are re-added
     * k = n / dim_size times, from cache) */
    return (double)z.ids * is + (double)z.src * ts + 2.0 * (double)z.out * ts;
}

/* dims of a 2-D operand with `at` elements at the case's dim. */
static void dims2(const idx_case *c, size_t at, crk_layout *l) {
    const size_t d[2] = {c->dim ? c->left : at, c->dim ? at : c->right};
    crk_layout_contiguous(l, 2, d);
}
static void dims_str(const crk_layout *l, char *b, size_t cap) {
    if (l->rank == 1) snprintf(b, cap, "(%zu)", l->dims[0]);
    else snprintf(b, cap, "(%zu, %zu)", l->dims[0], l->dims[1]);
}

void index_describe(const op_def *op, const idx_case *c, char *buf, size_t cap) {
    if (op->family == F_ARGSORT) return argsort_describe(op, c, buf, cap);
    if (IS_REDUCE_FAMILY(op->family)) return reduce_describe(op, c, buf, cap);
    if (IS_CONV_FAMILY(op->family)) return conv_describe(op, c, buf, cap);
    if (IS_QUANT_FAMILY(op->family)) return quant_describe(op, c, buf, cap);
    crk_layout a, b;
    char x[40], y[40], ids[40];
    dims2(c, c->dim_size, &a), dims2(c, c->n, &b);
    dims_str(&a, x, sizeof x), dims_str(&b, y, sizeof y);
    if (op->family == F_INDEX_SELECT || op->family == F_INDEX_ADD) snprintf(ids, sizeof ids, "(%zu)", c->n);
    else snprintf(ids, sizeof ids, "%s", y);
    const char *it = strchr(op->dtype, ':'), *t = it ? it + 1 : op->dtype; /* dtype label "ids:T" */
    if (!it) it = op->dtype;
    switch (op->family) {
    case F_INDEX_SELECT:
        snprintf(buf, cap, "table %s %s, ids %s %.*s, dim %zu -> out %s", x, t, ids, (int)(it - op->dtype), op->dtype,
                 c->dim, y);
        break;
    case F_GATHER:
        snprintf(buf, cap, "src %s %s, ids %s %.*s, dim %zu -> out %s", x, t, ids, (int)(it - op->dtype), op->dtype,
                 c->dim, y);
        break;
    default:
        snprintf(buf, cap, "dst %s %s += src %s at ids %s %.*s, dim %zu (each dst row %zu times)", x, t, y, ids,
                 (int)(it - op->dtype), op->dtype, c->dim, c->dim_size ? c->n / c->dim_size : 0);
        break;
    }
}

/* ------------------------------------------------------------ data */
static int adds(const op_def *op) { return op->family == F_INDEX_ADD || op->family == F_SCATTER_ADD; }

/* Source element e: is/gather non-zero in (-8, 8] (exact in f32, rounded
 * to bf16); ia/sa integers in [-4, 4], and dst starts as integers in
 * [-4, 4] (which = 1), so every sum is exact in any order. */
static double src_value(const op_def *op, size_t e, int which) {
    const uint64_t h = bench_mix((uint64_t)e * 2 + (uint64_t)which + 0x1234567ULL);
    if (adds(op)) return (double)((int)(h % 9) - 4);
    return (double)((h >> 40) + 1) * (1.0 / 1048576.0) - 8.0;
}
static uint64_t get_id(crk_dtype it, const void *ids, size_t k) {
    if (crk_dtype_size(it) == 8) return (uint64_t)((const int64_t *)ids)[k];
    if (crk_dtype_size(it) == 4) return ((const uint32_t *)ids)[k];
    return ((const uint8_t *)ids)[k];
}
static void put_id(crk_dtype it, void *ids, size_t k, uint64_t v) {
    if (crk_dtype_size(it) == 8) ((int64_t *)ids)[k] = (int64_t)v;
    else if (crk_dtype_size(it) == 4) ((uint32_t *)ids)[k] = (uint32_t)v;
    else ((uint8_t *)ids)[k] = (uint8_t)v;
}

/* Uploads el elements of values (which) to dev, in chunks. */
static int upload_values(const bench_state *S, const op_def *op, crk_dtype t, void *dev, size_t el, int which) {
    const size_t ts = crk_dtype_size(t), chunk = (size_t)1 << 22;
    unsigned char *h = malloc(chunk * ts);
    if (!h) return printf("ERROR: out of host memory\n"), -1;
    for (size_t at = 0; at < el; at += chunk) {
        const size_t m = el - at < chunk ? el - at : chunk;
        for (size_t k = 0; k < m; k++) bench_put(t, h, k, (float)src_value(op, at + k, which));
        if (crk_memcpy_htod(S->ctx, (char *)dev + at * ts, h, m * ts) != CRK_OK)
            return free(h), printf("ERROR: htod: %s\n", crk_last_error()), -1;
    }
    free(h);
    return 0;
}

/* One set's ids: is/gather random rows; ia/sa each dst row k times (a MoE
 * combine: the n rows are tokens x top-k), shuffled; sa's ids have src's
 * shape, one id per src row repeated along it. */
static int make_ids(const op_def *op, const idx_case *c, const idx_sizes *z, void *ids, uint64_t seed) {
    uint64_t s = bench_mix(seed) | 1;
    if (!adds(op)) {
        for (size_t k = 0; k < z->ids; k++) put_id(z->it, ids, k, bench_rand(&s) % c->dim_size);
        return 0;
    }
    size_t *row = malloc(c->n * sizeof *row);
    if (!row) return printf("ERROR: out of host memory\n"), -1;
    for (size_t j = 0; j < c->n; j++) row[j] = j % c->dim_size;
    for (size_t j = c->n; j > 1; j--) { /* Fisher-Yates */
        const size_t r = bench_rand(&s) % j, t = row[j - 1];
        row[j - 1] = row[r], row[r] = t;
    }
    if (op->family == F_INDEX_ADD)
        for (size_t j = 0; j < c->n; j++) put_id(z->it, ids, j, row[j]);
    else
        for (size_t pre = 0; pre < c->left; pre++)
            for (size_t j = 0; j < c->n; j++)
                for (size_t post = 0; post < c->right; post++)
                    put_id(z->it, ids, (pre * c->n + j) * c->right + post, row[j]);
    free(row);
    return 0;
}

void index_free(bench_state *S, int all) {
    for (int s = 0; s < MAX_SETS; s++) {
        if (S->ix_ids[s]) crk_free(S->ctx, S->ix_ids[s]), S->ix_ids[s] = NULL;
        if (S->out[s]) crk_free(S->ctx, S->out[s]), S->out[s] = NULL;
    }
    free(S->ix_ids_host), S->ix_ids_host = NULL;
    argsort_free(S);
    reduce_free(S);
    quant_free(S);
    if (all && S->ix_src) crk_free(S->ctx, S->ix_src), S->ix_src = NULL, S->ix_src_op = -1;
}

static int gpu_err(const char *what) { return printf("ERROR: %s: %s\n", what, crk_last_error()), -1; }

int index_prep(bench_state *S, const op_def *op, const idx_case *c, bench_prep *P, int op_index) {
    if (op->family == F_ARGSORT) return argsort_prep(S, op, c, P);
    if (IS_REDUCE_FAMILY(op->family)) return reduce_prep(S, op, c, P);
    if (IS_CONV_FAMILY(op->family)) return conv_prep(S, op, c, P);
    if (IS_QUANT_FAMILY(op->family)) return quant_prep(S, op, c, P);
    memset(P, 0, sizeof *P);
    P->op = op, P->lay = LAY_CONTIG, P->ic = c;
    idx_sizes z;
    if (sizes_of(op, c, &z)) return -1;
    if (!(P->ki = crk_kernel_find(op->kernel))) return printf("ERROR: %s: %s\n", op->kernel, crk_last_error()), -1;
    const size_t is = crk_dtype_size(z.it), ts = crk_dtype_size(z.t);
    /* the source: one per op, kept across its cases (the embedding table is 1-2 GiB) */
    if (S->ix_src_op != op_index) {
        index_free(S, 1);
        if (crk_malloc(S->ctx, &S->ix_src, z.src * ts) != CRK_OK) return gpu_err("crk_malloc (source)");
        if (upload_values(S, op, z.t, S->ix_src, z.src, 0)) return -1;
        S->ix_src_op = op_index;
    }
    const double bytes = index_bytes(op, c);
    S->sets = (int)((ROTATE_BYTES + bytes - 1) / bytes);
    if (S->sets < 1) S->sets = 1;
    if (S->sets > MAX_SETS) S->sets = MAX_SETS;
    S->n = z.out, S->out_bytes = z.out * ts;
    if (!(S->ix_ids_host = malloc(z.ids * is))) return printf("ERROR: out of host memory\n"), -1;
    for (int s = S->sets - 1; s >= 0; s--) { /* set 0 last: the host copy keeps its ids */
        if (make_ids(op, c, &z, S->ix_ids_host, (uint64_t)op_index << 40 ^ (uint64_t)c->n << 8 ^ (uint64_t)s)) return -1;
        if (crk_malloc(S->ctx, &S->ix_ids[s], z.ids * is) != CRK_OK) return gpu_err("crk_malloc (ids)");
        if (crk_memcpy_htod(S->ctx, S->ix_ids[s], S->ix_ids_host, z.ids * is) != CRK_OK) return gpu_err("htod (ids)");
        if (crk_malloc(S->ctx, &S->out[s], S->out_bytes) != CRK_OK) return gpu_err("crk_malloc (output)");
        if (adds(op) && upload_values(S, op, z.t, S->out[s], z.out, 1)) return -1; /* dst's starting values */
    }
    /* layouts: in 0 = ids, in 1 = the source (ia/sa: src), out = is/gather's output or ia/sa's dst */
    const size_t one[1] = {c->n};
    if (op->family == F_INDEX_SELECT || op->family == F_INDEX_ADD) crk_layout_contiguous(&P->in_l[0], 1, one);
    else dims2(c, c->n, &P->in_l[0]);
    dims2(c, adds(op) ? c->n : c->dim_size, &P->in_l[1]);
    dims2(c, adds(op) ? c->dim_size : c->n, &P->out_l);
    P->work = z.work;
    /* Candle's index_select always uploads info = [ids dims, ids strides] */
    size_t info[2 * CRK_MAX_DIMS], len = 0;
    if (P->ki->info_param >= 0) {
        const crk_layout *ls[1] = {&P->in_l[0]};
        len = crk_info_pack(ls, 1, 0, info, 2 * CRK_MAX_DIMS);
        if (!len) return printf("ERROR: info: %s\n", crk_last_error()), -1;
        if (crk_malloc(S->ctx, &P->info_dev, len * sizeof(size_t)) != CRK_OK ||
            crk_memcpy_htod(S->ctx, P->info_dev, info, len * sizeof(size_t)) != CRK_OK)
            return gpu_err("info buffer");
    }
    const double n = (double)c->n, L = (double)c->left, D = (double)c->dim_size, R = (double)c->right;
    const double sc_sel[4] = {L, D, n, R}, sc_ia[5] = {n, L, n, D, R}, sc_sa[4] = {L, n, D, R};
    const double *sc = op->family == F_INDEX_ADD ? sc_ia : op->family == F_SCATTER_ADD ? sc_sa : sc_sel;
    for (int s = 0; s < S->sets; s++) {
        raw_call *rc = &P->call[s];
        rc->numel = op->family == F_INDEX_SELECT || op->family == F_GATHER ? z.out : z.work;
        rc->num_dims = P->in_l[0].rank, rc->info = P->info_dev, rc->out = S->out[s];
        rc->in[0] = S->ix_ids[s], rc->in[1] = S->ix_src;
        if (prep_assemble(P->ki, rc, sc, op->family == F_INDEX_ADD ? 5 : 4)) return -1;
    }
    return 0;
}

int index_reset(const bench_state *S, const bench_prep *P) {
    if (P->op->family == F_ARGSORT) return argsort_reset(S, P);
    if (IS_REDUCE_FAMILY(P->op->family)) return reduce_reset(S, P);
    if (IS_CONV_FAMILY(P->op->family)) return conv_reset(S, P);
    if (IS_QUANT_FAMILY(P->op->family)) return quant_reset(S, P);
    if (adds(P->op)) return upload_values(S, P->op, (crk_dtype)P->ki->dtypes[1], S->out[0], S->n, 1);
    return crk_memset(S->ctx, S->out[0], 0xFF, S->out_bytes) != CRK_OK ? gpu_err("memset") : 0;
}

/* The expected value of output element o (set 0's ids). */
static double expected(const bench_state *S, const bench_prep *P, size_t o) {
    const idx_case *c = P->ic;
    const crk_dtype it = (crk_dtype)P->ki->dtypes[0], t = (crk_dtype)P->ki->dtypes[1];
    const size_t post = o % c->right, row = o / c->right;
    unsigned char b[8];
    if (!adds(P->op)) { /* the element read, rounded as it was stored */
        const size_t k = row % c->n, pre = row / c->n;
        const uint64_t id = get_id(it, S->ix_ids_host, P->op->family == F_INDEX_SELECT ? k : o);
        bench_put(t, b, 0, (float)src_value(P->op, (pre * c->dim_size + id) * c->right + post, 0));
        return bench_value(t, b, 0);
    }
    const size_t r = row % c->dim_size, pre = row / c->dim_size;
    double sum = src_value(P->op, o, 1);
    for (size_t j = 0; j < c->n; j++) {
        const size_t s = (pre * c->n + j) * c->right + post;
        if (get_id(it, S->ix_ids_host, P->op->family == F_INDEX_ADD ? j : s) == r) sum += src_value(P->op, s, 0);
    }
    return sum;
}

int index_check(const bench_state *S, const bench_prep *P, uint64_t *rng, const char *who) {
    if (P->op->family == F_ARGSORT) return argsort_check(S, P, rng, who);
    if (IS_REDUCE_FAMILY(P->op->family)) return reduce_check(S, P, rng, who);
    if (IS_CONV_FAMILY(P->op->family)) return conv_check(S, P, rng, who);
    if (IS_QUANT_FAMILY(P->op->family)) return quant_check(S, P, rng, who);
    const crk_dtype t = (crk_dtype)P->ki->dtypes[1];
    const size_t ts = crk_dtype_size(t), n = S->n;
    size_t idx[64] = {0, n - 1, n / 2, P->ic->right - 1, n - P->ic->right};
    for (size_t k = 5; k < 64; k++) idx[k] = bench_rand(rng) % n;
    int bad = 0;
    for (size_t k = 0; k < 64 && bad < 4; k++) {
        unsigned char got[8];
        if (crk_memcpy_dtoh(S->ctx, got, (const char *)S->out[0] + idx[k] * ts, ts) != CRK_OK) return gpu_err("dtoh");
        const double g = bench_value(t, got, 0), want = expected(S, P, idx[k]);
        if (g != want) { /* exact: moved bits, or sums of small integers */
            printf("%s %s (%s, %s) WRONG at element %zu: got %.9g, expected %.9g (exact)\n", who, P->op->kernel,
                   P->op->dtype, P->ic->label, idx[k], g, want);
            bad++;
        }
    }
    return bad ? 1 : 0;
}
