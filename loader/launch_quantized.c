/* launch_quantized.c — libcrk's helpers of module quantized (0.7):
 * crk_dequantize, crk_get_rows, crk_quantize_q8_1,
 * crk_dequantize_mul_mat_vec and (0.8) crk_mul_mat_vec_q8_1,
 * crk_indexed_moe_forward. Sizes are checked against the GGML
 * block of the kernel's type; work past the kernels' 32-bit arguments and
 * grid limits is split into several launches (upstream stops at int k and
 * 65535 blocks of grid y). */
#include "context.h"
#include "error.h"
#include "launch.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_GRID 0x7FFFFFFFu

/* GGML block sizes (fact sheet §4.18); plain sources are blocks of one. */
static const struct {
    const char *type;
    unsigned values, bytes;
} TYPES[] = {
    {"q4_0", 32, 18},   {"q4_1", 32, 20},   {"q5_0", 32, 22},   {"q5_1", 32, 24},   {"q8_0", 32, 34},
    {"q2_K", 256, 84},  {"q3_K", 256, 110}, {"q4_K", 256, 144}, {"q5_K", 256, 176}, {"q6_K", 256, 210},
    {"q8_K", 256, 292}, {"f32", 1, 4},      {"f16", 1, 2},      {"bf16", 1, 2},
};

/* The block of kernel `name`'s type: as TYPES spells it, or as the DMMV
 * names do ("q4_0_cuda", "q4_k"). */
static crk_status block_of(const char *name, const char *type, size_t *values, size_t *bytes) {
    for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++) {
        const size_t l = strlen(TYPES[i].type);
        if (!strncasecmp(TYPES[i].type, type, l) && (type[l] == 0 || !strcmp(type + l, "_cuda")))
            return *values = TYPES[i].values, *bytes = TYPES[i].bytes, CRK_OK;
    }
    return crk_fail(CRK_E_SIGNATURE, "%s: unknown GGML type '%s'", name, type);
}

/* GGML blocks hold f16 fields: the kernels read them 16 bits at a time. */
static crk_status aligned(const char *name, const char *what, const void *p, size_t align) {
    if (((uintptr_t)p & (align - 1)) == 0) return CRK_OK;
    return crk_fail(CRK_E_INVALID, "%s: %s %p is not %zu-byte aligned, as the blocks' f16 fields (or the "
                    "table's elements) must be; pass the start of a block", name, what, p, align);
}

static crk_status whole_blocks(const char *name, const char *what, size_t n, size_t values, const char *type) {
    if (n % values == 0) return CRK_OK;
    return crk_fail(CRK_E_INVALID, "%s: %s %zu is not a whole number of %s blocks (%zu values each); GGML "
                    "tensors hold whole blocks", name, what, n, type, values);
}

crk_status crk_dequantize(crk_ctx *ctx, crk_stream s, const char *name, const void *src, void *dst, size_t nvalues) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_DEQUANTIZE, &st);
    if (!ki) return st;
    size_t values, bytes;
    if ((st = block_of(name, ki->op, &values, &bytes)) != CRK_OK) return st;
    if ((st = whole_blocks(name, "nvalues", nvalues, values, ki->op)) != CRK_OK) return st;
    if ((st = crk_need_ptr(name, "src", src)) != CRK_OK || (st = crk_need_ptr(name, "dst", dst)) != CRK_OK ||
        (st = aligned(name, "src", src, 2)) != CRK_OK)
        return st;
    const size_t osz = crk_dtype_size((crk_dtype)ki->dtypes[0]);
    const int k_values = !strcmp(ki->op, "q5_0") || !strcmp(ki->op, "q5_1"); /* kernels/quantized.h */
    /* blocks per launch: k is an int (values for q5, blocks otherwise); K
     * types take a block of threads per super-block */
    const size_t per_launch = values == 256 ? (size_t)MAX_GRID : k_values ? INT_MAX / 32 : INT_MAX;
    /* Values a thread: 16 bytes of output, one store; the kernels take W
     * from the grid (kernels/quantized.h). f32 at 8 values stored two
     * 16-byte halves 32 bytes apart, each store instruction filling half of
     * its sectors (H200, Nsight Compute: q4_K -> f32 at 43% of DRAM, a
     * memory unit at 87%: docs/runs/2026-11-29e-h200-dequantize-profile.txt). */
    const unsigned per = osz == 4 ? 4 : 8;
    for (size_t done = 0, nb = nvalues / values; done < nb;) {
        size_t n = nb - done < per_launch ? nb - done : per_launch;
        /* K types: blocks of 8 super-blocks (256/per x 8 threads) while 8
         * are left, then one a block: grid·y is exactly the count */
        const unsigned y = values == 256 && n >= 8 ? 8 : 1;
        if (y == 8) n -= n % 8;
        arg_pack a = {.out = (char *)dst + done * values * osz, .in = {(const char *)src + done * bytes}};
        const double k = (double)(k_values ? n * 32 : n);
        if ((st = crk_pack_args(ki, &a, &k, values == 256 ? 0 : 1, NULL)) != CRK_OK) return st;
        if (values == 256) {
            const unsigned grid[3] = {(unsigned)(n / y), 1, 1}, block[3] = {256 / per, y, 1};
            st = crk_launch_shaped(ctx, s, ki, NULL, 0, &a, grid, block);
        } else {
            st = crk_launch_items(ctx, s, ki, NULL, 0, &a, n * (values / per));
        }
        if (st != CRK_OK) return st;
        done += n;
    }
    return CRK_OK;
}

