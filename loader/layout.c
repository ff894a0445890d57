/* layout.c — Candle's Layout and the SlicePtrOrNull info buffer. Every
 * function validates the layouts it is given (NULL, rank, overflow) before
 * reading dims[] or strides[]. */
#include "error.h"
#include <stdio.h>
#include <string.h>

/* a * b into *out; 0 on overflow. */
static int mul_ok(size_t a, size_t b, size_t *out) { return !__builtin_mul_overflow(a, b, out); }

crk_status crk_layout_contiguous(crk_layout *l, size_t rank, const size_t *dims) {
    if (!l || (rank && !dims)) return crk_fail(CRK_E_INVALID, "crk_layout_contiguous: NULL layout or dims");
    if (rank > CRK_MAX_DIMS)
        return crk_fail(CRK_E_TOO_MANY_DIMS, "rank %zu exceeds CRK_MAX_DIMS (%d); reshape the tensor",
                        rank, CRK_MAX_DIMS);
    size_t strides[CRK_MAX_DIMS], acc = 1;
    for (size_t d = rank; d-- > 0;) {
        strides[d] = acc;
        if (!mul_ok(acc, dims[d], &acc))
            return crk_fail(CRK_E_INVALID, "crk_layout_contiguous: the product of the dims overflows 64 bits "
                            "at dim %zu (%zu); no tensor has that many elements", d, dims[d]);
    }
    memset(l, 0, sizeof *l);
    l->rank = rank;
    if (rank) { /* rank 0 may pass dims = NULL (memcpy's pointers must not be NULL) */
        memcpy(l->dims, dims, rank * sizeof *dims);
        memcpy(l->strides, strides, rank * sizeof *strides);
    }
    return CRK_OK;
}

crk_status crk_layout_check(const crk_layout *l, size_t *numel) {
    if (numel) *numel = 0;
    if (!l) return crk_fail(CRK_E_INVALID, "layout is NULL");
    if (l->rank > CRK_MAX_DIMS)
        return crk_fail(CRK_E_TOO_MANY_DIMS, "layout has rank %zu, above CRK_MAX_DIMS (%d); reshape the tensor",
                        l->rank, CRK_MAX_DIMS);
    size_t n = 1, last = l->start_offset; /* offset of the last element */
    for (size_t d = 0; d < l->rank; d++)
        if (!mul_ok(n, l->dims[d], &n))
            return crk_fail(CRK_E_INVALID, "layout's element count overflows 64 bits at dim %zu (%zu); "
                            "no tensor has that many elements", d, l->dims[d]);
    for (size_t d = 0; n && d < l->rank; d++) {
        size_t span;
        if (!mul_ok(l->dims[d] - 1, l->strides[d], &span) || __builtin_add_overflow(last, span, &last))
            return crk_fail(CRK_E_INVALID, "layout's offsets overflow 64 bits at dim %zu (dim %zu, stride %zu, "
                            "start offset %zu)", d, l->dims[d], l->strides[d], l->start_offset);
    }
    if (numel) *numel = n;
    return CRK_OK;
}

size_t crk_layout_numel(const crk_layout *l) {
    size_t n;
    return crk_layout_check(l, &n) == CRK_OK ? n : 0;
}

static int contiguous(size_t rank, const size_t *dims, const size_t *strides) {
    size_t acc = 1;
    for (size_t d = rank; d-- > 0;) {
        if (dims[d] > 1 && strides[d] != acc) return 0;
        acc *= dims[d]; /* the caller checked that the product fits */
    }
    return 1;
}

int crk_layout_is_contiguous(const crk_layout *l) {
    return crk_layout_check(l, NULL) == CRK_OK && contiguous(l->rank, l->dims, l->strides);
}

crk_status crk_layout_transpose(crk_layout *l, size_t a, size_t b) {
    crk_status st = crk_layout_check(l, NULL);
    if (st != CRK_OK) return st;
    if (a >= l->rank || b >= l->rank)
        return crk_fail(CRK_E_INVALID, "crk_layout_transpose: dims %zu, %zu out of rank %zu", a, b, l->rank);
    size_t t = l->dims[a];
    l->dims[a] = l->dims[b], l->dims[b] = t;
    t = l->strides[a];
    l->strides[a] = l->strides[b], l->strides[b] = t;
    return CRK_OK;
}

crk_status crk_info_pack_checked(const crk_layout *const *ls, size_t n, int null_if_contiguous, size_t *out,
                                 size_t cap, size_t *len) {
    if (!len) return crk_fail(CRK_E_INVALID, "crk_info_pack: len pointer is NULL");
    *len = 0;
    if (!ls || n == 0) return crk_fail(CRK_E_INVALID, "crk_info_pack: no layouts given (ls NULL or n 0)");
    for (size_t k = 0; k < n; k++) {
        crk_status st = crk_layout_check(ls[k], NULL);
        if (st != CRK_OK) {
            char why[512]; /* crk_fail writes the buffer crk_last_error reads */
            snprintf(why, sizeof why, "%s", crk_last_error());
            return crk_fail(st, "crk_info_pack: layout %zu: %s", k, why);
        }
        if (ls[k]->rank != ls[0]->rank || memcmp(ls[k]->dims, ls[0]->dims, ls[0]->rank * sizeof(size_t)))
            return crk_fail(CRK_E_INVALID, "crk_info_pack: layout %zu's shape differs from layout 0's "
                            "(broadcast with stride 0 first)", k);
    }
    const size_t rank = ls[0]->rank;
    if (null_if_contiguous) {
        size_t k = 0;
        while (k < n && contiguous(rank, ls[0]->dims, ls[k]->strides)) k++;
        if (k == n) return CRK_OK; /* SlicePtrOrNull::Null */
    }
    size_t need;
    if (!mul_ok(n + 1, rank, &need) || n + 1 == 0)
        return crk_fail(CRK_E_INVALID, "crk_info_pack: %zu layouts are too many", n);
    if (!out || need > cap)
        return crk_fail(CRK_E_INVALID, "crk_info_pack: the info buffer needs %zu size_t, out has %zu%s", need,
                        out ? cap : 0, out ? "" : " (NULL)");
    memcpy(out, ls[0]->dims, rank * sizeof *out);
    for (size_t k = 0; k < n; k++) memcpy(out + (k + 1) * rank, ls[k]->strides, rank * sizeof *out);
    *len = need;
    return CRK_OK;
}

size_t crk_info_pack(const crk_layout *const *ls, size_t n, int null_if_contiguous, size_t *out, size_t cap) {
    size_t len;
    return crk_info_pack_checked(ls, n, null_if_contiguous, out, cap, &len) == CRK_OK ? len : 0;
}
