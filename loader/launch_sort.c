/* launch_sort.c — libcrk's helper of module sort: crk_argsort. Rows whose
 * index array fits a block's shared memory get Candle's network and order
 * (with the keys cached in shared memory where they fit too); longer ones
 * run our chunk sort and merge passes, which ping-pong between dst and a
 * workspace (include/crk.h states the orders). */
#include "context.h"
#include "error.h"
#include "launch.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_GRID 0x7FFFFFFFu
#define CHUNK 2048u /* kernels/sort.h SORT_CHUNK */

/* Shared memory a block gets without opt-in (AMD 64 KiB, NVIDIA 48 KiB). */
static size_t shared_bytes(const crk_ctx *ctx) { return strcmp(ctx->gpu.image_kind, "nvidia") ? 65536 : 49152; }

/* Longest row Candle's network sorts here: its ncols_pad·4 bytes fit
 * (ncols_pad a power of two: 8192 on NVIDIA, 16384 on AMD). */
static size_t shared_cols(const crk_ctx *ctx) {
    size_t c = 1;
    while (c * 2 * 4 <= shared_bytes(ctx)) c *= 2;
    return c;
}

static size_t pow2_at_least(size_t n) {
    size_t p = 1;
    while (p < n) p *= 2;
    return p;
}

size_t crk_argsort_workspace_size(const crk_ctx *ctx, size_t n_rows, size_t n_cols) {
    if (!ctx) return crk_fail(CRK_E_INVALID, "crk_argsort_workspace_size: ctx is NULL"), SIZE_MAX;
    size_t n;
    if (__builtin_mul_overflow(n_rows, n_cols, &n) || n > SIZE_MAX / 4)
        return crk_fail(CRK_E_INVALID, "crk_argsort_workspace_size: %zu x %zu indices overflow size_t", n_rows,
                        n_cols), SIZE_MAX;
    return n_cols <= shared_cols(ctx) ? 0 : n * 4;
}

/* Our kernel crk_asort_<step>_<order>_<dt> for the Candle kernel ki. */
static const crk_kernel_info *long_kernel(const crk_kernel_info *ki, const char *step, crk_status *st) {
    char name[96];
    snprintf(name, sizeof name, "crk_asort_%s_%s_%s", step, strcmp(ki->op, "asort_asc") ? "desc" : "asc",
             crk_dtype_name((crk_dtype)ki->dtypes[0]));
    const crk_kernel_info *k = crk_kernel_find(name);
    if (!k) *st = crk_fail(CRK_E_NOT_FOUND, "%s: its long-row kernel %s is missing", ki->name, name);
    return k;
}

/* Candle's network on a block per row: crk_asort_keyed_<order>_<dt> (the
 * row's keys cached beside the indices: ncols_pad·sizeof(T) rounded up to 8,
 * plus ncols_pad·2 bytes,
 * block min(ncols_pad/2, 1024)) where that fits, else asort_<order>_<dt>
 * under Candle's launch (block min(ncols_pad, 1024), ncols_pad·4 bytes).
 * Both give Candle's order. */
static crk_status candle_sort(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const void *src, uint32_t *dst,
                              size_t n_rows, size_t n_cols) {
    crk_status st = CRK_OK;
    const size_t pad = pow2_at_least(n_cols), tsz = crk_dtype_size((crk_dtype)ki->dtypes[0]);
    const size_t keyed_bytes = (pad * tsz + 7) / 8 * 8 + pad * 2; /* kernels/sort.h asort_keyed */
    const int keyed = keyed_bytes <= shared_bytes(ctx);
    if (keyed && !(ki = long_kernel(ki, "keyed", &st))) return st;
    const size_t threads = keyed ? (pad > 1 ? pad / 2 : 1) : pad;
    arg_pack a = {.out = dst, .in = {src}, .shared_bytes = (unsigned)(keyed ? keyed_bytes : pad * 4)};
    const double sc[2] = {(double)n_cols, (double)pad};
    if ((st = crk_pack_args(ki, &a, sc, 2, NULL)) != CRK_OK) return st;
    const unsigned grid[3] = {(unsigned)n_rows, 1, 1}, block[3] = {(unsigned)(threads < 1024 ? threads : 1024), 1, 1};
    return crk_launch_shaped(ctx, s, ki, NULL, 0, &a, grid, block);
}

