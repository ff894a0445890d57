/* launch_indexing.c — libcrk's helpers of module indexing: crk_index_select,
 * crk_gather, crk_index_add and crk_scatter (s_ and sa_). Each checks the
 * shapes Candle's host code checks (and what it leaves to the kernels'
 * asserts), applies start offsets, and launches a grid-stride grid; ids
 * that select nothing (out of range, negative, the sentinel) never touch
 * memory (kernels/indexing.h). */
#include "error.h"
#include "launch.h"
#include <stdlib.h>
#include <string.h>

/* The kernel, checked to be op `op` of the indexing family. */
static const crk_kernel_info *index_kernel(crk_ctx *ctx, const char *name, const char *op, const char *helper,
                                           crk_status *st) {
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_INDEXING, st);
    if (ki && strcmp(ki->op, op) && !(!strcmp(helper, "crk_scatter") && !strcmp(ki->op, "sa"))) {
        static const char *const helpers[][2] = {
            {"is", "crk_index_select"}, {"gather", "crk_gather"}, {"ia", "crk_index_add"},
            {"s", "crk_scatter"},       {"sa", "crk_scatter"},
        };
        const char *use = "?";
        for (size_t i = 0; i < sizeof helpers / sizeof helpers[0]; i++)
            if (!strcmp(helpers[i][0], ki->op)) use = helpers[i][1];
        *st = crk_fail(CRK_E_INVALID, "%s is not a %s kernel: use %s", name, helper, use);
        return NULL;
    }
    return ki;
}

/* A checked layout that must be contiguous (Candle copies such operands
 * first); *numel gets its element count. */
static crk_status contiguous(const char *name, const char *what, const crk_layout *l, const void *p, size_t *numel) {
    crk_status st = crk_check_layout(name, what, l, numel);
    if (st != CRK_OK) return st;
    if ((st = crk_need_ptr(name, what, p)) != CRK_OK) return st;
    if (!crk_layout_is_contiguous(l))
        return crk_fail(CRK_E_INVALID, "%s: %s must be contiguous (make it contiguous first, e.g. with ucopy_*)",
                        name, what);
    return CRK_OK;
}

/* left = product of dims before dim, right = after it. */
static void sides(const crk_layout *l, size_t dim, size_t *left, size_t *right) {
    *left = *right = 1;
    for (size_t d = 0; d < l->rank; d++) {
        if (d < dim) *left *= l->dims[d];
        if (d > dim) *right *= l->dims[d];
    }
}

/* a's dims equal b's except at dim (where a_dim, if set, must hold). */
static crk_status same_but(const char *name, const char *an, const crk_layout *a, const char *bn,
                           const crk_layout *b, size_t dim) {
    if (a->rank != b->rank)
        return crk_fail(CRK_E_INVALID, "%s: %s has rank %zu, %s rank %zu: they must match", name, an, a->rank, bn,
                        b->rank);
    for (size_t d = 0; d < a->rank; d++)
        if (d != dim && a->dims[d] != b->dims[d])
            return crk_fail(CRK_E_INVALID, "%s: dim %zu of %s is %zu, of %s %zu: only dim %zu may differ", name, d,
                            an, a->dims[d], bn, b->dims[d], dim);
    return CRK_OK;
}

static crk_status dim_ok(const char *name, const crk_layout *l, size_t dim) {
    return dim < l->rank ? CRK_OK
                         : crk_fail(CRK_E_INVALID, "%s: dim %zu out of range for rank %zu", name, dim, l->rank);
}

/* Pointer p advanced by layout l's start offset in elements of input i's
 * (i < 0: the output's) dtype. */
static crk_status at_offset(const crk_kernel_info *ki, const char *what, const void *p, const crk_layout *l, int i,
                            const void **out) {
    return crk_offset_ptr(ki->name, what, p, l->start_offset, crk_operand_dtype(ki, i), out);
}

static crk_status launch(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const size_t *info, size_t info_len,
                         arg_pack *a, const double *sc, size_t work, size_t per_thread) {
    crk_status st = crk_pack_args(ki, a, sc, 4 + !strcmp(ki->op, "ia"), NULL);
    if (st != CRK_OK) return st;
    return crk_launch_items(ctx, s, ki, info, info_len, a, (work + per_thread - 1) / per_thread);
}

static crk_status exact(const char *name, size_t v) { return crk_size_exact(name, "size", v); }

crk_status crk_set_index_checks(crk_ctx *ctx, int on) {
    if (!ctx) return crk_fail(CRK_E_INVALID, "crk_set_index_checks: ctx is NULL");
    atomic_store(&ctx->index_checks, on != 0);
    return CRK_OK;
}

/* With checks on: the ids (a view of dtype it on the device, offset
 * applied) copied to the host and scanned; the first id that is out of
 * range and not the sentinel is an error. */