crk_status crk_get_rows(crk_ctx *ctx, crk_stream s, const char *name, const void *src, size_t src_rows,
                        size_t hidden, const uint32_t *ids, size_t n_ids, float *dst) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_GET_ROWS, &st);
    if (!ki) return st;
    /* Candle's get_rows_<t> or ours: either way ours runs, which knows src_rows */
    const char *type = strncmp(ki->op, "crk_get_rows_", 13) ? ki->op : ki->op + 13;
    char checked[64];
    snprintf(checked, sizeof checked, "crk_get_rows_%s", type);
    if (!(ki = crk_kernel_find(checked)))
        return crk_fail(CRK_E_NOT_FOUND, "%s: its bounds-checked kernel %s is missing", name, checked);
    size_t values, bytes;
    if ((st = block_of(name, type, &values, &bytes)) != CRK_OK) return st;
    if ((st = whole_blocks(name, "hidden", hidden, values, type)) != CRK_OK) return st;
    if (n_ids == 0 || hidden == 0) return CRK_OK;
    if ((st = crk_need_ptr(name, "src", src)) != CRK_OK || (st = crk_need_ptr(name, "ids", ids)) != CRK_OK ||
        (st = crk_need_ptr(name, "dst", dst)) != CRK_OK || (st = aligned(name, "src", src, values == 1 ? bytes : 2)) != CRK_OK)
        return st;
    const size_t nb01 = hidden / values * bytes;
    if ((st = crk_size_exact(name, "hidden", hidden)) != CRK_OK ||
        (st = crk_size_exact(name, "src_rows", src_rows)) != CRK_OK)
        return st;
    if (hidden > SIZE_MAX / 4 / n_ids) return crk_fail(CRK_E_INVALID, "%s: %zu rows of %zu values overflow size_t",
                                                       name, n_ids, hidden);
    /* 256 threads a block, grid y up to 65535 (blocks loop); 4 values a
     * thread (16 bytes of f32: one store, as crk_dequantize), but 8 for K
     * types, whose chunks decode their sub-block's scales (H200, q4_K with
     * 8192 ids at 4: 3086 -> 2618 GB/s) */
    const size_t per = values == 256 ? 8 : 4, chunks = (hidden + per - 1) / per, gy = (chunks + 255) / 256;
    const unsigned block[3] = {256, 1, 1};
    for (size_t done = 0; done < n_ids;) {
        const size_t n = n_ids - done < MAX_GRID ? n_ids - done : MAX_GRID;
        arg_pack a = {.out = dst + done * hidden, .in = {src, ids + done}};
        const double sc[3] = {(double)hidden, (double)nb01, (double)src_rows};
        if ((st = crk_pack_args(ki, &a, sc, 3, NULL)) != CRK_OK) return st;
        const unsigned grid[3] = {(unsigned)n, (unsigned)(gy < 65535 ? gy : 65535), 1};
        if ((st = crk_launch_shaped(ctx, s, ki, NULL, 0, &a, grid, block)) != CRK_OK) return st;
        done += n;
    }
    return CRK_OK;
}

