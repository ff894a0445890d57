/* layout_merge.h — the fewest dims a launch of libcrk's helpers walks
 * (internal; Candle's own info buffers, crk_info_pack, are never merged). */
#ifndef CRK_LAYOUT_MERGE_H
#define CRK_LAYOUT_MERGE_H
#include "crk.h"

/* out[k] walks the same elements as ls[k] (n layouts of one shape, checked
 * by crk_layout_check) with dims of size 1 dropped and neighbours joined
 * where every layout steps through them as one dim (outer stride = inner
 * stride x inner dim). Start offsets are kept. Returns the rank (>= 1). */
size_t crk_layouts_merge(const crk_layout *const *ls, size_t n, crk_layout *out);

/* A view written with one value (const_set): the dims in the order of
 * their strides, largest first, dims of stride 0 dropped (they rewrite the
 * same elements), then merged. A transposed view of a contiguous buffer
 * becomes contiguous. *numel: the elements left to write. */
size_t crk_layout_for_fill(const crk_layout *l, crk_layout *out, size_t *numel);
#endif
