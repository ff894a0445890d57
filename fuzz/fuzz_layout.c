/* fuzz_layout.c — the layout and info-buffer API (crk_layout_check,
 * crk_layout_numel, crk_layout_is_contiguous, crk_layout_transpose,
 * crk_info_pack[_checked]) on layouts made of the input's bytes: any rank,
 * dims and strides up to 2^64-1, buffers of any capacity. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crk.h"

/* Next n bytes of the input as an integer (0 past its end). */
static uint64_t take(const uint8_t **p, size_t *left, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n && *left; i++, (*p)++, (*left)--)
        v |= (uint64_t)**p << (8 * i);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data;
    size_t left = size;
    crk_layout ls[4];
    const crk_layout *ptrs[4];
    const size_t n = 1 + take(&p, &left, 1) % 4;
    const int null_one = (int)take(&p, &left, 1);
    for (size_t k = 0; k < n; k++) {
        crk_layout *l = &ls[k];
        l->rank = (size_t)take(&p, &left, 1); /* up to 255: most are above CRK_MAX_DIMS */
        const size_t width = 1 + take(&p, &left, 1) % 8; /* small or huge values */
        for (size_t d = 0; d < CRK_MAX_DIMS; d++) {
            l->dims[d] = (size_t)take(&p, &left, width);
            l->strides[d] = (size_t)take(&p, &left, width);
        }
        l->start_offset = (size_t)take(&p, &left, width);
        ptrs[k] = (null_one & 0x80) && (size_t)(null_one & 3) == k ? NULL : l;
    }
    size_t numel = 0;
    if (crk_layout_check(ptrs[0], &numel) == CRK_OK) {
        /* numel is the exact product: recompute it without wrapping */
        unsigned __int128 prod = 1;
        for (size_t d = 0; d < ptrs[0]->rank; d++) prod *= ptrs[0]->dims[d], prod = prod > SIZE_MAX ? SIZE_MAX : prod;
        if (prod != numel || crk_layout_numel(ptrs[0]) != numel)
            abort();
    } else if (crk_layout_numel(ptrs[0]) != 0 || crk_layout_is_contiguous(ptrs[0])) {
        abort();
    }
    (void)crk_layout_is_contiguous(ptrs[0]);
    crk_layout t = ls[0];
    (void)crk_layout_transpose(&t, (size_t)take(&p, &left, 1), (size_t)take(&p, &left, 1));
    const size_t cap = (size_t)take(&p, &left, 1);
    size_t *out = malloc((cap ? cap : 1) * sizeof *out), len = 0;
    if (!out)
        return 0;
    const int null_if = (int)take(&p, &left, 1) & 1;
    if (crk_info_pack_checked(ptrs, n, null_if, out, cap, &len) == CRK_OK &&
        (len > cap || (len && len != (n + 1) * ptrs[0]->rank)))
        abort();
    if (crk_info_pack(ptrs, n, null_if, out, cap) != len)
        abort();
    free(out);
    return 0;
}