static crk_status scan_ids(crk_ctx *ctx, const crk_kernel_info *ki, const crk_layout *ids_l, const void *ids,
                           size_t dim) {
    if (!atomic_load(&ctx->index_checks)) return CRK_OK;
    const int it = crk_operand_dtype(ki, 0);
    const size_t sz = crk_dtype_size((crk_dtype)it), n = crk_layout_numel(ids_l);
    size_t span = n ? 1 : 0; /* elements past the view's start that it reaches */
    for (size_t d = 0; n && d < ids_l->rank; d++) span += (ids_l->dims[d] - 1) * ids_l->strides[d];
    unsigned char *h = malloc(span * sz + 1);
    if (!h) return crk_fail(CRK_E_NOMEM, "%s: no host memory for the ids check (%zu bytes)", ki->name, span * sz);
    crk_status st = crk_synchronize(ctx);
    if (st == CRK_OK && span) st = crk_memcpy_dtoh(ctx, h, ids, span * sz);
    for (size_t i = 0; st == CRK_OK && i < n; i++) {
        size_t off = 0, q = i;
        for (size_t d = ids_l->rank; d-- > 0;) off += q % ids_l->dims[d] * ids_l->strides[d], q /= ids_l->dims[d];
        int64_t v = 0;
        memcpy(&v, h + off * sz, sz);
        const int is_signed = it == CRK_I16 || it == CRK_I32 || it == CRK_I64;
        if (is_signed && sz < 8 && (v >> (8 * sz - 1) & 1)) v -= (int64_t)1 << (8 * sz); /* sign-extend */
        const int64_t sentinel = is_signed ? (int64_t)((UINT64_MAX >> (65 - 8 * sz))) : (int64_t)((1ull << (8 * sz)) - 1);
        if (v != sentinel && (v < 0 || (uint64_t)v >= dim))
            st = crk_fail(CRK_E_INVALID,
                          "%s: ids[%zu] = %lld is out of range for a dim of %zu (index checks are on: nothing was "
                          "launched; an id equal to %lld selects nothing)",
                          ki->name, i, (long long)v, dim, (long long)sentinel);
    }
    free(h);
    return st;
}

crk_status crk_index_select(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                            const crk_layout *ids_l, const void *ids, size_t dim, void *out) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = index_kernel(ctx, name, "is", "crk_index_select", &st);
    if (!ki) return st;
    size_t src_el, n, left, right;
    if ((st = contiguous(name, "src", src_l, src, &src_el)) != CRK_OK || (st = dim_ok(name, src_l, dim)) ||
        (st = crk_check_layout(name, "ids", ids_l, &n)) || (st = crk_need_ptr(name, "ids", ids)) ||
        (st = crk_need_ptr(name, "out", out)))
        return st;
    sides(src_l, dim, &left, &right);
    arg_pack a = {.out = out, .num_dims = ids_l->rank};
    if (__builtin_mul_overflow(left, n, &a.numel) || __builtin_mul_overflow(a.numel, right, &a.numel))
        return crk_fail(CRK_E_INVALID, "%s: the output's element count overflows", name);
    if (a.numel == 0) return CRK_OK;
    if ((st = exact(name, a.numel)) || (st = at_offset(ki, "src", src, src_l, 1, &a.in[1])) ||
        (st = at_offset(ki, "ids", ids, ids_l, 0, &a.in[0])))
        return st;
    /* info = [ids dims, ids strides], or NULL for contiguous ids */
    size_t info[2 * CRK_MAX_DIMS];
    const crk_layout *ls[1] = {ids_l};
    size_t len = 0;
    if ((st = crk_info_pack_checked(ls, 1, 1, info, 2 * CRK_MAX_DIMS, &len)) != CRK_OK) return st;
    if ((st = scan_ids(ctx, ki, ids_l, a.in[0], src_l->dims[dim])) != CRK_OK) return st;
    const double sc[4] = {(double)left, (double)src_l->dims[dim], (double)n, (double)right};
    const size_t v = 16 / crk_dtype_size((crk_dtype)crk_operand_dtype(ki, -1));
    return launch(ctx, s, ki, info, len, &a, sc, a.numel, right % v ? 1 : v);
}