crk_status crk_quantize_q8_1(crk_ctx *ctx, crk_stream s, const char *name, const void *x, void *vy, size_t kx,
                             size_t kx_padded, size_t rows) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_QUANTIZE, &st);
    if (!ki) return st;
    if (kx_padded % 32 || kx_padded < kx || kx_padded > INT_MAX)
        return crk_fail(CRK_E_INVALID, "%s: kx_padded %zu must be a multiple of 32, at least kx (%zu) and below "
                        "2^31 (Candle pads kx to a multiple of 512)", name, kx_padded, kx);
    if (rows == 0 || kx_padded == 0) return CRK_OK;
    if ((st = crk_need_ptr(name, "x", x)) != CRK_OK || (st = crk_need_ptr(name, "vy", vy)) != CRK_OK ||
        (st = aligned(name, "vy", vy, 2)) != CRK_OK)
        return st;
    /* Candle's launch: 256 threads, grid (ceil(kx_padded/256), rows), rows in chunks of 65535 */
    const unsigned block[3] = {256, 1, 1};
    for (size_t done = 0; done < rows;) {
        const size_t n = rows - done < 65535 ? rows - done : 65535;
        const size_t xsz = crk_dtype_size((crk_dtype)ki->params[0].dtype); /* f32, f16 or bf16 */
        arg_pack a = {.out = (char *)vy + done * (kx_padded / 32) * 36, .in = {(const char *)x + done * kx * xsz}};
        const double sc[2] = {(double)kx, (double)kx_padded};
        if ((st = crk_pack_args(ki, &a, sc, 2, NULL)) != CRK_OK) return st;
        const unsigned grid[3] = {(unsigned)((kx_padded + 255) / 256), (unsigned)n, 1};
        if ((st = crk_launch_shaped(ctx, s, ki, NULL, 0, &a, grid, block)) != CRK_OK) return st;
        done += n;
    }
    return CRK_OK;
}

crk_status crk_dequantize_mul_mat_vec(crk_ctx *ctx, crk_stream s, const char *name, const void *vx, const float *y,
                                      float *dst, size_t ncols, size_t nrows) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_DMMV, &st);
    if (!ki) return st;
    size_t values, bytes;
    if ((st = block_of(name, ki->op, &values, &bytes)) != CRK_OK) return st;
    if ((st = whole_blocks(name, "ncols", ncols, values, ki->op)) != CRK_OK) return st;
    if (ncols > INT_MAX || nrows > INT_MAX)
        return crk_fail(CRK_E_INVALID, "%s: %zu x %zu: the kernel's sizes are int (below 2^31)", name, nrows, ncols);
    if (nrows == 0) return CRK_OK;
    if ((st = crk_need_ptr(name, "vx", vx)) != CRK_OK || (st = crk_need_ptr(name, "y", y)) != CRK_OK ||
        (st = crk_need_ptr(name, "dst", dst)) != CRK_OK || (st = aligned(name, "vx", vx, 2)) != CRK_OK)
        return st;
    /* a block a row (q5_k knows its rows by the grid): 32 threads, 128 for long rows */
    arg_pack a = {.out = dst, .in = {vx, y}};
    const double sc[2] = {(double)ncols, (double)nrows};
    if ((st = crk_pack_args(ki, &a, sc, 2, NULL)) != CRK_OK) return st;
    const unsigned grid[3] = {(unsigned)nrows, 1, 1}, block[3] = {ncols >= 4096 ? 128 : 32, 1, 1};
    return crk_launch_shaped(ctx, s, ki, NULL, 0, &a, grid, block);
}

