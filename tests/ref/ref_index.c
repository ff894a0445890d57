/* ref_index.c — index_select, gather, index_add, scatter, scatter_add
 * (fact sheet §4.9), written from the fact sheet. An id selects a row when
 * it is in [0, dim) and is not the sentinel max_value<I>; otherwise is and
 * gather write 0 and ia/s/sa skip it (ours: upstream asserts on out-of-range
 * ids and lets negative i64 ids through). Sums are ref_binary's "add":
 * 16-bit floats round each addition, fp8 adds in f32 and saturates,
 * integers wrap. */
#include "ref.h"
#include "ref_internal.h"

#include <stdint.h>
#include <string.h>

static uint64_t sentinel(crk_dtype it) {
    switch (it) {
    case CRK_U8: return 0xFF;
    case CRK_U32: return 0xFFFFFFFFu;
    case CRK_I16: return 0x7FFF;
    case CRK_I32: return 0x7FFFFFFF;
    default: return (uint64_t)INT64_MAX;
    }
}

int ref_index_row(crk_dtype it, const void *id, size_t dim, size_t *row) {
    const uint64_t bits = refi_int_bits(it, id);
    const int is_signed = it == CRK_I16 || it == CRK_I32 || it == CRK_I64;
    if (bits == sentinel(it) || (is_signed && (int64_t)bits < 0) || bits >= dim) return 0;
    *row = (size_t)bits;
    return 1;
}

/* out[i] = src[(l·src_dim + ids[k])·right + r] for i = (l·n + k)·right + r. */
void ref_index_select(crk_dtype it, crk_dtype dt, const void *ids, const void *src, void *out, size_t left,
                      size_t src_dim, size_t n_ids, size_t right) {
    const size_t is = ref_dtype_size(it), s = ref_dtype_size(dt);
    for (size_t l = 0; l < left; l++)
        for (size_t k = 0; k < n_ids; k++)
            for (size_t r = 0; r < right; r++) {
                unsigned char *o = (unsigned char *)out + ((l * n_ids + k) * right + r) * s;
                size_t row;
                if (ref_index_row(it, (const char *)ids + k * is, src_dim, &row))
                    memcpy(o, (const char *)src + ((l * src_dim + row) * right + r) * s, s);
                else
                    memset(o, 0, s);
            }
}

/* out[i] = src[(l·src_dim + ids[i])·right + r], ids of shape (left, n, right). */
void ref_gather(crk_dtype it, crk_dtype dt, const void *ids, const void *src, void *out, size_t left, size_t src_dim,
                size_t n_ids, size_t right) {
    const size_t is = ref_dtype_size(it), s = ref_dtype_size(dt);
    for (size_t i = 0; i < left * n_ids * right; i++) {
        const size_t r = i % right, l = i / right / n_ids;
        size_t row;
        if (ref_index_row(it, (const char *)ids + i * is, src_dim, &row))
            memcpy((char *)out + i * s, (const char *)src + ((l * src_dim + row) * right + r) * s, s);
        else
            memset((char *)out + i * s, 0, s);
    }
}

static void add_into(crk_dtype dt, void *d, const void *x) {
    unsigned char sum[8];
    ref_binary("add", dt, d, x, sum);
    memcpy(d, sum, ref_dtype_size(dt));
}

/* dst[(l·dst_dim + ids[j])·right + r] += src[(l·n + j)·right + r], j in order. */
void ref_index_add(crk_dtype it, crk_dtype dt, const void *ids, size_t n_ids, const void *src, void *dst,
                   size_t left, size_t dst_dim, size_t right) {
    const size_t is = ref_dtype_size(it), s = ref_dtype_size(dt);
    for (size_t l = 0; l < left; l++)
        for (size_t r = 0; r < right; r++)
            for (size_t j = 0; j < n_ids; j++) {
                size_t row;
                if (!ref_index_row(it, (const char *)ids + j * is, dst_dim, &row)) continue;
                add_into(dt, (char *)dst + ((l * dst_dim + row) * right + r) * s,
                         (const char *)src + ((l * n_ids + j) * right + r) * s);
            }
}

/* dst[(l·dst_dim + ids[e])·right + r] = (add: +=) src[e], e = (l·src_dim +
 * j)·right + r, j in order (scatter: the last j wins). */
void ref_scatter(int add, crk_dtype it, crk_dtype dt, const void *ids, const void *src, void *dst, size_t left,
                 size_t src_dim, size_t dst_dim, size_t right) {
    const size_t is = ref_dtype_size(it), s = ref_dtype_size(dt);
    for (size_t l = 0; l < left; l++)
        for (size_t r = 0; r < right; r++)
            for (size_t j = 0; j < src_dim; j++) {
                const size_t e = (l * src_dim + j) * right + r;
                size_t row;
                if (!ref_index_row(it, (const char *)ids + e * is, dst_dim, &row)) continue;
                char *d = (char *)dst + ((l * dst_dim + row) * right + r) * s;
                if (add) add_into(dt, d, (const char *)src + e * s);
                else memcpy(d, (const char *)src + e * s, s);
            }
}
