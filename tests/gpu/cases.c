/* cases.c — sizes 0, 1, 1023, 1024, 1025, a prime, 2^18+3 (vector path plus
 * tail; larger sizes are huge.c's), transposed, broadcast (stride 0: a
 * [1,C] row, a [R,1] column), size-1 dims with odd strides, rank 6, sliced
 * (start offset, misaligned), in-place. Rows of 64 and 96 hold whole
 * 16-byte runs of every dtype (the wide loads and stores of strided
 * launches); rows of 257, 50 and 13 do not. */
#include "cases.h"
#include <string.h>

const layout_case CASES[] = {
    {"empty", 1, {0}, K_CONTIG, 0, 0},
    {"n=1", 1, {1}, K_CONTIG, 0, 0},
    {"n=1023", 1, {1023}, K_CONTIG, 0, 0},
    {"n=1024", 1, {1024}, K_CONTIG, 0, 0},
    {"n=1025", 1, {1025}, K_CONTIG, 0, 0},
    {"n=65537 (prime)", 1, {65537}, K_CONTIG, 0, 0},
    {"n=2^18+3", 1, {262147}, K_CONTIG, 0, 0},
    {"2-D 129x257", 2, {129, 257}, K_TRANSPOSE, 0, 0},
    {"2-D 33x64", 2, {33, 64}, K_TRANSPOSE, 0, 0},
    {"2-D 64x96 broadcast", 2, {64, 96}, K_BCAST, 0, 0},
    {"2-D 24x40 broadcast column", 2, {24, 40}, K_BCAST_COL, 0, 0},
    {"size-1 dims 1x700x1", 3, {1, 700, 1}, K_SIZE1, 0, 0},
    {"rank 6", 6, {2, 3, 4, 3, 2, 5}, K_TRANSPOSE, 0, 0},
    {"sliced +5", 1, {1000}, K_CONTIG, 5, 0},
    {"3-D 7x11x13 sliced +3", 3, {7, 11, 13}, K_TRANSPOSE, 3, 0},
    {"3-D 3x1x50 broadcast", 3, {3, 1, 50}, K_BCAST, 0, 0},
    {"in-place", 1, {4099}, K_CONTIG, 0, 1},
    {"in-place inp=NULL", 1, {4099}, K_CONTIG, 0, 2},
};
const size_t N_CASES = sizeof CASES / sizeof CASES[0];

size_t case_layout(const layout_case *c, int kind, crk_layout *l) {
    crk_layout_contiguous(l, c->rank, c->dims);
    l->start_offset = c->offset;
    size_t acc = 1;
    switch (kind) {
    case K_TRANSPOSE: /* column-major: the transpose of a contiguous buffer */
        for (size_t d = 0; d < c->rank; d++) l->strides[d] = acc, acc *= c->dims[d];
        break;
    case K_BCAST: /* the first dim > 1 re-reads the same elements */
        for (size_t d = 0; d < c->rank; d++)
            if (c->dims[d] > 1) { l->strides[d] = 0; break; }
        break;
    case K_BCAST_COL: /* the last dim > 1 re-reads one element: [R,1] expanded to [R,C] */
        for (size_t d = c->rank, b = c->rank; d-- > 0;) {
            if (b == c->rank && c->dims[d] > 1) b = d, l->strides[d] = 0;
            else l->strides[d] = acc, acc *= c->dims[d];
        }
        break;
    case K_SIZE1: /* strides of size-1 dims are ignored by is_contiguous */
        for (size_t d = 0; d < c->rank; d++)
            if (c->dims[d] == 1) l->strides[d] = 99 + 5 * d;
        break;
    default: break;
    }
    size_t span = 1;
    for (size_t d = 0; d < c->rank; d++) {
        if (c->dims[d] == 0) return 0;
        span += (c->dims[d] - 1) * l->strides[d];
    }
    return span;
}

size_t case_numel(const layout_case *c) {
    size_t n = 1;
    for (size_t d = 0; d < c->rank; d++) n *= c->dims[d];
    return n;
}
