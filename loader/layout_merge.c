/* layout_merge.c — fewer dims for libcrk's element-wise launches. The
 * kernels decode an index with a division a dim and step runs along the
 * last dim only, so [R,C] views that are one run of memory, or dims of
 * size 1 (a [B,1,T,D] view), cost divisions and short runs for nothing. */
#include "layout_merge.h"
#include <string.h>

size_t crk_layouts_merge(const crk_layout *const *ls, size_t n, crk_layout *out) {
    const crk_layout *l0 = ls[0];
    size_t r = 0;
    for (size_t d = 0; d < l0->rank; d++) {
        const size_t dim = l0->dims[d];
        if (dim == 1) continue;
        int join = r > 0;
        for (size_t k = 0; join && k < n; k++) {
            size_t span; /* the inner dim's extent in elements; no join when it overflows */
            join = !__builtin_mul_overflow(ls[k]->strides[d], dim, &span) && out[k].strides[r - 1] == span;
        }
        for (size_t k = 0; k < n; k++) {
            if (join) {
                out[k].dims[r - 1] *= dim; /* <= numel: fits */
            } else {
                out[k].dims[r] = dim;
            }
            out[k].strides[join ? r - 1 : r] = ls[k]->strides[d];
        }
        r += !join;
    }
    for (size_t k = 0; k < n; k++) {
        if (r == 0) out[k].dims[0] = 1, out[k].strides[0] = 1; /* one element */
        out[k].rank = r ? r : 1;
        out[k].start_offset = ls[k]->start_offset;
    }
    return r ? r : 1;
}

size_t crk_layout_for_fill(const crk_layout *l, crk_layout *out, size_t *numel) {
    crk_layout s;
    memset(&s, 0, sizeof s);
    s.start_offset = l->start_offset;
    for (size_t d = 0; d < l->rank; d++) {
        if (l->strides[d] == 0 && l->dims[d] > 1) continue; /* the same elements again */
        size_t at = s.rank++;                                /* insertion sort, largest stride first (stable) */
        while (at > 0 && s.strides[at - 1] < l->strides[d]) {
            s.dims[at] = s.dims[at - 1], s.strides[at] = s.strides[at - 1];
            at--;
        }
        s.dims[at] = l->dims[d], s.strides[at] = l->strides[d];
    }
    *numel = 1;
    for (size_t d = 0; d < s.rank; d++) *numel *= s.dims[d]; /* <= the view's count */
    const crk_layout *one = &s;
    return crk_layouts_merge(&one, 1, out);
}