crk_status crk_gather(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *src_l, const void *src,
                      const crk_layout *ids_l, const void *ids, size_t dim, void *out) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = index_kernel(ctx, name, "gather", "crk_gather", &st);
    if (!ki) return st;
    size_t src_el, left, right;
    arg_pack a = {.out = out};
    if ((st = contiguous(name, "src", src_l, src, &src_el)) || (st = dim_ok(name, src_l, dim)) ||
        (st = contiguous(name, "ids", ids_l, ids, &a.numel)) || (st = crk_need_ptr(name, "out", out)) ||
        (st = same_but(name, "ids", ids_l, "src", src_l, dim)))
        return st;
    if (a.numel == 0) return CRK_OK;
    sides(src_l, dim, &left, &right);
    if ((st = exact(name, a.numel)) || (st = at_offset(ki, "src", src, src_l, 1, &a.in[1])) ||
        (st = at_offset(ki, "ids", ids, ids_l, 0, &a.in[0])))
        return st;
    if ((st = scan_ids(ctx, ki, ids_l, a.in[0], src_l->dims[dim])) != CRK_OK) return st;
    const double sc[4] = {(double)left, (double)src_l->dims[dim], (double)ids_l->dims[dim], (double)right};
    return launch(ctx, s, ki, NULL, 0, &a, sc, a.numel, 1);
}

static size_t n_min(size_t a, size_t b) { return a < b ? a : b; }

/* Threads for index_add and scatter: one per column (index_add: per 16
 * bytes of a row when right allows), times the parts into which the
 * kernels split a column's destination rows (kernels/indexing.h: at most
 * `cap`, no more than the rows that can be hit), while the grid stays
 * near ACC_THREADS, enough to fill a GPU. */
#define ACC_THREADS ((size_t)1 << 17)
static size_t acc_threads(size_t units, size_t rows, size_t cap) {
    size_t r = 1;
    while (r < rows && r < cap && units * r * 2 <= ACC_THREADS) r *= 2;
    return units * r;
}

/* index_add and scatter: in place on dst; src's dims equal dst's but at dim. */
static crk_status accumulate(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const crk_layout *dst_l,
                             void *dst, const crk_layout *ids_l, const void *ids, const crk_layout *src_l,
                             const void *src, size_t dim) {
    const char *name = ki->name;
    const int ia = !strcmp(ki->op, "ia");
    size_t dst_el, ids_el, src_el, left, right;
    crk_status st;
    if ((st = contiguous(name, "dst", dst_l, dst, &dst_el)) || (st = dim_ok(name, dst_l, dim)) ||
        (st = contiguous(name, "ids", ids_l, ids, &ids_el)) || (st = contiguous(name, "src", src_l, src, &src_el)) ||
        (st = same_but(name, "src", src_l, "dst", dst_l, dim)))
        return st;
    if (ia && (ids_l->rank != 1 || ids_l->dims[0] != src_l->dims[dim]))
        return crk_fail(CRK_E_INVALID, "%s: ids must be 1-D with src's dim %zu (%zu) elements", name, dim,
                        src_l->dims[dim]);
    if (!ia && (st = same_but(name, "ids", ids_l, "src", src_l, src_l->rank)))
        return st; /* ids has src's shape */
    sides(src_l, dim, &left, &right);
    if (left == 0 || right == 0 || src_el == 0) return CRK_OK;
    arg_pack a = {0};
    const void *d;
    if ((st = exact(name, dst_el)) || (st = exact(name, src_el)) || (st = at_offset(ki, "dst", dst, dst_l, -1, &d)) ||
        (st = at_offset(ki, "src", src, src_l, 1, &a.in[1])) || (st = at_offset(ki, "ids", ids, ids_l, 0, &a.in[0])))
        return st;
    a.out = (void *)d;
    if ((st = scan_ids(ctx, ki, ids_l, a.in[0], dst_l->dims[dim])) != CRK_OK) return st;
    const double n = (double)src_l->dims[dim];
    const double ia_sc[5] = {n, (double)left, n, (double)dst_l->dims[dim], (double)right},
                 s_sc[4] = {(double)left, n, (double)dst_l->dims[dim], (double)right};
    const size_t cols = left * right, v = 16 / crk_dtype_size((crk_dtype)crk_operand_dtype(ki, -1));
    const size_t rows = n_min(src_l->dims[dim], dst_l->dims[dim]); /* rows a column can hit */
    return launch(ctx, s, ki, NULL, 0, &a, ia ? ia_sc : s_sc,
                  ia ? acc_threads(right % v ? cols : cols / v, rows, 1024) : acc_threads(cols, rows, 16),
                  1);
}

crk_status crk_index_add(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *dst_l, void *dst,
                         const crk_layout *ids_l, const void *ids, const crk_layout *src_l, const void *src,
                         size_t dim) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = index_kernel(ctx, name, "ia", "crk_index_add", &st);
    return ki ? accumulate(ctx, s, ki, dst_l, dst, ids_l, ids, src_l, src, dim) : st;
}

crk_status crk_scatter(crk_ctx *ctx, crk_stream s, const char *name, const crk_layout *dst_l, void *dst,
                       const crk_layout *ids_l, const void *ids, const crk_layout *src_l, const void *src,
                       size_t dim) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = index_kernel(ctx, name, "s", "crk_scatter", &st);
    return ki ? accumulate(ctx, s, ki, dst_l, dst, ids_l, ids, src_l, src, dim) : st;
}
