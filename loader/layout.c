/* layout.c — Candle's Layout and the SlicePtrOrNull info buffer. */
#include "error.h"
#include <string.h>

crk_status crk_layout_contiguous(crk_layout *l, size_t rank, const size_t *dims) {
    if (!l || (rank && !dims)) return crk_fail(CRK_E_INVALID, "crk_layout_contiguous: NULL layout or dims");
    if (rank > CRK_MAX_DIMS)
        return crk_fail(CRK_E_TOO_MANY_DIMS, "rank %zu exceeds CRK_MAX_DIMS (%d); reshape the tensor",
                        rank, CRK_MAX_DIMS);
    memset(l, 0, sizeof *l);
    l->rank = rank;
    size_t acc = 1;
    for (size_t d = rank; d-- > 0;) {
        l->dims[d] = dims[d];
        l->strides[d] = acc;
        acc *= dims[d];
    }
    return CRK_OK;
}

size_t crk_layout_numel(const crk_layout *l) {
    size_t n = 1;
    for (size_t d = 0; d < l->rank; d++) n *= l->dims[d];
    return n;
}

static int contiguous(size_t rank, const size_t *dims, const size_t *strides) {
    size_t acc = 1;
    for (size_t d = rank; d-- > 0;) {
        if (dims[d] > 1 && strides[d] != acc) return 0;
        acc *= dims[d];
    }
    return 1;
}

int crk_layout_is_contiguous(const crk_layout *l) { return contiguous(l->rank, l->dims, l->strides); }

crk_status crk_layout_transpose(crk_layout *l, size_t a, size_t b) {
    if (!l || a >= l->rank || b >= l->rank)
        return crk_fail(CRK_E_INVALID, "crk_layout_transpose: dims %zu, %zu out of rank %zu", a, b,
                        l ? l->rank : 0);
    size_t t = l->dims[a];
    l->dims[a] = l->dims[b], l->dims[b] = t;
    t = l->strides[a];
    l->strides[a] = l->strides[b], l->strides[b] = t;
    return CRK_OK;
}

size_t crk_info_pack(const crk_layout *const *ls, size_t n, int null_if_contiguous, size_t *out,
                     size_t cap) {
    if (!ls || n == 0 || !ls[0]) return 0;
    const size_t rank = ls[0]->rank;
    if (null_if_contiguous) {
        size_t k = 0;
        while (k < n && contiguous(rank, ls[0]->dims, ls[k]->strides)) k++;
        if (k == n) return 0;
    }
    if (!out || (n + 1) * rank > cap) return 0;
    memcpy(out, ls[0]->dims, rank * sizeof *out);
    for (size_t k = 0; k < n; k++) memcpy(out + (k + 1) * rank, ls[k]->strides, rank * sizeof *out);
    return (n + 1) * rank;
}