crk_status crk_mul_mat_vec_q8_1(crk_ctx *ctx, crk_stream s, const char *name, const void *vx, const void *vy,
                                void *dst, size_t ncols, size_t nrows, size_t y_stride, size_t dst_stride) {
    crk_status st = CRK_OK;
    const crk_kernel_info *found = name ? crk_kernel_find(name) : NULL;
    const crk_family fam = found && found->family_id == CRK_FAMILY_MMVQ_GGUF ? CRK_FAMILY_MMVQ_GGUF : CRK_FAMILY_MMVQ;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, fam, &st);
    if (!ki) return st;
    size_t values, bytes;
    char type[5] = {0}; /* "q4_0_q8_1_cuda2", "q4_k_f16_plain_cuda2": the type's 4 letters */
    memcpy(type, ki->op, 4);
    if ((st = block_of(name, type, &values, &bytes)) != CRK_OK) return st;
    if ((st = whole_blocks(name, "ncols", ncols, values, type)) != CRK_OK) return st;
    const unsigned b = (unsigned)(ki->op[strlen(ki->op) - 1] - '0'), rpb = b == 1 ? 1 : 2; /* "..._cuda<b>" */
    if (ncols > INT_MAX || nrows > INT_MAX || y_stride > INT_MAX / 32 || dst_stride > INT_MAX)
        return crk_fail(CRK_E_INVALID, "%s: sizes (%zu x %zu, strides %zu and %zu) must be below 2^31, as the "
                        "kernel's int arguments", name, nrows, ncols, y_stride, dst_stride);
    if (y_stride * 32 < ncols)
        return crk_fail(CRK_E_INVALID, "%s: y_stride %zu q8_1 blocks is less than a row of %zu values (%zu blocks); "
                        "pass the padded row's blocks (Candle: ncols padded to 512, /32)", name, y_stride, ncols,
                        ncols / 32);
    if (b > 1 && dst_stride < nrows)
        return crk_fail(CRK_E_INVALID, "%s: dst_stride %zu is less than nrows %zu: the %u output columns would "
                        "overlap", name, dst_stride, nrows, b);
    if (nrows == 0) return CRK_OK; /* (ncols 0 launches: its sums are 0) */
    const size_t osz = crk_dtype_size((crk_dtype)ki->params[2].dtype);
    if ((st = crk_need_ptr(name, "vx", vx)) != CRK_OK || (st = crk_need_ptr(name, "vy", vy)) != CRK_OK ||
        (st = crk_need_ptr(name, "dst", dst)) != CRK_OK ||
        (st = aligned(name, "vx", vx, bytes % 4 ? 2 : 4)) != CRK_OK || /* half2 blocks: 4 (kernels/mmvq.h) */
        (st = aligned(name, "vy", vy, 4)) != CRK_OK || (st = aligned(name, "dst", dst, osz)) != CRK_OK)
        return st;
    /* PTX kernels take y's column stride in values, the static library's in blocks */
    const double ys = ki->family_id == CRK_FAMILY_MMVQ ? (double)(y_stride * 32) : (double)y_stride;
    const double sc[4] = {(double)ncols, (double)nrows, ys, (double)dst_stride};
    arg_pack a = {.out = dst, .in = {vx, vy}};
    if ((st = crk_pack_args(ki, &a, sc, 4, NULL)) != CRK_OK) return st;
    /* rows (b = 1) or pairs of rows a block of Candle's 128 threads (b <= 4)
     * or 64: kernels/mmvq.h splits the work for these (and has a copy for
     * exactly them: b = 1 on AMD, every b on NVIDIA) */
    const unsigned grid[3] = {(unsigned)((nrows + rpb - 1) / rpb), 1, 1}, block[3] = {b <= 4 ? 128 : 64, 1, 1};
    return crk_launch_shaped(ctx, s, ki, NULL, 0, &a, grid, block);
}

crk_status crk_indexed_moe_forward(crk_ctx *ctx, crk_stream s, const char *name, const void *weights,
                                   const void *inputs, const uint32_t *ids, float *out, size_t n, size_t k,
                                   size_t batch, size_t topk, size_t k_padded, size_t input_dim1) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_MOE, &st);
    if (!ki) return st;
    size_t values, bytes;
    char type[5] = {0}; /* "q4k_q8_1" -> q4_K, "q8_0_q8_1" -> q8_0 */
    snprintf(type, sizeof type, "%c%c_%c", ki->op[0], ki->op[1], ki->op[2] == 'k' ? 'K' : ki->op[3]);
    if ((st = block_of(name, type, &values, &bytes)) != CRK_OK) return st;
    if ((st = whole_blocks(name, "k", k, values, type)) != CRK_OK) return st;
    if (n > INT_MAX || k_padded > INT_MAX || batch > 65535 || topk > 65535 || input_dim1 > INT_MAX)
        return crk_fail(CRK_E_INVALID, "%s: n %zu and k_padded %zu must be below 2^31, batch %zu and topk %zu "
                        "at most 65535 (grid y and z)", name, n, k_padded, batch, topk);
    if (k_padded % 32 || k_padded < k)
        return crk_fail(CRK_E_INVALID, "%s: k_padded %zu must be a multiple of 32 and at least k (%zu); Candle "
                        "pads k to a multiple of 512", name, k_padded, k);
    if (n == 0 || batch == 0 || topk == 0) return CRK_OK;
    if ((st = crk_need_ptr(name, "weights", weights)) != CRK_OK || (st = crk_need_ptr(name, "inputs", inputs)) != CRK_OK ||
        (st = crk_need_ptr(name, "ids", ids)) != CRK_OK || (st = crk_need_ptr(name, "out", out)) != CRK_OK ||
        (st = aligned(name, "weights", weights, bytes % 4 ? 2 : 4)) != CRK_OK ||
        (st = aligned(name, "inputs", inputs, 4)) != CRK_OK)
        return st;
    const double sc[6] = {(double)n, (double)k, (double)batch, (double)topk, (double)k_padded, (double)input_dim1};
    arg_pack a = {.out = out, .in = {weights, inputs, ids}};
    if ((st = crk_pack_args(ki, &a, sc, 6, NULL)) != CRK_OK) return st;
    /* Candle's: a row a block of 32 x 4 threads, grid (n, batch, topk) */
    const unsigned grid[3] = {(unsigned)n, (unsigned)batch, (unsigned)topk}, block[3] = {32, 4, 1};
    return crk_launch_shaped(ctx, s, ki, NULL, 0, &a, grid, block);
}