/* Chunks sorted into the buffer that makes the last merge pass land in dst. */
static crk_status long_sort(crk_ctx *ctx, crk_stream s, const crk_kernel_info *ki, const void *src, uint32_t *dst,
                            size_t n_rows, size_t n_cols, uint32_t *ws) {
    crk_status st = CRK_OK;
    const crk_kernel_info *chunk = long_kernel(ki, "chunk", &st), *merge = chunk ? long_kernel(ki, "merge", &st) : NULL;
    if (!merge) return st;
    unsigned passes = 0;
    for (size_t w = CHUNK; w < n_cols; w *= 2) passes++;
    uint32_t *buf[2] = {passes % 2 ? ws : dst, passes % 2 ? dst : ws};
    const size_t chunks = n_rows * ((n_cols + CHUNK - 1) / CHUNK), n = n_rows * n_cols;
    const double sc[3] = {(double)n_cols, (double)n_rows, 0};
    arg_pack a = {.out = buf[0], .in = {src}};
    if ((st = crk_pack_args(chunk, &a, sc, 2, NULL)) != CRK_OK) return st;
    const unsigned cgrid[3] = {(unsigned)(chunks < MAX_GRID ? chunks : MAX_GRID), 1, 1}, cblock[3] = {1024, 1, 1};
    if ((st = crk_launch_shaped(ctx, s, chunk, NULL, 0, &a, cgrid, cblock)) != CRK_OK) return st;
    const size_t blocks = (n + 255) / 256;
    const unsigned mgrid[3] = {(unsigned)(blocks < MAX_GRID ? blocks : MAX_GRID), 1, 1}, mblock[3] = {256, 1, 1};
    unsigned from = 0;
    for (size_t w = CHUNK; w < n_cols; w *= 2, from ^= 1) {
        const double msc[3] = {(double)n_cols, (double)n_rows, (double)w};
        arg_pack m = {.out = buf[from ^ 1], .in = {src, buf[from]}};
        if ((st = crk_pack_args(merge, &m, msc, 3, NULL)) != CRK_OK) return st;
        if ((st = crk_launch_shaped(ctx, s, merge, NULL, 0, &m, mgrid, mblock)) != CRK_OK) return st;
    }
    return CRK_OK;
}

crk_status crk_argsort(crk_ctx *ctx, crk_stream s, const char *name, const void *src, uint32_t *dst,
                       size_t n_rows, size_t n_cols, void *workspace, size_t workspace_bytes) {
    crk_status st = CRK_OK;
    const crk_kernel_info *ki = crk_helper_kernel(ctx, name, CRK_FAMILY_SORT, &st);
    if (!ki) return st;
    if (strcmp(ki->op, "asort_asc") && strcmp(ki->op, "asort_desc"))
        return crk_fail(CRK_E_INVALID, "%s is one of crk_argsort's own steps: name asort_asc_<dt> or asort_desc_<dt>",
                        name);
    if ((st = crk_need_ptr(name, "src", src)) != CRK_OK || (st = crk_need_ptr(name, "dst", dst)) != CRK_OK) return st;
    const size_t need = crk_argsort_workspace_size(ctx, n_rows, n_cols);
    if (need == SIZE_MAX) return crk_fail(CRK_E_INVALID, "%s: %zu x %zu indices overflow size_t", name, n_rows, n_cols);
    if (n_cols > UINT32_MAX)
        return crk_fail(CRK_E_INVALID, "%s: %zu columns exceed the u32 indices (at most 2^32 - 1)", name, n_cols);
    if (n_rows == 0 || n_cols == 0) return CRK_OK;
    if (need == 0) {
        if (n_rows > MAX_GRID)
            return crk_fail(CRK_E_INVALID, "%s: %zu rows exceed a grid (a block per row); sort them in parts", name,
                            n_rows);
        return candle_sort(ctx, s, ki, src, dst, n_rows, n_cols);
    }
    if (workspace) {
        if (workspace_bytes < need)
            return crk_fail(CRK_E_INVALID, "%s: workspace of %zu bytes is below the %zu that crk_argsort_workspace_size "
                            "gives for %zu x %zu; pass a larger one or NULL", name, workspace_bytes, need, n_rows, n_cols);
        return long_sort(ctx, s, ki, src, dst, n_rows, n_cols, workspace);
    }
    void *ws = NULL;
    if ((st = crk_malloc(ctx, &ws, need)) != CRK_OK) return st;
    st = long_sort(ctx, s, ki, src, dst, n_rows, n_cols, ws);
    /* the kernels may still read the workspace: wait for them before freeing */
    const int e = ctx->gpu.synchronize(&ctx->gpu);
    if (st == CRK_OK && e) st = crk_gpu_error(ctx, e, name);
    const crk_status fs = crk_free(ctx, ws);
    return st != CRK_OK ? st : fs;
}
